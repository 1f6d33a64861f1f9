package chunks

import (
	"slices"
	"testing"
)

func TestList(t *testing.T) {
	var l List[int]
	const n = 3*size + 17
	for i := range n {
		l.Append(i)
	}
	if l.Len() != n {
		t.Fatalf("Len %d", l.Len())
	}
	for i := range n {
		if *l.At(i) != i {
			t.Fatalf("At(%d) = %d", i, *l.At(i))
		}
	}
	*l.At(size + 1) = -1
	if *l.At(size + 1) != -1 {
		t.Error("At does not point into the list")
	}
	// Once its chunk is full, an element never moves again.
	p := l.At(size)
	for range size {
		l.Append(0)
	}
	if p != l.At(size) {
		t.Error("an element of a full chunk moved")
	}
	if l.Bytes() < int64(l.Len())*8 {
		t.Errorf("Bytes %d for %d ints", l.Bytes(), l.Len())
	}
}

// Runs read back as they were added, whether they fill a block exactly,
// spill into a new one, or are bigger than a block.
func TestArena(t *testing.T) {
	const block = 1 << arenaBits
	sizes := []int{0, 3, block - 3, 1, 5, block + 7, 2, block, 0, 9}
	var a Arena[uint32]
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
		p, ok := a.Add(r)
		if !ok {
			t.Fatalf("the arena is full after %d runs", len(runs))
		}
		pos = append(pos, p)
	}
	for i, r := range runs {
		if got := a.Get(pos[i], uint32(len(r))); !slices.Equal(got, r) {
			t.Errorf("run %d (%d elements) reads back wrong: %d elements, first %v", i, len(r), len(got), got[:min(len(got), 3)])
		}
	}
	// 3 and block-3 fill the first block; 1 and 5 start the second; the
	// oversized run gets a block of its own.
	if got := pos[3] >> arenaBits; got != 1 {
		t.Errorf("a run past a full block went to block %d, want 1", got)
	}
	if got := len(a.blocks[pos[5]>>arenaBits]); got != block+7 {
		t.Errorf("an oversized run's block holds %d elements, want %d", got, block+7)
	}
	// A run read back cannot be appended to over its neighbour.
	if got := a.Get(pos[1], 3); cap(got) != 3 {
		t.Errorf("a run has capacity %d past its end", cap(got)-3)
	}
}
