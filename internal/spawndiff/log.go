package spawndiff

import (
	"slices"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/chunks"
	"github.com/ahab-go/ahab/internal/intern"
	"github.com/ahab-go/ahab/internal/spawn"
)

// mix combines two hashes into one that depends on both and their order.
func mix(a, b uint64) uint64 {
	h := (a ^ 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= b + 0x94d049bb133111eb + (h << 6) + (h >> 2)
	h ^= h >> 31
	return h * 0x94d049bb133111eb
}

// Log is the compact summary of one execution log that Diff compares. It
// keeps every spawn, but not as a spawn: strings are interned once in
// tables, a spawn's lists are varints of their ids, and each path's digest
// is kept once for the whole log rather than once per spawn that reads it.
// What it keeps per spawn is a fixed record plus about a byte or two per
// argument and input.
//
// Build one with NewLog and Add (which has the signature execlog.Read
// wants), giving the reader the Log's tables (Strings, Contents); two Logs
// may be built at the same time on two goroutines.
type Log struct {
	name string
	// strs holds every string but digests: mnemonics, target labels,
	// arguments, environment names and values, and exec paths, which
	// arguments often repeat.
	strs    intern.Table
	digests intern.Table // contents: spawn.AppendContentKey
	recs    chunks.List[rec]
	data    byteArena
	// paths holds, per string id, what the log says of the string as a
	// path.
	paths chunks.List[pathInfo]
	// overrides holds, per spawn index, the inputs whose digest differs
	// from pathDigest: a file changed during the build, which Bazel's
	// model forbids but builds do.
	overrides map[int32][]pathDigest
	scratch   scratch
	// hotStrs and hotFiles remember recent strings and files by their
	// hashes, so that what a build names again and again (compiler flags,
	// toolchain files, common headers) costs a hash and a look in a small
	// table instead of lookups in the big ones (cache misses, each).
	hotStrs  []hotStr
	hotFiles []hotFile
}

// hotStr is a string remembered by its hash; hotFile, a file by the hashes
// of its path and of its content's text.
type hotStr struct {
	hash uint64
	id   uint32
}

type hotFile struct {
	path, content uint64
	pid, did      uint32
	// first says did is the path's first digest in the log.
	first bool
}

const hotBits = 14

type pathDigest struct{ path, digest uint32 }

// pathInfo is what a log says of a path.
type pathInfo struct {
	// digest is the digest id + 1 the path first had (0 when it never had
	// one: not a path, or a declared output not produced).
	digest uint32
	// producer is the index + 1 of the first spawn that produced it, or 0.
	producer int32
}

// rec is what a Log keeps of one spawn besides its lists.
type rec struct {
	// data locates the spawn's lists in Log.data: arguments, environment,
	// declared outputs, output files, inputs (see Add).
	data uint64
	// Hashes of content, comparable across logs (see seed): the matching
	// arguments, the environment, the inputs with their digests and
	// without, and the output files with their digests. Inputs and outputs
	// are summed, so that the order in which a log lists them does not
	// matter.
	args, env, inputs, inputPaths, outputs uint64
	mnemonic, target                       uint32
	nInputs                                uint32
	exit                                   int32
}

// scratch holds the buffers Add reuses.
type scratch struct {
	rec    []byte
	key    []byte
	ids    []uint32
	envIdx []int
}

// NewLog returns an empty Log; name is how reports refer to it.
func NewLog(name string) *Log {
	l := &Log{name: name}
	l.strs.SplitDirs = true
	l.strs.Intern("") // id 0: no target
	return l
}

// Strings and Contents are the Log's tables of strings and of file
// contents. Give them to execlog.Read (Options.Strings and Contents) when
// reading the log into the Log: the compact format's reader then keeps the
// files it must remember in them, and paths and contents are held once.
func (l *Log) Strings() *intern.Table  { return &l.strs }
func (l *Log) Contents() *intern.Table { return &l.digests }

// Name is the name the Log was made with.
func (l *Log) Name() string { return l.name }

// Spawns is how many spawns were added.
func (l *Log) Spawns() int { return l.recs.Len() }

func (l *Log) rec(i int32) *rec { return l.recs.At(int(i)) }

func (l *Log) path(id uint32) *pathInfo { return l.paths.At(int(id)) }

// pathInfo is what the log says of string id as a path: nothing for a
// string interned after the last spawn (by a reader sharing the table).
func (l *Log) pathInfo(id uint32) pathInfo {
	if int(id) >= l.paths.Len() {
		return pathInfo{}
	}
	return *l.paths.At(int(id))
}

// Add summarises one spawn. It keeps nothing of s itself, so it is safe
// with execlog.Options.ReuseSpawns. The error is always nil.
func (l *Log) Add(s *spawn.Spawn) error {
	idx := int32(l.recs.Len())
	if l.hotStrs == nil {
		l.hotStrs = make([]hotStr, 1<<hotBits)
		l.hotFiles = make([]hotFile, 1<<hotBits)
	}
	r := rec{exit: s.ExitCode}
	r.mnemonic, _ = l.str(s.Mnemonic)
	r.target, _ = l.str(s.Target)
	b := l.scratch.rec[:0]

	// Arguments, in order.
	b = protowire.AppendVarint(b, uint64(len(s.Args)))
	r.args = uint64(len(s.Args))
	for _, a := range s.Args {
		id, h := l.str(a)
		b = protowire.AppendVarint(b, uint64(id))
		r.args = mix(r.args, h)
	}

	// Environment, sorted by name: Bazel writes it sorted, and an order
	// change alone is not a difference.
	env := l.scratch.envIdx[:0]
	for i := range s.Env {
		env = append(env, i)
	}
	slices.SortStableFunc(env, func(i, j int) int { return strings.Compare(s.Env[i].Name, s.Env[j].Name) })
	b = protowire.AppendVarint(b, uint64(len(env)))
	r.env = uint64(len(env))
	for _, i := range env {
		nid, nh := l.str(s.Env[i].Name)
		vid, vh := l.str(s.Env[i].Value)
		b = protowire.AppendVarint(b, uint64(nid))
		b = protowire.AppendVarint(b, uint64(vid))
		r.env = mix(r.env, mix(nh, vh))
	}
	l.scratch.envIdx = env

	// Declared outputs, sorted: with the mnemonic and target, what
	// matches spawns across logs.
	b = protowire.AppendVarint(b, uint64(len(s.Outputs)))
	for _, o := range s.Outputs {
		id, _ := l.str(o)
		l.growPaths()
		b = protowire.AppendVarint(b, uint64(id))
	}

	// Output files with their digests, sorted by path.
	b = protowire.AppendVarint(b, uint64(len(s.OutputFiles)))
	for _, f := range s.OutputFiles {
		e := l.file(f)
		pid, did := e.pid, e.did
		b = protowire.AppendVarint(b, uint64(pid))
		b = protowire.AppendVarint(b, uint64(did))
		r.outputs += mix(e.path, e.content)
		if p := l.path(pid); p.producer == 0 {
			p.producer = idx + 1
		}
	}

	// Inputs: path ids, ascending and delta-coded; digests are in
	// pathDigest, or in overrides for the rare input that disagrees.
	ids := l.scratch.ids[:0]
	for _, f := range s.Inputs {
		e := l.file(f)
		if !e.first {
			if l.overrides == nil {
				l.overrides = make(map[int32][]pathDigest)
			}
			l.overrides[idx] = append(l.overrides[idx], pathDigest{e.pid, e.did})
		}
		r.inputs += mix(e.path, e.content)
		r.inputPaths += e.path
		ids = append(ids, e.pid)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	r.nInputs = uint32(len(ids))
	b = protowire.AppendVarint(b, uint64(len(ids)))
	prev := uint32(0)
	for _, id := range ids {
		b = protowire.AppendVarint(b, uint64(id-prev))
		prev = id
	}
	l.scratch.ids = ids

	r.data = l.data.add(b)
	l.scratch.rec = b
	l.recs.Append(r)
	return nil
}

// growPaths keeps paths as long as the string table.
func (l *Log) growPaths() {
	for l.paths.Len() < l.strs.Len() {
		l.paths.Append(pathInfo{})
	}
}

// str interns s, through hotStrs.
func (l *Log) str(s string) (uint32, uint64) {
	h := intern.Hash(s)
	e := &l.hotStrs[h&(1<<hotBits-1)]
	if e.hash == h && h != 0 {
		return e.id, h
	}
	id := l.strs.InternHashed(s, h)
	*e = hotStr{hash: h, id: id}
	return id, h
}

// file interns f's path and content, through hotFiles: a file is known by
// the hashes of its path and of its content's text. It records the content
// as the path's if the path has none yet.
func (l *Log) file(f spawn.File) hotFile {
	ph := intern.Hash(f.Path)
	ch := fileContentHash(f)
	e := &l.hotFiles[ph&(1<<hotBits-1)]
	if e.path == ph && e.content == ch && ph != 0 {
		return *e
	}
	pid := l.strs.InternHashed(f.Path, ph)
	l.growPaths()
	p := l.path(pid)
	var did uint32
	if p.digest != 0 && spawn.ContentKeyIs(l.digests.Get(p.digest-1), f) {
		did = p.digest - 1
	} else {
		key := spawn.AppendContentKey(l.scratch.key[:0], f)
		l.scratch.key = key
		did, _ = l.digests.Intern(unsafe.String(unsafe.SliceData(key), len(key)))
		if p.digest == 0 {
			p.digest = did + 1
		}
	}
	*e = hotFile{path: ph, content: ch, pid: pid, did: did, first: p.digest == did+1}
	return *e
}

// fileContentHash hashes the text of f's content, the same in every log.
func fileContentHash(f spawn.File) uint64 {
	if f.SymlinkTarget != "" {
		return mix(intern.Hash(f.SymlinkTarget), 1)
	}
	return mix(intern.Hash(f.Digest.Hash), uint64(f.Digest.Size)<<1)
}

// lists decodes a spawn's lists.
type lists struct {
	args     []uint32
	env      [][2]uint32
	declared []uint32
	outputs  []pathDigest
	inputs   []uint32
}

func (l *Log) lists(i int32) lists {
	b := l.data.get(l.rec(i).data)
	var ls lists
	next := func() uint32 {
		v, n := protowire.ConsumeVarint(b)
		b = b[n:]
		return uint32(v)
	}
	ls.args = make([]uint32, next())
	for j := range ls.args {
		ls.args[j] = next()
	}
	ls.env = make([][2]uint32, next())
	for j := range ls.env {
		ls.env[j] = [2]uint32{next(), next()}
	}
	ls.declared = make([]uint32, next())
	for j := range ls.declared {
		ls.declared[j] = next()
	}
	ls.outputs = make([]pathDigest, next())
	for j := range ls.outputs {
		ls.outputs[j] = pathDigest{next(), next()}
	}
	ls.inputs = make([]uint32, next())
	prev := uint32(0)
	for j := range ls.inputs {
		prev += next()
		ls.inputs[j] = prev
	}
	return ls
}

// declared returns an iterator over spawn i's declared outputs (string
// ids), which decodes them as it goes.
func (l *Log) declared(i int32) idIter {
	b := l.data.get(l.rec(i).data)
	skip := func(k uint64) {
		for range k {
			_, n := protowire.ConsumeVarint(b)
			b = b[n:]
		}
	}
	n, m := protowire.ConsumeVarint(b)
	b = b[m:]
	skip(n)
	n, m = protowire.ConsumeVarint(b)
	b = b[m:]
	skip(2 * n)
	n, m = protowire.ConsumeVarint(b)
	return idIter{b: b[m:], left: n}
}

// idIter yields varint ids.
type idIter struct {
	b    []byte
	left uint64
}

func (it *idIter) next() (uint32, bool) {
	if it.left == 0 {
		return 0, false
	}
	v, n := protowire.ConsumeVarint(it.b)
	it.b = it.b[n:]
	it.left--
	return uint32(v), true
}

// keyHash hashes spawn i's matching key: mnemonic, target and declared
// outputs, from their strings, so that equal keys of two logs hash alike.
func (l *Log) keyHash(i int32) uint64 {
	r := l.rec(i)
	h := mix(l.strs.HashOf(r.mnemonic), l.strs.HashOf(r.target))
	it := l.declared(i)
	for id, ok := it.next(); ok; id, ok = it.next() {
		h = mix(h, l.strs.HashOf(id))
	}
	return h
}

// inputDigest is the digest id of input path pid of spawn i.
func (l *Log) inputDigest(i int32, pid uint32) uint32 {
	for _, o := range l.overrides[i] {
		if o.path == pid {
			return o.digest
		}
	}
	return l.path(pid).digest - 1
}

// declaredOutputs returns spawn i's declared outputs.
func (l *Log) declaredOutputs(i int32) []string {
	ls := l.lists(i)
	out := make([]string, len(ls.declared))
	for j, id := range ls.declared {
		out[j] = l.strs.Get(id)
	}
	return out
}

// Bytes estimates the memory the Log holds, for benchmarks.
func (l *Log) Bytes() int64 {
	n := l.strs.Bytes() + l.digests.Bytes()
	n += l.recs.Bytes() + l.paths.Bytes()
	for _, b := range l.data.blocks {
		n += int64(cap(b))
	}
	return n
}

// byteArena is an append-only store of byte strings in large blocks,
// located by block<<32 | offset. A string never straddles two blocks.
type byteArena struct{ blocks [][]byte }

func (a *byteArena) add(b []byte) uint64 {
	n := len(a.blocks)
	if n == 0 || len(a.blocks[n-1])+len(b) > cap(a.blocks[n-1]) {
		size := 4 << 10 // small logs stay small
		if n > 0 {
			size = min(1<<20, 2*cap(a.blocks[n-1]))
		}
		a.blocks = append(a.blocks, make([]byte, 0, max(size, len(b))))
		n++
	}
	blk := &a.blocks[n-1]
	pos := uint64(n-1)<<32 | uint64(len(*blk))
	*blk = append(*blk, b...)
	return pos
}

// get returns the bytes from pos to the end of its block.
func (a *byteArena) get(pos uint64) []byte {
	return a.blocks[pos>>32][uint32(pos):]
}
