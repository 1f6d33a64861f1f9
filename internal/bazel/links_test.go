package bazel

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// builtWorkspace is a workspace a build has left its convenience links
// in, pointing into outputBase, and the output base of another build.
func builtWorkspace(t *testing.T, rootPackage bool) (ws, outputBase, other string) {
	t.Helper()
	tmp := t.TempDir()
	ws, outputBase, other = filepath.Join(tmp, "ws"), filepath.Join(tmp, "ob"), filepath.Join(tmp, "other")
	execroot := filepath.Join(outputBase, "execroot", "ws")
	for _, d := range []string{
		filepath.Join(execroot, "bazel-out", "k8-fastbuild", "bin"), filepath.Join(execroot, "external", "bazel_tools"),
		filepath.Join(ws, "a"), filepath.Join(ws, "b", "c"), filepath.Join(ws, "empty", "deep"),
		filepath.Join(ws, "ignored"), filepath.Join(ws, ".git"), other,
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"WORKSPACE", "a/BUILD", "b/c/BUILD.bazel", "ignored/BUILD", "empty/deep/notes.txt", ".git/BUILD",
		"../ob/DO_NOT_BUILD_HERE", "../ob/execroot/ws/external/bazel_tools/BUILD"}
	if rootPackage {
		files = append(files, "BUILD")
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, ".bazelignore"), []byte("ignored/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"bazel-ws":   execroot,
		"bazel-bin":  filepath.Join(execroot, "bazel-out", "k8-fastbuild", "bin"),
		"bazel-gone": filepath.Join(tmp, "removed", "execroot", "ws"),
		"tools":      "a", // a link of the user's own
	} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outputBase, other
}

func TestScope(t *testing.T) {
	ws, outputBase, other := builtWorkspace(t, false)
	s := ScopeFor(ws, other)
	if got, want := s.Excluded(), []string{"bazel-bin", "bazel-ws"}; !slices.Equal(got, want) {
		t.Errorf("Excluded = %q, want %q", got, want)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"the_whole_workspace", "//...", "(//a/... + //b/... + //tools/...)"},
		{"with_a_suffix", "//...:all", "(//a/...:all + //b/...:all + //tools/...:all)"},
		{"main_repository_at", "@//...:*", "(@//a/...:* + @//b/...:* + @//tools/...:*)"},
		{"inside_a_function", "deps(//...) - //a/...", "deps((//a/... + //b/... + //tools/...)) - //a/..."},
		{"quoted", `kind(rule, "//...")`, "kind(rule, (//a/... + //b/... + //tools/...))"},
		{"other_patterns_stay", "//a:x + @r//... + //b/...", "//a:x + @r//... + //b/..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.Query(tc.in); got != tc.want {
				t.Errorf("Query(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	t.Run("build_patterns", func(t *testing.T) {
		got := s.Patterns([]string{"//...", "-//...:all", "//x:y"})
		want := []string{"//a/...", "//b/...", "//tools/...", "-//a/...:all", "-//b/...:all", "-//tools/...:all", "//x:y"}
		if !slices.Equal(got, want) {
			t.Errorf("Patterns = %q, want %q", got, want)
		}
	})
	t.Run("a_root_package", func(t *testing.T) {
		ws, _, other := builtWorkspace(t, true)
		if got, want := ScopeFor(ws, other).Query("//..."), "(//:all + //a/... + //b/... + //tools/...)"; got != want {
			t.Errorf("Query = %q, want %q", got, want)
		}
	})
	t.Run("the_links_own_output_base", func(t *testing.T) {
		// Bazel skips the links into the output base it runs with.
		if got := ScopeFor(ws, outputBase).Query("//..."); got != "//..." {
			t.Errorf("Query = %q, want it unchanged", got)
		}
	})
	t.Run("no_links", func(t *testing.T) {
		if got := ScopeFor(t.TempDir(), other).Patterns([]string{"//..."}); !slices.Equal(got, []string{"//..."}) {
			t.Errorf("Patterns = %q, want them unchanged", got)
		}
	})
}

func TestIsConvenienceLink(t *testing.T) {
	ws, _, _ := builtWorkspace(t, false)
	for name, want := range map[string]bool{"bazel-ws": true, "bazel-bin": true, "bazel-gone": true, "tools": false, "a": false, "WORKSPACE": false} {
		if got := IsConvenienceLink(filepath.Join(ws, name)); got != want {
			t.Errorf("IsConvenienceLink(%s) = %v, want %v", name, got, want)
		}
	}
	// Another --symlink_prefix: known by the output base beside the
	// execution root.
	link := filepath.Join(ws, "out-ws")
	if err := os.Symlink(filepath.Join(ws, "..", "ob", "execroot", "ws"), link); err != nil {
		t.Fatal(err)
	}
	if !IsConvenienceLink(link) {
		t.Errorf("IsConvenienceLink(%s) = false, want true", link)
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []string
		want   string
	}{
		{"one_pattern", []string{"//a/..."}, "//a/..."},
		{"one_expression", []string{"deps(//a)"}, "deps(//a)"},
		{"a_union", []string{"//a/...", "//b:c"}, "//a/... + //b:c"},
		{"build_style_exclusion", []string{"//...", "-//third_party/..."}, "//... - //third_party/..."},
		{"expressions_in_parentheses", []string{"//a", "//... - //x/..."}, "//a + (//... - //x/...)"},
		{"an_exclusion_first", []string{"-//a"}, "set() - //a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Query(tc.labels); got != tc.want {
				t.Errorf("Query(%q) = %q, want %q", tc.labels, got, tc.want)
			}
		})
	}
	for s, want := range map[string]bool{"//a/...": true, "-//a:b": true, ":all": true, "@r+//x": true, "deps(//a)": false, "//... - //x/...": false, "": false} {
		if got := IsPattern(s); got != want {
			t.Errorf("IsPattern(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseTargets(t *testing.T) {
	got := parseTargets("//a:b (7c9f3e1)\n//a:b.txt (null)\n@r//x:y (HOST)\n//a:b (7c9f3e1)\nINFO: nothing\n\n")
	if want := []string{"//a:b", "//a:b.txt", "@r//x:y"}; !slices.Equal(got, want) {
		t.Errorf("parseTargets = %q, want %q", got, want)
	}
}
