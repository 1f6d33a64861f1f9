package spawndiff

import (
	"hash/maphash"
	"unsafe"

	"github.com/ahab-go/ahab/internal/chunks"
)

// seed is the one hash seed of the process: every Log hashes with it, so
// that hashes of equal strings agree across the two logs being compared.
// Hashes only ever decide equality, never order, so output does not depend
// on it.
var seed = maphash.MakeSeed()

func hashString(s string) uint64 { return maphash.String(seed, s) }

// mix combines two hashes into one that depends on both and their order.
func mix(a, b uint64) uint64 {
	h := (a ^ 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= b + 0x94d049bb133111eb + (h << 6) + (h >> 2)
	h ^= h >> 31
	return h * 0x94d049bb133111eb
}

// table interns strings: each distinct string gets an id, from 0 in order
// of first appearance, and is stored once, in large byte blocks that the
// garbage collector need not scan. It is what keeps a million spawns'
// paths and arguments in memory once each. Nothing it holds is ever
// moved, so growing it copies only the index.
type table struct {
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

// intern returns the id of s, adding it if it is new, and its hash.
func (t *table) intern(s string) (uint32, uint64) {
	h := hashString(s)
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
		if v>>32 == tag && t.get(uint32(v)-1) == s {
			return uint32(v) - 1, h
		}
	}
}

// lookup returns the id of s, whose hash is h, or false when s was never
// interned.
func (t *table) lookup(s string, h uint64) (uint32, bool) {
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
		if v>>32 == tag && t.get(uint32(v)-1) == s {
			return uint32(v) - 1, true
		}
	}
}

// add copies s into the blocks and records where. A string longer than a
// block gets a block of its own.
func (t *table) add(s string) {
	n := len(t.blocks)
	if n == 0 || len(t.blocks[n-1])+len(s) > cap(t.blocks[n-1]) {
		t.blocks = append(t.blocks, make([]byte, 0, max(nextBlockSize(t.blocks), len(s))))
		n++
	}
	b := &t.blocks[n-1]
	t.locs.Append(strLoc{block: uint32(n - 1), off: uint32(len(*b)), n: uint32(len(s))})
	*b = append(*b, s...)
}

func (t *table) grow() {
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

// get returns the string with id: a view of the table's memory, valid as
// long as the table.
func (t *table) get(id uint32) string {
	l := t.locs.At(int(id))
	if l.n == 0 {
		return ""
	}
	return unsafe.String(&t.blocks[l.block][l.off], l.n)
}

func (t *table) len() int { return t.locs.Len() }

// bytes is how much memory the table holds.
func (t *table) bytes() int64 {
	n := t.locs.Bytes() + int64(len(t.index))*8
	for _, b := range t.blocks {
		n += int64(cap(b))
	}
	return n
}
