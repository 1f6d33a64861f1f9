package aquery

import "slices"

// table maps proto ids to values. Bazel numbers artifacts, dep sets, targets
// and path fragments densely from 1, so ids that fit in (or just past) the
// dense part are stored there at a few bytes each; the rare far-off id (a
// hand-written or corrupted dump) goes to a map so that one huge id cannot
// make us allocate a huge slice.
//
// The dense part is a list of fixed-size chunks rather than one slice: a
// graph of millions of artifacts would otherwise grow a slice of tens of
// megabytes by copying it, holding old and new at once.
type table[V any] struct {
	chunks []*chunk[V]
	size   int // ids below size are in the dense part
	sparse map[uint32]V
	n      int
}

const chunkBits = 14
const chunkLen = 1 << chunkBits

type chunk[V any] struct {
	v   [chunkLen]V
	has [chunkLen]bool
}

// denseSlack is how far past twice the number of entries an id may be and
// still extend the dense part.
const denseSlack = 4096

func (t *table[V]) slot(id uint32) (*V, *bool) {
	c := t.chunks[id>>chunkBits]
	return &c.v[id&(chunkLen-1)], &c.has[id&(chunkLen-1)]
}

// set stores v under id. When first is true an existing entry is kept.
func (t *table[V]) set(id uint32, v V, first bool) {
	// Growth is bounded by the number of entries, not the current size,
	// so that ids that keep doubling cannot make the table outgrow the
	// input.
	if int(id) < t.size || int64(id) < int64(t.n)*2+denseSlack {
		if t.sparse != nil {
			// The dense part has grown over an id stored earlier as sparse.
			if _, ok := t.sparse[id]; ok {
				if first {
					return
				}
				delete(t.sparse, id)
				t.n--
			}
		}
		for int(id) >= t.size {
			t.chunks = append(t.chunks, new(chunk[V]))
			t.size += chunkLen
		}
		slot, has := t.slot(id)
		if *has {
			if first {
				return
			}
		} else {
			t.n++
		}
		*slot, *has = v, true
		return
	}
	if t.sparse == nil {
		t.sparse = make(map[uint32]V)
	}
	if _, ok := t.sparse[id]; ok {
		if first {
			return
		}
	} else {
		t.n++
	}
	t.sparse[id] = v
}

func (t *table[V]) get(id uint32) (V, bool) {
	if int(id) < t.size {
		slot, has := t.slot(id)
		if *has {
			return *slot, true
		}
	}
	v, ok := t.sparse[id]
	return v, ok
}

func (t *table[V]) len() int { return t.n }

// ids returns every id in ascending order.
func (t *table[V]) ids() []uint32 {
	out := make([]uint32, 0, t.n)
	for ci, c := range t.chunks {
		for i, ok := range c.has {
			if ok {
				out = append(out, uint32(ci<<chunkBits|i))
			}
		}
	}
	if len(t.sparse) == 0 {
		return out
	}
	for id := range t.sparse {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
