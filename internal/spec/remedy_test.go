package spec

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// firstObjectAfter returns the JSON object that follows marker in s.
func firstObjectAfter(t *testing.T, s, marker string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, marker)
	if !ok {
		t.Fatalf("%q has no %q", s, marker)
	}
	var raw json.RawMessage
	if err := json.NewDecoder(strings.NewReader(rest)).Decode(&raw); err != nil {
		t.Fatalf("no JSON after %q in %q: %v", marker, s, err)
	}
	return string(raw)
}

// TestUnknownProgramRemedyIsASpecFile: the spec an unknown program's hint
// offers is a spec file that loads and describes that very program, in
// both judgements.
func TestUnknownProgramRemedyIsASpecFile(t *testing.T) {
	for _, p := range []program.ID{
		{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"},
		{Origin: program.Origin{Kind: program.Module, Module: "acme", Extension: "tools", HasExtension: true}, Path: "bin/gen"},
		{Origin: program.Origin{Kind: program.Module, Module: "rules_x"}, Path: "tool"},
	} {
		f := finding.Finding{Kind: finding.UnknownProgram, Action: finding.ActionRef{Target: "//a:b"}, Program: p}
		file := firstObjectAfter(t, f.Remedy(), "--repro-specs file: ")
		for _, m := range []mode.Mode{mode.Default, mode.Ahab02} {
			entries, err := ParseFile("specs.json", []byte(file), m)
			if err != nil {
				t.Fatalf("%s under %s: %v", file, m.Describe(), err)
			}
			lib := NewLibraryFor(m)
			lib.Add("specs.json", entries...)
			r := lib.Resolve(p, nil)
			if r.Spec == nil || r.Spec.Reproducibility != Always || r.Carrier != p {
				t.Errorf("%s under %s does not describe %s as always reproducible: %+v", file, m.Describe(), p, r)
			}
		}
	}
}

// TestAbsolutePathRemedyDeclaresTheOption: the declared_paths an absolute
// path's hint offers, added to a spec, declares the argument it was
// offered for.
func TestAbsolutePathRemedyDeclaresTheOption(t *testing.T) {
	f := finding.Finding{Kind: finding.AbsolutePath, Path: "/app", Site: finding.Site{Value: "--working-dir=/app"}}
	members := strings.TrimSuffix(strings.TrimPrefix(firstObjectAfter(t, f.Remedy(), "add "), "{"), "}")
	file := `{"programs": {"//img": {"spec": {"reproducibility": "always", ` + members + `}}}}`
	entries, err := ParseFile("specs.json", []byte(file), mode.Default)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	args := []string{"--working-dir=/app", "--output=/tmp/x"}
	if got := entries[0].Spec.DeclaredPathArgs(args); !slices.Equal(got, []string{"--working-dir=/app"}) {
		t.Errorf("declared %q of %q, want only --working-dir=/app", got, args)
	}
}
