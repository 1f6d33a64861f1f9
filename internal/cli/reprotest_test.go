package cli

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
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
	// The test's temporary directories are closed to other accounts.
	if want := "not varied: user: the scratch directory's parent "; os.Geteuid() == 0 && !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	rep := readDiffReport(t, out)
	checkVerdicts(t, rep, c)
	for _, a := range rep.Actions {
		if a.Target == "//cascade:clock" && (len(a.Inside) != 1 || a.Inside[0].Class != "time") {
			t.Errorf("//cascade:clock: inside %+v, want one output whose class is time", a.Inside)
		}
	}
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

// TestReprotestAccount runs `ahab reprotest` with the default variations on
// a copy of the account workspace, whose second build runs as another
// account, with the real Bazel, as root: the tar that records its members'
// owner diverges, every spawn gets the verdict of the corpus's own double
// build, each root cause's output the class of its cause; --keep keeps both
// trees and logs and nothing else, from which ahab diff --outputs says the
// same; the account Run made is gone afterwards.
func TestReprotestAccount(t *testing.T) {
	testenv.Slow(t, "builds a workspace twice with the real Bazel, the second time as another account", "bazel")
	if os.Geteuid() != 0 {
		t.Skip("the user variation needs root")
	}
	c, err := buildcorpus.Load("account")
	if err != nil {
		t.Fatal(err)
	}
	// The other account must reach the scratch directory and the stubs.
	root := t.TempDir()
	for _, d := range []string{root, filepath.Dir(root)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(root, "tmp")
	ws := filepath.Join(root, "ws")
	stubs := filepath.Join(root, "stubs")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	if out, err := exec.Command("cp", "-R", c.Workspace, ws).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	committed, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", committed, stubs).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	keep, out := filepath.Join(root, "kept"), filepath.Join(root, "reprotest.json")
	args := []string{"reprotest", "//...", "--write-json", out, "--keep", keep}
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
	t.Logf("stderr:\n%s", stderr)
	if !strings.Contains(stderr.String(), "varied user: root (uid 0, gid 0) -> ahab-reprotest") {
		t.Errorf("stderr does not say the second build ran as ahab-reprotest:\n%s", stderr)
	}
	rep := readDiffReport(t, out)
	checkVerdicts(t, rep, c)
	classes := map[string]string{}
	for _, a := range rep.Actions {
		for _, in := range a.Inside {
			classes[in.Path] = in.Class
		}
	}
	for _, row := range c.Truth {
		want := map[string]string{"user": "user", "home": "home", "parallel": "order"}[row.Cause]
		if want != "" && classes[row.Output] != want {
			t.Errorf("%s (%s): class %q, want %q", row.Output, row.Cause, classes[row.Output], want)
		}
	}
	if !strings.Contains(stdout.String(), "inside (tar): user") {
		t.Errorf("the text report lacks the tar's owner:\n%s", stdout)
	}

	// --keep: both trees, each described, and the logs; nothing else.
	var top []string
	entries, _ := os.ReadDir(keep)
	for _, e := range entries {
		top = append(top, e.Name())
	}
	if want := []string{"new", "new.binlog", "old", "old.binlog"}; !slices.Equal(top, want) {
		t.Errorf("--keep kept %q, want %q", top, want)
	}
	for _, tree := range []string{"old", "new"} {
		for _, f := range []string{"ahab-build.json", "bazel-out/k8-fastbuild/bin/account/tar_owner.tar"} {
			if _, err := os.Stat(filepath.Join(keep, tree, f)); err != nil {
				t.Errorf("--keep: %v", err)
			}
		}
	}
	// ahab diff --outputs on what was kept says the same.
	again := filepath.Join(root, "diff.json")
	sys2, _, stderr2 := testSystem(map[string]string{"PATH": os.Getenv("PATH")})
	if code := Main([]string{"diff", filepath.Join(keep, "old.binlog"), filepath.Join(keep, "new.binlog"),
		"--outputs", filepath.Join(keep, "old"), filepath.Join(keep, "new"), "--write-json", again}, sys2); code != ExitFindings {
		t.Fatalf("ahab diff --outputs: exit %d; stderr:\n%s", code, stderr2)
	}
	insides := func(path string) string {
		var b strings.Builder
		for _, a := range readDiffReport(t, path).Actions {
			for _, in := range a.Inside {
				fmt.Fprintf(&b, "%s %s %s %v\n", in.Path, in.Format, in.Class, in.Differences)
			}
		}
		return b.String()
	}
	if a, b := insides(out), insides(again); a != b {
		t.Errorf("reprotest says\n%s\nahab diff --outputs says\n%s", a, b)
	}

	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left behind in the temporary directory: %v", entries)
	}
	if _, err := user.Lookup("ahab-reprotest"); err == nil {
		t.Errorf("the account ahab-reprotest is still there")
	}
	if _, err := os.Stat("/tmp/hsperfdata_ahab-reprotest"); err == nil {
		t.Errorf("/tmp/hsperfdata_ahab-reprotest is left")
	}
	if procs, _ := exec.Command("pgrep", "-f", tmp).Output(); len(procs) > 0 {
		t.Errorf("processes still run with %s in their command line: %s", tmp, procs)
	}
}
