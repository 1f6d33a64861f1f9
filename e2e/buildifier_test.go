package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"
	"github.com/bazelbuild/buildtools/warn"
	"github.com/rogpeppe/go-internal/diff"
)

// starlarkFiles are Ahab's own Starlark files, relative to the repository
// root: what consumers load, so what must parse on every Bazel we support.
func starlarkFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"MODULE.bazel", "WORKSPACE.bazel", "BUILD.bazel"}
	for _, pattern := range []string{"*.bzl", "private/*.bzl", "private/BUILD.bazel"} {
		matches, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(root, m)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	slices.Sort(files)
	return files
}

// TestBuildifier runs what `buildifier --mode=check --lint=warn` runs over
// every Starlark file of the module, with the same default warnings. This is
// also the only check MODULE.bazel gets here: Bazel 4.2.3 has no bzlmod.
func TestBuildifier(t *testing.T) {
	root := repoRoot(t)
	files := starlarkFiles(t, root)
	for _, want := range []string{"defs.bzl", "repositories.bzl", "private/ahab.bzl", "private/extensions.bzl", "private/prebuilt.bzl"} {
		if !slices.Contains(files, want) {
			t.Errorf("%s is missing", want)
		}
	}
	reader := warn.NewFileReader(func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	})
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			f, err := build.Parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			f.WorkspaceRoot = root
			f.Pkg, f.Label = filepath.ToSlash(filepath.Dir(name)), filepath.Base(name)
			if f.Pkg == "." {
				f.Pkg = ""
			}
			for _, finding := range warn.FileWarnings(f, warn.DefaultWarnings, nil, warn.ModeWarn, reader) {
				t.Errorf("%s:%d: %s: %s", name, finding.Start.Line, finding.Category, finding.Message)
			}
			if formatted := build.Format(f); !bytes.Equal(formatted, data) {
				d := diff.Diff(name, data, name+" (buildifier)", formatted)
				t.Errorf("%s is not formatted as buildifier formats it:\n%s", name, strings.TrimSpace(string(d)))
			}
		})
	}
}

// TestBuildifierCatchesMistakes makes sure the check above can fail: a
// misformatted file and a lint finding are both reported.
func TestBuildifierCatchesMistakes(t *testing.T) {
	data := []byte("def f(x):\n  return x\n\nload(\"//:a.bzl\", \"a\")\n")
	f, err := build.Parse("bad.bzl", data)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(build.Format(f), data) {
		t.Error("a two-space indent was left alone")
	}
	var categories []string
	for _, finding := range warn.FileWarnings(f, warn.DefaultWarnings, nil, warn.ModeWarn, nil) {
		categories = append(categories, finding.Category)
	}
	if !slices.Contains(categories, "module-docstring") {
		t.Errorf("warnings = %v, expected module-docstring among them", categories)
	}
}
