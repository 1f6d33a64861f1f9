package exception

import (
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// FuzzParse checks that any file either fails with an *Error or yields
// exceptions that each have a condition and can be matched and shown.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"exceptions": [{"reason": "r", "kind": "absolute_path", "path": "/usr/*", "location": "env_var", "env_var": "H*"}]}`))
	f.Add([]byte(`{"exceptions": [{"mnemonic": "Cpp?", "target": "//a/*", "program": "@x//*"}, {"source": "user", "kind": null}]}`))
	f.Add([]byte(`{"exceptions": [{"kind": "bad_path", "actual": "*"}, {"requirement": "no-*"}]}`))
	f.Add([]byte(`{"exceptions": []}`))
	findings := []finding.Finding{
		{Kind: finding.AbsolutePath, Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//a/b"}, Path: "/usr/x",
			Site: finding.Site{Location: finding.EnvVar, Key: "HOME", Value: "/usr/x"}},
		{Kind: finding.EnvironmentLeak, Source: finding.Hostname, Site: finding.Site{Location: finding.Argument}},
		{Kind: finding.ConditionalReproducibility, Program: program.ID{Origin: program.Origin{Kind: program.Module, Module: "x"}, Path: "bin/y"}},
		// A text with a `*` of its own, where Ahab 0.2's matcher differs
		// by the pattern's shape (issue #26).
		{Kind: finding.UnknownProgram, Action: finding.ActionRef{Mnemonic: "*Gen", Target: "//gen:star*"}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exs, err := Parse("f.json", data, mode.Ahab02)
		if err != nil {
			if _, ok := err.(*jsonfile.Error); !ok {
				t.Fatalf("%T is not a *jsonfile.Error: %v", err, err)
			}
			return
		}
		set := finding.NewSet()
		for _, fd := range findings {
			set.Add(fd, 1)
		}
		kept, s, unused := Filter(set, exs)
		if kept.Len()+s.Distinct != len(findings) || s.Exceptions+len(unused) != len(exs) {
			t.Fatalf("filter lost track: kept %d, summary %+v, unused %d", kept.Len(), s, len(unused))
		}
		for i := range exs {
			if !exs[i].hasPredicate() {
				t.Fatalf("exception %d has no condition", i+1)
			}
			_ = exs[i].String()
		}
	})
}
