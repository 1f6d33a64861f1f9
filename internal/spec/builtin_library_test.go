package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// The built-in library's files, in the order §6 adds them.
var builtinNames = []string{"rust", "cc", "container", "go", "java", "js", "kotlin", "pkg", "python", "general"}

// The clause reasons of the short forms (§5.2).
const (
	needsOption  = "it needs an option it was not given"
	breaksOption = "it was given an option that breaks it"
)

// missing is the unmet requirement of a required_flags pattern.
func missing(pattern string) Unmet {
	return Unmet{Because: needsOption, AnyOf: []string{pattern}}
}

// broken is the unmet prohibition of breaking_flags that were present.
func broken(present ...string) Unmet {
	return Unmet{Because: breaksOption, Present: present}
}

// invocation is one action's command line as aquery shows it and what the
// built-in library must make of it.
type invocation struct {
	name string
	argv []string

	// program is the display form of what finally runs, wrappers those of
	// the wrappers unwrapped on the way, outermost first.
	program  string
	wrappers []string
	// unknown says no spec answers; the fields below are then unchecked.
	unknown bool
	// synonym is the display form of the key that carried the spec when it
	// differs from the program, as the report shows it.
	synonym string
	outcome Outcome
	unmet   []Unmet
	// args, when not nil, are the arguments the program was judged on.
	args []string
}

// builtinLibrary is Ahab 0.2's built-in library (§6), whose verdicts the
// tests of this file pin; Ahab's own judgement adds to it (host tools,
// fixes), tested in builtin_default_test.go.
func builtinLibrary(t *testing.T) *Library {
	t.Helper()
	return BuiltinFor(mode.Ahab02)
}

// testInvocations resolves each invocation through program.Of and the
// built-in library and assesses it, so a case proves the naming (§4), the
// resolution (§5.6) and the verdict (§5.3, §6) together.
func testInvocations(t *testing.T, cases []invocation) {
	t.Helper()
	lib := builtinLibrary(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lib.Resolve(program.Of(c.argv[0]), c.argv[1:])
			if got := r.Program.String(); got != c.program {
				t.Errorf("program = %q, want %q", got, c.program)
			}
			var wrappers []string
			for _, w := range r.Wrappers {
				wrappers = append(wrappers, w.String())
			}
			if !slices.Equal(wrappers, c.wrappers) {
				t.Errorf("wrappers = %q, want %q", wrappers, c.wrappers)
			}
			if c.unknown {
				if r.Spec != nil {
					t.Errorf("a spec answered (carried by %s), want none", r.Carrier)
				}
				return
			}
			if r.Spec == nil {
				t.Fatalf("no spec answered for %s", r.Program)
			}
			synonym := ""
			if r.Carrier != r.Program {
				synonym = r.Carrier.String()
			}
			if synonym != c.synonym {
				t.Errorf("synonym = %q, want %q", synonym, c.synonym)
			}
			if c.args != nil && !slices.Equal(r.Args, c.args) {
				t.Errorf("args = %q, want %q", r.Args, c.args)
			}
			v := r.Spec.Assess(r.Args)
			if v.Outcome != c.outcome {
				t.Errorf("outcome = %v, want %v (unmet %+v)", v.Outcome, c.outcome, v.Unmet)
			}
			want := slices.Clone(c.unmet)
			slices.SortFunc(want, compareUnmet)
			if !equalUnmet(v.Unmet, want) {
				t.Errorf("unmet = %+v\nwant    %+v", v.Unmet, want)
			}
		})
	}
}

// equalUnmet compares unmet lists, reading a nil list as an empty one.
func equalUnmet(a, b []Unmet) bool {
	return slices.EqualFunc(a, b, func(x, y Unmet) bool {
		return x.Because == y.Because && slices.Equal(x.AnyOf, y.AnyOf) && slices.Equal(x.Present, y.Present)
	})
}

// libraryFile is the shape of a spec file (§5.4) as far as these tests
// need it.
type libraryFile struct {
	Programs map[string]map[string]json.RawMessage `json:"programs"`
}

func readLibraryFile(t *testing.T, name string) libraryFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("library", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f libraryFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return f
}

// The files are the library's source of truth and reviewers read them, so
// they stay in one canonical layout: two-space indentation, sorted keys, a
// final newline (re-encoding sorts the keys of every object). That holds
// for every file under library/: Ahab 0.2's at the top, the host tools'
// (host/), the languages' functions (lang/) and Ahab's own fixes (fixes/).
func TestLibraryFilesAreCanonical(t *testing.T) {
	var top []string
	err := filepath.WalkDir("library", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(name) != ".json" {
			return err
		}
		if filepath.Dir(name) == "library" {
			top = append(top, strings.TrimSuffix(d.Name(), ".json"))
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Errorf("%s is not canonical: indent with two spaces and sort the keys", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(top)
	want := slices.Sorted(slices.Values(builtinNames))
	if !slices.Equal(top, want) {
		t.Errorf("library files = %q, want %q", top, want)
	}
}

// builtinEntries reads every key of every file, normalised to its ID.
type builtinEntry struct {
	file, key string
	id        program.ID
	kind      string // "spec", "same_as" or "wraps"
	sameAs    program.ID
}

func builtinEntries(t *testing.T) []builtinEntry {
	t.Helper()
	var all []builtinEntry
	for _, name := range builtinNames {
		for key, entry := range readLibraryFile(t, name).Programs {
			id, err := program.Parse(key)
			if err != nil {
				t.Fatalf("%s.json: %s: program: %v", name, key, err)
			}
			if len(entry) != 1 {
				t.Fatalf("%s.json: %s: %d entry keys, expected exactly one of spec, same_as, wraps", name, key, len(entry))
			}
			e := builtinEntry{file: name, key: key, id: id}
			for kind, raw := range entry {
				e.kind = kind
				if kind == "same_as" {
					var target string
					if err := json.Unmarshal(raw, &target); err != nil {
						t.Fatalf("%s.json: %s: same_as: %v", name, key, err)
					}
					if e.sameAs, err = program.Parse(target); err != nil {
						t.Fatalf("%s.json: %s: same_as: %v", name, key, err)
					}
				}
			}
			all = append(all, e)
		}
	}
	return all
}

// §6: the reference library has 94 keys; ours may have more, never fewer.
const referenceKeys = 94

func TestNoKeyAppearsTwiceInTheLibrary(t *testing.T) {
	seen := map[program.ID]string{}
	entries := builtinEntries(t)
	if len(entries) < referenceKeys {
		t.Errorf("%d keys, want at least the %d of §6", len(entries), referenceKeys)
	}
	for _, e := range entries {
		if prev, ok := seen[e.id]; ok {
			t.Errorf("%s.json: %s names the same program as %s", e.file, e.key, prev)
		}
		seen[e.id] = e.file + ".json: " + e.key
	}
}

// §6: every same_as chain ends at an exact entry that is a spec or a
// wrapper, never at a pattern or nowhere.
func TestEverySynonymInTheLibraryPointsAtARealEntry(t *testing.T) {
	byID := map[program.ID]builtinEntry{}
	entries := builtinEntries(t)
	for _, e := range entries {
		byID[e.id] = e
	}
	for _, e := range entries {
		if e.kind != "same_as" {
			continue
		}
		target := e.sameAs
		for steps := 0; ; steps++ {
			if target.IsPattern() {
				t.Errorf("%s.json: %s: same_as %s is a pattern", e.file, e.key, target)
				break
			}
			next, ok := byID[target]
			if !ok {
				t.Errorf("%s.json: %s: same_as %s names no entry", e.file, e.key, target)
				break
			}
			if next.kind != "same_as" {
				break
			}
			if steps > len(entries) {
				t.Errorf("%s.json: %s: same_as chain does not end", e.file, e.key)
				break
			}
			target = next.sameAs
		}
	}
}

func TestTheLibraryAnswersForEveryKey(t *testing.T) {
	lib := builtinLibrary(t)
	entries := builtinEntries(t)
	byID := map[program.ID]builtinEntry{}
	for _, e := range entries {
		byID[e.id] = e
	}
	for _, e := range entries {
		if e.id.IsPattern() {
			continue
		}
		end := e
		for i := 0; end.kind == "same_as" && i < len(entries); i++ {
			end = byID[end.sameAs]
		}
		r := lib.Resolve(e.id, nil)
		// A wrapper given no arguments does not fire and so answers
		// nothing (§5.6); every other key must reach a spec.
		if end.kind == "wraps" {
			if r.Spec != nil {
				t.Errorf("%s.json: %s: a wrapper with nothing to run resolved to a spec", e.file, e.key)
			}
			continue
		}
		if r.Spec == nil {
			t.Errorf("%s.json: %s resolves to no spec", e.file, e.key)
		}
	}
}
