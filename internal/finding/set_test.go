package finding

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/program"
)

func pathFinding(target, path string) Finding {
	return Finding{Kind: AbsolutePath, Action: ActionRef{Mnemonic: "CppCompile", Target: target}, Path: path,
		Site: Site{Location: Argument, Value: "-I" + path}}
}

func TestSet(t *testing.T) {
	t.Run("identical_violations_are_counted_rather_than_repeated", func(t *testing.T) {
		s := NewSet()
		for range 3 {
			s.Add(pathFinding("//a", "/opt/include"), 1)
		}
		s.Add(pathFinding("//b", "/opt/include"), 2)
		if s.Len() != 2 || s.Occurrences() != 5 {
			t.Fatalf("Len %d Occurrences %d, want 2 and 5", s.Len(), s.Occurrences())
		}
		got := s.Sorted()
		if got[0].Action.Target != "//a" || got[0].Count != 3 || got[1].Count != 2 {
			t.Errorf("Sorted = %+v", got)
		}
	})
	t.Run("merging_is_order_independent", func(t *testing.T) {
		build := func(order []string) *Set {
			total := NewSet()
			for _, target := range order {
				part := NewSet()
				part.Add(pathFinding(target, "/x"), 1)
				part.Add(pathFinding("//shared", "/x"), 1)
				total.Merge(part)
			}
			return total
		}
		a, b := build([]string{"//1", "//2", "//3"}), build([]string{"//3", "//1", "//2"})
		if !a.Equal(b) || a.Len() != 4 || a.Occurrences() != 6 {
			t.Errorf("merging in another order changed the set: %v vs %v", a.Sorted(), b.Sorted())
		}
	})
	t.Run("equal_compares_counts", func(t *testing.T) {
		a, b := NewSet(), NewSet()
		a.Add(pathFinding("//a", "/x"), 1)
		b.Add(pathFinding("//a", "/x"), 2)
		if a.Equal(b) {
			t.Error("sets with different counts are equal")
		}
		a.Merge(a.clone())
		if !a.Equal(b) {
			t.Error("merging a set into itself did not double its counts")
		}
	})
	t.Run("adding_after_sorting_sorts_again", func(t *testing.T) {
		s := NewSet()
		s.Add(pathFinding("//b", "/x"), 1)
		s.Ordered()
		s.Add(pathFinding("//a", "/x"), 1)
		s.Add(pathFinding("//b", "/x"), 1)
		got := s.Sorted()
		if s.Len() != 2 || got[0].Action.Target != "//a" || got[1].Count != 2 {
			t.Errorf("after adding to a sorted set: %+v", got)
		}
	})
	t.Run("a_null_synonym_sorts_first", func(t *testing.T) {
		p := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "x"}
		a := Finding{Kind: NeverReproducible, Program: p}
		b := a
		b.Synonym = &p
		if Compare(&a, &b) >= 0 || Compare(&b, &a) <= 0 {
			t.Error("null synonym does not sort before a program")
		}
	})
}

// clone copies a set, for tests.
func (s *Set) clone() *Set {
	c := NewSet()
	c.Merge(s)
	return c
}

// ResolveTargets puts each target's label in place of its id, whatever
// bytes the label holds and however it compares with others, also for
// the id 0 of an action without a target, merges the sets it is given,
// and leaves findings that carry a label as they are; the result sorts
// as Compare does.
func TestResolveTargets(t *testing.T) {
	label := func(id uint32) string {
		l := "//t:" + string(rune('a'+id%26)) + strconv.Itoa(int(id))
		if id%7 == 0 {
			l += "\x00nul" // keys escape NUL
		}
		return l
	}
	// Three sets, as three workers would make them, sharing findings.
	sets := []*Set{NewSet(), NewSet(), NewSet()}
	want := map[ActionRef]int{} // what each finding becomes, counted by hand
	for i := range 3000 {
		f := pathFinding("", "/x")
		f.Action.TargetID = uint32(i%1000 + 1)
		if i%5 == 0 {
			f.Action.Mnemonic = "Mnemonic\x00with NUL"
		}
		sets[i%3].Add(f, 1)
		sets[(i+1)%3].Add(f, 2)
		want[ActionRef{Mnemonic: f.Action.Mnemonic, Target: label(f.Action.TargetID)}] += 3
	}
	sets[0].Add(pathFinding("//already:labelled", "/x"), 4)
	want[ActionRef{Mnemonic: "CppCompile", Target: "//already:labelled"}] += 4
	// An action without a target_id names target 0 (issue #26), which
	// label answers like any other.
	sets[1].Add(pathFinding("", "/x"), 5)
	want[ActionRef{Mnemonic: "CppCompile", Target: label(0)}] += 5

	s := ResolveTargets(sets, label)
	got := s.Sorted()
	for i := 1; i < len(got); i++ {
		if Compare(&got[i-1].Finding, &got[i].Finding) >= 0 {
			t.Fatalf("findings %d and %d out of order: %+v, %+v", i-1, i, got[i-1], got[i])
		}
	}
	if s.Len() != len(want) || len(got) != len(want) {
		t.Errorf("Len %d, %d findings; want %d", s.Len(), len(got), len(want))
	}
	for _, c := range got {
		if c.Action.TargetID != 0 || c.Count != want[ActionRef{Mnemonic: c.Action.Mnemonic, Target: c.Action.Target}] {
			t.Errorf("%+v: count %d, want %d", c.Action, c.Count, want[c.Action])
		}
	}
}

// ResolveTargets rewrites keys rather than decoding them: for random
// findings of every kind, labelled or not (an action whose target_id is
// absent has neither a label nor an id), it gives exactly what decoding
// each, setting its label and adding it to a set gives.
func TestResolveTargetsRewritesKeysAsDecodingWould(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	label := func(id uint32) string { return "//t\x00" + strconv.Itoa(int(id)) }
	sets := []*Set{NewSet(), NewSet()}
	want := NewSet()
	for i := range 5000 {
		f := randomFinding(r)
		sets[i%2].Add(f, i%3+1)
		if f.Action.Target == "" {
			f.Action.Target, f.Action.TargetID = label(f.Action.TargetID), 0
		}
		want.Add(f, i%3+1)
	}
	got := ResolveTargets(sets, label)
	if !reflect.DeepEqual(got.Sorted(), want.Sorted()) {
		t.Error("ResolveTargets differs from decoding, labelling and adding each finding")
	}
	// The set it makes takes more findings as a set does.
	extra := randomFinding(r)
	extra.Action.TargetID = 0
	got.Add(extra, 1)
	want.Add(extra, 1)
	if !got.Equal(want) || got.Len() != want.Len() || got.Occurrences() != want.Occurrences() {
		t.Error("adding to the resolved set differs from adding to a set")
	}
}

// A template given a target counts as the finding it was made from with
// that target, for any finding whose target is not named yet.
func TestAddTemplateAddsTheFindingInTheTarget(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	got, want := NewSet(), NewSet()
	for i := range 3000 {
		f := randomFinding(r)
		f.Action.Target = ""
		tmpl := TemplateOf(&f)
		target := uint32(r.IntN(5))
		got.AddTemplate(tmpl, target, i%4+1)
		f.Action.TargetID = target
		want.Add(f, i%4+1)
	}
	if !reflect.DeepEqual(got.Sorted(), want.Sorted()) {
		t.Error("templates given targets differ from the findings in those targets")
	}
}
