//go:build unix

package bazel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The helper process: runs an aquery against the fake (which sleeps), writes
// the outcome to AHAB_BAZEL_TEST_OUTCOME, then sends itself SIGINT to show
// that the default behaviour (dying) is back once Bazel has exited.
func init() {
	if os.Getenv("AHAB_BAZEL_TEST_HELPER") == "interrupt" {
		r := &Runner{Bazel: os.Getenv("AHAB_BAZEL_TEST_FAKE"), Env: os.Environ()}
		err := r.Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, discard)
		os.WriteFile(os.Getenv("AHAB_BAZEL_TEST_OUTCOME"), []byte(fmt.Sprint(err)), 0o644)
		os.Exit(0)
	}
	if os.Getenv("AHAB_BAZEL_TEST_HELPER") != "signals" {
		return
	}
	r := &Runner{Bazel: os.Getenv("AHAB_BAZEL_TEST_FAKE"), Env: os.Environ()}
	err := r.Aquery(context.Background(), AqueryRequest{OutputBase: "/ob/x", Label: "//..."}, discard)
	outcome := "ok"
	if err != nil {
		outcome = err.Error()
	}
	if err := os.WriteFile(os.Getenv("AHAB_BAZEL_TEST_OUTCOME"), []byte(outcome), 0o644); err != nil {
		os.Exit(3)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	time.Sleep(2 * time.Second)
	os.Exit(0) // SIGINT did not kill us: the guard was not released
}

func TestSignalsWhileBazelRuns(t *testing.T) {
	for _, tc := range []struct {
		name        string
		signal      os.Signal
		wantOutcome string
	}{
		// The terminal sends SIGINT to Bazel as well; we outlive it and
		// report what Bazel did (here the fake did not get it, so it
		// finished normally).
		{"sigint_is_left_to_bazel", os.Interrupt, "ok"},
		// A SIGTERM sent to us alone is passed on to Bazel.
		{"sigterm_is_forwarded_to_bazel", syscall.SIGTERM, "`bazel aquery` exited with signal: terminated:\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeBazel(t)
			tmp := t.TempDir()
			started, outcome := filepath.Join(tmp, "started"), filepath.Join(tmp, "outcome")
			helper := exec.Command(os.Args[0], "-test.run=^$")
			helper.Env = append(f.env("sleep", "AHAB_FAKE_BAZEL_STARTED="+started),
				"AHAB_BAZEL_TEST_HELPER=signals", "AHAB_BAZEL_TEST_FAKE="+f.path, "AHAB_BAZEL_TEST_OUTCOME="+outcome)
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				if _, err := os.Stat(started); err == nil {
					break
				}
				if time.Now().After(deadline) {
					helper.Process.Kill()
					helper.Wait()
					t.Fatal("the fake bazel never started")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := helper.Process.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			err := helper.Wait()
			got, readErr := os.ReadFile(outcome)
			if readErr != nil {
				t.Fatalf("the helper died while bazel ran (%v): the signal was not left to bazel", err)
			}
			if string(got) != tc.wantOutcome {
				t.Errorf("Aquery in the helper returned %q, want %q", got, tc.wantOutcome)
			}
			var exitErr *exec.ExitError
			ws, _ := helper.ProcessState.Sys().(syscall.WaitStatus)
			if !errors.As(err, &exitErr) || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
				t.Errorf("after Aquery, SIGINT did not kill the helper (%v): the signal guard was not released", err)
			}
		})
	}
}

// A second Ctrl-C is always honoured: Bazel had the first, and a Bazel
// that ignores it (or hangs) is killed on the second.
func TestSecondInterruptStopsBazel(t *testing.T) {
	f := newFakeBazel(t)
	tmp := t.TempDir()
	started, outcome := filepath.Join(tmp, "started"), filepath.Join(tmp, "outcome")
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(f.env("hang", "AHAB_FAKE_BAZEL_STARTED="+started),
		"AHAB_BAZEL_TEST_HELPER=interrupt", "AHAB_BAZEL_TEST_FAKE="+f.path, "AHAB_BAZEL_TEST_OUTCOME="+outcome)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer helper.Process.Kill()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake bazel never started")
		}
	}
	start := time.Now()
	helper.Process.Signal(os.Interrupt)
	time.Sleep(200 * time.Millisecond)
	helper.Process.Signal(os.Interrupt)
	helper.Wait()
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the second Ctrl-C took %v to stop the run", elapsed)
	}
	if got, _ := os.ReadFile(outcome); string(got) != "`bazel aquery` was stopped: interrupted" {
		t.Errorf("Aquery returned %q, want it stopped", got)
	}
}
