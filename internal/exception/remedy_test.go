package exception

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// jsonObjects returns the JSON objects written in s, outermost only, as a
// person would copy them out of a hint.
func jsonObjects(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		var raw json.RawMessage
		d := json.NewDecoder(strings.NewReader(s[i:]))
		if d.Decode(&raw) == nil {
			out = append(out, string(raw))
			i += int(d.InputOffset()) - 1
		}
	}
	return out
}

// modesOf are the judgements that report k: a kind Ahab 0.2 lacked only
// loads in an exception file of Ahab's own judgement.
func modesOf(k finding.Kind) []mode.Mode {
	if k.Info().New {
		return []mode.Mode{mode.Default}
	}
	return []mode.Mode{mode.Default, mode.Ahab02}
}

// TestKindExcusesLoad: the exception each kind's documentation shows is
// one an exception file accepts.
func TestKindExcusesLoad(t *testing.T) {
	for _, k := range finding.Kinds() {
		for _, m := range modesOf(k) {
			if _, err := Parse("docs/kinds.md", []byte(`{"exceptions": [`+k.Info().Excuse+`]}`), m); err != nil {
				t.Errorf("%s under %s: %v", k, m.Describe(), err)
			}
		}
	}
}

// TestRemedyExceptionsExcuse: an exception a hint offers, pasted into an
// exception file, loads and excuses the finding it was offered for.
func TestRemedyExceptionsExcuse(t *testing.T) {
	codegen := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	stamp := program.ID{Origin: program.Origin{Kind: program.Module, Module: "acme", Extension: "tools", HasExtension: true}, Path: "bin/stamp"}
	bash := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}
	ref := act("Genrule", "//rel:info")
	findings := []finding.Finding{
		{Kind: finding.UnknownProgram, Action: act("Codegen", "//api:gen"), Program: codegen},
		{Kind: finding.UnknownProgram, Action: act("Codegen", "//api:gen"), Program: codegen, Command: "tools/codegen -o $@"},
		{Kind: finding.NeverReproducible, Action: ref, Program: stamp},
		{Kind: finding.WorkspaceStatus, Action: ref, Path: "bazel-out/volatile-status.txt"},
		{Kind: finding.SystemProgram, Action: ref, Program: bash},
		{Kind: finding.AbsolutePath, Action: ref, Path: "/srv/app", Site: finding.Site{Value: "sed -e s|@R@|/srv/app| in > out"}},
	}
	for _, f := range findings {
		remedy := f.Remedy()
		objects := jsonObjects(remedy)
		excused := false
		for _, obj := range objects {
			if !strings.Contains(obj, `"kind"`) {
				continue
			}
			for _, m := range modesOf(f.Kind) {
				exs, err := Parse("pasted.json", []byte(`{"exceptions": [`+obj+`]}`), m)
				if err != nil {
					t.Errorf("%s: the exception in %q does not load under %s: %v", f.Kind, remedy, m.Describe(), err)
					continue
				}
				if !exs[0].Matches(&f) {
					t.Errorf("%s: the exception %s does not excuse the finding it is offered for", f.Kind, obj)
				}
				excused = true
			}
		}
		if !excused {
			t.Errorf("%s: the remedy %q offers no exception", f.Kind, remedy)
		}
	}
}
