package reprotest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/spawndiff"
	"github.com/ahab-go/ahab/internal/testenv"
)

// offlineFlags are what Debian's Bazel 4.2.3 needs to build the corpus
// without a network (testdata/builds/build-twice.sh passes the same).
func offlineFlags(stubs string) []string {
	return []string{
		"--override_repository=rules_cc=" + filepath.Join(stubs, "rules_cc"),
		"--override_repository=remote_coverage_tools=" + filepath.Join(stubs, "remote_coverage_tools"),
		"--override_repository=platforms=/usr/share/bazel/tools/platforms",
		"--override_repository=bazel_skylib=/usr/share/bazel/tools/skylib",
		"--override_repository=rules_java=/usr/share/bazel/rules/java",
		"--spawn_strategy=standalone",
	}
}

// TestRealBuilds runs Run with every variation on a copy of the corpus's
// cascade workspace and requires the verdicts that build-twice.sh's
// double build gave (truth.tsv), spawn by spawn: the clock is found
// nondeterministic, its consumers downstream and absorbed, the stamped
// actions input_changed, and the rest identical. One difference is
// allowed, and asserted: where `unshare --uts` is not permitted, the host
// name cannot vary, stable-status.txt is the same in both builds, and the
// two actions whose only input it is come out identical.
//
// Then nothing may be left: the scratch directory is empty after Close,
// no process has it in its command line (the servers are gone), and the
// workspace Run was given is as it was (no bazel-* symlinks in it).
func TestRealBuilds(t *testing.T) {
	testenv.Slow(t, "builds a workspace twice with the real Bazel", "bazel")
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
	if err := os.CopyFS(stubs, os.DirFS(filepath.Join(c.Workspace, "..", "..", "stubs"))); err != nil {
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
		if !strings.HasPrefix(kv, "TEST_") && !strings.HasPrefix(kv, "RUNFILES_") {
			env = append(env, kv)
		}
	}
	var progress bytes.Buffer
	b, err := Run(context.Background(), Options{
		Labels:     []string{"//..."},
		Workspace:  workspace,
		Env:        env,
		BazelFlags: append(offlineFlags(stubs), "--jobs=2"),
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
		want := string(row.Verdict)
		if !b.Varied.Hostname && row.Cause == "hostname" {
			want = string(buildcorpus.Identical)
		}
		if want == string(buildcorpus.Identical) {
			identical++
		}
		verdict, ok := got[row.Output]
		if !ok {
			verdict = string(buildcorpus.Identical)
		}
		if verdict != want {
			t.Errorf("%s (%s): %s, expected %s as in truth.tsv", row.Output, row.Cause, verdict, want)
		}
		delete(got, row.Output)
	}
	for output, verdict := range got {
		t.Errorf("%s: %s, and it is not in truth.tsv", output, verdict)
	}
	if n := r.Count(spawndiff.Identical); n != identical {
		t.Errorf("%d identical spawns, expected %d", n, identical)
	}

	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	if left := listTree(t, scratch); len(left) > 0 {
		t.Errorf("left behind in %s: %q", scratch, left)
	}
	if procs := processesNaming(t, scratch); len(procs) > 0 {
		t.Errorf("processes still running with %s in their command line:\n%s", scratch, strings.Join(procs, "\n"))
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
	opts := execlog.Options{Format: execlog.Binary, ReuseSpawns: true, Strings: l.Strings(), Contents: l.Contents()}
	if _, err := execlog.Read(f, path, opts, l.Add); err != nil {
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

func diffLogs(t *testing.T, old, new string) *spawndiff.Result {
	return spawndiff.Diff(readLog(t, old), readLog(t, new))
}
