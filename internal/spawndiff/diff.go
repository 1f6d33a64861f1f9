package spawndiff

import (
	"cmp"
	"slices"
	"strings"
	"unsafe"

	"github.com/ahab-go/ahab/internal/intern"
	"github.com/ahab-go/ahab/internal/spawn"
)

// Diff matches the spawns of two logs and classifies each: see the Verdict
// constants for what each verdict means, and docs/diff.md for how spawns
// are matched and which verdict wins when several apply. It is a pure
// function of the two logs' content: the order of spawns in them does not
// change the result. The Result refers to the logs' memory; keep them.
func Diff(old, new *Log) *Result { return newDiffer(old, new).run() }

func newDiffer(old, new *Log) *differ {
	return &differ{old: old, new: new, nodeOfOld: filled(old.recs.Len(), -1), nodeOfNew: filled(new.recs.Len(), -1)}
}

func (d *differ) run() *Result {
	d.match()
	d.sortNodes()
	d.classify()
	d.attribute()
	return d.result()
}

// differ holds the state of one Diff. A node is a divergent pair or an
// unmatched spawn; identical pairs are only counted.
type differ struct {
	old, new             *Log
	nodes                []node
	nodeOfOld, nodeOfNew []int32
	counts               [numVerdicts]int
	// Path translations between the logs' tables, built when first needed.
	newToOld, oldToNew []int32
	// changed is, per new path id, whether its digest differs from the
	// old log's (or the old log lacks it).
	changed []bool
	roots   rootSets
	// changes remembers the inputs that differ between the last pairs
	// of input lists compared (changedInputs).
	changes     [8]pairChanges
	nextChanges int
	// comparedInputs counts the pairs of input lists compared, for tests.
	comparedInputs int
}

// pairChanges is what changedInputs found for one pair of input lists
// (rec.inPos and nIn of each log).
type pairChanges struct {
	lists   [4]uint32
	valid   bool
	changes []inputChange
}

type node struct {
	old, new int32 // spawn indexes, -1 when absent
	// declared is set for pairs matched by target and mnemonic whose
	// declared outputs differ.
	declared bool
	diff     Differences
	verdict  Verdict
	// producers are the nodes that produced the differing inputs.
	producers []int32
	// inputs are the differing inputs no diverging spawn produced (at most
	// MaxListed), and sources counts them all.
	inputs   []FileChange
	sources  int
	rootSet  int32 // index into differ.roots, for downstream and absorbed
	depth    int32
	visiting bool
}

func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// keyed is a spawn with the hash of its matching key.
type keyed struct {
	hash uint64
	idx  int32
}

// match pairs the spawns of the two logs:
//
//  1. by key: mnemonic, target label and declared outputs, all equal;
//     spawns with equal keys (retried tests, output-less spawns) pair
//     identical ones first, then the rest in content order (pairDuplicates);
//  2. what is left, by target label and mnemonic where the label is known
//     and exactly one spawn of each log has them (a configuration change
//     moved the outputs).
//
// Every pair is compared right away; what stays unpaired is only_old or
// only_new.
func (d *differ) match() {
	oldK, newK := keys(d.old), keys(d.new)
	var leftOld, leftNew []int32
	mergeGroups(oldK, newK, func(os, ns []int32) {
		lo, ln := d.pairByKey(os, ns)
		leftOld = append(leftOld, lo...)
		leftNew = append(leftNew, ln...)
	})
	// Pass 2: target and mnemonic.
	byTarget := func(l *Log, idx []int32) []keyed {
		var ks []keyed
		for _, i := range idx {
			r := l.rec(i)
			if r.target == 0 { // no label
				continue
			}
			ks = append(ks, keyed{mix(l.strs.HashOf(r.mnemonic), l.strs.HashOf(r.target)), i})
		}
		slices.SortFunc(ks, compareKeyed)
		return ks
	}
	paired := map[[2]int32]bool{}
	mergeGroups(byTarget(d.old, leftOld), byTarget(d.new, leftNew), func(os, ns []int32) {
		if len(os) != 1 || len(ns) != 1 {
			return
		}
		o, n := os[0], ns[0]
		ro, rn := d.old.rec(o), d.new.rec(n)
		if !intern.Equal(d.old.strs, ro.mnemonic, d.new.strs, rn.mnemonic) || !intern.Equal(d.old.strs, ro.target, d.new.strs, rn.target) {
			return
		}
		d.pair(o, n, true)
		paired[[2]int32{o, -1}] = true
		paired[[2]int32{-1, n}] = true
	})
	for _, o := range leftOld {
		if !paired[[2]int32{o, -1}] {
			d.addNode(node{old: o, new: -1, verdict: OnlyOld})
		}
	}
	for _, n := range leftNew {
		if !paired[[2]int32{-1, n}] {
			d.addNode(node{old: -1, new: n, verdict: OnlyNew})
		}
	}
}

// keys hashes every spawn's matching key, sorted by hash.
func keys(l *Log) []keyed {
	ks := make([]keyed, l.recs.Len())
	for i := range ks {
		ks[i] = keyed{l.keyHash(int32(i)), int32(i)}
	}
	slices.SortFunc(ks, compareKeyed)
	return ks
}

func compareKeyed(a, b keyed) int {
	if c := cmp.Compare(a.hash, b.hash); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// mergeGroups calls f with the spawns of each hash that occurs in either
// sorted list (one side may be empty).
func mergeGroups(a, b []keyed, f func(as, bs []int32)) {
	var as, bs []int32
	for len(a) > 0 || len(b) > 0 {
		var h uint64
		switch {
		case len(a) == 0:
			h = b[0].hash
		case len(b) == 0:
			h = a[0].hash
		default:
			h = min(a[0].hash, b[0].hash)
		}
		as, bs = as[:0], bs[:0]
		for len(a) > 0 && a[0].hash == h {
			as = append(as, a[0].idx)
			a = a[1:]
		}
		for len(b) > 0 && b[0].hash == h {
			bs = append(bs, b[0].idx)
			b = b[1:]
		}
		f(as, bs)
	}
}

// pairByKey pairs spawns whose key hashes are equal, checking that the
// keys really are, and returns those left unpaired.
func (d *differ) pairByKey(os, ns []int32) (leftOld, leftNew []int32) {
	if len(os) == 1 && len(ns) == 1 && d.sameKey(os[0], ns[0]) {
		d.pair(os[0], ns[0], false)
		return nil, nil
	}
	// Split both sides into classes of really equal keys (a hash
	// collision puts different keys together).
	for len(os) > 0 || len(ns) > 0 {
		var co, cn, restO, restN []int32
		if len(os) > 0 {
			rep := os[0]
			for _, o := range os {
				if d.sameKeyOld(rep, o) {
					co = append(co, o)
				} else {
					restO = append(restO, o)
				}
			}
			for _, n := range ns {
				if d.sameKey(rep, n) {
					cn = append(cn, n)
				} else {
					restN = append(restN, n)
				}
			}
		} else {
			// Only new spawns are left: none has an old partner.
			return leftOld, append(leftNew, ns...)
		}
		lo, ln := d.pairDuplicates(co, cn)
		leftOld = append(leftOld, lo...)
		leftNew = append(leftNew, ln...)
		os, ns = restO, restN
	}
	return leftOld, leftNew
}

// sameKey reports whether old spawn o and new spawn n have equal keys.
func (d *differ) sameKey(o, n int32) bool { return sameKey(d.old, o, d.new, n) }

func (d *differ) sameKeyOld(a, b int32) bool { return sameKey(d.old, a, d.old, b) }

// sameKey reports whether spawn a of log la and spawn b of log lb have
// equal keys, without allocating: it runs once per pair.
func sameKey(la *Log, a int32, lb *Log, b int32) bool {
	ra, rb := la.rec(a), lb.rec(b)
	if !intern.Equal(la.strs, ra.mnemonic, lb.strs, rb.mnemonic) || !intern.Equal(la.strs, ra.target, lb.strs, rb.target) {
		return false
	}
	da, db := la.declared(a), lb.declared(b)
	for {
		x, okA := da.more()
		y, okB := db.more()
		if okA != okB {
			return false
		}
		if !okA {
			return true
		}
		if !intern.Equal(la.strs, x, lb.strs, y) {
			return false
		}
	}
}

// pairDuplicates pairs spawns with one key: identical spawns first, then
// the rest in content order, so that the pairing depends on content only.
func (d *differ) pairDuplicates(os, ns []int32) (leftOld, leftNew []int32) {
	if len(os) == 1 && len(ns) == 1 {
		d.pair(os[0], ns[0], false)
		return nil, nil
	}
	// Identical spawns first, found through a hash of everything compared.
	byContent := map[uint64][]int32{}
	for _, o := range os {
		h := contentHash(d.old.rec(o))
		byContent[h] = append(byContent[h], o)
	}
	var restN []int32
	for _, n := range ns {
		h := contentHash(d.new.rec(n))
		if same := byContent[h]; len(same) > 0 {
			d.pair(same[0], n, false)
			byContent[h] = same[1:]
			continue
		}
		restN = append(restN, n)
	}
	var restO []int32
	for _, o := range os {
		if slices.Contains(byContent[contentHash(d.old.rec(o))], o) {
			restO = append(restO, o)
		}
	}
	slices.SortStableFunc(restO, func(a, b int32) int { return compareContent(d.old, a, d.old, b) })
	slices.SortStableFunc(restN, func(a, b int32) int { return compareContent(d.new, a, d.new, b) })
	k := min(len(restO), len(restN))
	for i := range k {
		d.pair(restO[i], restN[i], false)
	}
	return restO[k:], restN[k:]
}

// contentHash hashes everything Diff compares of a spawn but its key:
// spawns with equal keys and equal content hashes are identical.
func contentHash(r *rec) uint64 {
	return mix(mix(mix(r.args, r.env), mix(r.inputs, r.outputs)), uint64(uint32(r.exit)))
}

// compareContent orders spawns of equal keys by what they did: exit code,
// output files (paths and digests), arguments, then input count.
func compareContent(la *Log, a int32, lb *Log, b int32) int {
	ra, rb := la.rec(a), lb.rec(b)
	if c := cmp.Compare(ra.exit, rb.exit); c != 0 {
		return c
	}
	xa, xb := la.lists(a), lb.lists(b)
	if c := cmp.Compare(len(xa.outputs), len(xb.outputs)); c != 0 {
		return c
	}
	for i := 0; i < len(xa.outputs); i += 2 {
		if c := intern.Compare(la.strs, xa.outputs[i], lb.strs, xb.outputs[i]); c != 0 {
			return c
		}
		if c := strings.Compare(la.digests.Get(xa.outputs[i+1]), lb.digests.Get(xb.outputs[i+1])); c != 0 {
			return c
		}
	}
	if c := slices.CompareFunc(xa.args, xb.args, func(x, y uint32) int { return intern.Compare(la.strs, x, lb.strs, y) }); c != 0 {
		return c
	}
	return cmp.Compare(ra.nIn, rb.nIn)
}

// pair compares old spawn o with new spawn n: identical pairs are
// counted, divergent ones become nodes. declaredDiffer says the pair was
// matched by target and mnemonic, its declared outputs differing.
func (d *differ) pair(o, n int32, declaredDiffer bool) {
	ro, rn := d.old.rec(o), d.new.rec(n)
	var diff Differences
	if ro.args != rn.args || declaredDiffer {
		diff |= DiffCommand
	}
	if ro.env != rn.env {
		diff |= DiffEnvironment
	}
	if ro.inputs != rn.inputs {
		diff |= DiffInputs
	}
	if ro.outputs != rn.outputs {
		diff |= DiffOutputs
	}
	if ro.exit != rn.exit {
		diff |= DiffExitCode
	}
	if diff == 0 {
		d.counts[Identical]++
		return
	}
	d.addNode(node{old: o, new: n, diff: diff, declared: declaredDiffer})
}

// sortNodes puts the nodes in content order, so that every walk over
// them afterwards visits them in an order that does not depend on the
// hash seed or on the order of spawns in the logs.
func (d *differ) sortNodes() {
	slices.SortStableFunc(d.nodes, func(a, b node) int { return d.compareContentOf(&a, &b) })
	for i := range d.nodes {
		if n := &d.nodes[i]; n.old >= 0 {
			d.nodeOfOld[n.old] = int32(i)
		}
		if n := &d.nodes[i]; n.new >= 0 {
			d.nodeOfNew[n.new] = int32(i)
		}
	}
}

func (d *differ) addNode(n node) {
	i := int32(len(d.nodes))
	n.rootSet = -1
	d.nodes = append(d.nodes, n)
	if n.old >= 0 {
		d.nodeOfOld[n.old] = i
	}
	if n.new >= 0 {
		d.nodeOfNew[n.new] = i
	}
}

// classify gives each pair its verdict, by precedence: command, then
// environment, then inputs no diverging spawn produced, then inputs that
// diverging spawns produced (downstream or absorbed), then outputs alone
// (nondeterministic) or the exit code (flaky_exit, which wins over
// nondeterministic). Which inputs differ is only worked out for pairs
// whose inputs differ at all.
func (d *differ) classify() {
	for i := range d.nodes {
		n := &d.nodes[i]
		if n.old < 0 || n.new < 0 {
			continue
		}
		generated := false
		if n.diff&DiffInputs != 0 {
			generated = d.inputChanges(int32(i))
		}
		switch {
		case n.diff&DiffCommand != 0:
			n.verdict = CommandChanged
		case n.diff&DiffEnvironment != 0:
			n.verdict = EnvironmentChanged
		case n.sources > 0:
			n.verdict = InputChanged
		case generated && n.diff&(DiffOutputs|DiffExitCode) != 0:
			n.verdict = Downstream
		case generated:
			n.verdict = Absorbed
		case n.diff&DiffExitCode != 0:
			n.verdict = FlakyExit
		case n.diff&DiffOutputs != 0:
			n.verdict = Nondeterministic
		default:
			// The inputs' hashes differ but no input does: a hash collision
			// between different input lists, which the sums allow in
			// principle. Nothing differs.
			n.verdict = Identical
		}
	}
	for i := range d.nodes {
		d.counts[d.nodes[i].verdict]++
	}
}

// inputChanges works out which inputs of pair n differ, recording their
// producers and the ones no diverging spawn produced; it reports whether
// any differing input was produced by a diverging spawn.
func (d *differ) inputChanges(self int32) bool {
	n := &d.nodes[self]
	generated := false
	record := func(oldPath, newPath int32, c FileChange) {
		var producers []int32
		if newPath >= 0 {
			if p := d.new.pathInfo(uint32(newPath)).producer; p != 0 {
				producers = append(producers, d.nodeOfNew[p-1])
			}
		}
		if oldPath >= 0 {
			if p := d.old.pathInfo(uint32(oldPath)).producer; p != 0 {
				producers = append(producers, d.nodeOfOld[p-1])
			}
		}
		fromDivergent := false
		for _, p := range producers {
			if p >= 0 && p != self {
				fromDivergent = true
				if !slices.Contains(n.producers, p) {
					n.producers = append(n.producers, p)
				}
			}
		}
		if fromDivergent {
			generated = true
			return
		}
		n.sources++
		// Keep the first MaxListed by path.
		at, _ := slices.BinarySearchFunc(n.inputs, c.Path, func(f FileChange, p string) int { return strings.Compare(f.Path, p) })
		if at < MaxListed {
			n.inputs = slices.Insert(n.inputs, at, c)
			if len(n.inputs) > MaxListed {
				n.inputs = n.inputs[:MaxListed]
			}
		}
	}
	for _, c := range d.changedInputs(n.old, n.new) {
		record(c.old, c.new, c.change)
	}
	return generated
}

// inputChange is an input that differs between two spawns: its path ids
// in the old and new logs (-1 where it is missing), and the change.
type inputChange struct {
	old, new int32
	change   FileChange
}

// changedInputs returns the inputs that differ between old spawn o and
// new spawn n. The result depends on their lists of inputs only, so it is
// remembered for the last pairs of lists: spawns that share their inputs
// (a set of the log that many name) are compared once.
func (d *differ) changedInputs(o, n int32) []inputChange {
	ro, rn := d.old.rec(o), d.new.rec(n)
	key := [4]uint32{ro.inPos, ro.nIn, rn.inPos, rn.nIn}
	for i := range d.changes {
		if d.changes[i].lists == key && d.changes[i].valid {
			return d.changes[i].changes
		}
	}
	m := &d.changes[d.nextChanges]
	d.nextChanges = (d.nextChanges + 1) % len(d.changes)
	m.lists, m.valid = key, true
	m.changes = d.compareInputs(o, n, m.changes[:0])
	d.comparedInputs++
	return m.changes
}

// compareInputs appends to dst the inputs that differ between old spawn o
// and new spawn n.
func (d *differ) compareInputs(o, n int32, dst []inputChange) []inputChange {
	in, oldIn := d.new.inputs(n), d.old.inputs(o)
	d.translate()
	if d.samePaths(oldIn, in) && !d.old.hasOverrides(o) && !d.new.hasOverrides(n) {
		// The same paths: the inputs that differ are those whose digest
		// differs between the logs.
		for _, np := range in {
			if d.changed[np] {
				op := d.newToOld[np]
				dst = append(dst, inputChange{op, int32(np), d.fileChange(op, int32(np), o, n)})
			}
		}
		return dst
	}
	// Different paths: merge the two lists.
	type pair struct{ old, new int32 }
	var all []pair
	for _, np := range in {
		all = append(all, pair{d.newToOld[np], int32(np)})
	}
	for _, op := range oldIn {
		if d.oldToNew[op] < 0 || !d.hasInput(in, uint32(d.oldToNew[op])) {
			all = append(all, pair{int32(op), -1})
		}
	}
	for _, p := range all {
		oldHas := p.old >= 0 && d.hasInput(oldIn, uint32(p.old))
		c := FileChange{}
		if p.new >= 0 {
			c.Path = d.new.strs.Get(uint32(p.new))
			c.New = d.content(d.new, d.new.inputDigest(n, uint32(p.new)))
		} else {
			c.Path = d.old.strs.Get(uint32(p.old))
		}
		if oldHas {
			c.Old = d.content(d.old, d.old.inputDigest(o, uint32(p.old)))
		}
		if c.Old != nil && c.New != nil && *c.Old == *c.New {
			continue
		}
		op := p.old
		if !oldHas {
			op = -1
		}
		dst = append(dst, inputChange{op, p.new, c})
	}
	return dst
}

// samePaths reports whether two lists of input paths, old and new, name
// the same paths.
func (d *differ) samePaths(old, new []uint32) bool {
	if len(old) != len(new) {
		return false
	}
	for _, np := range new {
		if op := d.newToOld[np]; op < 0 || !d.hasInput(old, uint32(op)) {
			return false
		}
	}
	return true
}

// hasInput reports whether the sorted list holds path id p.
func (d *differ) hasInput(list []uint32, p uint32) bool {
	_, ok := slices.BinarySearch(list, p)
	return ok
}

// fileChange describes input path op/np of a pair whose path sets agree.
func (d *differ) fileChange(op, np, o, n int32) FileChange {
	c := FileChange{Path: d.new.strs.Get(uint32(np)), New: d.content(d.new, d.new.inputDigest(n, uint32(np)))}
	if op >= 0 {
		c.Old = d.content(d.old, d.old.inputDigest(o, uint32(op)))
	}
	return c
}

func (d *differ) content(l *Log, digest uint32) *Content {
	dg, target := spawn.ParseContentKey(l.digests.Get(digest))
	return &Content{Digest: dg, SymlinkTarget: target}
}

// translate builds the path translations between the logs and the
// changed bits, once.
func (d *differ) translate() {
	if d.changed != nil {
		return
	}
	var buf []byte
	d.newToOld = make([]int32, d.new.strs.Len())
	d.changed = make([]bool, d.new.strs.Len())
	for np := range d.newToOld {
		if p := d.new.pathInfo(uint32(np)); p.digest == 0 && p.producer == 0 {
			d.newToOld[np] = -1 // not a path
			continue
		}
		buf = d.new.strs.AppendTo(buf[:0], uint32(np))
		s := unsafe.String(unsafe.SliceData(buf), len(buf))
		op, ok := d.old.strs.Lookup(s, intern.Hash(s))
		if !ok {
			d.newToOld[np] = -1
			d.changed[np] = true
			continue
		}
		d.newToOld[np] = int32(op)
		od, nd := d.old.pathInfo(op).digest, d.new.pathInfo(uint32(np)).digest
		d.changed[np] = od == 0 || nd == 0 || d.old.digests.Get(od-1) != d.new.digests.Get(nd-1)
	}
	d.oldToNew = filled(d.old.strs.Len(), -1)
	for np, op := range d.newToOld {
		if op >= 0 {
			d.oldToNew[op] = int32(np)
		}
	}
}
