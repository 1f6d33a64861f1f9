// Package chunks provides an append-only list kept in fixed-size chunks,
// for the big tables of the execution-log readers and comparison: growing
// it never copies what it holds, nor leaves an old copy behind as garbage,
// and a pointer to an element stays valid for good.
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
