package aquery

// arena is an append-only store of runs of T, such as the labels of every
// path fragment or the ids of every dep set, kept in fixed-size blocks: a
// big graph's tens of megabytes are never grown by copying, and a run is
// located by one uint32 rather than a slice header the collector scans.
type arena[T any] struct {
	blocks [][]T
}

// arenaBlockBits sets the block size, 1<<arenaBlockBits elements, and so
// how a position splits into block and offset: 1<<(32-arenaBlockBits)
// blocks of 64k elements, more than any graph that fits in memory needs.
const arenaBlockBits = 16

// arenaFirstBlock is the first block's size: it doubles up to a whole
// block before a second one starts, so that a small graph holds a few
// kilobytes, not a block for each arena.
const arenaFirstBlock = 1 << 10

// add copies xs into the arena and returns its position; get(pos,
// len(xs)) reads it back. A run never straddles two blocks: one that does
// not fit in the last block starts a new one, as big as the run needs.
func (a *arena[T]) add(xs []T) uint32 {
	n := len(a.blocks)
	if n == 1 && len(a.blocks[0])+len(xs) > cap(a.blocks[0]) && len(a.blocks[0])+len(xs) <= 1<<arenaBlockBits {
		// The first block grows, moving at most a block; positions are
		// offsets in it, so they stay valid.
		a.blocks[0] = append(make([]T, 0, min(max(2*cap(a.blocks[0]), len(a.blocks[0])+len(xs)), 1<<arenaBlockBits)), a.blocks[0]...)
	}
	if n == 0 || len(a.blocks[n-1])+len(xs) > cap(a.blocks[n-1]) {
		size := 1 << arenaBlockBits
		if n == 0 {
			size = arenaFirstBlock
		}
		a.blocks = append(a.blocks, make([]T, 0, max(size, len(xs))))
		n++
	}
	b := &a.blocks[n-1]
	pos := uint32(n-1)<<arenaBlockBits | uint32(len(*b))
	*b = append(*b, xs...)
	return pos
}

// get returns the n elements added at pos.
func (a *arena[T]) get(pos, n uint32) []T {
	off := pos & (1<<arenaBlockBits - 1)
	return a.blocks[pos>>arenaBlockBits][off : off+n]
}
