package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/analyze"
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
		o:          Options{Labels: []string{"//pkg:all"}, Bazel: "/opt/bazel", Flags: []string{"--config=ci", "--spawn_strategy=sandboxed"}},
		strace:     "strace",
		userRoot:   "/s",
		outputBase: "/s/output_base",
		traceFile:  "/s/strace.txt",
		execLog:    "/s/execution_log.binpb",
		targetFile: "/s/targets.txt",
	}
	wantWrap := []string{"strace", "--seccomp-bpf", "-f", "-y", "-s131072", "-o", "/s/strace.txt", "-e", "trace=" + strings.Join(Syscalls, ",")}
	if got := s.wrapper(); !slices.Equal(got, wantWrap) {
		t.Errorf("strace's argv:\n%q\nwant:\n%q", got, wantWrap)
	}
	want := []string{
		"--batch", "--output_user_root=/s", "--output_base=/s/output_base", "build",
		"--config=ci", "--spawn_strategy=sandboxed",
		"--spawn_strategy=standalone", "--disk_cache=", "--remote_cache=", "--remote_executor=", "--symlink_prefix=/",
		"--execution_log_binary_file=/s/execution_log.binpb",
		"--", "//pkg:all",
	}
	if got := s.buildArgs(); !slices.Equal(got, want) {
		t.Errorf("argv:\n%q\nwant (the user's flags first, so that ours win):\n%q", got, want)
	}
	// A query's targets come from the target file.
	s.targets = []string{"//pkg:a"}
	if got := s.buildArgs(); got[len(got)-1] != "--target_pattern_file=/s/targets.txt" || slices.Contains(got, "--") {
		t.Errorf("argv for a query's targets: %q", got)
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

// fakeTools writes a workspace and fake strace and bazel: the strace runs
// the command after its options; the bazel appends its command to
// bazel.log beside it, and runs script for build, aquery for aquery
// (which then leaves a server directory in its output base, as Bazel's
// does), and succeeds at anything else (shutdown) without a word. Both
// scripts may use $started, a file to create once they run.
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
started=`+filepath.Join(dir, "started")+`
for a; do case $a in --output_base=*) ob=${a#--output_base=};; -*) ;; *) command=$a; break;; esac; done
echo $command USER=$USER TMPDIR=$TMPDIR >> `+filepath.Join(dir, "bazel.log")+`
case $command in
aquery)
mkdir -p "$ob/server"
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

// aqueryStatic is a static analysis that only runs aquery, as the real
// one does first, with the fake bazel of ws.
func aqueryStatic(ws, bazel string) func(context.Context, string) (*analyze.Index, string, error) {
	return func(ctx context.Context, outputBase string) (*analyze.Index, string, error) {
		runner := &bazelrun.Runner{Bazel: bazel, Dir: ws}
		err := runner.Aquery(ctx, bazelrun.AqueryRequest{OutputBase: outputBase, Label: "deps(//a)"}, func(r io.Reader) error {
			_, err := io.Copy(io.Discard, r)
			return err
		})
		return nil, "bazel aquery deps(//a)", err
	}
}

// waitStarted waits for the fake bazel of ws to create $started.
func waitStarted(t *testing.T, ws string) {
	t.Helper()
	started := filepath.Join(filepath.Dir(ws), "started")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Error("the fake bazel never started")
			return
		}
	}
}

func TestRunBuildFails(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "echo 'Loading: 0 packages loaded' >&2\necho \"ERROR: no such package 'nope'\" >&2\nexit 3\n", "")
	scratch := t.TempDir()
	_, err := Run(context.Background(), Options{Labels: []string{"//nope"}, Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Static: aqueryStatic(ws, bazel)})
	var be *bazelrun.ExitError
	if !errors.As(err, &be) || be.ExitCode != 3 || be.Stderr != "Loading: 0 packages loaded\nERROR: no such package 'nope'" {
		t.Fatalf("error %#v, want an *ExitError with exit code 3 and Bazel's stderr", err)
	}
	if want := "`bazel build (under strace)` exited with exit status: 3:\nLoading: 0 packages loaded\nERROR: no such package 'nope'"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
	// The static analysis first, with the sentinels, its server shut
	// down before the build, which runs with the user's environment and
	// a TMPDIR in the scratch directory.
	got := bazelLog(t, bazel)
	if len(got) != 3 || !strings.HasPrefix(got[0], "aquery USER="+action.UserSentinel+" ") ||
		!strings.HasPrefix(got[1], "shutdown USER="+os.Getenv("USER")+" ") ||
		!strings.HasPrefix(got[2], "build USER="+os.Getenv("USER")+" TMPDIR="+scratch) || !strings.HasSuffix(got[2], "/tmp") {
		t.Errorf("bazel ran:\n%q\nwant the aquery, its shutdown, then the build with TMPDIR under %s", got, scratch)
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
	_, err := Run(context.Background(), Options{Labels: []string{"//nope"}, Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Static: aqueryStatic(ws, bazel)})
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
	ws, strace, bazel := fakeTools(t, "", ": >\"$started\"; while :; do sleep 1; done")
	scratch := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { waitStarted(t, ws); cancel() }()
	_, err := Run(ctx, Options{Labels: []string{"//a"}, Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Static: aqueryStatic(ws, bazel), Grace: time.Hour})
	var se *StoppedError
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want a *StoppedError for the context", err)
	}
	got := bazelLog(t, bazel)
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "shutdown ") {
		t.Errorf("bazel ran %q, want the aquery's server shut down last", got)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
}

// Stopping the trace while it builds asks Bazel to stop as Ctrl-C does,
// and a Bazel that does so is not killed: with an hour's grace, the test
// ends only if SIGINT ended the build.
func TestRunCancelled(t *testing.T) {
	ws, strace, bazel := fakeTools(t, "trap 'echo cancelled >&2; exit 8' INT\n: >\"$started\"\nwhile :; do sleep 1; done\n", "")
	scratch := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { waitStarted(t, ws); cancel() }()
	_, err := Run(ctx, Options{Labels: []string{"//a"}, Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Grace: time.Hour})
	var se *StoppedError
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want a *StoppedError for the context", err)
	}
	if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
		t.Errorf("the scratch directory was left behind: %v", entries)
	}
}

// A build that ignores SIGINT, with an action in a session of its own (as
// Bazel's process-wrapper starts one), is killed whole when the grace
// runs out, or on a signal: SIGTERM (a CI's timeout) and SIGINT alike
// leave nothing running and nothing on disk.
func TestRunKillsTheWholeTree(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cancel context.CancelFunc)
		want error
	}{
		{"grace_runs_out", func(cancel context.CancelFunc) { cancel() }, context.Canceled},
		{"sigterm", func(context.CancelFunc) { syscall.Kill(os.Getpid(), syscall.SIGTERM) }, bazelrun.ErrTerminated},
		{"sigint", func(context.CancelFunc) { syscall.Kill(os.Getpid(), syscall.SIGINT) }, bazelrun.ErrInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, strace, bazel := fakeTools(t, "trap '' INT\nsetsid sleep 600 </dev/null >/dev/null 2>&1 &\necho $! > \"$started.child\"\n: >\"$started\"\nwhile :; do sleep 1; done\n", "")
			scratch := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { waitStarted(t, ws); tc.stop(cancel) }()
			_, err := Run(ctx, Options{Labels: []string{"//a"}, Dir: ws, Strace: strace, Bazel: bazel, TempDir: scratch, Grace: 100 * time.Millisecond})
			var se *StoppedError
			if !errors.As(err, &se) || !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want a *StoppedError for %v", err, tc.want)
			}
			b, _ := os.ReadFile(filepath.Join(filepath.Dir(ws), "started.child"))
			if child, _ := strconv.Atoi(strings.TrimSpace(string(b))); child > 0 && syscall.Kill(child, 0) == nil {
				if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child)); len(st) > 0 && !strings.Contains(string(st), ") Z ") {
					t.Errorf("the action (pid %d) still runs after the trace was stopped", child)
					syscall.Kill(child, syscall.SIGKILL)
				}
			}
			procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range procs {
				if cmdline, _ := os.ReadFile(p); strings.Contains(string(cmdline), bazel) {
					t.Errorf("%s still runs the fake Bazel", filepath.Dir(p))
				}
			}
			if entries, _ := os.ReadDir(scratch); len(entries) != 0 {
				t.Errorf("the scratch directory was left behind: %v", entries)
			}
		})
	}
}
