package interp_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// pythonCase is an action of a workspace built twice whose script runs
// Python, and whether its output differed between the builds.
type pythonCase struct {
	name    string
	argv    []string
	outputs []string
	differs bool
}

// TestPythonAgainstRealBuilds: every action of the double-build corpus
// (testdata/hosttools, testdata/builds) that runs Python inline comes out
// as the builds showed, read by the shell's interpreter handing its
// Python to this package's reader.
func TestPythonAgainstRealBuilds(t *testing.T) {
	lib := spec.Builtin()
	var cases []pythonCase
	for _, dir := range []string{"../../testdata/hosttools", "../../testdata/hosttools/heldout"} {
		cases = append(cases, hostCases(t, dir)...)
	}
	names, err := buildcorpus.Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		c, err := buildcorpus.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, corpusCases(t, c)...)
	}
	if len(cases) < 8 {
		t.Fatalf("%d Python cases in the corpus, expected at least 8", len(cases))
	}
	for _, c := range cases {
		inv, ok := shell.Recognize(c.argv)
		if !ok {
			t.Errorf("%s: not a shell: %q", c.name, c.argv)
			continue
		}
		s, err := shell.Analyze(inv, shell.Options{Library: lib, Outputs: c.outputs, Runner: interp.New(lib, nil, interp.Readers())})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var reasons []string
		for _, src := range s.Sources {
			reasons = append(reasons, src.Value.String()+" "+src.Text+" ("+src.Site.String()+")")
		}
		if got := len(s.Sources) > 0; got != c.differs {
			t.Errorf("%s: predicted differs=%v, the builds say differs=%v\n\tscript: %s\n\treasons: %q\n\tunread: %q", c.name, got, c.differs, inv.Script, reasons, s.Unread)
		}
		if len(s.Unread) > 0 {
			t.Errorf("%s: unread %q", c.name, s.Unread)
		}
		t.Logf("%-24s differs=%-5v %s", c.name, c.differs, strings.Join(reasons, "; "))
	}
}

func runsPython(argv []string) bool {
	return slices.ContainsFunc(argv, func(a string) bool { return strings.Contains(a, "python") })
}

func hostCases(t *testing.T, dir string) []pythonCase {
	results := map[string]bool{}
	f, err := os.Open(filepath.Join(dir, "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, r, ok := strings.Cut(sc.Text(), "\t"); ok {
			results[name] = r == "differs"
		}
	}
	var cases []pythonCase
	decode(t, filepath.Join(dir, "aquery.pb"), func(g *aquery.Graph, a *aquery.Action, outputs []string) {
		name, ok := strings.CutPrefix(g.Target(a.TargetID), "//gen:")
		if !ok || !runsPython(a.Arguments) {
			return
		}
		cases = append(cases, pythonCase{name: name, argv: a.Arguments, outputs: outputs, differs: results[name]})
	})
	return cases
}

func corpusCases(t *testing.T, c buildcorpus.Corpus) []pythonCase {
	var cases []pythonCase
	decode(t, c.Aquery, func(g *aquery.Graph, a *aquery.Action, outputs []string) {
		if !runsPython(a.Arguments) || len(outputs) == 0 {
			return
		}
		row, ok := c.Row(outputs[0])
		if !ok || row.Verdict != buildcorpus.Nondeterministic && row.Verdict != buildcorpus.Identical {
			return
		}
		cases = append(cases, pythonCase{name: c.Name + ":" + row.Target, argv: a.Arguments, outputs: outputs, differs: row.Verdict == buildcorpus.Nondeterministic})
	})
	return cases
}

func decode(t *testing.T, path string, each func(*aquery.Graph, *aquery.Action, []string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var actions []*aquery.Action
	g, err := aquery.Decode(f, path, aquery.Options{ArtifactPaths: true}, func(a *aquery.Action) error {
		actions = append(actions, a)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		var outputs []string
		for _, id := range a.OutputIDs {
			if p, ok := g.ArtifactPath(id); ok {
				outputs = append(outputs, p)
			}
		}
		slices.Sort(outputs)
		each(g, a, outputs)
	}
}
