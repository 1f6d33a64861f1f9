// Package chunks provides append-only storage kept in fixed-size chunks,
// for the big tables of the readers and the comparison of logs: a List of
// elements and an Arena of runs of elements. Growing either never copies
// what it holds (past a small first chunk), nor leaves an old copy behind
// as garbage, and what was added stays where it is for good.
package chunks

import "unsafe"

const (
	bits = 14
	size = 1 << bits
	// firstSize is where the first chunk starts; it grows to full size by
	// appending, so that small lists stay small.
	firstSize = 64
)

// List is an append-only list of T. The zero value is empty and ready.
type List[T any] struct {
	chunks [][]T
	n      int
}

// Append adds v at the end.
func (l *List[T]) Append(v T) {
	if len(l.chunks) == 0 {
		l.chunks = append(l.chunks, make([]T, 0, firstSize))
	} else if l.n&(size-1) == 0 {
		l.chunks = append(l.chunks, make([]T, 0, size))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, v)
	l.n++
}

// At returns the element at i, to read or change in place.
func (l *List[T]) At(i int) *T { return &l.chunks[i>>bits][i&(size-1)] }

// Len is the number of elements.
func (l *List[T]) Len() int { return l.n }

// Bytes is how much memory the list's chunks hold.
func (l *List[T]) Bytes() int64 {
	var zero T
	n := int64(0)
	for _, c := range l.chunks {
		n += int64(cap(c)) * int64(unsafe.Sizeof(zero))
	}
	return n
}

// Arena is an append-only store of runs of T, such as the labels of every
// path fragment or the ids of every set, kept in fixed-size blocks: a big
// graph's or log's tens of megabytes are never grown by copying, and a run
// is located by one uint32 rather than a slice header the collector
// scans. The zero value is empty and ready.
type Arena[T any] struct {
	blocks [][]T
}

// arenaBits sets the block size, 1<<arenaBits elements, and so how a
// position splits into block and offset: up to 1<<(32-arenaBits) blocks.
const arenaBits = 16

// arenaFirstBlock is the first block's size: it doubles up to a whole
// block before a second one starts, so that a small arena holds a few
// kilobytes.
const arenaFirstBlock = 1 << 10

// Add copies xs into the arena and returns its position, for Get(pos,
// len(xs)); it reports false when the arena is full (some four billion
// elements). A run never straddles two blocks: one that does not fit in
// the last block starts a new one, as big as the run needs.
func (a *Arena[T]) Add(xs []T) (uint32, bool) {
	n := len(a.blocks)
	if n == 1 && len(a.blocks[0])+len(xs) > cap(a.blocks[0]) && len(a.blocks[0])+len(xs) <= 1<<arenaBits {
		// The first block grows, moving at most a block; positions are
		// offsets in it, so they stay valid.
		a.blocks[0] = append(make([]T, 0, min(max(2*cap(a.blocks[0]), len(a.blocks[0])+len(xs)), 1<<arenaBits)), a.blocks[0]...)
	}
	if n == 0 || len(a.blocks[n-1])+len(xs) > cap(a.blocks[n-1]) {
		if n == 1<<(32-arenaBits) {
			return 0, false
		}
		size := 1 << arenaBits
		if n == 0 {
			size = arenaFirstBlock
		}
		a.blocks = append(a.blocks, make([]T, 0, max(size, len(xs))))
		n++
	}
	b := &a.blocks[n-1]
	pos := uint32(n-1)<<arenaBits | uint32(len(*b))
	*b = append(*b, xs...)
	return pos, true
}

// Get returns the n elements added at pos, to read but not to append to.
func (a *Arena[T]) Get(pos, n uint32) []T {
	off := pos & (1<<arenaBits - 1)
	return a.blocks[pos>>arenaBits][off : off+n : off+n]
}

// Bytes is how much memory the arena's blocks hold.
func (a *Arena[T]) Bytes() int64 {
	var zero T
	n := int64(0)
	for _, b := range a.blocks {
		n += int64(cap(b)) * int64(unsafe.Sizeof(zero))
	}
	return n
}
