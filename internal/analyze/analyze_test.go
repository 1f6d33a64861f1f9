package analyze

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/gengraph"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

const conformanceDir = "../../testdata/conformance"

// TestOrderAndParallelismDoNotMatter checks the determinism promise: the
// same graph, with its actions, targets and dep sets in any order and
// checked by any number of workers, gives byte-identical reports, and the
// report is the original's.
func TestOrderAndParallelismDoNotMatter(t *testing.T) {
	checks := check.All(spec.BuiltinFor(mode.Ahab02))
	dumps, _ := filepath.Glob(filepath.Join(conformanceDir, "real", "*.pb"))
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		dumps = append(dumps, filepath.Join(conformanceDir, "synthetic", name+".json"))
	}
	for _, dump := range dumps {
		t.Run(filepath.Base(dump), func(t *testing.T) {
			graph := readContainer(t, dump)
			want, err := os.ReadFile(dump[:len(dump)-len(filepath.Ext(dump))] + ".expected.json")
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for round := range 6 {
				workers := []int{1, 2, 7}[round%3]
				if round > 0 {
					shuffleAllFields(rng, graph)
				}
				data, err := proto.Marshal(graph)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Dump(bytes.NewReader(data), dump, checks, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := report.WriteJSON(&got, res.Findings.Ordered(), mode.Ahab02); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Fatalf("round %d (%d workers, shuffled %v): report differs from the original's", round, workers, round > 0)
				}
				if res.Actions != len(graph.Actions) {
					t.Errorf("counted %d actions, want %d", res.Actions, len(graph.Actions))
				}
			}
		})
	}
}

func readContainer(t *testing.T, path string) *analysispb.ActionGraphContainer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c analysispb.ActionGraphContainer
	if filepath.Ext(path) == ".json" {
		err = protojson.Unmarshal(data, &c)
	} else {
		err = proto.Unmarshal(data, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

func shuffle[T any](rng *rand.Rand, s []T) {
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}

// shuffleAll reorders every repeated top-level field. proto.Marshal writes
// fields in number order; the decoder must not care about either order.
func shuffleAllFields(rng *rand.Rand, c *analysispb.ActionGraphContainer) {
	shuffle(rng, c.Actions)
	shuffle(rng, c.Artifacts)
	shuffle(rng, c.Targets)
	shuffle(rng, c.DepSetOfFiles)
	shuffle(rng, c.PathFragments)
}

// TestByAction: the findings kept by action are the set's, each under the
// action that has it, named by its outputs, in any order of the dump and
// with any number of workers.
func TestByAction(t *testing.T) {
	checks := check.All(spec.BuiltinFor(mode.Default))
	graph := readContainer(t, filepath.Join(conformanceDir, "real", "webapp.pb"))
	rng := rand.New(rand.NewPCG(3, 4))
	var first []ActionFindings
	for round, workers := range []int{1, 2, 7} {
		if round > 0 {
			shuffleAllFields(rng, graph)
		}
		data, err := proto.Marshal(graph)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Dump(bytes.NewReader(data), "webapp.pb", checks, Options{Workers: workers, ByAction: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ByAction) != res.Actions {
			t.Fatalf("%d actions kept, %d in the dump", len(res.ByAction), res.Actions)
		}
		sum := finding.NewSet()
		var withStatus bool
		for _, a := range res.ByAction {
			if len(a.Outputs) == 0 && a.Mnemonic != "Middleman" {
				t.Errorf("%s of %s has no outputs", a.Mnemonic, a.Target)
			}
			for _, f := range a.Findings {
				if f.Action.Target != a.Target || f.Action.Mnemonic != a.Mnemonic {
					t.Errorf("a finding of %s under %s %s", f.Action, a.Mnemonic, a.Target)
				}
				withStatus = withStatus || f.Kind == finding.WorkspaceStatus
				sum.Add(f, 1)
			}
		}
		if !withStatus {
			t.Error("no workspace_status finding kept by action, though the dump has one")
		}
		if !sum.Equal(res.Findings) {
			t.Error("the findings kept by action do not add up to the set")
		}
		if round == 0 {
			first = res.ByAction
		} else if !reflect.DeepEqual(first, res.ByAction) {
			t.Errorf("round %d (%d workers, shuffled): other actions or findings by action", round, workers)
		}
	}
}

// TestRepeatedCommandLines: a graph that repeats its command lines, in
// the same targets (webapp.pb's copies as they are) or in targets of
// their own (renumbered), gives what checking every action afresh gives
// (Options.ByAction checks every action afresh), and each copy counts.
func TestRepeatedCommandLines(t *testing.T) {
	real, err := os.ReadFile(filepath.Join(conformanceDir, "real", "webapp.pb"))
	if err != nil {
		t.Fatal(err)
	}
	const copies = 40
	for _, m := range []mode.Mode{mode.Default, mode.Ahab02} {
		checks := check.All(spec.BuiltinFor(m))
		once, err := Dump(bytes.NewReader(real), "webapp.pb", checks, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, renumber := range []bool{false, true} {
			var dump bytes.Buffer
			if _, err := gengraph.Amplify(&dump, real, copies, renumber); err != nil {
				t.Fatal(err)
			}
			afresh, err := Dump(bytes.NewReader(dump.Bytes()), "amplified.pb", checks, Options{Workers: 2, ByAction: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := afresh.Findings.Occurrences(), copies*once.Findings.Occurrences(); got != want {
				t.Fatalf("%s, renumbered %v: %d occurrences checking every action afresh, want %d", m, renumber, got, want)
			}
			if !renumber {
				want := finding.NewSet()
				for _, c := range once.Findings.Sorted() {
					want.Add(c.Finding, copies*c.Count)
				}
				if !want.Equal(afresh.Findings) {
					t.Errorf("%s: the copies' findings are not the original's, each counted %d times", m, copies)
				}
			}
			for _, workers := range []int{1, 2, 7} {
				res, err := Dump(bytes.NewReader(dump.Bytes()), "amplified.pb", checks, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Findings.Equal(afresh.Findings) {
					t.Errorf("%s, renumbered %v, %d workers: the findings differ from checking every action afresh", m, renumber, workers)
				}
			}
		}
	}
}
