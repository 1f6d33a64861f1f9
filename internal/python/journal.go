package python

import (
	"slices"

	"github.com/ahab-go/ahab/internal/effect"
)

// Taking a value out of an object (tarinfo.mtime = 0, names.sort()) is
// the one change to the heap that makes a value vary less, so a branch
// whose condition is not known must not make it for the others: inside
// branches each removal is kept in the journal, put back before the next
// branch starts, and made again after they join only where every branch
// that goes on made it.

// slot is the part of an object a removal took values out of: an item by
// its index, or one of these.
type slot int32

const (
	slotWhole   slot = -1 - iota // the object's whole
	slotLatent                   // a set's order
	slotMore                     // the items the reader does not list
	slotSettled                  // orders settled (run.settled), of no object
)

type removal struct {
	obj  *object
	slot slot
	t    taints
}

// unjournaled makes the removals until the function it returns is
// called ones that no branch puts back: those of an object just made.
func (r *run) unjournaled() func() {
	saved := r.branched
	r.branched = 0
	return func() { r.branched = saved }
}

// takeOut takes the values vs out of one slot of an object.
func (r *run) takeOut(o *object, s slot, vs []effect.Value) {
	var gone taints
	switch {
	case s == slotWhole:
		gone = r.only(o.whole, vs)
	case s == slotLatent:
		gone = r.only(o.latent, vs)
	case s == slotMore:
		gone = r.only(shallowTaints(*o.more), vs)
	default:
		gone = r.only(shallowTaints(o.items[s]), vs)
	}
	if len(gone) == 0 {
		return
	}
	r.drop(removal{obj: o, slot: s, t: gone})
	if r.branched > 0 {
		r.journal = append(r.journal, removal{obj: o, slot: s, t: gone})
	}
}

// settle marks orders the program fixed after the values they went into
// were made (a walk's, by sorting its dirnames in place).
func (r *run) settle(ids taints) {
	var now taints
	for _, id := range ids {
		if !r.settled[id] {
			r.settled[id] = true
			now = append(now, id)
		}
	}
	if len(now) > 0 && r.branched > 0 {
		r.journal = append(r.journal, removal{slot: slotSettled, t: now})
	}
}

// shallowTaints are a value's own taints and, for one of several values,
// each one's: what sorting a list takes out of its items.
func shallowTaints(v value) taints {
	t := v.taints
	for _, a := range v.alts {
		t = t.union(a.taints)
	}
	return t
}

func withoutIDs(v value, t taints) value {
	drop := func(x taints) taints {
		return slices.DeleteFunc(slices.Clone(x), func(id int32) bool { return slices.Contains(t, id) })
	}
	v.taints = drop(v.taints)
	if len(v.alts) > 0 {
		alts := slices.Clone(v.alts)
		for i := range alts {
			alts[i].taints = drop(alts[i].taints)
		}
		v.alts = alts
	}
	return v
}

// drop makes a removal: the ids it holds leave the slot.
func (r *run) drop(x removal) {
	switch {
	case x.slot == slotSettled:
		for _, id := range x.t {
			r.settled[id] = true
		}
	case x.slot == slotWhole:
		x.obj.whole = withoutIDs(value{taints: x.obj.whole}, x.t).taints
	case x.slot == slotLatent:
		x.obj.latent = withoutIDs(value{taints: x.obj.latent}, x.t).taints
	case x.slot == slotMore:
		m := withoutIDs(*x.obj.more, x.t)
		x.obj.more = &m
	default:
		x.obj.items[x.slot] = withoutIDs(x.obj.items[x.slot], x.t)
	}
}

// undo puts back what a removal took out.
func (r *run) undo(x removal) {
	switch {
	case x.slot == slotSettled:
		for _, id := range x.t {
			delete(r.settled, id)
		}
	case x.slot == slotWhole:
		x.obj.whole = x.obj.whole.union(x.t)
	case x.slot == slotLatent:
		x.obj.latent = x.obj.latent.union(x.t)
	case x.slot == slotMore:
		m := withTaints(*x.obj.more, x.t)
		x.obj.more = &m
	case int(x.slot) < len(x.obj.items):
		x.obj.items[x.slot] = withTaints(x.obj.items[x.slot], x.t)
	}
}

// undoSince puts back what the removals since mark took out, latest
// first, and returns them.
func (r *run) undoSince(mark int) []removal {
	done := slices.Clone(r.journal[mark:])
	for i := len(done) - 1; i >= 0; i-- {
		r.undo(done[i])
	}
	r.journal = r.journal[:mark]
	return done
}

// takeCommon makes again, after branches join, what every branch that
// went on took out.
func (r *run) takeCommon(took [][]removal) {
	for _, x := range took[0] {
		gone := x.t
		for _, other := range took[1:] {
			gone = intersect(gone, removedFrom(other, x.obj, x.slot))
		}
		if len(gone) == 0 {
			continue
		}
		y := removal{obj: x.obj, slot: x.slot, t: gone}
		r.drop(y)
		if r.branched > 0 {
			r.journal = append(r.journal, y)
		}
	}
}

// removedFrom is what a branch's removals took out of one slot.
func removedFrom(rs []removal, o *object, s slot) taints {
	var t taints
	for _, x := range rs {
		if x.obj == o && x.slot == s {
			t = t.union(x.t)
		}
	}
	return t
}

func intersect(a, b taints) taints {
	var out taints
	for _, id := range a {
		if slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	return out
}
