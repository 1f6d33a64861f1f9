package shell

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// The proof by real builds: testdata/hosttools/ws holds one genrule (or
// run_shell action) per case, each using a tool or a shell construct the
// non-reproducible way or the reproducible way. build-twice.sh built the
// workspace twice as two different machines would and recorded in
// results.tsv which outputs differed; aquery.pb is the workspace's aquery
// dump. This test predicts, from the dump alone, which outputs differ, and
// checks the prediction against the builds.

const hosttoolsDir = "../../testdata/hosttools"

// caseSet is a workspace built by build-twice.sh and the cases of it the
// model knowingly gets wrong, each with the reason. A case listed that
// starts to agree fails the test, so the lists stay true.
type caseSet struct {
	name       string
	dir        string
	mismatches map[string]string
	// tuned says the model and the host library were written against
	// this set; the held-out set was scored after.
	tuned bool
}

// caseSets are the sets the test scores. AHAB_HOSTTOOLS_DIR replaces them
// with another workspace built by the same script.
func caseSets() []caseSet {
	if dir := os.Getenv("AHAB_HOSTTOOLS_DIR"); dir != "" {
		return []caseSet{{name: dir, dir: dir}}
	}
	return []caseSet{
		{name: "tuned", dir: hosttoolsDir, mismatches: knownMismatches, tuned: true},
		{name: "held-out", dir: filepath.Join(hosttoolsDir, "heldout"), mismatches: heldOutMismatches},
	}
}

// hostLibrary loads the host tool specs the way the integrator will: each
// file of internal/spec/library/host through spec.ParseFile, in name order.
func hostLibrary(t testing.TB) *spec.Library {
	t.Helper()
	files, err := filepath.Glob("../spec/library/host/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no host spec files: %v", err)
	}
	lib := spec.NewLibrary()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := spec.ParseFile(f, data, mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		lib.Add(f, entries...)
	}
	return lib
}

// verdict is what a case's output does in two builds.
type verdict string

const (
	same    verdict = "same"
	differs verdict = "differs"
	unknown verdict = "unknown" // predicted only: a program no spec describes reaches a file
)

// prediction is what Ahab says of one action, and why.
type prediction struct {
	verdict verdict
	reasons []string
}

// predict judges a script: it differs when a value that varies reaches an
// output or a command whose output reaches one is judged not reproducible
// by a spec of Ahab 0.2's format; it is unknown when a command nobody
// describes reaches one.
func predict(s *Script, lib *spec.Library) prediction {
	var p prediction
	for _, src := range s.Sources {
		p.reasons = append(p.reasons, fmt.Sprintf("%s %q at %s: %s", src.Value, src.Text, src.Pos, src.Because))
	}
	var unknowns []string
	for _, c := range s.Commands {
		if c.Output != Sink || c.Read != "" {
			continue
		}
		name, ok := c.Program().Value()
		if !ok {
			continue
		}
		r := lib.Resolve(program.Of(name), nil)
		if r.Spec == nil {
			unknowns = append(unknowns, fmt.Sprintf("unknown program %q", name))
			continue
		}
		if r.Spec.Behaviour != nil {
			continue
		}
		v := r.Spec.Assess(c.SpecArgs())
		switch v.Outcome {
		case spec.NotReproducible:
			p.reasons = append(p.reasons, fmt.Sprintf("%s is never reproducible", name))
		case spec.Conditional:
			for _, u := range v.Unmet {
				p.reasons = append(p.reasons, fmt.Sprintf("%s: %s (%v %v)", name, u.Because, u.AnyOf, u.Present))
			}
		}
	}
	switch {
	case len(p.reasons) > 0:
		p.verdict = differs
	case len(unknowns) > 0:
		p.verdict = unknown
	default:
		p.verdict = same
	}
	p.reasons = append(p.reasons, unknowns...)
	return p
}

type hostCase struct {
	name    string
	argv    []string
	outputs []string
	result  verdict
}

func hostCases(t *testing.T, dir string) []hostCase {
	t.Helper()
	results := map[string]verdict{}
	f, err := os.Open(filepath.Join(dir, "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, r, ok := strings.Cut(sc.Text(), "\t")
		if !ok || name == "case" {
			continue
		}
		results[name] = verdict(r)
	}
	dump, err := os.Open(filepath.Join(dir, "aquery.pb"))
	if err != nil {
		t.Fatal(err)
	}
	defer dump.Close()
	var actions []*aquery.Action
	g, err := aquery.Decode(dump, "aquery.pb", aquery.Options{ArtifactPaths: true}, func(a *aquery.Action) error {
		actions = append(actions, a)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var cases []hostCase
	for _, a := range actions {
		target := g.Target(a.TargetID)
		name, ok := strings.CutPrefix(target, "//gen:")
		if !ok {
			continue
		}
		r, ok := results[name]
		if !ok {
			t.Errorf("%s: not in results.tsv", target)
			continue
		}
		delete(results, name)
		var outputs []string
		for _, id := range a.OutputIDs {
			if p, ok := g.ArtifactPath(id); ok {
				outputs = append(outputs, p)
			}
		}
		cases = append(cases, hostCase{name: name, argv: a.Arguments, outputs: outputs, result: r})
	}
	for name := range results {
		t.Errorf("%s: in results.tsv but not in aquery.pb", name)
	}
	slices.SortFunc(cases, func(a, b hostCase) int { return strings.Compare(a.name, b.name) })
	return cases
}

// knownMismatches are the cases where the prediction is knowingly wrong,
// each with the reason. A case listed here that starts to agree fails the
// test, so the list stays true.
var knownMismatches = map[string]string{
	// These builds ran the second build in another time zone
	// (/etc/localtime), which a fixed date printed in local time shows.
	// Builds of one project usually share one, and the issue that asked
	// for the shell analysis counts `date -d @$SOURCE_DATE_EPOCH` as
	// deterministic, so date is judged only on whether it prints the
	// current time (docs/shell.md says so).
	"date_fixed_local": "a fixed date printed in the machine's time zone; only a time zone change shows it",
	// Asking every compile for -D__DATE__ would blame every compile of a
	// source that does not use it (gcc_plain, gcc_g0, gcc_g_prefix_map
	// are deterministic).
	"gcc_date": "only the source says whether it uses __DATE__, and Ahab does not read sources",
}

// heldOutMismatches are the held-out cases the model gets wrong. The first
// score of the held-out set (before any change made for it) was recall
// 0.92, precision 0.75: 12 true and 4 false positives, 1 false negative.
// Two changes followed, each a rule rather than a case: an exported
// variable reaches only tools we know nothing about (h_version_env), and
// tar asked for --mode, since checked-out files keep the checkout's umask
// (h_tmp_tar). It no longer does: the builds Ahab predicts are two of one
// project by one account in one time zone, which owners, modes and time
// zones do not tell apart.
var heldOutMismatches = map[string]string{
	// The second checkout was made with umask 077: the sources' modes
	// differ, which only another checkout shows.
	"h_tmp_tar":  "the second checkout was made with another umask, so the sources' modes differ",
	"h_find_cat": "find lists a directory in the file system's order; these three files happened to list alike on both",
	"h_sed_year": "the sed script puts the year in place of @YEAR@, which the input does not contain",
}

func TestHostToolsAgainstRealBuilds(t *testing.T) {
	lib := spec.Builtin()
	for _, set := range caseSets() {
		t.Run(set.name, func(t *testing.T) {
			scoreSet(t, set, lib)
		})
	}
}

func scoreSet(t *testing.T, set caseSet, lib *spec.Library) {
	var tp, fp, fn, tn, unknowns int
	for _, c := range hostCases(t, set.dir) {
		inv, ok := Recognize(c.argv)
		if !ok {
			t.Errorf("%s: not recognised as a shell: %q", c.name, c.argv)
			continue
		}
		s, err := Analyze(inv, Options{Library: lib, Outputs: c.outputs})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		p := predict(s, lib)
		switch {
		case p.verdict == unknown:
			unknowns++
		case p.verdict == differs && c.result == differs:
			tp++
		case p.verdict == differs && c.result == same:
			fp++
		case p.verdict == same && c.result == differs:
			fn++
		default:
			tn++
		}
		agrees := p.verdict == c.result || p.verdict == unknown
		reason, known := set.mismatches[c.name]
		switch {
		case !agrees && !known:
			t.Errorf("%s: predicted %s, the builds say %s\n\tscript: %s\n\treasons: %s", c.name, p.verdict, c.result, inv.Script, strings.Join(p.reasons, "; "))
		case agrees && known:
			t.Errorf("%s: listed as a known mismatch (%s) but the prediction agrees with the builds now", c.name, reason)
		case !agrees:
			t.Logf("%s: known mismatch: predicted %s, the builds say %s: %s", c.name, p.verdict, c.result, reason)
		}
		if testing.Verbose() {
			t.Logf("%-28s builds %-7s predicted %-7s %s", c.name, c.result, p.verdict, strings.Join(p.reasons, "; "))
		}
	}
	recall := float64(tp) / float64(tp+fn)
	precision := float64(tp) / float64(tp+fp)
	t.Logf("%s: %d cases judged, %d left unknown; true positives %d, false positives %d, false negatives %d, true negatives %d; recall %.2f, precision %.2f",
		set.name, tp+fp+fn+tn, unknowns, tp, fp, fn, tn, recall, precision)
	if set.tuned && (recall < 0.9 || precision < 0.9) {
		t.Errorf("recall %.2f and precision %.2f must both be at least 0.9", recall, precision)
	}
}

// TestHostSpecsAreExercised: every program the host library describes runs
// in at least one case of the workspace, so every verdict was confirmed by
// the real builds rather than assumed.
func TestHostSpecsAreExercised(t *testing.T) {
	lib := hostLibrary(t)
	ran := map[string]bool{}
	for _, c := range hostCases(t, hosttoolsDir) {
		inv, _ := Recognize(c.argv)
		s, err := Analyze(inv, Options{})
		if err != nil {
			continue
		}
		for _, cmd := range s.Commands {
			if name, ok := cmd.Program().Value(); ok {
				ran[path.Base(name)] = true
			}
		}
	}
	for _, e := range lib.Entries() {
		if !ran[e.Key] {
			t.Errorf("%s: %s is in the host library but no case of the workspace runs it", e.Origin, e.Key)
		}
	}
}

// TestResultsMatchExecutionLogs: results.tsv says what the two builds'
// execution logs say, output digest by output digest.
func TestResultsMatchExecutionLogs(t *testing.T) {
	for _, set := range caseSets() {
		a := executionLogDigests(t, filepath.Join(set.dir, "execlog-a.json.gz"))
		b := executionLogDigests(t, filepath.Join(set.dir, "execlog-b.json.gz"))
		for _, c := range hostCases(t, set.dir) {
			p := "bazel-out/k8-fastbuild/bin/gen/" + c.name + ".out"
			if a[p] == "" || b[p] == "" {
				t.Errorf("%s: not in both execution logs", p)
				continue
			}
			got := same
			if a[p] != b[p] {
				got = differs
			}
			if got != c.result {
				t.Errorf("%s: results.tsv says %s, the execution logs %s", c.name, c.result, got)
			}
		}
	}
}

// executionLogDigests reads a gzipped JSON execution log (a stream of
// SpawnExec objects) into output path → digest.
func executionLogDigests(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	dec := json.NewDecoder(zr)
	for {
		var spawn struct {
			ActualOutputs []struct {
				Path   string
				Digest struct{ Hash string }
			}
		}
		if err := dec.Decode(&spawn); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range spawn.ActualOutputs {
			out[o.Path] = o.Digest.Hash
		}
	}
	return out
}
