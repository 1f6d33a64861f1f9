package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/testenv"
)

// TestReprotestRealBuild runs `ahab reprotest` as a user would, in a copy
// of the cascade workspace, with the real Bazel: exit 3, every spawn the
// verdict the corpus's own double build showed (truth.tsv), the static
// analysis explaining every root cause, and nothing left in the temporary
// directory or running.
func TestReprotestRealBuild(t *testing.T) {
	testenv.Slow(t, "builds a workspace twice with the real Bazel", "bazel")
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where reprotest and the scratch aquery make their directories
	work := t.TempDir()
	ws := filepath.Join(work, "ws")
	if out, err := exec.Command("cp", "-R", c.Workspace, ws).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	stubs := filepath.Join(work, "stubs")
	committed, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(stubs, os.DirFS(committed)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(work, "reprotest.json")
	args := []string{"reprotest", "//...", "--write-json", out, "--keep-logs", filepath.Join(work, "logs")}
	for _, f := range buildcorpus.OfflineFlags(stubs) {
		args = append(args, "--bazel-flag="+f)
	}
	sys, stdout, stderr := testSystem(map[string]string{
		"BUILD_WORKING_DIRECTORY": ws,
		"PATH":                    os.Getenv("PATH"),
		"HOME":                    os.Getenv("HOME"),
		"TMPDIR":                  tmp,
	})
	if code := Main(args, sys); code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitFindings, stderr)
	}
	rep := readDiffReport(t, out)
	checkVerdicts(t, rep, c)
	if rep.Static == nil || rep.Static.RootCauses == 0 || rep.Static.Explained != rep.Static.RootCauses {
		t.Errorf("static %+v, want every root cause explained", rep.Static)
	}
	if !strings.Contains(stdout.String(), "cause: reproducibility violation [variation_source]: Genrule action for target //cascade:clock") {
		t.Errorf("the text report lacks the clock's cause:\n%s", stdout)
	}
	for _, log := range []string{"old.binlog", "new.binlog"} {
		if _, err := os.Stat(filepath.Join(work, "logs", log)); err != nil {
			t.Errorf("--keep-logs: %v", err)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left behind in the temporary directory: %s", strings.Join(names, ", "))
	}
	if procs, _ := exec.Command("pgrep", "-f", tmp).Output(); len(procs) > 0 {
		t.Errorf("processes still run with %s in their command line: %s", tmp, procs)
	}
	if entries, _ := os.ReadDir(ws); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), "bazel-") }) {
		t.Errorf("the workspace got bazel-* symlinks")
	}
}
