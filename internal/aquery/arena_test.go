package aquery

import (
	"slices"
	"testing"
)

// Runs read back as they were added, whether they fill a block exactly,
// spill into a new one, or are bigger than a block.
func TestArena(t *testing.T) {
	const block = 1 << arenaBlockBits
	sizes := []int{0, 3, block - 3, 1, 5, block + 7, 2, block, 0, 9}
	var a arena[uint32]
	var pos []uint32
	next := uint32(0)
	run := func(n int) []uint32 {
		r := make([]uint32, n)
		for i := range r {
			r[i] = next
			next++
		}
		return r
	}
	var runs [][]uint32
	for _, n := range sizes {
		r := run(n)
		runs = append(runs, r)
		pos = append(pos, a.add(r))
	}
	for i, r := range runs {
		if got := a.get(pos[i], uint32(len(r))); !slices.Equal(got, r) {
			t.Errorf("run %d (%d elements) reads back wrong: %d elements, first %v", i, len(r), len(got), got[:min(len(got), 3)])
		}
	}
	// 3 and block-3 fill the first block; 1 and 5 start the second; the
	// oversized run gets a block of its own.
	if got := pos[3] >> arenaBlockBits; got != 1 {
		t.Errorf("a run past a full block went to block %d, want 1", got)
	}
	if got := len(a.blocks[pos[5]>>arenaBlockBits]); got != block+7 {
		t.Errorf("an oversized run's block holds %d elements, want %d", got, block+7)
	}
}
