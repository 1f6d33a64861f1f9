package check

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestChecksAreValid is analysis.Validate and TestAllWarningsAreDocumented
// for Ahab's checks: every check has a short lower-case name, a doc with a
// title, a Run, and every kind of finding belongs to exactly one check.
func TestChecksAreValid(t *testing.T) {
	name := regexp.MustCompile(`^[a-z]+$`)
	owner := map[finding.Kind]string{}
	seen := map[string]bool{}
	for _, c := range All(ahab02) {
		if !name.MatchString(c.Name) {
			t.Errorf("check %q: name is not short and lower case", c.Name)
		}
		if seen[c.Name] {
			t.Errorf("check %q: name used twice", c.Name)
		}
		seen[c.Name] = true
		if c.Run == nil {
			t.Errorf("check %q: Run is nil", c.Name)
		}
		title, body, ok := strings.Cut(c.Doc, "\n\n")
		switch {
		case c.Doc == "":
			t.Errorf("check %q is undocumented", c.Name)
		case !ok || strings.TrimSpace(body) == "":
			t.Errorf("check %q: doc has a title but no body after a blank line", c.Name)
		case title == "" || strings.Contains(title, "\n") || len(title) > 70:
			t.Errorf("check %q: doc title %q is not one short line", c.Name, title)
		case strings.HasSuffix(title, ".") || strings.ToLower(title[:1]) != title[:1]:
			t.Errorf("check %q: doc title %q starts with a capital or ends with a period", c.Name, title)
		}
		if len(c.Kinds) == 0 {
			t.Errorf("check %q: reports no kind", c.Name)
		}
		for _, k := range c.Kinds {
			if other, dup := owner[k]; dup {
				t.Errorf("kind %s: reported by both %q and %q", k, other, c.Name)
			}
			owner[k] = c.Name
		}
	}
	for _, k := range finding.Kinds() {
		if _, ok := owner[k]; !ok {
			t.Errorf("kind %s: no check reports it", k)
		}
	}
}

// The checks whose doc cites the reference section they implement.
func TestCheckDocsCiteTheReference(t *testing.T) {
	for _, c := range []*Check{EnvLeak, Path, AbsPath(ahab02), ExecReq, WSStatus} {
		if !regexp.MustCompile(`§3\.\d`).MatchString(c.Doc) {
			t.Errorf("check %q: doc does not cite its section of the reference", c.Name)
		}
	}
}

// findingsOf runs one check over one action, failing the test if the check
// reports a kind it does not declare.
func findingsOf(t *testing.T, c *Check, a *action.Action) []finding.Finding {
	t.Helper()
	var got []finding.Finding
	c.Run(a, func(f finding.Finding) {
		if !slices.Contains(c.Kinds, f.Kind) {
			t.Errorf("check %q reported undeclared kind %s", c.Name, f.Kind)
		}
		got = append(got, f)
	})
	return got
}

// checkFindings runs c over a and compares its findings with want, as
// multisets: the order a check reports in is not part of its contract.
func checkFindings(t *testing.T, c *Check, a *action.Action, want []finding.Finding) {
	t.Helper()
	got := findingsOf(t, c, a)
	sortFindings(got)
	want = slices.Clone(want)
	sortFindings(want)
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("check %q found:\n%s\nwant:\n%s", c.Name, listFindings(got), listFindings(want))
	}
}

func sortFindings(fs []finding.Finding) {
	slices.SortStableFunc(fs, func(a, b finding.Finding) int { return finding.Compare(&a, &b) })
}

func listFindings(fs []finding.Finding) string {
	if len(fs) == 0 {
		return "\t(nothing)"
	}
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "\t%s %+v", f.Kind, f)
	}
	return b.String()
}

// ahab02 is an empty library of Ahab 0.2's judgement: most tests of this
// package pin the original's checks (§3); default_test.go tests what
// Ahab's own judgement adds.
var ahab02 = spec.NewLibraryFor(mode.Ahab02)

// tid gives each target label the tests use an id of its own, as a graph
// would: checks see targets only by id.
func tid(label string) uint32 {
	targetIDsMu.Lock()
	defer targetIDsMu.Unlock()
	id, ok := targetIDs[label]
	if !ok {
		id = uint32(len(targetIDs) + 1)
		targetIDs[label] = id
	}
	return id
}

var (
	targetIDsMu sync.Mutex
	targetIDs   = map[string]uint32{}
)

// The action most tests use, and helpers that build what it should yield.
var testRef = finding.ActionRef{Mnemonic: "Genrule", TargetID: tid("//test:t1")}

func act(args ...string) *action.Action {
	return &action.Action{Mnemonic: testRef.Mnemonic, TargetID: testRef.TargetID, Arguments: args}
}

func argSite(v string) finding.Site { return finding.Site{Location: finding.Argument, Value: v} }

func paramSite(path, v string) finding.Site {
	return finding.Site{Location: finding.ParamFile, ExecPath: path, Value: v}
}

func envVarSite(k, v string) finding.Site {
	return finding.Site{Location: finding.EnvVar, Key: k, Value: v}
}

func withParamFile(a *action.Action, path string, lines ...string) *action.Action {
	a.ParamFiles = append(a.ParamFiles, action.ParamFile{ExecPath: path, Lines: lines})
	return a
}
