package aquery

import "slices"

// table maps proto ids to values. Bazel numbers artifacts, dep sets,
// targets and path fragments densely from 1, but a dump that was stitched
// together, or renumbered to share one id space among all kinds, spreads
// a kind's ids thin. So ids live in pages of pageLen slots, allocated only
// where ids fall: a few bytes per id when they are dense, and still a
// slice index rather than a hash lookup when one id in sixteen is used.
// Only ids so far off that a page for them would break that bound (a
// hand-written or corrupted dump) go to a map, so that one huge id cannot
// make us allocate a huge table.
type table[V any] struct {
	pages     []*page[V] // pages[id>>pageBits]; nil where no id fell
	allocated int        // non-nil pages
	sparse    map[uint32]V
	n         int
}

const pageBits = 10
const pageLen = 1 << pageBits

type page[V any] struct {
	v   [pageLen]V
	has [pageLen]bool
}

// denseSlack is how many slots past sixteen per entry the pages may hold,
// so that small graphs never touch the map.
const denseSlack = 4096

// pageFor returns the page for id, allocating it when the pages stay
// within sixteen slots per entry and the page index within 64 per entry;
// nil means id is stored in the map.
func (t *table[V]) pageFor(id uint32) *page[V] {
	pi := int(id >> pageBits)
	if pi < len(t.pages) && t.pages[pi] != nil {
		return t.pages[pi]
	}
	budget := int64(t.n) + 1
	if int64(pi) >= 64*budget+denseSlack || int64(t.allocated+1)*pageLen > 16*budget+denseSlack {
		return nil
	}
	if pi >= len(t.pages) {
		t.pages = slices.Grow(t.pages, pi+1-len(t.pages))[:pi+1]
	}
	p := new(page[V])
	t.pages[pi] = p
	t.allocated++
	return p
}

// set stores v under id and reports whether id was new. When first is
// true an existing entry is kept.
func (t *table[V]) set(id uint32, v V, first bool) bool {
	if p := t.pageFor(id); p != nil {
		if t.sparse != nil {
			// A page now covers an id stored earlier in the map.
			if _, ok := t.sparse[id]; ok {
				if first {
					return false
				}
				delete(t.sparse, id)
				t.n--
			}
		}
		i := id & (pageLen - 1)
		isNew := !p.has[i]
		if !isNew && first {
			return false
		}
		if isNew {
			t.n++
		}
		p.v[i], p.has[i] = v, true
		return isNew
	}
	if t.sparse == nil {
		t.sparse = make(map[uint32]V)
	}
	_, ok := t.sparse[id]
	if ok && first {
		return false
	}
	if !ok {
		t.n++
	}
	t.sparse[id] = v
	return !ok
}

func (t *table[V]) get(id uint32) (V, bool) {
	if pi := int(id >> pageBits); pi < len(t.pages) {
		if p := t.pages[pi]; p != nil && p.has[id&(pageLen-1)] {
			return p.v[id&(pageLen-1)], true
		}
	}
	v, ok := t.sparse[id]
	return v, ok
}

func (t *table[V]) has(id uint32) bool {
	if pi := int(id >> pageBits); pi < len(t.pages) {
		if p := t.pages[pi]; p != nil && p.has[id&(pageLen-1)] {
			return true
		}
	}
	_, ok := t.sparse[id]
	return ok
}

func (t *table[V]) len() int { return t.n }

// all yields every id and its value, in no particular order.
func (t *table[V]) all(yield func(uint32, V) bool) {
	for pi, p := range t.pages {
		if p == nil {
			continue
		}
		for i, ok := range p.has {
			if ok && !yield(uint32(pi<<pageBits|i), p.v[i]) {
				return
			}
		}
	}
	for id, v := range t.sparse {
		if !yield(id, v) {
			return
		}
	}
}

// ids returns every id in ascending order.
func (t *table[V]) ids() []uint32 {
	out := make([]uint32, 0, t.n)
	for pi, p := range t.pages {
		if p == nil {
			continue
		}
		for i, ok := range p.has {
			if ok {
				out = append(out, uint32(pi<<pageBits|i))
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
