package aquery

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// statusGraph is the sample of §3.5's tests: bazel-out/stable-status.txt
// (artifact 1), bazel-out/volatile-status.txt (2) and src/main.cc (3).
func statusGraph() []elem {
	return []elem{
		frag(1, "bazel-out", 0), frag(2, "stable-status.txt", 1), frag(3, "volatile-status.txt", 1),
		frag(4, "src", 0), frag(5, "main.cc", 4),
		art(1, 2), art(2, 3), art(3, 5),
	}
}

// §3.5 and §12 "Workspace status".
func TestStatusInputs(t *testing.T) {
	stable, volatile := "bazel-out/stable-status.txt", "bazel-out/volatile-status.txt"
	tests := []struct {
		name   string
		extra  []elem
		inputs []uint32
		want   []string
	}{
		{"reading_the_status_files_is_reported_once_for_each",
			[]elem{deps(1, []uint32{1, 2, 3})}, []uint32{1}, []string{stable, volatile}},
		{"the_two_status_files_are_told_apart_in_the_report",
			[]elem{deps(1, []uint32{2, 1})}, []uint32{1}, []string{volatile, stable}},
		{"an_action_that_reads_neither_is_not_reported",
			[]elem{deps(1, []uint32{3})}, []uint32{1}, nil},
		{"a_status_file_reached_only_transitively_is_still_found",
			[]elem{deps(1, []uint32{3}, 2), deps(2, nil, 3), deps(3, []uint32{1})}, []uint32{1}, []string{stable}},
		{"a_cycle_among_dep_sets_does_not_hang_the_walk",
			[]elem{deps(1, []uint32{1}, 2), deps(2, []uint32{3}, 1)}, []uint32{1}, []string{stable}},
		{"a_self_cycle_does_not_hang_the_walk",
			[]elem{deps(1, []uint32{2}, 1)}, []uint32{1}, []string{volatile}},
		{"each_status_file_once_across_input_dep_sets",
			[]elem{deps(1, []uint32{1}), deps(2, []uint32{1, 2}, 1)}, []uint32{1, 2, 1}, []string{stable, volatile}},
		{"direct_artifacts_before_transitive_sets",
			[]elem{deps(1, []uint32{2}, 2), deps(2, []uint32{1})}, []uint32{1}, []string{volatile, stable}},
		{"a_shared_dep_set_is_reached_from_two_parents",
			[]elem{deps(1, nil, 3), deps(2, []uint32{2}, 3), deps(3, []uint32{1})}, []uint32{2, 1}, []string{volatile, stable}},
		{"no_input_dep_sets",
			[]elem{deps(1, []uint32{1})}, nil, nil},
		{"a_status_file_at_any_directory",
			[]elem{frag(6, "pkg", 0), frag(7, "stable-status.txt", 6), art(4, 7), deps(1, []uint32{4})}, []uint32{1}, []string{"pkg/stable-status.txt"}},
		{"a_status_file_at_the_root",
			[]elem{frag(6, "volatile-status.txt", 0), art(4, 6), deps(1, []uint32{4})}, []uint32{1}, []string{"volatile-status.txt"}},
		{"the_leaf_label_must_match_exactly",
			[]elem{frag(6, "stable-status.txt.bak", 1), frag(7, "my-stable-status.txt", 1), art(4, 6), art(5, 7), deps(1, []uint32{4, 5})}, []uint32{1}, nil},
		{"a_status_artifact_with_a_huge_id_is_found_all_the_same",
			[]elem{frag(6, "stable-status.txt", 0), art(1<<31, 6), deps(1, []uint32{3, 1 << 31, 2})}, []uint32{1}, []string{"stable-status.txt", volatile}},
		{"a_fragment_cycle_is_skipped",
			[]elem{frag(6, "a", 7), frag(7, "b", 6), frag(8, "stable-status.txt", 6), art(4, 8), deps(1, []uint32{4, 1})}, []uint32{1}, []string{stable}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			elems := append(statusGraph(), tc.extra...)
			elems = append(elems, act(&analysispb.Action{Mnemonic: "Genrule", InputDepSetIds: tc.inputs}))
			data := dump(t, elems...)
			// Reversed, the dep sets and fragments come before the action.
			rev := slices.Clone(elems)
			slices.Reverse(rev)
			for _, d := range [][]byte{data, dump(t, rev...)} {
				g, actions := mustDecode(t, d, Options{})
				if got := g.StatusInputs(actions[0].InputDepSets); !slices.Equal(got, tc.want) {
					t.Errorf("StatusInputs = %q, want %q", got, tc.want)
				}
			}
		})
	}
}

// A graph without status files keeps no dep sets at all.
func TestNoStatusFilesKeepsNoDepSets(t *testing.T) {
	g, _ := mustDecode(t, dump(t, frag(1, "a.cc", 0), art(1, 1), deps(1, []uint32{1}), deps(2, nil, 1)), Options{})
	if g.reach.len() != 0 || g.statusPaths != nil {
		t.Errorf("graph keeps %d dep sets", g.reach.len())
	}
	if got := g.StatusInputs([]uint32{1, 2}); got != nil {
		t.Errorf("StatusInputs = %q", got)
	}
}

// The stamped genrule of the real webapp dump reads both status files
// (conformance README: status 2/2).
func TestStatusInputsRealDump(t *testing.T) {
	data := readFile(t, filepath.Join(conformanceDir(t), "real", "webapp.pb"))
	g, actions := mustDecode(t, data, Options{})
	var found []string
	for _, a := range actions {
		if s := g.StatusInputs(a.InputDepSets); s != nil {
			found = append(found, g.Target(a.TargetID)+" "+a.Mnemonic)
			if !slices.Equal(s, []string{"bazel-out/stable-status.txt", "bazel-out/volatile-status.txt"}) {
				t.Errorf("StatusInputs = %q", s)
			}
		}
	}
	if !slices.Equal(found, []string{"//web:build_info Genrule"}) {
		t.Errorf("actions reading status files: %q", found)
	}
}

func TestTable(t *testing.T) {
	var tb table[string]
	want := []uint32{0, 1, 3, 5, 1 << 30, 1<<30 + 1}
	for _, id := range want {
		tb.set(id, "v", false)
	}
	if tb.sparse == nil || len(tb.sparse) != 2 {
		t.Fatalf("ids near 1<<30 with 6 entries: %d in the map, want 2", len(tb.sparse))
	}
	tb.set(10000000, "sparse", false) // far past the few entries: in the map
	if _, inMap := tb.sparse[10000000]; !inMap {
		t.Fatal("10000000 with 7 entries is not in the map")
	}
	// Enough entries that 10000000 gets a page: the page then takes over
	// the id stored in the map.
	for i := uint32(6); i < 3000; i++ {
		tb.set(i, "dense", false)
		want = append(want, i)
	}
	tb.set(10000000, "again", true) // first wins
	if v, ok := tb.get(10000000); !ok || v != "sparse" {
		t.Errorf("get(10000000) = %q, %v", v, ok)
	}
	tb.set(10000000, "last", false)
	if _, inMap := tb.sparse[10000000]; inMap || tb.pages[10000000>>pageBits] == nil {
		t.Error("10000000 stayed in the map once 3000 entries allow its page")
	}
	if v, _ := tb.get(10000000); v != "last" {
		t.Errorf("get(10000000) = %q after overwrite", v)
	}
	want = append(want, 10000000)
	if _, ok := tb.get(2); ok {
		t.Error("get(2) found an id never set")
	}
	slices.Sort(want)
	if got := tb.ids(); !slices.Equal(got, want) || tb.len() != len(want) {
		t.Errorf("ids = %v (len %d), want %v", got, tb.len(), want)
	}
}

// Ids spread thin, one in twelve as when a dump is amplified by
// renumbering copies of it into one id space, still get pages.
func TestTableSpreadIDs(t *testing.T) {
	var tb table[uint32]
	for i := range uint32(100000) {
		tb.set(i*12+1, i, false)
	}
	if len(tb.sparse) != 0 {
		t.Errorf("%d of 100000 ids one in twelve went to the map", len(tb.sparse))
	}
	for i := range uint32(100000) {
		if v, ok := tb.get(i*12 + 1); !ok || v != i {
			t.Fatalf("get(%d) = %d, %v", i*12+1, v, ok)
		}
	}
}

// Ids that keep doubling must not make the pages grow exponentially.
func TestTableGrowthIsBoundedByEntries(t *testing.T) {
	var tb table[uint32]
	id := uint32(denseSlack - 1)
	for range 30 {
		tb.set(id, 1, false)
		id = id*2 + denseSlack - 1
	}
	if tb.allocated*pageLen > 16*31+denseSlack || len(tb.pages) > 64*31+denseSlack {
		t.Errorf("30 entries allocated %d pages in a directory of %d", tb.allocated, len(tb.pages))
	}
}
