package chunks

import "testing"

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
