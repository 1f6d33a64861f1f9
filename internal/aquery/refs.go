package aquery

import (
	"cmp"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// A reference to an element that does not exist, or a second element with
// an id already taken, is an error: Bazel never writes either, and
// accepting them would report an action's target as "<unknown target>" or
// lose the workspace status files behind a missing dep set. Ids are
// checked as the elements arrive (builder); references, once the whole
// dump has been read, since Bazel writes actions before the targets and
// dep sets they name and artifacts before their path fragments. A
// singular reference of 0 names nothing (proto3 cannot tell it from an
// absent field, and Bazel numbers from 1); an id in a list is always a
// reference.

// actionRefs are what an action refers to. Only its target and input dep
// sets are used afterwards; the rest is read to be checked.
type actionRefs struct {
	target, configuration, primaryOutput uint32
	aspects, inputs, outputs             []uint32
}

// pendingRefs holds the references that named an id nothing had yet when
// they were read, each with the first element that made it.
type pendingRefs struct {
	// By the index of the first action that named the id. Most actions
	// name a target and dep sets written after them, so these are kept
	// small: four bytes an id, and the actions' offsets apart.
	targets, configurations, aspectDescriptors, inputs, outputs, primaryOutputs table[uint32]
	// actionOffsets holds the offset of every action as varints, each the
	// distance from the previous action's, for naming one in an error.
	// (textproto has no offsets: -1 goes through uint64 and back intact.)
	actionOffsets []byte
	lastOffset    int64
	lastTarget    uint32 // the last action's target
	// By the first target that named the rule class: rule classes are few.
	ruleClasses table[place]
}

// action notes the references of the action at the given place, which is
// the next action in dump order.
func (b *builder) action(at place, r *actionRefs) {
	p := &b.pending
	p.actionOffsets = protowire.AppendVarint(p.actionOffsets, uint64(at.off-p.lastOffset))
	p.lastOffset = at.off
	index := uint32(at.index)
	// Bazel writes the actions of a target one after another.
	if r.target != 0 && r.target != p.lastTarget && !b.g.targets.has(r.target) {
		pend(&p.targets, r.target, index)
	}
	p.lastTarget = r.target
	if r.configuration != 0 && !b.configurations.has(r.configuration) {
		pend(&p.configurations, r.configuration, index)
	}
	if r.primaryOutput != 0 && !b.artifacts.has(r.primaryOutput) {
		pend(&p.primaryOutputs, r.primaryOutput, index)
	}
	for _, id := range r.aspects {
		if !b.aspectDescriptors.has(id) {
			pend(&p.aspectDescriptors, id, index)
		}
	}
	for _, id := range r.inputs {
		if !b.depSets.has(id) {
			pend(&p.inputs, id, index)
		}
	}
	for _, id := range r.outputs {
		if !b.artifacts.has(id) {
			pend(&p.outputs, id, index)
		}
	}
}

// pend records that the action at index named id, unless an earlier one
// did. Actions arrive in dump order, so the first is the earliest.
func pend(t *table[uint32], id, index uint32) { t.set(id, index, true) }

func (p *pendingRefs) ruleClass(at place, id uint32) { p.ruleClasses.set(id, at, true) }

// actionOffset returns the offset of the action with that index.
func (p *pendingRefs) actionOffset(index int) int64 {
	var off int64
	b := p.actionOffsets
	for range index {
		d, n := protowire.ConsumeVarint(b)
		off += int64(d)
		b = b[n:]
	}
	return off
}

// danglingRef is a reference that names nothing, with where it was made.
type danglingRef struct {
	at    place  // the element that made it; index 0 when only its id is known
	elem  uint32 // that element's id, when at.index is 0
	field string // the field it is in
	order int    // the field's place in the element, to break ties
	id    uint32 // what it names
	kind  protowire.Number
}

func (r danglingRef) error() *Error {
	err := fmt.Errorf("%s %d names no %s", r.field, r.id, entryNames[r.kind])
	if r.at.index == 0 {
		return &Error{Entry: fmt.Sprintf("%s with id %d", entryNames[r.at.num], r.elem), Offset: -1, Err: err}
	}
	return &Error{Entry: r.at.entry().String(), Offset: r.at.off, Err: err}
}

// before orders dangling references as they are reported, the first
// first: those whose place in the dump is known in dump order, then the
// others by kind and id.
func (r danglingRef) before(o danglingRef) bool {
	if (r.at.index == 0) != (o.at.index == 0) {
		return r.at.index != 0
	}
	if r.at.index != 0 {
		return cmp.Or(cmp.Compare(r.at.off, o.at.off), cmp.Compare(r.order, o.order), cmp.Compare(r.id, o.id)) < 0
	}
	return cmp.Or(cmp.Compare(r.at.num, o.at.num), cmp.Compare(r.elem, o.elem), cmp.Compare(r.order, o.order), cmp.Compare(r.id, o.id)) < 0
}

// checkReferences returns the first reference that names nothing, as an
// *Error without the file name, or nil.
func (b *builder) checkReferences() error {
	var first *danglingRef
	note := func(r danglingRef) {
		if first == nil || r.before(*first) {
			first = &r
		}
	}
	p := &b.pending
	// Actions, by the first to name each missing id. Their offsets are
	// looked up once the first is known.
	for _, c := range []struct {
		pending *table[uint32]
		defined func(uint32) bool
		field   string
		kind    protowire.Number
	}{
		{&p.targets, b.g.targets.has, "target_id", fieldTargets},
		{&p.aspectDescriptors, b.aspectDescriptors.has, "aspect_descriptor_ids", fieldAspectDescriptors},
		{&p.configurations, b.configurations.has, "configuration_id", fieldConfiguration},
		{&p.inputs, b.depSets.has, "input_dep_set_ids", fieldDepSetOfFiles},
		{&p.outputs, b.artifacts.has, "output_ids", fieldArtifacts},
		{&p.primaryOutputs, b.artifacts.has, "primary_output_id", fieldArtifacts},
	} {
		order := fieldOrder(c.field)
		for id, index := range c.pending.all {
			if !c.defined(id) {
				// The offset stands in for dump order until the real
				// one is looked up: actions are numbered in dump order.
				note(danglingRef{at: place{off: int64(index), index: int(index), num: fieldActions}, field: c.field, order: order, id: id, kind: c.kind})
			}
		}
	}
	if first != nil {
		first.at.off = p.actionOffset(first.at.index)
	}
	var firstAction *danglingRef
	firstAction, first = first, nil
	for id, at := range p.ruleClasses.all {
		if !b.ruleClasses.has(id) {
			note(danglingRef{at: at, field: "rule_class_id", id: id, kind: fieldRuleClasses})
		}
	}
	if firstAction != nil {
		note(*firstAction)
	}
	if first != nil {
		return first.error()
	}
	// The elements the builder keeps are checked from what it keeps, and
	// named by their ids: their places in the dump are not kept.
	for id, fid := range b.artifacts.all {
		if fid != 0 && !b.fragments.has(fid) {
			note(danglingRef{at: place{num: fieldArtifacts}, elem: id, field: "path_fragment_id", id: fid, kind: fieldPathFragments})
		}
	}
	for id, ref := range b.depSets.all {
		ids := b.depSetIDs.Get(ref.pos, ref.direct+ref.trans)
		for _, t := range ids[ref.direct:] {
			if !b.depSets.has(t) {
				note(danglingRef{at: place{num: fieldDepSetOfFiles}, elem: id, field: "transitive_dep_set_ids", order: 2, id: t, kind: fieldDepSetOfFiles})
			}
		}
		for _, a := range ids[:ref.direct] {
			if !b.artifacts.has(a) {
				note(danglingRef{at: place{num: fieldDepSetOfFiles}, elem: id, field: "direct_artifact_ids", order: 3, id: a, kind: fieldArtifacts})
			}
		}
	}
	for id, f := range b.fragments.all {
		if f.parent != 0 && !b.fragments.has(f.parent) {
			note(danglingRef{at: place{num: fieldPathFragments}, elem: id, field: "parent_id", id: f.parent, kind: fieldPathFragments})
		}
	}
	if first != nil {
		return first.error()
	}
	return nil
}

// fieldOrder is an action field's number, which orders the references of
// one action.
func fieldOrder(field string) int {
	return map[string]int{"target_id": 1, "aspect_descriptor_ids": 2, "configuration_id": 5,
		"input_dep_set_ids": 8, "output_ids": 9, "primary_output_id": 13}[field]
}
