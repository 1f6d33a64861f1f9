package trace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/action"
	bazelrun "github.com/ahab-go/ahab/internal/bazel"
)

// The overhead script traces what ahab trace traces.
func TestOverheadScriptTracesTheSameCalls(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "bench", "trace-overhead.sh"))
	if err != nil {
		t.Fatal(err)
	}
	want := `syscalls="` + strings.Join(Syscalls, ",") + `"`
	if !strings.Contains(string(script), want) {
		t.Errorf("bench/trace-overhead.sh does not set %s", want)
	}
}

func TestBuildArgs(t *testing.T) {
	s := &session{
		o:          Options{Label: "//pkg:all", Bazel: "/opt/bazel", Flags: []string{"--config=ci", "--spawn_strategy=sandboxed"}},
		strace:     "strace",
		userRoot:   "/s",
		outputBase: "/s/output_base",
		traceFile:  "/s/strace.txt",
		execLog:    "/s/execution_log.binpb",
	}
	got := s.buildArgs()
	want := []string{
		"strace", "--seccomp-bpf", "-f", "-y", "-s131072", "-o", "/s/strace.txt", "-e", "trace=" + strings.Join(Syscalls, ","),
		"/opt/bazel", "--batch", "--output_user_root=/s", "--output_base=/s/output_base", "build",
		"--config=ci", "--spawn_strategy=sandboxed",
		"--spawn_strategy=standalone", "--disk_cache=", "--remote_cache=", "--remote_executor=",
		"--execution_log_binary_file=/s/execution_log.binpb",
		"--", "//pkg:all",
	}
	if !slices.Equal(got, want) {
		t.Errorf("argv:\n%q\nwant (the user's flags first, so that ours win):\n%q", got, want)
	}
}

func TestFindWorkspace(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := findWorkspace(sub); err == nil || !strings.Contains(err.Error(), "not in a Bazel workspace") {
		t.Errorf("no workspace: error %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "MODULE.bazel"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorkspace(sub); err != nil || got != filepath.Join(root, "a") {
		t.Errorf("findWorkspace = %q, %v; want %s", got, err, filepath.Join(root, "a"))
	}
}

func TestFindExecRoot(t *testing.T) {
	ob := t.TempDir()
	if _, err := findExecRoot(ob); err == nil {
		t.Error("no execroot: no error")
	}
	os.MkdirAll(filepath.Join(ob, "execroot", "ws"), 0o755)
	os.WriteFile(filepath.Join(ob, "execroot", "DO_NOT_BUILD_HERE"), nil, 0o644)
	if got, err := findExecRoot(ob); err != nil || got != filepath.Join(ob, "execroot", "ws") {
		t.Errorf("findExecRoot = %q, %v", got, err)
	}
	os.MkdirAll(filepath.Join(ob, "execroot", "other"), 0o755)
	if _, err := findExecRoot(ob); err == nil || !strings.Contains(err.Error(), "2 execution roots (other, ws), expected one") {
		t.Errorf("two execroots: error %v", err)
	}
}

func TestTailWriter(t *testing.T) {
	var w tailWriter
	for i := 0; i < 10000; i++ {
		w.Write([]byte(strings.Repeat("x", 99) + "\n"))
	}
	w.Write([]byte("the reason\n"))
	s := w.String()
	if len(s) != tailLimit || !strings.HasSuffix(s, "the reason\n") {
		t.Errorf("tail of %d bytes ending %q, want %d ending with the reason", len(s), s[len(s)-20:], tailLimit)
	}
}

// fakeTools writes a workspace and fake strace and bazel: the strace runs
// the command after its options; the bazel appends its command to
// bazel.log beside it, and runs script for build, aquery (as the static
// analysis runs it) for aquery, and succeeds at anything else (config,
// shutdown) without a word.
func fakeTools(t *testing.T, script, aquery string) (ws, strace, bazel string) {
	t.Helper()
	dir := t.TempDir()
	ws = filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "WORKSPACE"), nil, 0o644)
	strace = filepath.Join(dir, "strace")
	os.WriteFile(strace, []byte("#!/bin/sh\nwhile [ \"$1\" != -e ]; do shift; done\nshift 2\nexec \"$@\"\n"), 0o755)
	bazel = filepath.Join(dir, "bazel")
	os.WriteFile(bazel, []byte(`#!/bin/sh
for a; do case $a in -*) ;; *) command=$a; break;; esac; done
echo $command USER=$USER >> `+filepath.Join(dir, "bazel.log")+`
case $command in
aquery)
`+aquery+`
;;
build)
`+script+`
;;
esac
exit 0
`), 0o755)
	return ws, strace, bazel
}

func TestRunBuildFails(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "echo 'Loading: 0 packages loaded' >&2\necho 'ERROR: no such package '\\''nope'\\''' >&2\nexit 3\n", "")
	scratch := t.TempDir()
	_, err := Run(context.Background(), Options{Label: "//nope", Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch})
	var be *BuildError
	if !errors.As(err, &be) || be.ExitCode != 3 || be.Stderr != "Loading: 0 packages loaded\nERROR: no such package 'nope'" {
		t.Fatalf("error %#v, want a *BuildError with exit code 3 and Bazel's stderr", err)
	}
	if want := "`bazel build (under strace)` exited with exit status: 3:\nLoading: 0 packages loaded\nERROR: no such package 'nope'"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
	// The static analysis first, with the sentinels, its server shut
	// down before the build, which runs with the user's environment.
	want := []string{
		"aquery USER=" + action.UserSentinel, // set(), for the configuration
		"config USER=" + action.UserSentinel,
		"aquery USER=" + action.UserSentinel,
		"shutdown USER=" + os.Getenv("USER"),
		"build USER=" + os.Getenv("USER"),
	}
	if got := bazelLog(t, bazel); !slices.Equal(got, want) {
		t.Errorf("bazel ran:\n%q\nwant:\n%q", got, want)
	}
}

// bazelLog is what the fake bazel of fakeTools ran, one command a line.
func bazelLog(t *testing.T, bazel string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(bazel), "bazel.log"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// A label Bazel cannot analyse fails in the aquery, before the build, and
// the aquery's server is shut down.
func TestRunAqueryFails(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "", "echo \"ERROR: no such package 'nope'\" >&2\nexit 7")
	scratch := t.TempDir()
	_, err := Run(context.Background(), Options{Label: "//nope", Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch})
	var exit *bazelrun.ExitError
	if !errors.As(err, &exit) || exit.ExitCode != 7 || !strings.Contains(err.Error(), "no such package 'nope'") {
		t.Fatalf("error %#v, want Bazel's *ExitError with its stderr", err)
	}
	got := bazelLog(t, bazel)
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "shutdown ") || slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "build ") }) {
		t.Errorf("bazel ran %q, want the aquery's server shut down and no build", got)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
}

// An interrupt during the static analysis stops the aquery, shuts its
// server down and runs no build.
func TestRunCancelledDuringAnalysis(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "", "while :; do sleep 0.1; done")
	scratch := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, Options{Label: "//a", Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Cause != "context canceled" {
		t.Fatalf("error %v, want an *InterruptedError for the context", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Run took %s to stop", d)
	}
	got := bazelLog(t, bazel)
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "shutdown ") {
		t.Errorf("bazel ran %q, want the aquery's server shut down last", got)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
}

func TestRunCancelled(t *testing.T) {
	// Bazel that ignores nothing: SIGINT ends it, as it ends the real one.
	ws, strace, bazel := fakeTools(t, "trap 'echo cancelled >&2; exit 8' INT\nwhile :; do sleep 0.1; done\n", "")
	scratch := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, Options{Label: "//a", Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Grace: 5 * time.Second})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Cause != "context canceled" {
		t.Fatalf("error %v, want an *InterruptedError for the context", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Run took %s to stop, want Bazel stopped by SIGINT, not by the grace period's SIGKILL", d)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
}

func TestRunKillsWhatIgnoresSIGINT(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "trap '' INT\nwhile :; do sleep 0.1; done\n", "")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := Run(ctx, Options{Label: "//a", Dir: ws, Strace: strace, Bazel: bazel, TempDir: t.TempDir(), Grace: 300 * time.Millisecond})
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want an *InterruptedError", err)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if cmdline, _ := os.ReadFile(p); strings.Contains(string(cmdline), bazel) {
			t.Errorf("%s still runs the fake Bazel after the grace period", filepath.Dir(p))
		}
	}
}
