// Package intern keeps strings once: each distinct string of a Table gets
// a small id, and its bytes are stored in large blocks that never move, so
// that the millions of paths and arguments of a big execution log cost
// their bytes and a few words each, and the garbage collector need not
// scan them. The execution-log reader and the comparison's summary of a
// log can share one Table, so that each path is kept once.
package intern

import (
	"hash/maphash"
	"strings"
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
// so growing it copies only the index. The zero value is empty and ready.
// It is not safe for concurrent use.
type Table struct {
	// SplitDirs stores a string with a long enough directory part (up to
	// its last "/") as that part, interned in a table of its own, and the
	// rest: the paths of a build crowd into few directories, so a path
	// then costs about its base name. Get must then build such strings;
	// AppendTo and Equal do not. Set it before the first Intern.
	SplitDirs bool

	blocks [][]byte
	// locs locates each string.
	locs chunks.List[strLoc]
	// index is an open-addressing hash table, its length a power of two
	// kept at most 3/4 full, of tag<<32 | id+1 (0 is empty), the tag being
	// the top half of the string's hash: it places the entry and filters
	// probes, so a probe touches the string only when the tags agree.
	index []uint64
	// dirs holds the directory parts of split strings.
	dirs *Table
}

// strLoc locates a string: its directory part's id + 1 in dirs (0 when it
// is not split), and the rest in the blocks.
type strLoc struct{ dir, block, off, n uint32 }

const (
	// Blocks start small, for the many small logs of tests, and double up
	// to maxBlockSize.
	minBlockSize = 4 << 10
	maxBlockSize = 1 << 20
	// minDirLen is the shortest directory part worth splitting off.
	minDirLen = 8
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
	return t.InternHashed(s, h), h
}

// InternHashed is Intern for a caller that has Hash(s) already.
func (t *Table) InternHashed(s string, h uint64) uint32 {
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
			return id
		}
		if v>>32 == tag && t.equal(uint32(v)-1, s) {
			return uint32(v) - 1
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
		if v>>32 == tag && t.equal(uint32(v)-1, s) {
			return uint32(v) - 1, true
		}
	}
}

// add stores s and records where. A string longer than a block gets a
// block of its own.
func (t *Table) add(s string) {
	var dir uint32
	if t.SplitDirs {
		if i := strings.LastIndexByte(s, '/'); i >= minDirLen {
			if t.dirs == nil {
				t.dirs = new(Table)
			}
			d, _ := t.dirs.Intern(s[:i])
			dir, s = d+1, s[i+1:]
		}
	}
	n := len(t.blocks)
	if n == 0 || len(t.blocks[n-1])+len(s) > cap(t.blocks[n-1]) {
		t.blocks = append(t.blocks, make([]byte, 0, max(nextBlockSize(t.blocks), len(s))))
		n++
	}
	b := &t.blocks[n-1]
	t.locs.Append(strLoc{dir: dir, block: uint32(n - 1), off: uint32(len(*b)), n: uint32(len(s))})
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

// parts returns string id as its directory part ("" when not split) and
// the rest, both views of the table's memory, which never changes.
func (t *Table) parts(id uint32) (dir, rest string) {
	l := t.locs.At(int(id))
	if l.n > 0 {
		rest = unsafe.String(&t.blocks[l.block][l.off], l.n)
	}
	if l.dir != 0 {
		dir = t.dirs.Get(l.dir - 1)
	}
	return dir, rest
}

// equal reports whether string id is s.
func (t *Table) equal(id uint32, s string) bool {
	dir, rest := t.parts(id)
	if dir == "" && t.locs.At(int(id)).dir == 0 {
		return rest == s
	}
	return len(s) == len(dir)+1+len(rest) && s[len(dir)] == '/' && s[:len(dir)] == dir && s[len(dir)+1:] == rest
}

// Get returns the string with id. Unless the table splits directories,
// it is a view of the table's memory, which never changes; a split string
// is built anew (use AppendTo or Equal where that matters).
func (t *Table) Get(id uint32) string {
	dir, rest := t.parts(id)
	if t.locs.At(int(id)).dir == 0 {
		return rest
	}
	return dir + "/" + rest
}

// AppendTo appends string id to b.
func (t *Table) AppendTo(b []byte, id uint32) []byte {
	dir, rest := t.parts(id)
	if t.locs.At(int(id)).dir != 0 {
		b = append(b, dir...)
		b = append(b, '/')
	}
	return append(b, rest...)
}

// HashOf is Hash of string id, without building it.
func (t *Table) HashOf(id uint32) uint64 {
	dir, rest := t.parts(id)
	if t.locs.At(int(id)).dir == 0 {
		return Hash(rest)
	}
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(dir)
	h.WriteByte('/')
	h.WriteString(rest)
	return h.Sum64()
}

// Equal reports whether string ia of a and string ib of b are equal,
// without building them.
func Equal(a *Table, ia uint32, b *Table, ib uint32) bool {
	da, ra := a.parts(ia)
	db, rb := b.parts(ib)
	sa, sb := a.locs.At(int(ia)).dir != 0, b.locs.At(int(ib)).dir != 0
	if sa == sb {
		// Both whole, or both split where the last "/" is: equal strings
		// have equal parts.
		return da == db && ra == rb
	}
	return compareParts(da, sa, ra, db, sb, rb) == 0
}

// Compare compares string ia of a with string ib of b, as strings.Compare
// does, without building them.
func Compare(a *Table, ia uint32, b *Table, ib uint32) int {
	da, ra := a.parts(ia)
	db, rb := b.parts(ib)
	return compareParts(da, a.locs.At(int(ia)).dir != 0, ra, db, b.locs.At(int(ib)).dir != 0, rb)
}

// compareParts compares two strings given as up to three pieces each:
// dir, "/" when split, rest.
func compareParts(da string, sa bool, ra string, db string, sb bool, rb string) int {
	pa := [3]string{da, "", ra}
	if sa {
		pa[1] = "/"
	}
	pb := [3]string{db, "", rb}
	if sb {
		pb[1] = "/"
	}
	i, j := 0, 0 // piece indexes
	x, y := pa[0], pb[0]
	for {
		for x == "" && i < 2 {
			i++
			x = pa[i]
		}
		for y == "" && j < 2 {
			j++
			y = pb[j]
		}
		if x == "" || y == "" {
			switch {
			case x == "" && y == "":
				return 0
			case x == "":
				return -1
			default:
				return 1
			}
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		x, y = x[n:], y[n:]
	}
}

// Len is the number of strings.
func (t *Table) Len() int { return t.locs.Len() }

// Bytes is how much memory the table holds.
func (t *Table) Bytes() int64 {
	n := t.locs.Bytes() + int64(len(t.index))*8
	for _, b := range t.blocks {
		n += int64(cap(b))
	}
	if t.dirs != nil {
		n += t.dirs.Bytes()
	}
	return n
}
