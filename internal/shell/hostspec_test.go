package shell

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestHostLibraryShape: the host library names programs by bare name,
// once across all its files, and says why whenever it blames one.
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
			continue
		}
		s := e.Spec
		clauses := append(append([]spec.Clause(nil), s.Requirements...), s.Prohibitions...)
		switch s.Reproducibility {
		case spec.Always:
			if len(clauses) > 0 {
				t.Errorf("%s: %s is always reproducible but has clauses", e.Origin, e.Key)
			}
		case spec.Never, spec.Sometimes:
			if len(clauses) == 0 {
				t.Errorf("%s: %s is %s without saying why", e.Origin, e.Key, s.Reproducibility)
			}
		}
		for _, c := range clauses {
			// The reason finishes "this is not reproducible because…".
			if c.Because == "" || c.Because != strings.ToLower(c.Because[:1])+c.Because[1:] || strings.HasSuffix(c.Because, ".") {
				t.Errorf("%s: %s: reason %q does not finish the sentence", e.Origin, e.Key, c.Because)
			}
		}
	}
}

// TestSourcesAgreeWithHostSpecs: a command the data flow takes for a
// source of variation is one its host spec does not vouch for, so the two
// never contradict each other. (The spec may know more: `date -d @0` is
// no clock, but its local time depends on the machine's time zone.)
func TestSourcesAgreeWithHostSpecs(t *testing.T) {
	lib := hostLibrary(t)
	tests := []struct {
		command string
		source  bool
	}{
		{"date", true},
		{"date +%s", true},
		{"date -u", true},
		{"date -u -d @0", false},
		{"date -ud @0", false},
		{"TZ=UTC date --date=@0", false},
		{"date -u -r in", true},
		{"hostname", true},
		{"hostid", true},
		{"uname -n", true},
		{"uname -a", true},
		{"uname -r", true},
		{"uname -s", false},
		{"uname -m", false},
		{"whoami", true},
		{"id -u", true},
		{"groups", true},
		{"mktemp", true},
		{"mktemp -d", true},
		{"uuidgen", true},
		{"uuidgen --sha1 --namespace @dns --name x", false},
		{"nproc", true},
		{"ls -l in", true},
		{"ls -la in", true},
		{"ls in", false},
		{"ls -U in", true},
		{"stat in", true},
		{"stat -c %Y in", true},
		{"stat -c %s in", false},
		{"shuf in", true},
		{"shuf --random-source=/dev/zero in", false},
		{"realpath in", true},
		{"realpath --relative-to=. in", true},
		{"realpath -s --relative-to=. in", false},
		{"readlink -f in", true},
		{"readlink in", false},
		{"printenv", true},
		{"env", true},
	}
	for _, tt := range tests {
		s := analyze(t, tt.command+" > out")
		c := s.Commands[0]
		isSource := len(s.Sources) > 0
		if isSource != tt.source {
			t.Errorf("%s: source %v, want %v", tt.command, isSource, tt.source)
		}
		name, _ := c.Program().Value()
		sp, ok := hostSpec(lib, name)
		if !ok {
			t.Errorf("%s: no host spec", tt.command)
			continue
		}
		v := sp.Assess(c.SpecArgs())
		if tt.source && v.Outcome == spec.Reproducible {
			t.Errorf("%s: a source of variation, but its spec says it is reproducible", tt.command)
		}
		if !tt.source && v.Outcome != spec.Reproducible && !strings.HasPrefix(tt.command, "date") {
			t.Errorf("%s: not a source of variation, but its spec says %v %v", tt.command, v.Outcome, v.Unmet)
		}
	}
}

// TestHostLibraryFilesAreCanonical: like the built-in files, the host files
// are read by reviewers, so they keep one layout: two-space indentation,
// sorted keys, a final newline.
func TestHostLibraryFilesAreCanonical(t *testing.T) {
	files, _ := filepath.Glob("../spec/library/host/*.json")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Errorf("%s is not canonical: indent with two spaces and sort the keys", name)
		}
	}
}
