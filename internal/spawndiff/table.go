package spawndiff

import (
	"hash/maphash"
	"unsafe"
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
// of first appearance, and is stored once, in large byte blocks the
// garbage collector need not scan. It is what keeps a million spawns'
// paths and arguments in memory once each.
type table struct {
	blocks [][]byte
	locs   []strLoc
	hashes []uint64
	// index is an open-addressing hash table of id+1 (0 is empty), its
	// length a power of two kept at most 3/4 full.
	index []uint32
}

type strLoc struct{ block, off, n uint32 }

// Blocks start small, for the many small logs of tests, and double up to
// maxBlockSize.
const (
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
	return t.internHashed(s, h), h
}

func (t *table) internHashed(s string, h uint64) uint32 {
	if 4*(len(t.locs)+1) > 3*len(t.index) {
		t.grow()
	}
	mask := uint64(len(t.index) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.index[i]
		if v == 0 {
			id := uint32(len(t.locs))
			t.locs = append(t.locs, t.store(s))
			t.hashes = append(t.hashes, h)
			t.index[i] = id + 1
			return id
		}
		if t.hashes[v-1] == h && t.get(v-1) == s {
			return v - 1
		}
	}
}

// lookup returns the id of s, or false when s was never interned.
func (t *table) lookup(s string, h uint64) (uint32, bool) {
	if len(t.index) == 0 {
		return 0, false
	}
	mask := uint64(len(t.index) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.index[i]
		if v == 0 {
			return 0, false
		}
		if t.hashes[v-1] == h && t.get(v-1) == s {
			return v - 1, true
		}
	}
}

// store copies s into the blocks. A string longer than a block gets a
// block of its own.
func (t *table) store(s string) strLoc {
	n := len(t.blocks)
	if n == 0 || len(t.blocks[n-1])+len(s) > cap(t.blocks[n-1]) {
		t.blocks = append(t.blocks, make([]byte, 0, max(nextBlockSize(t.blocks), len(s))))
		n++
	}
	b := &t.blocks[n-1]
	loc := strLoc{block: uint32(n - 1), off: uint32(len(*b)), n: uint32(len(s))}
	*b = append(*b, s...)
	return loc
}

func (t *table) grow() {
	size := max(64, 2*len(t.index))
	t.index = make([]uint32, size)
	mask := uint64(size - 1)
	for id, h := range t.hashes {
		i := h & mask
		for t.index[i] != 0 {
			i = (i + 1) & mask
		}
		t.index[i] = uint32(id) + 1
	}
}

// get returns the string with id: a view of the table's memory, valid as
// long as the table.
func (t *table) get(id uint32) string {
	l := t.locs[id]
	if l.n == 0 {
		return ""
	}
	return unsafe.String(&t.blocks[l.block][l.off], l.n)
}

func (t *table) hash(id uint32) uint64 { return t.hashes[id] }

func (t *table) len() int { return len(t.locs) }

// bytes is how much memory the table holds.
func (t *table) bytes() int64 {
	n := int64(len(t.locs))*int64(unsafe.Sizeof(strLoc{})) + int64(len(t.hashes))*8 + int64(len(t.index))*4
	for _, b := range t.blocks {
		n += int64(cap(b))
	}
	return n
}
