package spawndiff

import (
	"errors"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/chunks"
	"github.com/ahab-go/ahab/internal/intern"
	"github.com/ahab-go/ahab/internal/spawn"
)

// mix combines two hashes into one that depends on both and their order.
func mix(a, b uint64) uint64 { return spawn.Mix(a, b) }

// Log is the compact summary of one execution log that Diff compares: the
// spawn.Summary of every spawn, kept as it came. Strings are ids into the
// log's tables (spawn.Tables), a spawn's lists are runs of ids in one
// arena, and each path's digest is kept once for the whole log rather than
// once per spawn that reads it. Spawns whose inputs are one nested set of
// the log share one list of them.
//
// Build one with NewLog and Add, which has the signature
// execlog.Summarize wants, given the Log's Tables; two Logs may be built
// at the same time on two goroutines.
type Log struct {
	name   string
	tables *spawn.Tables
	// strs and digests are the tables': every string, and file contents
	// (spawn.AppendContentKey).
	strs, digests *intern.Table
	recs          chunks.List[rec]
	// data holds every spawn's lists as varints, back to back (see rec):
	// ids as uint32s would make the summary of a million spawns 130 MB
	// bigger, past the 2 GiB bound of comparing two (BenchmarkSummarize's
	// summary-MB, bench/difflog.sh).
	data chunks.Arena[byte]
	// shared remembers where the inputs of the last sets of inputs
	// (spawn.Summary.InputSet) are, for the spawns that name one again.
	shared     [sharedSets]sharedInputs
	nextShared int
	// paths holds, per string id, what the log says of the string as a
	// path.
	paths chunks.List[pathInfo]
	// overrides holds, by the position of an input list, the inputs whose
	// digest differs from pathInfo's: a file changed during the build,
	// which Bazel's model forbids but builds do.
	overrides map[uint32][]pathDigest
	scratch   []byte
	ids       []uint32
}

type pathDigest struct{ path, digest uint32 }

// sharedSets is how many sets of inputs a Log remembers: as many as the
// reader does (a log names one set again and again, or not at all).
const sharedSets = 8

// sharedInputs locates the inputs of one set: the set (0 for none) and
// the list (rec.inPos, inN and nIn).
type sharedInputs struct{ set, pos, n, count uint32 }

// pathInfo is what a log says of a path.
type pathInfo struct {
	// digest is the digest id + 1 the path first had (0 when it never had
	// one: not a path, or a declared output not produced).
	digest uint32
	// producer is the index + 1 of the first spawn that produced it, or 0.
	producer int32
}

// rec is what a Log keeps of one spawn.
type rec struct {
	// pos and n locate the spawn's lists in Log.data: its arguments, its
	// environment as name and value pairs, its declared outputs, and its
	// output files as path and digest pairs, each list its length and
	// then its ids.
	pos, n uint32
	// inPos and inN locate its inputs' path ids, ascending, as the
	// differences from one to the next: a list of its own, or one it
	// shares with the spawns of its input set. nIn is how many.
	inPos, inN, nIn  uint32
	mnemonic, target uint32
	exit             int32
	// Hashes of content, comparable across logs (spawn.Summary): the
	// arguments, the environment, the output files and the inputs.
	args, env, outputs, inputs uint64
}

// NewLog returns an empty Log; name is how reports refer to it.
func NewLog(name string) *Log {
	t := spawn.NewTables()
	return &Log{name: name, tables: t, strs: &t.Strings, digests: &t.Contents}
}

// Tables are the Log's tables of strings and file contents: give them to
// execlog.Summarize, which interns what it reads in them.
func (l *Log) Tables() *spawn.Tables { return l.tables }

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

// errFull is a log too big for one Log.
var errFull = errors.New("more than 4 GiB of arguments, variables, outputs and inputs in all, expected fewer")

// Add keeps one spawn's summary. It keeps nothing of s itself, so it is
// safe with a reader that reuses its summaries.
func (l *Log) Add(s *spawn.Summary) error {
	idx := int32(l.recs.Len())
	l.growPaths()
	r := rec{mnemonic: s.Mnemonic, target: s.Target, exit: s.ExitCode,
		args: s.ArgsHash, env: s.EnvHash, outputs: s.OutputsHash, inputs: s.InputsHash}
	b := protowire.AppendVarint(l.scratch[:0], uint64(len(s.Args)))
	for _, a := range s.Args {
		b = protowire.AppendVarint(b, uint64(a))
	}
	b = protowire.AppendVarint(b, uint64(len(s.Env)))
	for _, e := range s.Env {
		b = protowire.AppendVarint(protowire.AppendVarint(b, uint64(e.Name)), uint64(e.Value))
	}
	b = protowire.AppendVarint(b, uint64(len(s.Outputs)))
	for _, o := range s.Outputs {
		b = protowire.AppendVarint(b, uint64(o))
	}
	b = protowire.AppendVarint(b, uint64(len(s.OutputFiles)))
	for _, f := range s.OutputFiles {
		b = protowire.AppendVarint(protowire.AppendVarint(b, uint64(f.Path)), uint64(f.Content))
		p := l.path(f.Path)
		if p.producer == 0 {
			p.producer = idx + 1
		}
		if p.digest == 0 {
			p.digest = f.Content + 1
		}
	}
	var ok bool
	if r.pos, ok = l.data.Add(b); !ok {
		return errFull
	}
	r.n = uint32(len(b))
	if shared := l.sharedInputs(s.InputSet); shared != nil {
		r.inPos, r.inN, r.nIn = shared.pos, shared.n, shared.count
	} else {
		ids := l.ids[:0]
		for _, f := range s.Inputs {
			ids = append(ids, f.Path)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		b = b[:0]
		prev := uint32(0)
		for _, id := range ids {
			b = protowire.AppendVarint(b, uint64(id-prev))
			prev = id
		}
		if r.inPos, ok = l.data.Add(b); !ok {
			return errFull
		}
		r.inN, r.nIn = uint32(len(b)), uint32(len(ids))
		l.ids = ids
		// Digests are the path's, in pathInfo, but for the rare input
		// that disagrees.
		for _, f := range s.Inputs {
			p := l.path(f.Path)
			if p.digest == 0 {
				p.digest = f.Content + 1
			} else if p.digest != f.Content+1 {
				if l.overrides == nil {
					l.overrides = make(map[uint32][]pathDigest)
				}
				l.overrides[r.inPos] = append(l.overrides[r.inPos], pathDigest{f.Path, f.Content})
			}
		}
		if s.InputSet != 0 {
			l.shared[l.nextShared] = sharedInputs{s.InputSet, r.inPos, r.inN, r.nIn}
			l.nextShared = (l.nextShared + 1) % sharedSets
		}
	}
	l.scratch = b
	l.recs.Append(r)
	return nil
}

// sharedInputs is where the inputs of set are, if the Log remembers.
func (l *Log) sharedInputs(set uint32) *sharedInputs {
	if set == 0 {
		return nil
	}
	for i := range l.shared {
		if l.shared[i].set == set {
			return &l.shared[i]
		}
	}
	return nil
}

// AddSpawn summarizes s in the Log's tables and keeps it: for a caller
// that has spawns rather than a log (execlog.Read's, or a test's).
func (l *Log) AddSpawn(s *spawn.Spawn) error {
	var sum spawn.Summary
	l.tables.Summarize(s, &sum)
	return l.Add(&sum)
}

// growPaths keeps paths as long as the string table.
func (l *Log) growPaths() {
	for l.paths.Len() < l.strs.Len() {
		l.paths.Append(pathInfo{})
	}
}

// lists are a spawn's lists.
type lists struct {
	args     []uint32
	env      []uint32 // name, value, name, value, ...
	declared []uint32
	outputs  []uint32 // path, digest, path, digest, ...
	inputs   []uint32
}

// lists decodes spawn i's lists.
func (l *Log) lists(i int32) lists {
	r := l.rec(i)
	it := idIter{b: l.data.Get(r.pos, r.n)}
	var ls lists
	ls.args = it.list(1)
	ls.env = it.list(2)
	ls.declared = it.list(1)
	ls.outputs = it.list(2)
	ls.inputs = l.inputs(i)
	return ls
}

// inputs decodes spawn i's inputs.
func (l *Log) inputs(i int32) []uint32 {
	r := l.rec(i)
	it := idIter{b: l.data.Get(r.inPos, r.inN)}
	ids := make([]uint32, r.nIn)
	prev := uint32(0)
	for j := range ids {
		prev += it.next()
		ids[j] = prev
	}
	return ids
}

// declared returns an iterator over spawn i's declared outputs (string
// ids), which decodes them as it goes: matching and sorting look at every
// spawn's, and must not allocate.
func (l *Log) declared(i int32) idIter {
	r := l.rec(i)
	it := idIter{b: l.data.Get(r.pos, r.n)}
	it.skip(int(it.next()))
	it.skip(2 * int(it.next()))
	it.left = int(it.next())
	return it
}

// idIter reads varint ids.
type idIter struct {
	b    []byte
	left int // for declared: how many ids are left
}

func (it *idIter) next() uint32 {
	v, n := protowire.ConsumeVarint(it.b)
	it.b = it.b[n:]
	return uint32(v)
}

func (it *idIter) skip(n int) {
	for range n {
		it.next()
	}
}

// list reads a list: its length, then per element width ids.
func (it *idIter) list(width int) []uint32 {
	ids := make([]uint32, width*int(it.next()))
	for j := range ids {
		ids[j] = it.next()
	}
	return ids
}

// more yields the next of the ids declared counts.
func (it *idIter) more() (uint32, bool) {
	if it.left == 0 {
		return 0, false
	}
	it.left--
	return it.next(), true
}

// keyHash hashes spawn i's matching key: mnemonic, target and declared
// outputs, from their strings, so that equal keys of two logs hash alike.
func (l *Log) keyHash(i int32) uint64 {
	r := l.rec(i)
	h := mix(l.strs.HashOf(r.mnemonic), l.strs.HashOf(r.target))
	it := l.declared(i)
	for id, ok := it.more(); ok; id, ok = it.more() {
		h = mix(h, l.strs.HashOf(id))
	}
	return h
}

// hasOverrides reports whether some input of spawn i has a digest of its
// own (overrides).
func (l *Log) hasOverrides(i int32) bool {
	r := l.rec(i)
	_, ok := l.overrides[r.inPos]
	return ok && r.nIn > 0 // an empty list's position may be the next list's
}

// inputDigest is the digest id of input path pid of spawn i.
func (l *Log) inputDigest(i int32, pid uint32) uint32 {
	for _, o := range l.overrides[l.rec(i).inPos] {
		if o.path == pid {
			return o.digest
		}
	}
	return l.path(pid).digest - 1
}

// declaredOutputs returns spawn i's declared outputs.
func (l *Log) declaredOutputs(i int32) []string {
	it := l.declared(i)
	out := make([]string, 0, it.left)
	for id, ok := it.more(); ok; id, ok = it.more() {
		out = append(out, l.strs.Get(id))
	}
	return out
}

// Bytes estimates the memory the Log holds, for benchmarks.
func (l *Log) Bytes() int64 {
	return l.strs.Bytes() + l.digests.Bytes() + l.recs.Bytes() + l.paths.Bytes() + l.data.Bytes()
}
