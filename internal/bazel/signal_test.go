//go:build linux

package bazel

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helper process: runs an aquery against the fake, writes the outcome
// to AHAB_BAZEL_TEST_OUTCOME, then sends itself SIGINT to show that the
// default behaviour (dying) is back once the command is over.
func init() {
	if os.Getenv("AHAB_BAZEL_TEST_HELPER") != "signals" {
		return
	}
	r := &Runner{Bazel: os.Getenv("AHAB_BAZEL_TEST_FAKE"), Env: os.Environ()}
	if g, err := time.ParseDuration(os.Getenv("AHAB_BAZEL_TEST_GRACE")); err == nil {
		r.Grace = g
	}
	err := r.Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, discard)
	outcome := "ok"
	if err != nil {
		outcome = err.Error()
	}
	if err := os.WriteFile(os.Getenv("AHAB_BAZEL_TEST_OUTCOME"), []byte(outcome), 0o644); err != nil {
		os.Exit(3)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {} // SIGINT did not kill us: the signals were not released
}

// helper is the test binary run as the helper process of init, against
// the fake in mode.
type helper struct {
	cmd              *exec.Cmd
	started, outcome string
}

func startHelper(t *testing.T, mode, grace string) *helper {
	t.Helper()
	f := newFakeBazel(t)
	tmp := t.TempDir()
	h := &helper{started: filepath.Join(tmp, "started"), outcome: filepath.Join(tmp, "outcome")}
	h.cmd = exec.Command(os.Args[0], "-test.run=^$")
	h.cmd.Env = append(f.env(mode, "AHAB_FAKE_BAZEL_STARTED="+h.started),
		"AHAB_BAZEL_TEST_HELPER=signals", "AHAB_BAZEL_TEST_FAKE="+f.path,
		"AHAB_BAZEL_TEST_OUTCOME="+h.outcome, "AHAB_BAZEL_TEST_GRACE="+grace)
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.cmd.Process.Kill(); h.cmd.Wait() })
	waitForFile(t, h.started)
	return h
}

// waitForFile waits for the fake to create path, which it does when it
// has got as far as the test needs.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake bazel never created %s", path)
		}
	}
}

// finish waits for the helper and checks what Aquery returned in it and
// that SIGINT killed it afterwards.
func (h *helper) finish(t *testing.T, want string) {
	t.Helper()
	err := h.cmd.Wait()
	got, readErr := os.ReadFile(h.outcome)
	if readErr != nil {
		t.Fatalf("the helper died while bazel ran (%v): the signal was not held", err)
	}
	if string(got) != want {
		t.Errorf("Aquery in the helper returned %q, want %q", got, want)
	}
	ws, _ := h.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("after Aquery, SIGINT did not kill the helper (%v): the signals were not released", err)
	}
}

// The first SIGINT or SIGTERM is passed on to Bazel as one SIGINT, which
// Bazel answers by stopping; the command is then stopped, by that signal.
func TestSignalStopsBazel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		signal syscall.Signal
		want   string
	}{
		{"sigint", syscall.SIGINT, "`bazel aquery` was stopped: interrupted"},
		{"sigterm", syscall.SIGTERM, "`bazel aquery` was stopped: terminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startHelper(t, "polite", "1h")
			if err := h.cmd.Process.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			h.finish(t, tc.want)
			if _, err := os.Stat(h.started + ".int"); err != nil {
				t.Errorf("bazel never got SIGINT: %v", err)
			}
		})
	}
}

// A second signal kills Bazel and what it started at once, however long
// the grace: Bazel had its chance with the first.
func TestSecondSignalKillsTheTree(t *testing.T) {
	h := startHelper(t, "stubborn", "1h")
	child := childPID(t, h.started)
	h.cmd.Process.Signal(syscall.SIGINT)
	waitForFile(t, h.started+".int") // the first reached Bazel, which goes on
	h.cmd.Process.Signal(syscall.SIGINT)
	h.finish(t, "`bazel aquery` was stopped: interrupted")
	if p, ok := readProc(child); ok {
		t.Errorf("the child Bazel started in a session of its own still runs: %+v", p)
	}
}

// A Bazel that does not stop within the grace is killed with every
// process it started, also those in sessions of their own. (That it is
// asked first, with SIGINT, TestSignalStopsBazel shows.)
func TestGraceKillsTheTree(t *testing.T) {
	f := newFakeBazel(t)
	started := filepath.Join(t.TempDir(), "started")
	r := f.runner("stubborn", "AHAB_FAKE_BAZEL_STARTED="+started)
	r.Grace = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Aquery(ctx, AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, discard) }()
	waitForFile(t, started)
	child := childPID(t, started)
	cancel()
	err := <-done
	if stopped, ok := errors.AsType[*StoppedError](err); !ok || !errors.Is(err, context.Canceled) {
		t.Errorf("Aquery error %v (%#v), want it stopped by the context", err, stopped)
	}
	if p, ok := readProc(child); ok {
		t.Errorf("the child Bazel started in a session of its own still runs: %+v", p)
	}
}

func childPID(t *testing.T, started string) int {
	t.Helper()
	b, err := os.ReadFile(started + ".child")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := readProc(pid); !ok {
		t.Fatalf("the child %d is not running", pid)
	}
	return pid
}

func TestWithSignals(t *testing.T) {
	if Guarding() {
		t.Fatal("Guarding before WithSignals")
	}
	ctx, release := WithSignals(context.Background())
	if !Guarding() {
		t.Error("not Guarding while held")
	}
	if err := Stopped(ctx); err != nil {
		t.Errorf("Stopped = %v before any signal", err)
	}
	release()
	release() // a second call changes nothing
	if Guarding() {
		t.Error("still Guarding after release")
	}
	if hardStop(context.Background()) != nil {
		t.Error("a context without signals has a hard stop")
	}
}
