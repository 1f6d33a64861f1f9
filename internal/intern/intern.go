// Package intern keeps strings once: each distinct string of a Table gets
// a small id, and its bytes are stored in large blocks that never move, so
// that the millions of paths and arguments of a big execution log cost
// their bytes and a few words each, and the garbage collector need not
// scan them. The execution-log reader and the comparison's summary of a
// log can share one Table, so that each path is kept once.
package intern

import (
	"hash/maphash"
	"unsafe"

	"github.com/ahab-go/ahab/internal/chunks"
)

// seed is the one hash seed of the process: every Table hashes with it, so
// that hashes of equal strings agree across tables (two logs being
// compared). Hashes should only ever decide equality, never order, so
// that output does not depend on the seed.
var seed = maphash.MakeSeed()

// Hash is the hash of s that every Table uses, the same for the whole
// process.
func Hash(s string) uint64 { return maphash.String(seed, s) }

// Table interns strings: each distinct string gets an id, from 0 in order
// of first appearance, and is stored once. Nothing it holds is ever moved,
// so growing it copies only the index, and the strings Get returns stay
// valid for good. The zero value is empty and ready. It is not safe for
// concurrent use.
type Table struct {
	blocks [][]byte
	// locs locates each string.
	locs chunks.List[strLoc]
	// index is an open-addressing hash table, its length a power of two
	// kept at most 3/4 full, of tag<<32 | id+1 (0 is empty), the tag being
	// the top half of the string's hash: it places the entry and filters
	// probes, so a probe touches the string only when the tags agree.
	index []uint64
}

type strLoc struct{ block, off, n uint32 }

const (
	// Blocks start small, for the many small logs of tests, and double up
	// to maxBlockSize.
	minBlockSize = 4 << 10
	maxBlockSize = 1 << 20
)

func nextBlockSize(blocks [][]byte) int {
	if len(blocks) == 0 {
		return minBlockSize
	}
	return min(maxBlockSize, 2*cap(blocks[len(blocks)-1]))
}

// Intern returns the id of s, adding it if it is new, and its hash.
func (t *Table) Intern(s string) (uint32, uint64) {
	h := Hash(s)
	if 4*(t.locs.Len()+1) > 3*len(t.index) {
		t.grow()
	}
	tag := h >> 32
	mask := uint64(len(t.index) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		v := t.index[i]
		if v == 0 {
			id := uint32(t.locs.Len())
			t.add(s)
			t.index[i] = tag<<32 | uint64(id) + 1
			return id, h
		}
		if v>>32 == tag && t.Get(uint32(v)-1) == s {
			return uint32(v) - 1, h
		}
	}
}

// Lookup returns the id of s, whose hash is h, or false when s was never
// interned.
func (t *Table) Lookup(s string, h uint64) (uint32, bool) {
	if len(t.index) == 0 {
		return 0, false
	}
	tag := h >> 32
	mask := uint64(len(t.index) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		v := t.index[i]
		if v == 0 {
			return 0, false
		}
		if v>>32 == tag && t.Get(uint32(v)-1) == s {
			return uint32(v) - 1, true
		}
	}
}

// add copies s into the blocks and records where. A string longer than a
// block gets a block of its own.
func (t *Table) add(s string) {
	n := len(t.blocks)
	if n == 0 || len(t.blocks[n-1])+len(s) > cap(t.blocks[n-1]) {
		t.blocks = append(t.blocks, make([]byte, 0, max(nextBlockSize(t.blocks), len(s))))
		n++
	}
	b := &t.blocks[n-1]
	t.locs.Append(strLoc{block: uint32(n - 1), off: uint32(len(*b)), n: uint32(len(s))})
	*b = append(*b, s...)
}

func (t *Table) grow() {
	size := max(64, 2*len(t.index))
	index := make([]uint64, size)
	mask := uint64(size - 1)
	for _, v := range t.index {
		if v == 0 {
			continue
		}
		i := (v >> 32) & mask
		for index[i] != 0 {
			i = (i + 1) & mask
		}
		index[i] = v
	}
	t.index = index
}

// Get returns the string with id: a view of the table's memory, which
// never changes.
func (t *Table) Get(id uint32) string {
	l := t.locs.At(int(id))
	if l.n == 0 {
		return ""
	}
	return unsafe.String(&t.blocks[l.block][l.off], l.n)
}

// Len is the number of strings.
func (t *Table) Len() int { return t.locs.Len() }

// Bytes is how much memory the table holds.
func (t *Table) Bytes() int64 {
	n := t.locs.Bytes() + int64(len(t.index))*8
	for _, b := range t.blocks {
		n += int64(cap(b))
	}
	return n
}
