package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestTestdata runs each check over the cases in testdata/<check>/*.txtar.
// An archive's comment says what the case shows; its files are
//
//   - graph.json: a JSON list of actions, each with the fields of
//     action.Action in snake case (EnvVar and ParamFile keep their Go
//     field names), an optional "comment" saying why the
//     action is (or is not) reported, and "want": one "<kind> <regexp>" per
//     expected finding, matched against the finding's text (findingText);
//   - specs.json (optional): a spec file (§5.4) making up the library.
//
// Every finding must use up one want of its action, and every want must be
// used, as analysistest does with // want comments.
func TestTestdata(t *testing.T) {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"fuzz": true}
	for _, c := range All(ahab02) {
		names[c.Name] = true
	}
	for _, d := range dirs {
		if !names[d.Name()] {
			t.Errorf("testdata/%s: no check is named %q", d.Name(), d.Name())
		}
	}
	for _, c := range All(ahab02) {
		files, _ := filepath.Glob(filepath.Join("testdata", c.Name, "*.txtar"))
		for _, file := range files {
			t.Run(c.Name+"/"+strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
				for _, problem := range runTestdata(c.Name, file) {
					t.Error(problem)
				}
			})
		}
	}
}

type testAction struct {
	Mnemonic      string             `json:"mnemonic"`
	Target        string             `json:"target"`
	Arguments     []string           `json:"arguments"`
	Env           []action.EnvVar    `json:"env"`
	ExecutionInfo []string           `json:"execution_info"`
	ParamFiles    []action.ParamFile `json:"param_files"`
	StatusInputs  []string           `json:"status_inputs"`
	Comment       string             `json:"comment"`
	Want          []string           `json:"want"`
}

// runTestdata runs the check name over the case in file and returns what
// is wrong, one line each.
func runTestdata(name, file string) (problems []string) {
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	data, err := os.ReadFile(file)
	if err != nil {
		return []string{err.Error()}
	}
	ar := txtar.Parse(data)
	var graph, specs []byte
	for _, f := range ar.Files {
		switch f.Name {
		case "graph.json":
			graph = f.Data
		case "specs.json":
			specs = f.Data
		default:
			fail("%s: unexpected file %q, expected graph.json or specs.json", file, f.Name)
		}
	}
	if strings.TrimSpace(string(ar.Comment)) == "" {
		fail("%s: the archive does not say what it tests", file)
	}
	lib := ahab02
	if specs != nil {
		entries, err := spec.ParseFile("specs.json", specs, mode.Ahab02)
		if err != nil {
			return append(problems, err.Error())
		}
		lib = spec.NewLibraryFor(mode.Ahab02)
		lib.Add("specs.json", entries...)
	}
	var c *Check
	for _, cc := range All(lib) {
		if cc.Name == name {
			c = cc
		}
	}

	dec := json.NewDecoder(bytes.NewReader(graph))
	dec.DisallowUnknownFields()
	var actions []testAction
	if err := dec.Decode(&actions); err != nil {
		return append(problems, fmt.Sprintf("%s: graph.json: %v", file, err))
	}
	for i, ta := range actions {
		entry := fmt.Sprintf("%s: graph.json: action %d", filepath.Base(file), i+1)
		if ta.Target == "" {
			ta.Target = "//test:t1"
		}
		a := &action.Action{Mnemonic: ta.Mnemonic, TargetID: tid(ta.Target), Arguments: ta.Arguments, Env: ta.Env,
			ExecutionInfo: ta.ExecutionInfo, ParamFiles: ta.ParamFiles, StatusInputs: ta.StatusInputs}
		type want struct {
			kind finding.Kind
			re   *regexp.Regexp
			used bool
		}
		var wants []*want
		for _, w := range ta.Want {
			tag, re, _ := strings.Cut(w, " ")
			kind, ok := finding.KindByTag(tag)
			if !ok {
				fail("%s: want %q: unknown kind %q", entry, w, tag)
				continue
			}
			rx, err := regexp.Compile(re)
			if err != nil {
				fail("%s: want %q: %v", entry, w, err)
				continue
			}
			wants = append(wants, &want{kind: kind, re: rx})
		}
		c.Run(a, func(f finding.Finding) {
			text := findingText(f)
			matched := false
			for _, w := range wants {
				if !w.used && w.kind == f.Kind && w.re.MatchString(text) {
					w.used, matched = true, true
					break
				}
			}
			if !matched {
				fail("%s: unexpected finding: %s %s", entry, f.Kind, text)
			}
		})
		for _, w := range wants {
			if !w.used {
				fail("%s: no %s finding matching %q", entry, w.kind, w.re)
			}
		}
	}
	return problems
}

// findingText is what a want's regexp is matched against: the finding's
// own facts, plainly.
func findingText(f finding.Finding) string {
	switch f.Kind {
	case finding.EnvironmentLeak:
		return f.Source.String() + " in " + siteText(f.Site)
	case finding.BadPath:
		return f.Actual
	case finding.ExecutionRequirement:
		return f.Requirement
	case finding.AbsolutePath:
		return f.Path + " in " + siteText(f.Site)
	case finding.WorkspaceStatus:
		return f.Path
	}
	return f.Program.String()
}

func siteText(s finding.Site) string {
	switch s.Location {
	case finding.ParamFile:
		return "param_file " + s.ExecPath + ": " + s.Value
	case finding.EnvVar:
		return "env_var " + s.Key + "=" + s.Value
	}
	return "argument " + s.Value
}

// The harness must notice a missing and an unexpected finding.
func TestTestdataHarnessFails(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.txtar")
	err := os.WriteFile(file, []byte("cases that must fail\n-- graph.json --\n"+
		`[{"arguments": ["tool", "/opt/x"]}, {"arguments": ["tool"], "want": ["absolute_path /y"]}]`), 0o666)
	if err != nil {
		t.Fatal(err)
	}
	got := runTestdata("abspath", file)
	want := []string{
		`bad.txtar: graph.json: action 1: unexpected finding: absolute_path /opt/x in argument /opt/x`,
		`bad.txtar: graph.json: action 2: no absolute_path finding matching "/y"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the harness says\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
