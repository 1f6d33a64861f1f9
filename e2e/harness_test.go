package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/testenv"
	"github.com/rogpeppe/go-internal/txtar"
)

// requireBazel runs the test only where slow tests run and Bazel exists
// (internal/testenv).
func requireBazel(t *testing.T) {
	t.Helper()
	testenv.Slow(t, "runs the real Bazel", "bazel")
}

var (
	buildOnce sync.Once
	binDir    string // holds the `ahab` binary built from this checkout
	buildErr  error
)

// TestMain removes the binary built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// ahabBinDir builds cmd/ahab once per test run and returns its directory,
// which the workspaces receive as AHAB_PREBUILT_LOCAL.
func ahabBinDir(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "ahab-e2e-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "ahab"), "github.com/ahab-go/ahab/cmd/ahab")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/ahab: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

// workspace is a Bazel workspace in a temporary directory, with its own HOME
// and so its own output user root, Bazel server and output base, shared by
// every command the test runs in it.
type workspace struct {
	t    *testing.T // the test that owns the workspace, for its cleanup
	tmp  string     // what the archive was extracted into
	dir  string     // the workspace: tmp/ws
	home string     // HOME, under which Bazel keeps its output bases
	env  []string   // the environment of every Bazel command
}

// The account and host the workspace is built as; Ahab replaces both with its
// sentinels during the analysis.
const (
	testUser = "e2e"
	testHost = "e2e-host"
)

// newWorkspace extracts testdata/<name>.txtar into a temporary directory. In
// every file, @AHAB_REPO@ becomes this checkout, @TMP@ that directory, and
// each key of vars its value. Bazel gets the binary built from this checkout
// through AHAB_PREBUILT_LOCAL, unless vars has "AHAB_PREBUILT_LOCAL": "".
func newWorkspace(t *testing.T, name string, vars map[string]string) *workspace {
	t.Helper()
	archive, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	pairs := []string{"@AHAB_REPO@", repoRoot(t), "@TMP@", tmp}
	for k, v := range vars {
		pairs = append(pairs, "@"+k+"@", v)
	}
	replacer := strings.NewReplacer(pairs...)
	for _, f := range archive.Files {
		path := filepath.Join(tmp, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(f.Name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(path, []byte(replacer.Replace(string(f.Data))), mode); err != nil {
			t.Fatal(err)
		}
	}
	w := &workspace{t: t, tmp: tmp, dir: filepath.Join(tmp, "ws"), home: filepath.Join(tmp, "home")}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	w.env = append(bazelEnv(os.Environ()), "HOME="+w.home, "USER="+testUser, "HOSTNAME="+testHost)
	if local, ok := vars["AHAB_PREBUILT_LOCAL"]; !ok || local != "" {
		w.env = append(w.env, "AHAB_PREBUILT_LOCAL="+ahabBinDir(t))
	}
	t.Cleanup(w.close)
	return w
}

// bazelEnv is env without what would confuse a nested Bazel or make the
// workspace depend on the machine: a test runner's TEST_* and RUNFILES_*
// (TEST_TMPDIR even moves Bazel's output root), an enclosing `bazel run`'s
// BUILD_* directories, and what newWorkspace sets itself.
func bazelEnv(env []string) []string {
	var kept []string
	for _, kv := range env {
		key, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(key, "TEST_"), strings.HasPrefix(key, "RUNFILES_"),
			key == "JAVA_RUNFILES", key == "PYTHON_RUNFILES",
			key == "BUILD_WORKSPACE_DIRECTORY", key == "BUILD_WORKING_DIRECTORY",
			key == "HOME", key == "USER", key == "HOSTNAME", key == "XDG_CACHE_HOME",
			key == "AHAB_PREBUILT_LOCAL":
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}

// result is what a command did.
type result struct {
	stdout, stderr string
	exitCode       int
}

// bazel runs `bazel args...` in subdir of the workspace ("" for its root),
// reporting to t, the test or subtest running it.
func (w *workspace) bazel(t *testing.T, subdir string, args ...string) result {
	t.Helper()
	cmd := exec.Command("bazel", args...)
	cmd.Dir = filepath.Join(w.dir, subdir)
	cmd.Env = w.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.exitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("bazel %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("bazel %s: exit %d in %s", strings.Join(args, " "), r.exitCode, time.Since(start).Round(100*time.Millisecond))
	return r
}

// mustRun is bazel that fails the test unless the command exits with want.
func (w *workspace) mustRun(t *testing.T, want int, subdir string, args ...string) result {
	t.Helper()
	r := w.bazel(t, subdir, args...)
	if r.exitCode != want {
		t.Fatalf("bazel %s: exit %d, expected %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.exitCode, want, r.stdout, tail(r.stderr, 60))
	}
	return r
}

// close shuts the workspace's Bazel server down, so that no server outlives
// the test, and makes Bazel's read-only output tree removable.
func (w *workspace) close() {
	cmd := exec.Command("bazel", "shutdown")
	cmd.Dir = w.dir
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Logf("bazel shutdown: %v\n%s", err, out)
	}
	filepath.WalkDir(w.home, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
}

// withEnv is the workspace with the environment variables of extra (KEY=VALUE)
// set for its Bazel commands, over those it has.
func (w *workspace) withEnv(extra ...string) *workspace {
	c := *w
	c.env = append(slices.Clone(w.env), extra...)
	return &c
}

func (w *workspace) path(rel string) string { return filepath.Join(w.dir, filepath.FromSlash(rel)) }

func (w *workspace) write(t *testing.T, rel, content string) {
	t.Helper()
	if err := os.WriteFile(w.path(rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readReport parses the report at rel, a path in the workspace.
func (w *workspace) readReport(t *testing.T, rel string) report {
	t.Helper()
	data, err := os.ReadFile(w.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v, expected a report as --write-json writes it:\n%s", rel, err, data)
	}
	t.Logf("%s:\n%s", rel, r)
	return r
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// A report as --write-json writes it (reference §8.1), reduced to the fields
// these tests look at.
type report struct {
	Mode       string `json:"mode"`
	Violations []struct {
		Count     int       `json:"count"`
		Violation violation `json:"violation"`
	} `json:"violations"`
}

type violation struct {
	Kind   string `json:"kind"`
	Action struct {
		Mnemonic string `json:"mnemonic"`
		Target   string `json:"target"`
	} `json:"action"`
	Source      string `json:"source"`
	Sentinel    string `json:"sentinel"`
	Requirement string `json:"requirement"`
	Path        string `json:"path"`
	Actual      string `json:"actual"`
	Site        struct {
		Location string `json:"location"`
		ExecPath string `json:"exec_path"`
		Value    string `json:"value"`
	} `json:"site"`
	Program struct {
		Path string `json:"path"`
	} `json:"program"`
}

func (v violation) String() string {
	s := fmt.Sprintf("%s %s %s", v.Kind, v.Action.Mnemonic, v.Action.Target)
	for _, field := range []string{v.Source, v.Requirement, v.Path, v.Actual, v.Site.Location, v.Site.Value, v.Program.Path} {
		if field != "" {
			s += " " + fmt.Sprintf("%q", field)
		}
	}
	return s
}

// matching returns the findings for which match holds.
func (r report) matching(match func(v violation) bool) []violation {
	var found []violation
	for _, entry := range r.Violations {
		if match(entry.Violation) {
			found = append(found, entry.Violation)
		}
	}
	return found
}

func (r report) String() string {
	var b strings.Builder
	for _, entry := range r.Violations {
		fmt.Fprintf(&b, "  %d × %s\n", entry.Count, entry.Violation)
	}
	return b.String()
}

// expect fails the test unless r has a finding for which match holds.
func expect(t *testing.T, r report, what string, match func(v violation) bool) {
	t.Helper()
	if len(r.matching(match)) == 0 {
		t.Errorf("no finding: %s; the report has:\n%s", what, r)
	}
}

// expectNone fails the test if r has a finding for which match holds.
func expectNone(t *testing.T, r report, what string, match func(v violation) bool) {
	t.Helper()
	if found := r.matching(match); len(found) > 0 {
		t.Errorf("unexpected finding: %s: %v", what, found)
	}
}
