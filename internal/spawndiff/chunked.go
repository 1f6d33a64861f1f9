package spawndiff

import "unsafe"

// chunked is an append-only array kept in fixed-size chunks, so that
// growing it never copies what it holds or leaves the old copy behind as
// garbage: a million-spawn log's records and per-path facts grow to tens
// of megabytes. The first chunk starts small, for small logs, and grows
// to full size by itself.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

func (c *chunked[T]) append(v T) {
	if c.n&(chunkSize-1) == 0 && c.n > 0 || len(c.chunks) == 0 {
		size := chunkSize
		if len(c.chunks) == 0 {
			size = 64
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

// at returns the element at i, to read or change in place.
func (c *chunked[T]) at(i int) *T { return &c.chunks[i>>chunkBits][i&(chunkSize-1)] }

func (c *chunked[T]) len() int { return c.n }

// bytes is how much memory the array holds.
func (c *chunked[T]) bytes() int64 {
	var zero T
	n := int64(0)
	for _, ch := range c.chunks {
		n += int64(cap(ch)) * int64(unsafe.Sizeof(zero))
	}
	return n
}
