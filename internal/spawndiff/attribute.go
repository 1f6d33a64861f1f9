package spawndiff

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/ahab-go/ahab/internal/intern"
)

// rootSets interns sets of root nodes: the actions of a cascade mostly
// descend from the same few roots, so each distinct set is kept once.
type rootSets struct {
	sets  [][]int32
	index map[string]int32
}

func (r *rootSets) intern(s []int32) int32 {
	if r.index == nil {
		r.index = map[string]int32{}
	}
	key := make([]byte, 0, 4*len(s))
	for _, x := range s {
		key = binary.LittleEndian.AppendUint32(key, uint32(x))
	}
	if id, ok := r.index[string(key)]; ok {
		return id
	}
	id := int32(len(r.sets))
	r.sets = append(r.sets, slices.Clone(s))
	r.index[string(key)] = id
	return id
}

// attribute finds, for each downstream and absorbed node, the root causes
// it descends from (through the producers of its differing inputs, root
// causes included and passed through), and each node's depth in that
// graph (producers first). Both walks are iterative and stop at cycles,
// which a real build cannot have but a corrupt log can.
func (d *differ) attribute() {
	var stack, set, incomplete []int32
	for start := range d.nodes {
		if !d.follows(int32(start)) || d.nodes[start].rootSet >= 0 {
			continue
		}
		stack = append(stack[:0], int32(start))
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			n := &d.nodes[x]
			if !n.visiting {
				n.visiting = true
				for _, p := range n.producers {
					if m := &d.nodes[p]; d.follows(p) && m.rootSet < 0 && !m.visiting {
						stack = append(stack, p)
					}
				}
				continue
			}
			stack = stack[:len(stack)-1]
			if n.rootSet >= 0 {
				continue // reached twice
			}
			var cut bool
			n.rootSet, cut = d.rootSetOf(x, set[:0])
			if cut {
				incomplete = append(incomplete, x)
			}
			n.visiting = false
		}
	}
	// A cycle left some sets short of the roots beyond it: propagate
	// around it until nothing changes.
	for changed := len(incomplete) > 0; changed; {
		changed = false
		for _, x := range incomplete {
			if s, _ := d.rootSetOf(x, set[:0]); s != d.nodes[x].rootSet {
				d.nodes[x].rootSet = s
				changed = true
			}
		}
	}
	// Depths.
	for i := range d.nodes {
		d.nodes[i].depth = -1
		d.nodes[i].visiting = false
	}
	for start := range d.nodes {
		if d.nodes[start].depth >= 0 {
			continue
		}
		stack = append(stack[:0], int32(start))
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			n := &d.nodes[x]
			if !n.visiting {
				n.visiting = true
				for _, p := range n.producers {
					if m := &d.nodes[p]; m.depth < 0 && !m.visiting {
						stack = append(stack, p)
					}
				}
				continue
			}
			stack = stack[:len(stack)-1]
			if n.depth >= 0 {
				continue
			}
			n.depth = 0
			for _, p := range n.producers {
				n.depth = max(n.depth, d.nodes[p].depth+1)
			}
		}
	}
}

// follows reports whether node x follows from root causes: downstream or
// absorbed.
func (d *differ) follows(x int32) bool {
	v := d.nodes[x].verdict
	return v == Downstream || v == Absorbed
}

// rootSetOf interns the roots node x descends from through its producers
// as they are now; cut says a producer's set was not known yet (a cycle).
func (d *differ) rootSetOf(x int32, set []int32) (int32, bool) {
	cut := false
	for _, p := range d.nodes[x].producers {
		m := &d.nodes[p]
		switch {
		case m.verdict.IsRoot():
			set = append(set, p)
		case !d.follows(p):
		case m.rootSet >= 0:
			set = append(set, d.roots.sets[m.rootSet]...)
		default:
			cut = true
		}
	}
	slices.Sort(set)
	return d.roots.intern(slices.Compact(set)), cut
}

// side returns the log and spawn index that describe node n: the new
// spawn, or the old one when there is no new one.
func (d *differ) side(n *node) (*Log, int32) {
	if n.new >= 0 {
		return d.new, n.new
	}
	return d.old, n.old
}

// compareNodes orders nodes for reports: root causes first, then by depth
// (producers before consumers), then by what identifies the action
// (declared outputs, mnemonic, target), verdict and content. It never
// looks at log positions, so the order depends on content only.
func (d *differ) compareNodes(a, b int32) int {
	na, nb := &d.nodes[a], &d.nodes[b]
	if ra, rb := na.verdict.IsRoot(), nb.verdict.IsRoot(); ra != rb {
		if ra {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(na.depth, nb.depth); c != 0 {
		return c
	}
	return d.compareContentOf(na, nb)
}

// compareContentOf orders nodes by what identifies their action (declared
// outputs, mnemonic, target), then verdict and content.
func (d *differ) compareContentOf(na, nb *node) int {
	la, ia := d.side(na)
	lb, ib := d.side(nb)
	if c := compareDeclared(la, ia, lb, ib); c != 0 {
		return c
	}
	ra, rb := la.rec(ia), lb.rec(ib)
	if c := intern.Compare(la.strs, ra.mnemonic, lb.strs, rb.mnemonic); c != 0 {
		return c
	}
	if c := intern.Compare(la.strs, ra.target, lb.strs, rb.target); c != 0 {
		return c
	}
	if c := cmp.Compare(na.verdict, nb.verdict); c != 0 {
		return c
	}
	return compareContent(la, ia, lb, ib)
}

// compareDeclared compares two spawns' declared outputs as lists of
// strings, without allocating.
func compareDeclared(la *Log, a int32, lb *Log, b int32) int {
	da, db := la.declared(a), lb.declared(b)
	for {
		x, okA := da.more()
		y, okB := db.more()
		switch {
		case !okA && !okB:
			return 0
		case !okA:
			return -1
		case !okB:
			return 1
		}
		if c := intern.Compare(la.strs, x, lb.strs, y); c != 0 {
			return c
		}
	}
}

// result builds the Result: actions in report order, with details for
// the root causes.
func (d *differ) result() *Result {
	r := &Result{Old: d.old.name, New: d.new.name, OldSpawns: d.old.recs.Len(), NewSpawns: d.new.recs.Len(), Counts: d.counts}
	order := make([]int32, 0, len(d.nodes))
	for i := range d.nodes {
		if d.nodes[i].verdict != Identical {
			order = append(order, int32(i))
		}
	}
	slices.SortStableFunc(order, d.compareNodes)
	actionOf := make([]int, len(d.nodes))
	for i, x := range order {
		actionOf[x] = i
	}
	r.Actions = make([]Action, len(order))
	for i, x := range order {
		n := &d.nodes[x]
		l, s := d.side(n)
		rc := l.rec(s)
		a := &r.Actions[i]
		a.Verdict = n.verdict
		a.Mnemonic = l.strs.Get(rc.mnemonic)
		a.Target = l.strs.Get(rc.target)
		a.Outputs = l.declaredOutputs(s)
		a.Differs = n.diff
		if n.old >= 0 {
			a.OldExit = d.old.rec(n.old).exit
		}
		if n.new >= 0 {
			a.NewExit = d.new.rec(n.new).exit
		}
		if !n.verdict.IsRoot() {
			for _, root := range d.roots.sets[n.rootSet] {
				a.RootCauses = append(a.RootCauses, actionOf[root])
				if n.verdict == Downstream {
					r.Actions[actionOf[root]].Downstream++
				} else {
					r.Actions[actionOf[root]].Absorbed++
				}
			}
			slices.Sort(a.RootCauses)
			continue
		}
		if n.old >= 0 && n.new >= 0 {
			d.details(n, a)
		}
	}
	return r
}

// details fills in what differs for a root cause.
func (d *differ) details(n *node, a *Action) {
	lo, ln := d.old.lists(n.old), d.new.lists(n.new)
	if n.diff&DiffOutputs != 0 {
		a.OutputChanges = d.outputChanges(lo.outputs, ln.outputs)
	}
	a.InputChanges = n.inputs
	a.SourceInputChanges = n.sources
	if n.diff&DiffCommand != 0 {
		a.Argument = d.argumentChange(lo.args, ln.args)
		if a.Argument == nil {
			a.OldOutputs = d.old.declaredOutputs(n.old)
		}
	}
	if n.diff&DiffEnvironment != 0 {
		a.Variable, a.VariableChanges = d.variableChange(lo.env, ln.env)
	}
}

// outputChanges merges two lists of output files sorted by path, each as
// path and digest ids one after the other.
func (d *differ) outputChanges(old, new []uint32) []FileChange {
	var out []FileChange
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		var op, np string
		if i < len(old) {
			op = d.old.strs.Get(old[i])
		}
		if j < len(new) {
			np = d.new.strs.Get(new[j])
		}
		switch {
		case j == len(new) || i < len(old) && op < np:
			out = append(out, FileChange{Path: op, Old: d.content(d.old, old[i+1])})
			i += 2
		case i == len(old) || np < op:
			out = append(out, FileChange{Path: np, New: d.content(d.new, new[j+1])})
			j += 2
		default:
			oc, nc := d.content(d.old, old[i+1]), d.content(d.new, new[j+1])
			if *oc != *nc {
				out = append(out, FileChange{Path: np, Old: oc, New: nc})
			}
			i += 2
			j += 2
		}
	}
	return out
}

// argumentChange finds the first argument that differs, or nil.
func (d *differ) argumentChange(old, new []uint32) *ArgumentChange {
	for i := 0; i < max(len(old), len(new)); i++ {
		c := &ArgumentChange{Index: i, OldMissing: i >= len(old), NewMissing: i >= len(new)}
		if !c.OldMissing {
			c.Old = d.old.strs.Get(old[i])
		}
		if !c.NewMissing {
			c.New = d.new.strs.Get(new[i])
		}
		if c.OldMissing || c.NewMissing || c.Old != c.New {
			return c
		}
	}
	return nil
}

// variableChange finds the first variable by name whose value differs,
// and how many do. Each list is name and value ids one after the other.
func (d *differ) variableChange(old, new []uint32) (*VariableChange, int) {
	var first *VariableChange
	count := 0
	note := func(c *VariableChange) {
		count++
		if first == nil {
			first = c
		}
	}
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		var on, nn string
		if i < len(old) {
			on = d.old.strs.Get(old[i])
		}
		if j < len(new) {
			nn = d.new.strs.Get(new[j])
		}
		switch {
		case j == len(new) || i < len(old) && on < nn:
			v := d.old.strs.Get(old[i+1])
			note(&VariableChange{Name: on, Old: &v})
			i += 2
		case i == len(old) || nn < on:
			v := d.new.strs.Get(new[j+1])
			note(&VariableChange{Name: nn, New: &v})
			j += 2
		default:
			ov, nv := d.old.strs.Get(old[i+1]), d.new.strs.Get(new[j+1])
			if ov != nv {
				note(&VariableChange{Name: nn, Old: &ov, New: &nv})
			}
			i += 2
			j += 2
		}
	}
	return first, count
}
