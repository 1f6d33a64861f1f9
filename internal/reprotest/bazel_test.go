package reprotest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/spawndiff"
	"github.com/ahab-go/ahab/internal/testenv"
)

// TestRealBuilds runs Run with the default variations on a copy of a corpus
// workspace (cascade; AHAB_REPROTEST_CORPUS=all runs all six, about five
// minutes, or names some) and requires, spawn by spawn, the verdicts that
// build-twice.sh's double build gave (truth.tsv), but for the differences
// expectedVerdict explains. On cascade: the clock is found
// nondeterministic, its consumers downstream and absorbed, the stamped
// actions input_changed, and the rest identical.
//
// Then nothing may be left: the scratch directories are gone after Close,
// no process has them in its command line (the servers are gone), and the
// workspace Run was given is as it was (no bazel-* symlinks in it).
func TestRealBuilds(t *testing.T) {
	testenv.Slow(t, "builds a workspace twice with the real Bazel", "bazel")
	names := []string{"cascade"}
	switch v := os.Getenv("AHAB_REPROTEST_CORPUS"); v {
	case "":
	case "all":
		var err error
		if names, err = buildcorpus.Names(); err != nil {
			t.Fatal(err)
		}
	default:
		names = strings.Split(v, ",")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) { testRealBuilds(t, name) })
	}
}

// expectedVerdict is the verdict Run's two builds must give row, where
// truth.tsv's comes from build-twice.sh's. ok says whether got is it.
func expectedVerdict(name string, row buildcorpus.Row, b *Builds, got string) (want string, ok bool) {
	want = string(row.Verdict)
	switch {
	case name == "cascade" && row.Output == "bazel-out/k8-fastbuild/bin/cascade/stable_user.txt":
		// stable-status.txt differs by BUILD_USER and by BUILD_HOST: the
		// action's input changes while either is varied.
		if !b.Varied.User && !b.Varied.Hostname {
			want = string(buildcorpus.Identical)
		}
	case row.Cause == "hostname" && !b.Varied.Hostname:
		// `unshare --uts` is not permitted here: the host name, and so
		// stable-status.txt's BUILD_HOST, stay the same.
		want = string(buildcorpus.Identical)
	case (row.Cause == "user" || row.Cause == "home") && !b.Varied.User:
		// The second build ran as the first's account (the test's
		// temporary directory is closed to others, or this is not root).
		want = string(buildcorpus.Identical)
	case row.Cause == "fs-order" && b.otherFS == "":
		// No tmpfs for the second copy: both list directories alike.
		want = string(buildcorpus.Identical)
	case name == "shell" && row.Output == "bazel-out/k8-fastbuild/bin/shell/sources_normalized.tar":
		// tar without --mode records the files' modes: Run gives the second
		// copy the modes of a checkout under umask 0002 (0664), where
		// build-twice.sh's `cp` kept the sources' 0644. Found, rightly.
		want = string(buildcorpus.Nondeterministic)
	case name == "shell" && row.Output == "bazel-out/k8-fastbuild/bin/shell/ls_long.txt":
		// `ls -l` shows minutes: the copies, made seconds apart here
		// (build-twice.sh waits 61 s), differ only across a minute.
		return want + " or identical", got == want || got == string(buildcorpus.Identical)
	}
	return want, got == want
}

func testRealBuilds(t *testing.T, name string) {
	c, err := buildcorpus.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	fixtures := t.TempDir()
	workspace := filepath.Join(fixtures, name)
	if err := os.CopyFS(workspace, os.DirFS(c.Workspace)); err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(fixtures, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(stubsDir(t))); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, workspace)
	scratch := filepath.Join(fixtures, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}

	// A Bazel run by a test must not see the test's own environment.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEST_") && !strings.HasPrefix(kv, "RUNFILES_") && !strings.HasPrefix(kv, "BUILD_FLAVOR=") {
			env = append(env, kv)
		}
	}
	// env's genrules need it (build-twice.sh varies it; Run does not).
	env = append(env, "BUILD_FLAVOR=reprotest")
	var progress bytes.Buffer
	b, err := Run(context.Background(), Options{
		Labels:     []string{"//..."},
		Workspace:  workspace,
		Env:        env,
		BazelFlags: append(buildcorpus.OfflineFlags(stubs), "--jobs=2"),
		TempDir:    scratch,
		Progress:   &progress,
	})
	t.Logf("progress:\n%s", progress.String())
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			b.Close()
		}
	}()
	if !strings.HasPrefix(b.Old, scratch) || !strings.HasPrefix(b.New, scratch) {
		t.Errorf("logs %s and %s, expected them under %s", b.Old, b.New, scratch)
	}
	r := spawndiff.Diff(readLog(t, b.Old), readLog(t, b.New))

	got := map[string]string{} // first output -> verdict
	for _, a := range r.Actions {
		if len(a.Outputs) > 0 {
			got[a.Outputs[0]] = a.Verdict.String()
		}
	}
	identical := 0
	for _, row := range c.Truth {
		verdict, found := got[row.Output]
		if !found {
			verdict = string(buildcorpus.Identical)
			identical++
		}
		if want, ok := expectedVerdict(name, row, b, verdict); !ok {
			t.Errorf("%s (%s): %s, expected %s", row.Output, row.Cause, verdict, want)
		}
		delete(got, row.Output)
	}
	for output, verdict := range got {
		t.Errorf("%s: %s, and it is not in truth.tsv", output, verdict)
	}
	if n := r.Count(spawndiff.Identical); n != identical {
		t.Errorf("%d identical spawns, expected the %d rows found identical", n, identical)
	}

	otherFS := b.otherFS
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	if left := listTree(t, scratch); len(left) > 0 {
		t.Errorf("left behind in %s: %q", scratch, left)
	}
	for _, dir := range []string{scratch, otherFS} {
		if dir == "" {
			continue
		}
		if procs := processesNaming(t, dir); len(procs) > 0 {
			t.Errorf("processes still running with %s in their command line:\n%s", dir, strings.Join(procs, "\n"))
		}
	}
	if _, err := os.Lstat(otherFS); otherFS != "" && err == nil {
		t.Errorf("%s is left", otherFS)
	}
	if after := listTree(t, workspace); !slices.Equal(before, after) {
		t.Errorf("the workspace changed:\nbefore %q\nafter  %q", before, after)
	}
}

func readLog(t *testing.T, path string) *spawndiff.Log {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := spawndiff.NewLog(path)
	if _, err := execlog.Summarize(f, path, execlog.Options{Format: execlog.Binary}, l.Tables(), l.Add); err != nil {
		t.Fatal(err)
	}
	return l
}

// listTree lists every path under dir, relative to it.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir {
			rel, _ := filepath.Rel(dir, path)
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// processesNaming lists the processes whose command line contains s.
func processesNaming(t *testing.T, s string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to look for leftover servers in: %v", err)
	}
	var found []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // not a process, or gone
		}
		if line := strings.ReplaceAll(string(cmdline), "\x00", " "); strings.Contains(line, s) {
			found = append(found, e.Name()+": "+line)
		}
	}
	return found
}

// TestRealBuildStopped cancels Run while the first build's server starts
// (it does not answer `bazel shutdown` yet), and a few seconds later,
// while it builds: Run must stop the build, end the server and remove
// everything.
func TestRealBuildStopped(t *testing.T) {
	testenv.Slow(t, "starts a build with the real Bazel and stops it", "bazel")
	for _, tc := range []struct {
		name string
		// when is what of the first build, under its output base, must
		// exist before Run is stopped.
		when string
	}{{"while the server starts", "server/server.pid.txt"}, {"while it builds", "execroot/*/bazel-out"}} {
		t.Run(tc.name, func(t *testing.T) { testRealBuildStopped(t, tc.when) })
	}
}

func testRealBuildStopped(t *testing.T, when string) {
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	fixtures := t.TempDir()
	workspace := filepath.Join(fixtures, "cascade")
	if err := os.CopyFS(workspace, os.DirFS(c.Workspace)); err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(fixtures, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(stubsDir(t))); err != nil {
		t.Fatal(err)
	}
	scratch := filepath.Join(fixtures, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if m, _ := filepath.Glob(filepath.Join(scratch, "*", "1", "output_base", when)); len(m) > 0 {
				cancel()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	start := time.Now()
	b, err := Run(ctx, Options{Labels: []string{"//..."}, Workspace: workspace, BazelFlags: buildcorpus.OfflineFlags(stubs), TempDir: scratch})
	if err == nil {
		b.Close()
		t.Fatal("Run finished, expected it stopped")
	}
	var se *StoppedError
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) || se.Phase != "build 1 of 2" {
		t.Fatalf("error %v, expected a *StoppedError in build 1 of 2", err)
	}
	t.Logf("stopped and cleaned up in %v", time.Since(start))
	if left := listTree(t, scratch); len(left) > 0 {
		t.Errorf("left behind in %s: %q", scratch, left)
	}
	if procs := processesNaming(t, scratch); len(procs) > 0 {
		t.Errorf("processes still running with %s in their command line:\n%s", scratch, strings.Join(procs, "\n"))
	}
}

// stubsDir is the corpus's stub repositories, which the tests copy.
func stubsDir(t *testing.T) string {
	t.Helper()
	dir, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRealBuildStoppedLeavesNoTempFile stops Run while an action hangs
// after making a temporary file: the file was in the build's own TMPDIR,
// under the scratch directory, and nothing is left in the user's.
func TestRealBuildStoppedLeavesNoTempFile(t *testing.T) {
	testenv.Slow(t, "starts a build with the real Bazel and stops it", "bazel")
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	fixtures := t.TempDir()
	workspace := filepath.Join(fixtures, "cascade")
	if err := os.CopyFS(workspace, os.DirFS(c.Workspace)); err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(fixtures, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(stubsDir(t))); err != nil {
		t.Fatal(err)
	}
	scratch, userTmp, marker := filepath.Join(fixtures, "scratch"), filepath.Join(fixtures, "tmp"), filepath.Join(fixtures, "temp-file")
	for _, d := range []string{scratch, userTmp, filepath.Join(workspace, "hang")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := `genrule(
    name = "hang",
    outs = ["hang.txt"],
    cmd = "f=$$(mktemp); echo $$f > ` + marker + `; sleep 600; touch $@",
)
`
	if err := os.WriteFile(filepath.Join(workspace, "hang", "BUILD"), []byte(build), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMPDIR=") && !strings.HasPrefix(kv, "TEST_") {
			env = append(env, kv)
		}
	}
	env = append(env, "TMPDIR="+userTmp)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(marker); err == nil {
				cancel()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	b, err := Run(ctx, Options{Labels: []string{"//hang"}, Workspace: workspace, Env: env, BazelFlags: buildcorpus.OfflineFlags(stubs), TempDir: scratch, Vary: &Variations{}})
	if err == nil {
		b.Close()
		t.Fatal("Run finished, expected it stopped")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, expected it stopped by the context", err)
	}
	temp, _ := os.ReadFile(marker)
	if !strings.HasPrefix(string(temp), scratch+string(filepath.Separator)) {
		t.Errorf("the action made its temporary file at %s, expected it under the scratch directory %s", temp, scratch)
	}
	if left := listTree(t, userTmp); len(left) > 0 {
		t.Errorf("left in the user's TMPDIR: %q", left)
	}
	if left := listTree(t, scratch); len(left) > 0 {
		t.Errorf("left behind in %s: %q", scratch, left)
	}
	if procs := processesNaming(t, scratch); len(procs) > 0 {
		t.Errorf("processes still running with %s in their command line:\n%s", scratch, strings.Join(procs, "\n"))
	}
}
