package aquery

import "slices"

// table maps proto ids to values. Bazel numbers artifacts, dep sets, targets
// and path fragments densely from 1, so ids that fit in (or just past) the
// slice are stored there at a few bytes each; the rare far-off id (a
// hand-written or corrupted dump) goes to a map so that one huge id cannot
// make us allocate a huge slice.
type table[V any] struct {
	dense  []V
	has    []bool
	sparse map[uint32]V
	n      int
}

// denseSlack is how far past twice the number of entries an id may be and
// still extend the dense part.
const denseSlack = 4096

// set stores v under id. When first is true an existing entry is kept.
func (t *table[V]) set(id uint32, v V, first bool) {
	// Growth is bounded by the number of entries, not the current length,
	// so that ids that keep doubling cannot make the slice outgrow the
	// input.
	if int(id) < len(t.dense) || int64(id) < int64(t.n)*2+denseSlack {
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
		if int(id) >= len(t.dense) {
			t.dense = slices.Grow(t.dense, int(id)+1-len(t.dense))[:int(id)+1]
			t.has = slices.Grow(t.has, int(id)+1-len(t.has))[:int(id)+1]
		}
		if t.has[id] {
			if first {
				return
			}
		} else {
			t.n++
		}
		t.dense[id], t.has[id] = v, true
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
	if int(id) < len(t.dense) && t.has[id] {
		return t.dense[id], true
	}
	v, ok := t.sparse[id]
	return v, ok
}

func (t *table[V]) len() int { return t.n }

// ids returns every id in ascending order.
func (t *table[V]) ids() []uint32 {
	out := make([]uint32, 0, t.n)
	for id, ok := range t.has {
		if ok {
			out = append(out, uint32(id))
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
