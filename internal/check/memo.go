package check

import (
	"encoding/binary"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/finding"
)

// memo remembers what reading an action found, by what the reading
// depends on: the mnemonic, the command line, the environment, the
// outputs and the inputs (the library and the workspace are the same for
// every action of a run). Graphs repeat actions: a macro instantiated in
// many packages, the same genrule in every configuration of a
// multi-platform build, the copies of an amplified benchmark dump. Reading
// a shell script and the tools it runs is the most expensive thing the
// checks do (docs/performance.md: BenchmarkRepro), so each distinct
// action is read once and its findings given to the others.
type memo struct {
	found sync.Map // memoKey → []finding.Finding, with no action
	size  atomic.Int64
}

// memoLimit bounds how many distinct actions a memo keeps: past it, new
// actions are read and not remembered, so memory stays bounded on a graph
// of nothing but distinct actions.
const memoLimit = 1 << 16

// memoKey is 128 bits of two hashes of the bytes an action is read from,
// seeded afresh for every run, so that no input can be made to collide.
type memoKey [2]uint64

var memoSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// key hashes what interpret reads of an action.
func (m *memo) key(mnemonic string, argv, env, outputs []string, files code.Files) memoKey {
	return hashKey(func(b []byte) []byte {
		b = appendString(b, mnemonic)
		for _, list := range [][]string{argv, env, outputs} {
			b = appendStrings(b, list)
		}
		if files == nil {
			return append(appendStrings(b, nil), 0)
		}
		return append(appendStrings(b, files.Inputs()), 1)
	})
}

// hashKey hashes the bytes write appends to an empty buffer.
func hashKey(write func(b []byte) []byte) memoKey {
	bp := keyBuffers.Get().(*[]byte)
	b := write((*bp)[:0])
	k := memoKey{maphash.Bytes(memoSeeds[0], b), maphash.Bytes(memoSeeds[1], b)}
	*bp = b
	keyBuffers.Put(bp)
	return k
}

// keyBuffers hold the bytes a key is hashed from, between actions.
var keyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// appendStrings writes a list so that no two lists write the same bytes.
func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// do reports what read reports for an action of ref, reading it only the
// first time an action with key k is seen.
func (m *memo) do(k memoKey, ref finding.ActionRef, report func(finding.Finding), read func(report func(finding.Finding))) {
	if v, ok := m.found.Load(k); ok {
		for _, f := range v.([]finding.Finding) {
			f.Action = ref
			report(f)
		}
		return
	}
	var found []finding.Finding
	read(func(f finding.Finding) {
		report(f)
		f.Action = finding.ActionRef{}
		found = append(found, f)
	})
	if m.size.Load() < memoLimit {
		if _, loaded := m.found.LoadOrStore(k, found); !loaded {
			m.size.Add(1)
		}
	}
}
