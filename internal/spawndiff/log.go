package spawndiff

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/spawn"
)

// Log is the compact summary of one execution log that Diff compares. It
// keeps every spawn, but not as a spawn: strings are interned once in
// tables, a spawn's lists are varints of their ids, and each path's digest
// is kept once for the whole log rather than once per spawn that reads it.
// What it keeps per spawn is a fixed record plus about a byte or two per
// argument and input.
//
// Build one with NewLog and Add (which has the signature execlog.Read
// wants); two Logs may be built at the same time on two goroutines.
type Log struct {
	name    string
	strs    table // mnemonics, target labels, arguments, environment names and values
	paths   table // exec paths
	digests table // digest keys (see digestKey)
	recs    []rec
	data    byteArena
	// pathDigest is, per path id, the digest id + 1 the path first had in
	// this log (0 when it never had one: a declared output not produced).
	pathDigest []uint32
	// producer is, per path id, the index + 1 of the first spawn that
	// produced it, or 0.
	producer []int32
	// overrides holds, per spawn index, the inputs whose digest differs
	// from pathDigest: a file changed during the build, which Bazel's
	// model forbids but builds do.
	overrides map[int32][]pathDigest
	scratch   scratch
}

type pathDigest struct{ path, digest uint32 }

// rec is what a Log keeps of one spawn besides its lists.
type rec struct {
	// data locates the spawn's lists in Log.data: arguments, environment,
	// declared outputs, output files, inputs (see Add).
	data uint64
	// Hashes of content, comparable across logs (see seed): the matching
	// key (mnemonic, target, declared outputs), the arguments, the
	// environment, the inputs with their digests and without, and the
	// output files with their digests. Inputs and outputs are summed, so
	// that the order in which a log lists them does not matter.
	key, args, env, inputs, inputPaths, outputs uint64
	mnemonic, target                            uint32
	nInputs                                     uint32
	exit                                        int32
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
	l.strs.intern("") // id 0: no target
	return l
}

// Name is the name the Log was made with.
func (l *Log) Name() string { return l.name }

// Spawns is how many spawns were added.
func (l *Log) Spawns() int { return len(l.recs) }

// Add summarises one spawn. It keeps nothing of s itself, so it is safe
// with execlog.Options.ReuseSpawns. The error is always nil.
func (l *Log) Add(s *spawn.Spawn) error {
	idx := int32(len(l.recs))
	r := rec{exit: s.ExitCode}
	var mh, th uint64
	r.mnemonic, mh = l.strs.intern(s.Mnemonic)
	r.target, th = l.strs.intern(s.Target)
	b := l.scratch.rec[:0]

	// Arguments, in order.
	b = protowire.AppendVarint(b, uint64(len(s.Args)))
	r.args = uint64(len(s.Args))
	for _, a := range s.Args {
		id, h := l.strs.intern(a)
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
		nid, nh := l.strs.intern(s.Env[i].Name)
		vid, vh := l.strs.intern(s.Env[i].Value)
		b = protowire.AppendVarint(b, uint64(nid))
		b = protowire.AppendVarint(b, uint64(vid))
		r.env = mix(r.env, mix(nh, vh))
	}
	l.scratch.envIdx = env

	// Declared outputs, sorted: with the mnemonic and target, the key.
	b = protowire.AppendVarint(b, uint64(len(s.Outputs)))
	r.key = mix(mh, th)
	for _, o := range s.Outputs {
		id, h := l.paths.intern(o)
		l.growPaths()
		b = protowire.AppendVarint(b, uint64(id))
		r.key = mix(r.key, h)
	}

	// Output files with their digests, sorted by path.
	b = protowire.AppendVarint(b, uint64(len(s.OutputFiles)))
	for _, f := range s.OutputFiles {
		pid, ph := l.paths.intern(f.Path)
		l.growPaths()
		did, dh := l.digest(f, pid)
		b = protowire.AppendVarint(b, uint64(pid))
		b = protowire.AppendVarint(b, uint64(did))
		r.outputs += mix(ph, dh)
		if l.producer[pid] == 0 {
			l.producer[pid] = idx + 1
		}
	}

	// Inputs: path ids, ascending and delta-coded; digests are in
	// pathDigest, or in overrides for the rare input that disagrees.
	ids := l.scratch.ids[:0]
	for _, f := range s.Inputs {
		pid, ph := l.paths.intern(f.Path)
		l.growPaths()
		did, dh := l.digest(f, pid)
		if l.pathDigest[pid] != did+1 {
			if l.overrides == nil {
				l.overrides = make(map[int32][]pathDigest)
			}
			l.overrides[idx] = append(l.overrides[idx], pathDigest{pid, did})
		}
		r.inputs += mix(ph, dh)
		r.inputPaths += ph
		ids = append(ids, pid)
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
	l.recs = append(l.recs, r)
	return nil
}

// growPaths keeps the per-path slices as long as the path table.
func (l *Log) growPaths() {
	for len(l.pathDigest) < l.paths.len() {
		l.pathDigest = append(l.pathDigest, 0)
		l.producer = append(l.producer, 0)
	}
}

// digest interns f's digest key and records it as the digest of path pid
// if the path has none yet. It skips hashing when the key is the one the
// path already has, as it is for nearly every input.
func (l *Log) digest(f spawn.File, pid uint32) (uint32, uint64) {
	key := digestKey(l.scratch.key[:0], f)
	l.scratch.key = key
	s := unsafe.String(unsafe.SliceData(key), len(key))
	if pd := l.pathDigest[pid]; pd != 0 && l.digests.get(pd-1) == s {
		return pd - 1, l.digests.hash(pd - 1)
	}
	id, h := l.digests.intern(s)
	if l.pathDigest[pid] == 0 {
		l.pathDigest[pid] = id + 1
	}
	return id, h
}

// digestKey is the content of a file as one comparable string: the hash
// and size ("ab12…/1234"), or for an unresolved symlink "->" and its
// target. A file the log gave no digest (an empty file, for some Bazel
// versions) is "/0".
func digestKey(b []byte, f spawn.File) []byte {
	if f.SymlinkTarget != "" {
		b = append(b, "->"...)
		return append(b, f.SymlinkTarget...)
	}
	b = append(b, f.Digest.Hash...)
	b = append(b, '/')
	return strconv.AppendInt(b, f.Digest.Size, 10)
}

// parseDigestKey undoes digestKey.
func parseDigestKey(k string) Content {
	if t, ok := strings.CutPrefix(k, "->"); ok {
		return Content{SymlinkTarget: t}
	}
	i := strings.LastIndexByte(k, '/')
	size, _ := strconv.ParseInt(k[i+1:], 10, 64)
	return Content{Digest: spawn.Digest{Hash: k[:i], Size: size}}
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
	b := l.data.get(l.recs[i].data)
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

// inputDigest is the digest id of input path pid of spawn i.
func (l *Log) inputDigest(i int32, pid uint32) uint32 {
	for _, o := range l.overrides[i] {
		if o.path == pid {
			return o.digest
		}
	}
	return l.pathDigest[pid] - 1
}

// declaredOutputs returns spawn i's declared outputs.
func (l *Log) declaredOutputs(i int32) []string {
	ls := l.lists(i)
	out := make([]string, len(ls.declared))
	for j, id := range ls.declared {
		out[j] = l.paths.get(id)
	}
	return out
}

// firstOutput is spawn i's first declared output, or "" — what orders it
// in reports.
func (l *Log) firstOutput(i int32) string {
	b := l.data.get(l.recs[i].data)
	skip := func(k int) {
		for range k {
			_, n := protowire.ConsumeVarint(b)
			b = b[n:]
		}
	}
	n, m := protowire.ConsumeVarint(b)
	b = b[m:]
	skip(int(n))
	n, m = protowire.ConsumeVarint(b)
	b = b[m:]
	skip(2 * int(n))
	n, m = protowire.ConsumeVarint(b)
	if n == 0 {
		return ""
	}
	b = b[m:]
	id, _ := protowire.ConsumeVarint(b)
	return l.paths.get(uint32(id))
}

// Bytes estimates the memory the Log holds, for benchmarks.
func (l *Log) Bytes() int64 {
	n := l.strs.bytes() + l.paths.bytes() + l.digests.bytes()
	n += int64(cap(l.recs)) * int64(unsafe.Sizeof(rec{}))
	n += int64(cap(l.pathDigest))*4 + int64(cap(l.producer))*4
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
		a.blocks = append(a.blocks, make([]byte, 0, max(nextBlockSize(a.blocks), len(b))))
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
