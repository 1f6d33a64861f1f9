package finding

import (
	"fmt"
	"strconv"
	"strings"
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
	t.Run("relabelling_merges_findings_that_become_equal", func(t *testing.T) {
		s := NewSet()
		s.Add(pathFinding("\x00target:1", "/x"), 1)
		s.Add(pathFinding("\x00target:2", "/x"), 1)
		s.Add(pathFinding("//kept", "/x"), 1)
		s = Union([]*Set{s}, func(t string) (string, bool) { return "//same", strings.HasPrefix(t, "\x00") })
		got := s.Sorted()
		if s.Len() != 2 || len(got) != 2 || got[0].Action.Target != "//kept" || got[1].Action.Target != "//same" || got[1].Count != 2 {
			t.Errorf("after Union: Len %d, %+v", s.Len(), got)
		}
	})
	t.Run("a_sorted_set_opens_again_to_add", func(t *testing.T) {
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

// Sets big enough to be relabelled and sorted on several cores merge
// findings that become equal exactly as small ones do, and any label,
// however it compares with the placeholder and whatever bytes it holds,
// lands the finding where Compare puts it.
func TestUnionRelabels(t *testing.T) {
	// Placeholders with a NUL, which keys escape, and without.
	label := func(t string) (string, bool) {
		if !strings.HasPrefix(t, "\x00target:") && !strings.HasPrefix(t, "\x01target:") {
			return "", false
		}
		l := "//t:" + t[len("\x00target:"):][:1]
		if t[len(t)-1] == '7' {
			l += "\x00nul"
		}
		return l, true
	}
	// Three sets, as three workers would make them, sharing some findings;
	// and one set alone, which Union splits among the cores.
	sets := []*Set{NewSet(), NewSet(), NewSet()}
	lone := NewSet()
	want := map[ActionRef]int{} // what each finding becomes, counted by hand
	for i := range 3 * parallelMin {
		f := pathFinding(string(rune(i%2))+"target:"+string(rune('a'+i%26))+strconv.Itoa(i), "/x")
		if i%5 == 0 {
			f.Action.Mnemonic = "Mnemonic\x00with NUL"
		}
		sets[i%3].Add(f, 1)
		sets[(i+1)%3].Add(f, 2)
		lone.Add(f, 3)
		l, _ := label(f.Action.Target)
		want[ActionRef{Mnemonic: f.Action.Mnemonic, Target: l}] += 3
	}
	for _, s := range []*Set{Union(sets, label), Union([]*Set{lone}, label)} {
		checkUnion(t, s, want)
	}
	for _, s := range sets {
		if s.Len() != 0 {
			t.Errorf("Union left %d findings in a set it took", s.Len())
		}
	}
}

func checkUnion(t *testing.T, s *Set, want map[ActionRef]int) {
	t.Helper()
	got := s.Sorted()
	for i := 1; i < len(got); i++ {
		if Compare(&got[i-1].Finding, &got[i].Finding) >= 0 {
			t.Fatalf("findings %d and %d out of order: %+v, %+v", i-1, i, got[i-1], got[i])
		}
	}
	if s.Len() != len(want) || len(got) != len(want) {
		t.Errorf("after Union: Len %d, %d findings; want %d", s.Len(), len(got), len(want))
	}
	for _, c := range got {
		if c.Count != want[c.Action] {
			t.Errorf("%+v: count %d, want %d", c.Action, c.Count, want[c.Action])
		}
	}
}

// Merging sorted parts gives what sorting everything gives, whatever the
// shape of the parts: interleaved one by one, in long runs, one tiny part
// against a big one, with keys shared between parts, or empty.
func TestMergeParts(t *testing.T) {
	key := func(i int) string { return fmt.Sprintf("k%06d", i) }
	shapes := map[string][][]int{
		"interleaved":      {{0, 2, 4, 6, 8}, {1, 3, 5, 7, 9}},
		"runs":             {{0, 1, 2, 3, 10, 11, 12}, {4, 5, 6, 7, 8, 9, 13}},
		"shared_keys":      {{1, 2, 3, 5}, {2, 3, 4, 5}, {0, 5, 6}},
		"tiny_against_big": {seq(0, 5000), {2500}},
		"big_against_tiny": {{-1, 7000}, seq(0, 5000)},
		"an_empty_part":    {{}, {3, 4}, {}},
		"all_empty":        {{}, {}},
	}
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			want := map[string]int{}
			var parts [][]*entry
			for p, part := range shape {
				var es []*entry
				for _, k := range part {
					es = append(es, &entry{key: key(k), count: p + 1})
					want[key(k)] += p + 1
				}
				parts = append(parts, es)
			}
			got := mergeParts(parts)
			if len(got) != len(want) {
				t.Fatalf("%d entries, want %d", len(got), len(want))
			}
			for i, e := range got {
				if i > 0 && got[i-1].key >= e.key {
					t.Fatalf("entries %d and %d out of order: %q, %q", i-1, i, got[i-1].key, e.key)
				}
				if e.count != want[e.key] {
					t.Errorf("%s: count %d, want %d", e.key, e.count, want[e.key])
				}
			}
		})
	}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}
