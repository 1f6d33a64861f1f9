package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/testenv"
)

// TestBuiltWorkspace runs every command that runs Bazel, as a user would,
// in a workspace that has been built: its bazel-* links lead into the
// output base of that build, which Bazel 4 walks into from any other
// output base (`error loading package 'bazel-ws/external/…'`). Each must
// work, change nothing of the workspace (its links still lead where they
// did) and leave nothing in TMPDIR or running.
func TestBuiltWorkspace(t *testing.T) {
	testenv.Slow(t, "builds a workspace with the real Bazel, then runs ahab, reprotest and trace in it", "bazel")
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ws, home, tmp := filepath.Join(work, "ws"), filepath.Join(work, "home"), filepath.Join(work, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", "-R", c.Workspace, ws).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	committed, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(work, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(committed)); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"BUILD_WORKING_DIRECTORY": ws, "PATH": os.Getenv("PATH"), "HOME": home, "TMPDIR": tmp, "BUILD_FLAVOR": "built"}
	var environ []string
	for k, v := range env {
		if k != "BUILD_WORKING_DIRECTORY" {
			environ = append(environ, k+"="+v)
		}
	}
	// The user's own build, which leaves the links and a server.
	build := exec.Command("bazel", append([]string{"--max_idle_secs=120", "build"}, append(buildcorpus.OfflineFlags(stubs), "//...")...)...)
	build.Dir, build.Env = ws, environ
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bazel build: %v\n%s", err, out)
	}
	defer func() {
		shutdown := exec.Command("bazel", "--max_idle_secs=120", "shutdown")
		shutdown.Dir, shutdown.Env = ws, environ
		shutdown.Run()
	}()
	before := snapshot(t, ws)
	if !slices.ContainsFunc(before, func(e string) bool { return strings.HasPrefix(e, "bazel-ws -> ") }) {
		t.Fatalf("the build left no bazel-ws link: %q", before)
	}
	t.Setenv("TMPDIR", tmp) // where reprotest and trace make their scratch directories

	var flags []string
	for _, f := range buildcorpus.OfflineFlags(stubs) {
		flags = append(flags, "--bazel-flag="+f)
	}
	otherBase := filepath.Join(work, "other_output_base")
	for _, tc := range []struct {
		name  string
		args  []string
		tools []string
		want  string // on stdout
	}{
		{"analysis", []string{"//..."}, nil, "(11 actions of 11 targets analysed)"},
		{"another_output_base", []string{"//...", "--output-base", otherBase}, nil, "(11 actions of 11 targets analysed)"},
		{"reprotest", []string{"reprotest", "//...", "--vary=-hostname"}, nil, "the static analysis of bazel aquery deps(//...) predicts 3 of 3 root causes"},
		{"trace", []string{"trace", "//..."}, []string{"strace"}, "11 actions traced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.tools) > 0 {
				testenv.Slow(t, "traces a build", tc.tools...)
			}
			sys, stdout, stderr := testSystem(env)
			code := Main(append(append(tc.args, "--no-fail"), flags...), sys)
			t.Logf("exit %d; stderr:\n%s", code, stderr)
			if code != ExitOK || !strings.Contains(stdout.String(), tc.want) {
				t.Fatalf("exit %d, stdout:\n%s\nwant 0 and %q", code, stdout, tc.want)
			}
			if after := snapshot(t, ws); !slices.Equal(before, after) {
				t.Errorf("the workspace changed:\nbefore %q\nafter  %q", before, after)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("left behind in TMPDIR: %s", strings.Join(names, ", "))
			}
			if procs, _ := exec.Command("pgrep", "-f", tmp).Output(); len(procs) > 0 {
				t.Errorf("processes still run with %s in their command line: %s", tmp, procs)
			}
		})
	}
	// --output-base is the user's to keep, with its server.
	shutdown := exec.Command("bazel", "--output_base="+otherBase, "--output_user_root="+filepath.Dir(otherBase), "shutdown")
	shutdown.Dir, shutdown.Env = ws, environ
	shutdown.Run()
}

// snapshot lists a workspace: each file with a hash of its content, each
// link with where it leads.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			out = append(out, rel+" -> "+target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			out = append(out, rel+" "+hex.EncodeToString(sum[:8]))
		default:
			out = append(out, rel+"/")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConfigurationRealBazel runs ahab twice on one server: first with
// --action_env=USER, then with --action_env=FOO=/opt/x. The second run
// reads the configuration its own aquery used: it reports FOO on the C++
// actions, whose environment Bazel 4.2.3's proto aquery omits, and not the
// USER of the configuration the first run left in the server.
func TestConfigurationRealBazel(t *testing.T) {
	testenv.Slow(t, "analyses a workspace twice with the real Bazel", "bazel")
	c, err := buildcorpus.Load("cc")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ws, home := filepath.Join(work, "ws"), filepath.Join(work, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", c.Workspace, ws).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	committed, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(work, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(committed)); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"BUILD_WORKING_DIRECTORY": ws, "PATH": os.Getenv("PATH"), "HOME": home, "USER": "someone"}
	ob := filepath.Join(work, "output_base")
	defer func() {
		shutdown := exec.Command("bazel", "--output_base="+ob, "--output_user_root="+work, "shutdown")
		shutdown.Dir, shutdown.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
		shutdown.Run()
	}()
	run := func(actionEnv string) string {
		out := filepath.Join(work, "report.json")
		args := []string{"//...", "--output-base", ob, "--no-fail", "--write-json", out, "--bazel-flag=--action_env=" + actionEnv}
		for _, f := range buildcorpus.OfflineFlags(stubs) {
			args = append(args, "--bazel-flag="+f)
		}
		sys, _, stderr := testSystem(env)
		if code := Main(args, sys); code != ExitOK {
			t.Fatalf("--action_env=%s: exit %d; stderr:\n%s", actionEnv, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	first := run("USER")
	if !strings.Contains(first, `"source": "inherited"`) {
		t.Errorf("--action_env=USER: no inherited variable reported:\n%s", first)
	}
	second := run("FOO=/opt/x")
	if strings.Contains(second, `"source": "inherited"`) {
		t.Errorf("--action_env=FOO=/opt/x: an inherited variable is reported, from the configuration the first run left:\n%s", second)
	}
	if !strings.Contains(second, `"mnemonic": "CppCompile"`) || !strings.Contains(second, `"path": "/opt/x"`) {
		t.Errorf("--action_env=FOO=/opt/x: no absolute path /opt/x on the C++ actions:\n%s", second)
	}
}
