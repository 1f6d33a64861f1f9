package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// hostLibrary loads the host tool specs alone: each file of
// internal/spec/library/host, in name order.
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
		file, err := spec.Parse(f, data, mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		lib.AddFile(f, file)
	}
	return lib
}

// TestHostLibraryShape: the host library names programs by bare name,
// once across all its files, describes each by what it does (a behaviour,
// never Ahab 0.2's flag patterns), and says why whenever it blames one.
func TestHostLibraryShape(t *testing.T) {
	lib := hostLibrary(t)
	seen := map[string]string{}
	for _, e := range lib.Entries() {
		if prev, ok := seen[e.Key]; ok {
			t.Errorf("%s: %s is also in %s", e.Origin, e.Key, prev)
		}
		seen[e.Key] = e.Origin
		if e.Program.Origin.Kind != program.System || strings.Contains(e.Key, "/") {
			t.Errorf("%s: %s is not a bare name", e.Origin, e.Key)
		}
		switch e.Kind {
		case spec.SameAsEntry:
			if _, ok := lib.Lookup(e.SameAs); !ok {
				t.Errorf("%s: %s is the same as %s, which is not in the library", e.Origin, e.Key, e.SameAs.Path)
			}
			continue
		case spec.WrapsEntry:
			t.Errorf("%s: %s is a wraps entry, expected a behaviour with a command operand", e.Origin, e.Key)
			continue
		}
		s := e.Spec
		if s.Behaviour == nil || len(s.Requirements)+len(s.Prohibitions) > 0 || s.Reproducibility != spec.Always {
			t.Errorf("%s: %s is not described by a behaviour alone", e.Origin, e.Key)
			continue
		}
		for _, ef := range s.Behaviour.Effects {
			// The reason finishes "this is not reproducible because…".
			if ef.Because == "" || ef.Because != strings.ToLower(ef.Because[:1])+ef.Because[1:] || strings.HasSuffix(ef.Because, ".") {
				t.Errorf("%s: %s: reason %q does not finish the sentence", e.Origin, e.Key, ef.Because)
			}
		}
	}
}
