package main

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/jsonfile"
)

// FuzzParseSpec: any input gives a *jsonfile.Error naming the file, or a
// spec that satisfies every rule docs/fishery.md states and reads back the
// same when written out again. Corpus: testdata/fuzz/FuzzParseSpec.
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"repo": "source.bundle", "commit": "` + sha + `"}`))
	f.Add([]byte(`{"repo": "r", "commit": "` + sha + `", "configs": ["ci", ""], "weight": 0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpec("spec.json", data)
		if err != nil {
			if e, ok := errors.AsType[*jsonfile.Error](err); !ok || e.Path != "spec.json" {
				t.Fatalf("error %#v is not a *jsonfile.Error for spec.json", err)
			}
			return
		}
		if s.Repo == "" || !isFullSHA(s.Commit) || s.Label == "" || !insideCheckout(s.Workspace) ||
			s.Weight < 1 || s.Weight > maxWeight || slices.Contains(s.Configs, "") {
			t.Fatalf("ParseSpec accepted %q as %+v", data, s)
		}
		doc := map[string]any{"repo": s.Repo, "commit": s.Commit, "label": s.Label, "workspace": s.Workspace, "weight": s.Weight}
		if s.Configs != nil {
			doc["configs"] = s.Configs
		}
		if s.CompilationMode != "" {
			doc["compilation_mode"] = s.CompilationMode
		}
		written, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseSpec("spec.json", written)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("%+v written as %s reads back as %+v, %v", s, written, again, err)
		}
	})
}
