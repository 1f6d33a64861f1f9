package aquery

import (
	"errors"
	"fmt"
	"github.com/ahab-go/ahab/internal/action"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/chunks"
)

// Graph holds what the lookups after Decode need, and nothing else: target
// labels, and for every dep set the workspace status files it reaches. It is
// read-only once Decode has returned, so it is safe for concurrent use.
type Graph struct {
	// targets locates each target's label in targetLabels: a few bytes
	// per target rather than a string the collector scans.
	targets      table[span]
	targetLabels chunks.Arena[byte]
	// reach holds, for each dep set that reaches a status file, which of
	// reachLists lists the status artifacts it reaches, in the order first
	// reached. Most dep sets reach what one child does, and share its list.
	reach      table[uint32]
	reachLists [][]uint32
	// statusPaths maps a status artifact id to its reconstructed path.
	statusPaths map[uint32]string
	actions     int
	targetCount int
	// paths names artifacts; nil unless Options.ArtifactPaths or DepSets.
	paths *artifactPaths
	// depSets and depSetIDs are the builder's; empty unless Options.DepSets.
	depSets   table[depSetRef]
	depSetIDs chunks.Arena[uint32]
}

// Inputs calls visit with the id and exec path of every artifact the
// given input dep sets reach, each once, dep sets in the given order and
// within one its direct artifacts before its transitive sets, until visit
// returns false. It needs Options.DepSets; without it, it visits nothing.
// Each dep set is walked once per call, so the cost is the size of what
// the action reads, however the sets are shared.
func (g *Graph) Inputs(depSets []uint32, visit func(id uint32, path string) bool) {
	if g.paths == nil || g.depSets.len() == 0 {
		return
	}
	seenSet := map[uint32]bool{}
	seenArtifact := map[uint32]bool{}
	stack := slices.Clone(depSets)
	slices.Reverse(stack)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seenSet[id] {
			continue
		}
		seenSet[id] = true
		ref, ok := g.depSets.get(id)
		if !ok {
			continue
		}
		ids := g.depSetIDs.Get(ref.pos, ref.direct+ref.trans)
		for _, a := range ids[:ref.direct] {
			if seenArtifact[a] {
				continue
			}
			seenArtifact[a] = true
			if p, ok := g.ArtifactPath(a); ok && !visit(a, p) {
				return
			}
		}
		for i := len(ids) - 1; i >= int(ref.direct); i-- {
			stack = append(stack, ids[i])
		}
	}
}

// ArtifactPath returns the exec path of the artifact with that id, when
// Decode was asked to keep artifact paths (Options.ArtifactPaths) and the
// dump has the artifact.
func (g *Graph) ArtifactPath(id uint32) (string, bool) {
	if g.paths == nil {
		return "", false
	}
	fid, ok := g.paths.artifacts.get(id)
	if !ok {
		return "", false
	}
	return g.paths.fragmentPath(fid)
}

// UnknownTarget is the label of a target id that names nothing (§3.0).
const UnknownTarget = "<unknown target>"

// Target returns the label of the target with that id, or UnknownTarget
// when there is none (§3.0).
func (g *Graph) Target(id uint32) string {
	if sp, ok := g.targets.get(id); ok {
		// The labels are never written again once decoded.
		return ownedString(g.targetLabels.Get(sp.pos, sp.len))
	}
	return UnknownTarget
}

// span locates a run of an arena.
type span struct{ pos, len uint32 }

// StatusInputs returns the paths of the workspace status files
// (stable-status.txt, volatile-status.txt) reachable from the given input dep
// sets, each once, in the order first reached (§3.5): dep sets in the given
// order, and within one its direct artifacts before its transitive sets.
func (g *Graph) StatusInputs(depSets []uint32) []string {
	if len(g.statusPaths) == 0 {
		return nil
	}
	var out []string
	var seen []uint32
	var seenSet map[uint32]struct{} // once seen is long
	for _, ds := range depSets {
		list, ok := g.reach.get(ds)
		if !ok {
			continue
		}
		for _, id := range g.reachLists[list] {
			if seenSet != nil {
				if _, ok := seenSet[id]; ok {
					continue
				}
				seenSet[id] = struct{}{}
			} else if slices.Contains(seen, id) {
				continue
			} else if seen = append(seen, id); len(seen) > 16 {
				seenSet = make(map[uint32]struct{}, 2*len(seen))
				for _, x := range seen {
					seenSet[x] = struct{}{}
				}
			}
			out = append(out, g.statusPaths[id])
		}
	}
	return out
}

// Actions returns how many actions Decode read.
func (g *Graph) Actions() int { return g.actions }

// Targets returns how many targets the dump lists.
func (g *Graph) Targets() int { return g.targetCount }

// depSetRef locates one dep set's ids in builder.depSetIDs: its direct
// artifact ids, then its transitive dep set ids.
type depSetRef struct {
	pos           uint32 // in builder.depSetIDs
	direct, trans uint32 // how many of each
}

// fragment is a path fragment whose label sits in builder.labels, so that
// the hundreds of thousands of fragments of a big graph are a few blocks
// the garbage collector need not scan, not one string each.
type fragment struct {
	pos, len uint32 // the label is labels.get(pos, len)
	parent   uint32
}

// builder collects, while the dump streams past, the parts of the graph that
// later lookups need, and checks that every id is defined once and every
// reference names something; finish turns them into a Graph and drops the
// rest.
type builder struct {
	g Graph
	artifactPaths
	keepPaths bool // hand artifactPaths to the Graph (Options.ArtifactPaths)
	// keepDepSets hands the dep sets to the Graph (Options.DepSets).
	keepDepSets bool
	depSets     table[depSetRef]
	// depSetIDs holds every dep set's ids back to back, so that a dep set
	// costs its ids and one small header rather than two slices.
	depSetIDs chunks.Arena[uint32]
	// The ids of the elements nothing reads, for the references to them.
	configurations, aspectDescriptors, ruleClasses table[struct{}]
	pending                                        pendingRefs
}

// graphSink receives the graph's elements as they are decoded, each with
// its place in the dump: the builder itself, or a graphLog that a pipeline
// worker fills for the builder to replay in dump order. A sink copies what
// it keeps of label and ids.
type graphSink interface {
	target(at place, id uint32, label []byte, ruleClass uint32) error
	artifact(at place, id, fragmentID uint32) error
	pathFragment(at place, id uint32, label []byte, parent uint32) error
	depSet(at place, id uint32, ids []uint32, direct int) error
	// other is an element nothing reads but its id: a configuration, an
	// aspect descriptor or a rule class.
	other(at place, id uint32) error
	// action hands over what an action refers to.
	action(at place, refs *actionRefs)
}

// graphLog records a batch of elements, decoded on any worker, so that
// they reach the builder in dump order: a repeated id is then found where
// a sequential read finds it. Replaying is the one part of the graph's
// elements that runs on a single goroutine, so a log is compact: small
// fixed-size records, with labels and ids in two buffers.
type graphLog struct {
	ops    []graphOp
	labels []byte   // labels, back to back
	ids    []uint32 // dep sets' and actions' ids, back to back
}

type graphOp struct {
	off        int64  // where the element starts in the dump
	index      uint32 // its number among the elements of its kind
	id, x      uint32 // x: fragment id, parent id, direct count, rule class or configuration
	start, end uint32 // the label is labels[start:end]; the ids are ids[start:end]
	num        uint8  // the container field: which builder method
}

func (op *graphOp) place() place {
	return place{off: op.off, index: int(op.index), num: protowire.Number(op.num)}
}

func (l *graphLog) reset() { l.ops, l.labels, l.ids = l.ops[:0], l.labels[:0], l.ids[:0] }

func (l *graphLog) op(at place, id, x, start, end uint32) {
	l.ops = append(l.ops, graphOp{off: at.off, index: uint32(at.index), num: uint8(at.num), id: id, x: x, start: start, end: end})
}

func (l *graphLog) label(label []byte) (start, end uint32) {
	start = uint32(len(l.labels))
	l.labels = append(l.labels, label...)
	return start, uint32(len(l.labels))
}

func (l *graphLog) target(at place, id uint32, label []byte, ruleClass uint32) error {
	start, end := l.label(label)
	l.op(at, id, ruleClass, start, end)
	return nil
}

func (l *graphLog) artifact(at place, id, fragmentID uint32) error {
	l.op(at, id, fragmentID, 0, 0)
	return nil
}

func (l *graphLog) pathFragment(at place, id uint32, label []byte, parent uint32) error {
	start, end := l.label(label)
	l.op(at, id, parent, start, end)
	return nil
}

func (l *graphLog) depSet(at place, id uint32, ids []uint32, direct int) error {
	start := uint32(len(l.ids))
	l.ids = append(l.ids, ids...)
	l.op(at, id, uint32(direct), start, uint32(len(l.ids)))
	return nil
}

func (l *graphLog) other(at place, id uint32) error {
	l.op(at, id, 0, 0, 0)
	return nil
}

// action records the target and configuration in the op, and the rest as
// ids: the primary output, the aspect descriptors and the input dep sets,
// each list after its length, then the outputs.
func (l *graphLog) action(at place, r *actionRefs) {
	start := uint32(len(l.ids))
	l.ids = append(l.ids, r.primaryOutput, uint32(len(r.aspects)))
	l.ids = append(l.ids, r.aspects...)
	l.ids = append(l.ids, uint32(len(r.inputs)))
	l.ids = append(l.ids, r.inputs...)
	l.ids = append(l.ids, r.outputs...)
	l.op(at, r.target, r.configuration, start, uint32(len(l.ids)))
}

// replay hands the recorded elements to the builder in the order they
// were recorded, and returns the first error, with its place.
func (l *graphLog) replay(b *builder) (place, error) {
	var refs actionRefs
	for i := range l.ops {
		op := &l.ops[i]
		at := op.place()
		var err error
		switch at.num {
		case fieldTargets:
			err = b.target(at, op.id, l.labels[op.start:op.end], op.x)
		case fieldArtifacts:
			err = b.artifact(at, op.id, op.x)
		case fieldPathFragments:
			err = b.pathFragment(at, op.id, l.labels[op.start:op.end], op.x)
		case fieldDepSetOfFiles:
			err = b.depSet(at, op.id, l.ids[op.start:op.end], int(op.x))
		case fieldActions:
			ids := l.ids[op.start:op.end]
			refs.target, refs.configuration, refs.primaryOutput = op.id, op.x, ids[0]
			n := ids[1]
			refs.aspects, ids = ids[2:2+n], ids[2+n:]
			n = ids[0]
			refs.inputs, refs.outputs = ids[1:1+n], ids[1+n:]
			b.action(at, &refs)
		default:
			err = b.other(at, op.id)
		}
		if err != nil {
			return at, err
		}
	}
	return place{}, nil
}

func (b *builder) target(at place, id uint32, label []byte, ruleClass uint32) error {
	// A duplicate's label is added for nothing, but it fails the decode.
	pos, ok := b.g.targetLabels.Add(label)
	if !ok {
		return errArenaFull
	}
	if !b.g.targets.set(id, span{pos, uint32(len(label))}, true) {
		return duplicate(at, id)
	}
	b.g.targetCount++
	if ruleClass != 0 && !b.ruleClasses.has(ruleClass) {
		b.pending.ruleClass(at, ruleClass)
	}
	return nil
}

func (b *builder) artifact(at place, id, fragmentID uint32) error {
	if !b.artifacts.set(id, fragmentID, true) {
		return duplicate(at, id)
	}
	return nil
}

func (b *builder) pathFragment(at place, id uint32, label []byte, parent uint32) error {
	pos, ok := b.labels.Add(label)
	if !ok {
		return errArenaFull
	}
	if !b.fragments.set(id, fragment{pos, uint32(len(label)), parent}, true) {
		return duplicate(at, id)
	}
	return nil
}

func (b *builder) other(at place, id uint32) error {
	if !b.otherIDs(at.num).set(id, struct{}{}, true) {
		return duplicate(at, id)
	}
	return nil
}

func (b *builder) otherIDs(num protowire.Number) *table[struct{}] {
	switch num {
	case fieldConfiguration:
		return &b.configurations
	case fieldAspectDescriptors:
		return &b.aspectDescriptors
	}
	return &b.ruleClasses
}

// errArenaFull is a graph whose labels or dep set ids run past four
// billion, which no graph that fits in memory has.
var errArenaFull = errors.New("more than four billion label bytes or dep set ids, expected a graph that fits in memory")

// duplicate is an element whose id an earlier element of its kind has.
// Bazel never writes one; the original kept the last definition, but which
// one a tool keeps is no answer to which one Bazel meant.
func duplicate(at place, id uint32) error {
	name := entryNames[at.num]
	return fmt.Errorf("id %d is already %s's, expected each %s to have an id of its own", id, withArticle("earlier "+name), name)
}

// artifactPaths is what names an artifact: its path fragment, and the
// fragments' labels and parents.
type artifactPaths struct {
	artifacts table[uint32] // artifact id → path fragment id
	fragments table[fragment]
	labels    chunks.Arena[byte]
}

func (p *artifactPaths) label(f fragment) []byte { return p.labels.Get(f.pos, f.len) }

// depSet stores a dep set's ids as one run, direct then transitive, which
// the decoder hands over back to back in one slice.
func (b *builder) depSet(at place, id uint32, ids []uint32, direct int) error {
	pos, ok := b.depSetIDs.Add(ids)
	if !ok {
		return errArenaFull
	}
	if !b.depSets.set(id, depSetRef{pos, uint32(direct), uint32(len(ids) - direct)}, true) {
		return duplicate(at, id)
	}
	return nil
}

func isStatusFile(label []byte) bool {
	// string(label) in a comparison does not allocate.
	switch string(label) {
	case "stable-status.txt", "volatile-status.txt":
		return true
	}
	return action.IsBuildInfo(string(label))
}

// finish checks the references that could not be checked as they were
// read, resolves the workspace status files (§3.5) and returns the graph.
func (b *builder) finish() (*Graph, error) {
	// The references are checked on another core while the status files
	// are resolved: neither writes what the other reads, and a graph
	// whose references fail is thrown away.
	refs := make(chan error, 1)
	go func() { refs <- b.checkReferences() }()
	b.g.statusPaths = b.statusArtifacts()
	var err error
	if len(b.g.statusPaths) > 0 {
		err = b.computeReach()
	}
	if rerr := <-refs; rerr != nil {
		return nil, rerr
	}
	if err != nil {
		return nil, err
	}
	// A copy, so that the builder's indexes are garbage once Decode returns.
	g := new(Graph)
	*g = b.g
	if b.keepPaths {
		g.paths = &b.artifactPaths
	}
	if b.keepDepSets {
		g.depSets, g.depSetIDs = b.depSets, b.depSetIDs
	}
	return g, nil
}

// statusArtifacts returns, for every artifact whose leaf path fragment is
// labelled stable-status.txt or volatile-status.txt, its path (§3.5 steps 1
// and 2).
func (b *builder) statusArtifacts() map[uint32]string {
	var out map[uint32]string
	for _, id := range b.artifacts.ids() {
		fid, _ := b.artifacts.get(id)
		leaf, ok := b.fragments.get(fid)
		if !ok || !isStatusFile(b.label(leaf)) {
			continue
		}
		path, ok := b.fragmentPath(fid)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[uint32]string)
		}
		out[id] = path
	}
	return out
}

// fragmentPath joins the labels from the root down to fragment id. It gives
// up when a fragment is missing or the walk takes more steps than there are
// fragments, which only a cycle can cause (§3.5 step 1).
func (p *artifactPaths) fragmentPath(id uint32) (string, bool) {
	var labels []string
	for steps := 0; id != 0; steps++ {
		if steps > p.fragments.len() {
			return "", false
		}
		f, ok := p.fragments.get(id)
		if !ok {
			return "", false
		}
		labels = append(labels, string(p.label(f)))
		id = f.parent
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, "/"), true
}

// statusFilter returns the test computeReach puts to every direct artifact
// of every dep set: a bitset over the status artifacts' ids, unless one of
// them is so large that the bitset would outweigh the artifacts, in which
// case the map answers.
func (b *builder) statusFilter() func(id uint32) bool {
	var largest uint32
	for id := range b.g.statusPaths {
		largest = max(largest, id)
	}
	if int64(largest) > 64*int64(b.artifacts.len())+4096 {
		return func(id uint32) bool {
			_, ok := b.g.statusPaths[id]
			return ok
		}
	}
	bits := make([]uint64, largest/64+1)
	for id := range b.g.statusPaths {
		bits[id/64] |= 1 << (id % 64)
	}
	return func(id uint32) bool {
		i := id / 64
		return int(i) < len(bits) && bits[i]&(1<<(id%64)) != 0
	}
}

// reachWalk is one dep set on computeReach's stack: where its transitive
// dep set ids lie, and the next one to visit.
type reachWalk struct {
	id, pos, direct, trans, next uint32
}

const (
	unvisited = iota
	onStack
	done
)

// maxReachEntries bounds the reach lists computeReach builds, beyond
// those it shares. Bazel writes two status files, so each dep set holds
// at most two; only a hand-made graph with thousands of status files down
// a deep chain of dep sets could need more, quadratically many.
const maxReachEntries = 1 << 24

// errReachTooBig is a graph whose status files are reachable too many times.
var errReachTooBig = fmt.Errorf("the dep sets reach workspace status files more than %d times over, expected at most a few per dep set (Bazel writes two status files)", maxReachEntries)

// computeReach fills g.reach for every dep set (§3.5 step 3): the status
// artifacts it reaches through its direct artifacts and, transitively, its
// dep sets, in the order first reached. It is the depth-first walk of the
// reference, from every dep set in ascending id order, done in two passes
// so that no goroutine stack grows with the graph: the first orders the
// dep sets as the walk finishes them, with a stack of its own; the second
// computes each dep set's list from its children's, which the first put
// before it, except for a child still on the stack when the walk reached
// it (a cycle, which Bazel never writes), which contributes nothing. The
// cost is linear in the dep sets and their ids: a dep set whose list is
// exactly one child's shares that child's list.
func (b *builder) computeReach() error {
	order, finished := b.finishOrder()
	isStatus := b.statusFilter()
	entries := 0
	var out []uint32
	var seen map[uint32]struct{} // out's ids, once out is long
	has := func(a uint32) bool {
		// Bazel's lists hold at most its two status files; only a
		// hand-made graph has long ones, which a map keeps the walk
		// linear on.
		if seen == nil && len(out) > 16 {
			seen = make(map[uint32]struct{}, 2*len(out))
			for _, x := range out {
				seen[x] = struct{}{}
			}
		}
		if seen != nil {
			_, ok := seen[a]
			return ok
		}
		return slices.Contains(out, a)
	}
	shared := false // out is a child's list, to be copied before it grows
	add := func(a uint32) {
		if shared {
			out, shared = slices.Clone(out), false
		}
		out = append(out, a)
		entries++
		if seen != nil {
			seen[a] = struct{}{}
		}
	}
	for i, id := range order {
		ref, _ := b.depSets.get(id)
		ids := b.depSetIDs.Get(ref.pos, ref.direct+ref.trans)
		out, shared, seen = nil, false, nil
		var sharedList uint32 // the list out is, while shared
		for _, a := range ids[:ref.direct] {
			if isStatus(a) && !has(a) {
				add(a)
			}
		}
		for _, t := range ids[ref.direct:] {
			if f, ok := finished.get(t); !ok || f >= uint32(i) {
				continue // unknown, or on the stack when the walk reached it
			}
			list, ok := b.g.reach.get(t)
			if !ok {
				continue
			}
			r := b.g.reachLists[list]
			if len(out) == 0 {
				out, shared, sharedList = r, true, list
				continue
			}
			for _, a := range r {
				if !has(a) {
					add(a)
				}
			}
		}
		if entries > maxReachEntries {
			return errReachTooBig
		}
		switch {
		case shared:
			b.g.reach.set(id, sharedList, false)
		case len(out) > 0:
			b.g.reach.set(id, uint32(len(b.g.reachLists)), false)
			b.g.reachLists = append(b.g.reachLists, out)
		}
	}
	return nil
}

// finishOrder walks the dep sets depth-first, from each in ascending id
// order, and returns them in the order the walk finishes them, with each
// one's place in that order.
func (b *builder) finishOrder() ([]uint32, *table[uint32]) {
	order := make([]uint32, 0, b.depSets.len())
	finished := new(table[uint32])
	var state table[uint8]
	var stack []reachWalk
	push := func(id uint32) {
		if s, _ := state.get(id); s != unvisited {
			return
		}
		ref, ok := b.depSets.get(id)
		if !ok {
			return
		}
		state.set(id, onStack, false)
		stack = append(stack, reachWalk{id: id, pos: ref.pos, direct: ref.direct, trans: ref.trans})
	}
	for _, root := range b.depSets.ids() {
		push(root)
		for len(stack) > 0 {
			w := &stack[len(stack)-1]
			if w.next == w.trans {
				state.set(w.id, done, false)
				finished.set(w.id, uint32(len(order)), false)
				order = append(order, w.id)
				stack = stack[:len(stack)-1]
				continue
			}
			t := b.depSetIDs.Get(w.pos, w.direct+w.trans)[w.direct+w.next]
			w.next++
			push(t)
		}
	}
	return order, finished
}
