package execroot_test

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/execroot"
)

// TestLocalRepositories is what a WORKSPACE file declares with
// local_repository and new_local_repository.
func TestLocalRepositories(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string]string
	}{
		{"relative", `local_repository(name = "extool", path = "third_party/extool")`, map[string]string{"extool": "third_party/extool"}},
		{"absolute", `new_local_repository(name = "sdk", path = "/opt/sdk", build_file = "//:sdk.BUILD")`, map[string]string{"sdk": "/opt/sdk"}},
		{"cleaned", `local_repository(name = "a", path = "./x/../y/")`, map[string]string{"a": "y"}},
		{"other rules", "workspace(name = \"w\")\nhttp_archive(name = \"h\", urls = [\"u\"])\nregister_toolchains(\"//:t\")", map[string]string{}},
		{"a path not a string", `local_repository(name = "a", path = DIR)`, map[string]string{}},
		{"a name that is a path", `local_repository(name = "a/b", path = "x")`, map[string]string{}},
		{"does not parse", `local_repository(name = `, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := execroot.LocalRepositories("WORKSPACE", []byte(tc.text))
			for k, v := range got {
				got[k] = filepath.ToSlash(v)
			}
			if !maps.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLocalRepositoryTools: with the workspace alone, a tool of a
// local_repository is read from the repository's directory, as the output
// base's external/NAME links to it; another repository's is not known.
func TestLocalRepositoryTools(t *testing.T) {
	ws := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("WORKSPACE", `local_repository(name = "extool", path = "third_party/extool")`)
	write("third_party/extool/stamp.sh", "#!/bin/sh\ndate\n")
	tree := &execroot.Tree{Workspace: ws}
	files := tree.For([]string{"external/extool/stamp.sh", "external/other/x.sh"})
	src, err := files.Program("bazel-out/host/bin/external/extool/stamp")
	if err != nil || src.Path != "external/extool/stamp.sh" || !strings.Contains(src.Text, "date") || src.Language != "sh" {
		t.Errorf("Program = %+v, %v; want external/extool/stamp.sh read from third_party/extool", src, err)
	}
	if _, err := files.Read("external/other/x.sh"); err == nil {
		t.Error("a repository the WORKSPACE does not declare was read")
	}
	// The output base, when given, is where every repository is.
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "external", "extool"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "external", "extool", "stamp.sh"), []byte("echo fetched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err = (&execroot.Tree{Workspace: ws, OutputBase: base}).For(nil).Read("external/extool/stamp.sh")
	if err != nil || src.Text != "echo fetched\n" {
		t.Errorf("with the output base: %+v, %v; want its external/extool", src, err)
	}
}

// FuzzLocalRepositories: any WORKSPACE text is read without a panic, to
// names without a slash.
func FuzzLocalRepositories(f *testing.F) {
	for _, seed := range []string{
		`local_repository(name = "extool", path = "third_party/extool")`,
		`new_local_repository(name = "sdk", path = "/opt/sdk", build_file = "//:sdk.BUILD")`,
		"load(\"@x//:y.bzl\", \"z\")\nz()\nlocal_repository(**{\"name\": \"a\"})",
		`local_repository(name = `,
		strings.Repeat("(", 1000),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > execroot.MaxFileSize {
			return // larger WORKSPACE files are not read
		}
		for name, dir := range execroot.LocalRepositories("WORKSPACE", []byte(text)) {
			if name == "" || strings.Contains(name, "/") || dir == "" {
				t.Fatalf("repository %q at %q", name, dir)
			}
		}
	})
}

// TestLaunchersByRunfilesName: a launcher whose action is not in the graph
// (a tool of another repository, which aquery //... leaves out) runs the
// script its name says: beside it, below its package (srcs =
// ["scripts/mktar.py"], heldout3's @releasetools), or the one script of
// its directory; never one of two candidates.
func TestLaunchersByRunfilesName(t *testing.T) {
	ws := t.TempDir()
	for name, text := range map[string]string{
		"WORKSPACE":                       `local_repository(name = "rt", path = "third_party/rt")`,
		"third_party/rt/stamp.sh":         "date\n",
		"third_party/rt/scripts/mktar.py": "import tarfile\n",
		"third_party/rt/scripts/sums.sh":  "sha256sum \"$@\"\n",
		"third_party/rt/a/twice.sh":       "echo a\n",
		"third_party/rt/b/twice.sh":       "echo b\n",
		"third_party/rt/lone/only.pl":     "print 1;\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree := &execroot.Tree{Workspace: ws}
	inputs := []string{"external/rt/stamp.sh", "external/rt/scripts/mktar.py", "external/rt/scripts/sums.sh",
		"external/rt/a/twice.sh", "external/rt/b/twice.sh", "external/rt/lone/only.pl"}
	for _, tc := range []struct{ launcher, want string }{
		{"bazel-out/host/bin/external/rt/stamp", "external/rt/stamp.sh"},
		{"bazel-out/k8-opt-exec-2B5CBBC6/bin/external/rt/mktar", "external/rt/scripts/mktar.py"},
		{"bazel-out/host/bin/external/rt/sums", "external/rt/scripts/sums.sh"},
		{"bazel-out/host/bin/external/rt/twice", ""},
		{"bazel-out/host/bin/external/rt/lone/tool", "external/rt/lone/only.pl"},
	} {
		src, err := tree.For(inputs).Program(tc.launcher)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%s: read %s, want it said which of two it could be is not known", tc.launcher, src.Path)
		case tc.want != "" && (err != nil || src.Path != tc.want):
			t.Errorf("%s: %+v, %v; want %s", tc.launcher, src.Path, err, tc.want)
		}
	}
}
