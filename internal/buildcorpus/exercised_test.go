package buildcorpus_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/execroot"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// A case of a real double build: the command line of one action, what its
// workspace holds, and whether its output differed.
type builtCase struct {
	name    string
	argv    []string
	outputs []string
	inputs  []string
	tree    *execroot.Tree
	differs bool
}

// builtCases lists every action of the double-build corpora whose result
// is known: the host tools' cases and the workspaces of testdata/builds.
func builtCases(t *testing.T) []builtCase {
	t.Helper()
	var cases []builtCase
	for _, set := range caseSets() {
		res := results(t, set.dir)
		tree := &execroot.Tree{Workspace: filepath.Join(set.dir, "ws")}
		decodeCases(t, filepath.Join(set.dir, "aquery.pb"), tree, func(target string, output string) (bool, bool) {
			name, ok := strings.CutPrefix(target, "//gen:")
			r, known := res[name]
			return r == "differs", ok && known
		}, &cases)
	}
	names, err := buildcorpus.Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		c, err := buildcorpus.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		tree := &execroot.Tree{Workspace: c.Workspace}
		decodeCases(t, c.Aquery, tree, func(_ string, output string) (bool, bool) {
			r, ok := c.Row(output)
			if !ok || (r.Verdict != buildcorpus.Nondeterministic && r.Verdict != buildcorpus.Identical) {
				return false, false
			}
			return r.Verdict == buildcorpus.Nondeterministic, true
		}, &cases)
	}
	return cases
}

func decodeCases(t *testing.T, dump string, tree *execroot.Tree, verdict func(target, output string) (differs, known bool), cases *[]builtCase) {
	t.Helper()
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var actions []*aquery.Action
	g, err := aquery.Decode(f, dump, aquery.Options{DepSets: true}, func(_ int, a *aquery.Action) error {
		actions = append(actions, a)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		c := builtCase{name: g.Target(a.TargetID), argv: a.Arguments, tree: tree}
		for _, id := range a.OutputIDs {
			if p, ok := g.ArtifactPath(id); ok {
				c.outputs = append(c.outputs, p)
			}
		}
		if len(c.outputs) == 0 {
			continue
		}
		g.Inputs(a.InputDepSets, func(_ uint32, p string) bool { c.inputs = append(c.inputs, p); return true })
		var known bool
		if c.differs, known = verdict(c.name, c.outputs[0]); known {
			*cases = append(*cases, c)
		}
	}
}

// TestEffectsAreExercised: every effect of the host library, and every
// pattern that neutralises one, was seen by a real double build: the
// effect in a case whose output differed, each neutralising pattern in a
// case whose output did not. An effect nobody built is belief, not
// knowledge, and fails the test, unless it is one of what the double builds
// do not vary (unvaried.tsv), which two builds on one machine cannot show.
func TestEffectsAreExercised(t *testing.T) {
	lib := spec.Builtin()
	fired := map[string]bool{}       // effect id whose value differed
	neutralised := map[string]bool{} // effect id + pattern whose output was the same
	for _, c := range builtCases(t) {
		files := c.tree.For(c.inputs)
		opts := shell.Options{Library: lib, Outputs: c.outputs, Files: files, Runner: interp.New(lib, files, interp.Readers())}
		inv, ok := shell.Recognize(c.argv)
		if !ok {
			inv = shell.Invocation{Shell: c.argv[0], Script: commandLineOf(c.argv)}
		}
		s, err := shell.Analyze(inv, opts)
		if err != nil {
			continue
		}
		for _, cmd := range s.Commands {
			name, _ := cmd.Program().Value()
			seen := []shell.Wrapper{{Name: name, Effects: cmd.Effects, Neutralised: cmd.Neutralised}}
			// A wrapper (xargs -P, env) is judged through the commands it runs.
			seen = append(seen, cmd.Wrappers...)
			for _, w := range seen {
				key := entryKey(lib, w.Name)
				if cmd.Output == shell.Sink && c.differs {
					for _, e := range w.Effects {
						fired[key+": "+e.Because] = true
					}
				}
				if !c.differs {
					for _, n := range w.Neutralised {
						for _, g := range n.Effect.Unless {
							if g.Match(n.By) {
								neutralised[key+": "+n.Effect.Because+" | "+g.String()] = true
							}
						}
					}
				}
			}
		}
	}
	// What no double build on one machine varies cannot be shown by one
	// (unvaried.tsv): such an effect is logged with the reason.
	unshown := append(loadUnvaried(t, hosttoolsDir), loadUnvaried(t, buildsDir)...)
	var missing []string
	for _, e := range lib.Entries() {
		if e.Kind != spec.SpecEntry || e.Spec.Behaviour == nil || !strings.Contains(e.Origin, "library/host/") {
			continue
		}
		for _, ef := range e.Spec.Behaviour.Effects {
			id := e.Key + ": " + ef.Because
			if why := unshown.why(id); why != "" && !fired[id] {
				t.Logf("%s: effect %s (%s) cannot differ between two builds on one machine: %s", e.Origin, ef.Value, id, why)
				continue
			}
			if !fired[id] {
				missing = append(missing, fmt.Sprintf("%s: effect %s (%s) differed in no case", e.Origin, ef.Value, id))
			}
			for _, g := range ef.Unless {
				if !neutralised[id+" | "+g.String()] {
					missing = append(missing, fmt.Sprintf("%s: %s: %q neutralised it in no case", e.Origin, id, g.String()))
				}
			}
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Error(m)
	}
	if len(missing) > 0 {
		t.Logf("%d effects and neutralising patterns not exercised by a double build; add cases to testdata/hosttools (README) and build them twice", len(missing))
	}
}

// entryKey is the key of the library entry that describes a program: the
// one same_as leads to.
func entryKey(lib *spec.Library, name string) string {
	r := lib.Resolve(program.Of(name), nil)
	return r.Carrier.Path
}

func commandLineOf(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}
