package aquery

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// With ArtifactPaths, every action's outputs are named by their exec
// paths, whichever way the dump is decoded; without, nothing is kept.
func TestArtifactPaths(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "conformance", "real", "webapp.pb"))
	if err != nil {
		t.Fatal(err)
	}
	outputsOf := func(opts Options) map[string][]string {
		g, actions := mustDecode(t, data, opts)
		out := map[string][]string{}
		for _, a := range actions {
			var paths []string
			for _, id := range a.OutputIDs {
				p, ok := g.ArtifactPath(id)
				if !ok {
					t.Fatalf("%s of %s: output %d has no path", a.Mnemonic, g.Target(a.TargetID), id)
				}
				paths = append(paths, p)
			}
			key := a.Mnemonic + " " + g.Target(a.TargetID) + " " + strings.Join(paths, " ")
			out[key] = paths
		}
		return out
	}
	sequential := outputsOf(Options{ArtifactPaths: true})
	parallel := outputsOf(Options{ArtifactPaths: true, Workers: 4, ReuseActions: true})
	if len(sequential) == 0 || !slices.Equal(sortedKeys(sequential), sortedKeys(parallel)) {
		t.Errorf("sequential and parallel decodes name other outputs:\n%q\n%q", sortedKeys(sequential), sortedKeys(parallel))
	}
	var compile bool
	for _, paths := range sequential {
		for _, p := range paths {
			if !strings.HasPrefix(p, "bazel-out/") {
				t.Errorf("output %q is not under bazel-out/", p)
			}
			compile = compile || strings.HasSuffix(p, ".o")
		}
	}
	if !compile {
		t.Error("no object file among the outputs of a dump with C++ compiles")
	}

	g, _ := mustDecode(t, data, Options{})
	if p, ok := g.ArtifactPath(1); ok {
		t.Errorf("without ArtifactPaths, artifact 1 is %q", p)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// With DepSets, Graph.Inputs lists what an action reads, each artifact
// once, through nested and shared dep sets; a genrule running an
// sh_binary tool reads the tool's own script. Without, it lists nothing.
func TestInputs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "builds", "shell", "aquery.pb"))
	if err != nil {
		t.Fatal(err)
	}
	inputsOf := func(opts Options) []string {
		g, actions := mustDecode(t, data, opts)
		for _, a := range actions {
			if g.Target(a.TargetID) != "//shell:tool_clock" {
				continue
			}
			var paths []string
			g.Inputs(slices.Concat(a.InputDepSets, a.InputDepSets), func(_ uint32, p string) bool {
				paths = append(paths, p)
				return true
			})
			return paths
		}
		t.Fatal("no action of //shell:tool_clock")
		return nil
	}
	got := inputsOf(Options{DepSets: true})
	for _, want := range []string{"tools/stamp.sh", "bazel-out/host/bin/tools/stamp"} {
		if !slices.Contains(got, want) {
			t.Errorf("inputs %q lack %q", got, want)
		}
	}
	if sorted := slices.Compact(slices.Sorted(slices.Values(got))); len(sorted) != len(got) {
		t.Errorf("inputs %q list an artifact twice", got)
	}
	if parallel := inputsOf(Options{DepSets: true, Workers: 4}); !slices.Equal(got, parallel) {
		t.Errorf("a parallel decode lists %q, a sequential one %q", parallel, got)
	}
	if none := inputsOf(Options{}); len(none) != 0 {
		t.Errorf("without DepSets, inputs %q", none)
	}
}
