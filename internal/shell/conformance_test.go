package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
)

// TestConformanceDumps reads every shell action of the real Bazel 4.2.3
// dumps of the conformance set. Ahab 0.2 saw only /bin/bash in them; the
// one source of variation they hold is webapp's `$(date -u +%F)` inside a
// sed script, which reaches web/index.html.
func TestConformanceDumps(t *testing.T) {
	dumps, err := filepath.Glob("../../testdata/conformance/real/*.pb")
	if err != nil || len(dumps) == 0 {
		t.Fatalf("no dumps: %v", err)
	}
	want := map[string][]string{
		"webapp.pb //web:index_html":           {"clock date"},
		"webapp-opt-stamp.pb //web:index_html": {"clock date"},
	}
	shells := 0
	for _, dump := range dumps {
		f, err := os.Open(dump)
		if err != nil {
			t.Fatal(err)
		}
		var actions []*aquery.Action
		g, err := aquery.Decode(f, dump, aquery.Options{}, func(_ int, a *aquery.Action) error {
			actions = append(actions, a)
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range actions {
			target := g.Target(a.TargetID)
			inv, ok := Recognize(a.Arguments)
			if !ok {
				continue
			}
			shells++
			s, err := Analyze(inv, Options{})
			if err != nil {
				t.Errorf("%s %s: %v", filepath.Base(dump), target, err)
				continue
			}
			if !s.Genrule {
				t.Errorf("%s %s: the genrule prefix was not recognised in %q", filepath.Base(dump), target, inv.Script)
			}
			key := filepath.Base(dump) + " " + target
			if got := sources(s); !slices.Equal(got, want[key]) {
				t.Errorf("%s: sources %q, want %q\n\t%s", key, got, want[key], inv.Script)
			}
			delete(want, key)
		}
	}
	if shells == 0 {
		t.Error("no shell action in the dumps")
	}
	for key := range want {
		t.Errorf("%s: not found", strings.TrimSpace(key))
	}
}
