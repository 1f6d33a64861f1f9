package aquery

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// depSetGraph is a graph of dep sets over the status graph's artifacts
// (statusGraph: 1 is stable-status.txt, 2 volatile-status.txt, 3 main.cc),
// written with protowire so that a million of them take a moment.
type depSetGraph struct {
	b []byte
}

// depSet appends dep set id with its direct artifacts and transitive sets.
func (g *depSetGraph) depSet(id uint32, direct []uint32, trans ...uint32) {
	var body []byte
	body = protowire.AppendTag(body, 1, protowire.VarintType)
	body = protowire.AppendVarint(body, uint64(id))
	if len(trans) > 0 {
		var packed []byte
		for _, t := range trans {
			packed = protowire.AppendVarint(packed, uint64(t))
		}
		body = protowire.AppendTag(body, 2, protowire.BytesType)
		body = protowire.AppendBytes(body, packed)
	}
	if len(direct) > 0 {
		var packed []byte
		for _, a := range direct {
			packed = protowire.AppendVarint(packed, uint64(a))
		}
		body = protowire.AppendTag(body, 3, protowire.BytesType)
		body = protowire.AppendBytes(body, packed)
	}
	g.b = rawElement(g.b, fieldDepSetOfFiles, body)
}

// dump is the graph with the status graph's artifacts and one action
// reading the given dep sets.
func (g *depSetGraph) dump(t testing.TB, inputs ...uint32) []byte {
	var body []byte
	body = protowire.AppendTag(body, 4, protowire.BytesType)
	body = protowire.AppendBytes(body, []byte("Genrule"))
	for _, in := range inputs {
		body = protowire.AppendTag(body, 8, protowire.VarintType)
		body = protowire.AppendVarint(body, uint64(in))
	}
	out := rawElement(nil, fieldActions, body)
	out = append(out, g.b...)
	return append(out, dump(t, statusGraph()...)...)
}

// chain is n dep sets, each holding the next, the last holding the
// stable status file: 1 → 2 → … → n.
func chain(n int) *depSetGraph {
	g := new(depSetGraph)
	for i := 1; i < n; i++ {
		g.depSet(uint32(i), nil, uint32(i+1))
	}
	g.depSet(uint32(n), []uint32{1})
	return g
}

// fan is one dep set holding n others, each holding main.cc, one the
// volatile and one the stable status file.
func fan(n int) *depSetGraph {
	g := new(depSetGraph)
	kids := make([]uint32, n)
	for i := range kids {
		kids[i] = uint32(i + 2)
		direct := []uint32{3}
		switch i {
		case n / 3:
			direct = []uint32{3, 2}
		case 2 * n / 3:
			direct = []uint32{1}
		}
		g.depSet(uint32(i+2), direct)
	}
	g.depSet(1, nil, kids...)
	return g
}

// diamonds is a lattice n levels deep and two wide, every set holding
// both sets of the next level: 2^n paths to the status files at the bottom.
func diamonds(n int) *depSetGraph {
	g := new(depSetGraph)
	g.depSet(1, nil, 2, 3)
	for level := 0; level < n; level++ {
		a, b := uint32(2*level+2), uint32(2*level+3)
		if level == n-1 {
			g.depSet(a, []uint32{1})
			g.depSet(b, []uint32{2, 3})
			continue
		}
		g.depSet(a, []uint32{3}, a+2, b+2)
		g.depSet(b, nil, a+2, b+2)
	}
	return g
}

// shared is n roots over one chain of n dep sets, the roots in
// descending id order so that every root comes before the chain.
func shared(n int) *depSetGraph {
	g := chain(n)
	for i := range n {
		g.depSet(uint32(2*n-i), []uint32{3}, uint32(i+1))
	}
	return g
}

// A chain of dep sets a few hundred thousand deep is walked without
// recursion: the goroutine stack limit set here is far below what one
// frame per dep set would take (issue #16).
func TestDeepChainOfDepSets(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a 3 MB chain")
	}
	const n = 300000
	data := chain(n).dump(t, 1)
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	g, actions := mustDecode(t, data, Options{})
	if got := g.StatusInputs(actions[0].InputDepSets); !slices.Equal(got, []string{"bazel-out/stable-status.txt"}) {
		t.Errorf("StatusInputs = %q", got)
	}
}

// The walk finds, for every shape, what §3.5 step 3 says, in the order
// first reached: checked against a plain recursive walk on small graphs,
// cycles included.
func TestReachMatchesRecursiveWalk(t *testing.T) {
	shapes := map[string]*depSetGraph{
		"chain": chain(50), "fan": fan(50), "diamonds": diamonds(10), "shared": shared(20),
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		// Random graphs over 30 dep sets and the 3 artifacts, cycles
		// and self-loops included.
		g := new(depSetGraph)
		for id := uint32(1); id <= 30; id++ {
			var direct, trans []uint32
			for range rng.IntN(3) {
				direct = append(direct, uint32(1+rng.IntN(3)))
			}
			for range rng.IntN(4) {
				trans = append(trans, uint32(1+rng.IntN(30)))
			}
			g.depSet(id, direct, trans...)
		}
		shapes[fmt.Sprintf("random_%d", i)] = g
	}
	for name, g := range shapes {
		data := g.dump(t)
		// Every dep set as the action's only input, then all of them.
		sets := depSetsOf(t, data)
		ids := make([]uint32, 0, len(sets))
		for id := range sets {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		want := recursiveReach(sets, ids)
		graph, _ := mustDecode(t, data, Options{})
		for _, id := range ids {
			got := graph.StatusInputs([]uint32{id})
			if !slices.Equal(got, statusNames(want[id])) {
				t.Fatalf("%s: dep set %d reaches %q, want %q", name, id, got, statusNames(want[id]))
			}
		}
	}
}

type testDepSet struct{ direct, trans []uint32 }

// depSetsOf reads the dep sets of a dump with the generated code.
func depSetsOf(t *testing.T, data []byte) map[uint32]testDepSet {
	out := map[uint32]testDepSet{}
	for _, e := range splitElements(t, data) {
		num, _, n := protowire.ConsumeTag(e)
		if num != fieldDepSetOfFiles {
			continue
		}
		body, _ := protowire.ConsumeBytes(e[n:])
		var id uint32
		var ds testDepSet
		for len(body) > 0 {
			f, _, k := protowire.ConsumeTag(body)
			body = body[k:]
			if f == 1 {
				v, m := protowire.ConsumeVarint(body)
				id, body = uint32(v), body[m:]
				continue
			}
			packed, m := protowire.ConsumeBytes(body)
			body = body[m:]
			for len(packed) > 0 {
				v, m := protowire.ConsumeVarint(packed)
				packed = packed[m:]
				if f == 2 {
					ds.trans = append(ds.trans, uint32(v))
				} else {
					ds.direct = append(ds.direct, uint32(v))
				}
			}
		}
		out[id] = ds
	}
	return out
}

// recursiveReach is §3.5 step 3 as written: a depth-first walk in
// ascending id order, where a set on the stack contributes nothing and an
// unknown one reaches nothing.
func recursiveReach(sets map[uint32]testDepSet, order []uint32) map[uint32][]uint32 {
	return recursiveReachOf(sets, order, func(a uint32) bool { return a <= 2 })
}

// recursiveReachOf is recursiveReach with the status artifacts told apart
// by isStatus.
func recursiveReachOf(sets map[uint32]testDepSet, order []uint32, isStatus func(uint32) bool) map[uint32][]uint32 {
	const onStack = 1
	state := map[uint32]int{}
	reach := map[uint32][]uint32{}
	var visit func(id uint32) []uint32
	visit = func(id uint32) []uint32 {
		if state[id] == onStack {
			return nil
		}
		if r, ok := reach[id]; ok {
			return r
		}
		ds, ok := sets[id]
		if !ok {
			return nil
		}
		state[id] = onStack
		var out []uint32
		for _, a := range ds.direct {
			if isStatus(a) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
		for _, c := range ds.trans {
			for _, a := range visit(c) {
				if !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		}
		state[id] = 0
		reach[id] = out
		return out
	}
	for _, id := range order {
		visit(id)
	}
	return reach
}

func statusNames(ids []uint32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, map[uint32]string{1: "bazel-out/stable-status.txt", 2: "bazel-out/volatile-status.txt"}[id])
	}
	return out
}

// BenchmarkStatusReach decodes dep set graphs of every shape at two sizes
// and finds what the action at the top reads. The time per dep set must
// not grow with the size.
func BenchmarkStatusReach(b *testing.B) {
	for _, shape := range []struct {
		name string
		make func(n int) *depSetGraph
	}{
		{"chain", chain}, {"fan", fan}, {"diamonds", func(n int) *depSetGraph { return diamonds(n / 2) }}, {"shared", func(n int) *depSetGraph { return shared(n / 2) }},
	} {
		for _, n := range []int{100000, 400000} {
			data := shape.make(n).dump(b, 1)
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					g, err := Decode(bytes.NewReader(data), "bench.pb", Options{}, func(_ int, a *Action) error { return nil })
					if err != nil || g.StatusInputs([]uint32{1}) == nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/depset")
			})
		}
	}
}
