// Package bazel runs the Bazel commands Ahab needs (§2): `bazel info`
// to learn the output base, then `bazel aquery` with USER and HOSTNAME
// replaced by sentinels, streaming its output to a consumer; `bazel
// config` for what the build inherits, and `bazel query` for where the
// targets of a SARIF report are declared. It owns the
// argv, the environment, the working directory, the signal etiquette and
// the error texts of §1.7; it does not decode what Bazel prints.
package bazel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"
)

// WorkingDir is where the nested Bazel runs (§1.2): BUILD_WORKING_DIRECTORY,
// else BUILD_WORKSPACE_DIRECTORY, else "" (inherit the cwd). Under `bazel
// run` the cwd is inside the runfiles tree, where Bazel refuses to run.
// A variable that is set wins even when empty (§1.2 "set (even if empty)"),
// and "" then means the inherited cwd.
func WorkingDir(getenv func(string) (string, bool)) string {
	for _, name := range []string{"BUILD_WORKING_DIRECTORY", "BUILD_WORKSPACE_DIRECTORY"} {
		if dir, ok := getenv(name); ok {
			return dir
		}
	}
	return ""
}

// Runner runs Bazel on the user's behalf.
type Runner struct {
	// Bazel is the executable, "bazel" when empty; the user may name
	// bazelisk. A name without a slash is looked up on this process's PATH.
	Bazel string
	// Dir is the working directory; "" inherits ours (see WorkingDir).
	Dir string
	// Env is the user's environment (os.Environ() in production). nil
	// means this process's environment, as in os/exec.
	Env []string
}

func (r *Runner) executable() string {
	if r.Bazel == "" {
		return "bazel"
	}
	return r.Bazel
}

func (r *Runner) environ() []string {
	if r.Env == nil {
		return os.Environ()
	}
	return r.Env
}

// waitDelay bounds how long Wait keeps waiting for Bazel's stderr after
// Bazel exits, should a stray grandchild keep the pipe open.
const waitDelay = 5 * time.Second

// command builds the exec.Cmd shared by info and aquery: stdin is the null
// device (os/exec's default for a nil Stdin, §1.5), stderr goes to a
// bounded tail.
func (r *Runner) command(ctx context.Context, env []string, args []string) (*exec.Cmd, *stderrTail) {
	cmd := exec.CommandContext(ctx, r.executable(), args...)
	cmd.Dir = r.Dir
	cmd.Env = env
	cmd.Stdin = nil
	stderr := &stderrTail{}
	cmd.Stderr = stderr
	cmd.WaitDelay = waitDelay
	return cmd, stderr
}

// signalGuard keeps SIGINT and SIGTERM from killing us while Bazel runs.
//
// Why: Ctrl-C in a terminal sends SIGINT to the whole foreground process
// group, so Bazel receives it too. Bazel handles it (it cancels the
// command on its server and exits); if we died first, Bazel would be
// orphaned mid-command and the user would see our exit instead of
// Bazel's. So while Bazel runs we swallow SIGINT and let Bazel's exit
// status tell us what happened, as bazelisk does. A SIGTERM sent to us
// alone (a CI timeout, `kill <pid>`) does not reach Bazel by itself, so we
// pass it on instead of only ignoring it.
//
// We catch the signals with signal.Notify rather than signal.Ignore on
// purpose: an ignored disposition (SIG_IGN) survives exec, so Bazel would
// start with SIGINT ignored, while a caught one is reset to the default in
// the child. signal.Stop removes only our channel and leaves any handler
// the caller installed in place.
//
// A second Ctrl-C is always honoured: Bazel had its chance with the first,
// so the second kills it and ends the command with ErrInterrupted, even
// when Bazel hangs or a process it left behind keeps its output open.
type signalGuard struct {
	signals    chan os.Signal
	done       chan struct{}
	forwarding chan struct{} // closed when the forwarding goroutine ends; nil if never started
	// interrupted is closed on the second SIGINT.
	interrupted chan struct{}
}

// ErrInterrupted is the error of a command the user stopped with a second
// Ctrl-C.
var ErrInterrupted = errors.New("interrupted")

// guarding counts the commands running under a signalGuard, so that the
// program's own handler can leave SIGINT to Bazel meanwhile (Guarding).
var guarding atomic.Int32

// Guarding says whether a Bazel command is running under a signalGuard,
// which then owns SIGINT and SIGTERM.
func Guarding() bool { return guarding.Load() > 0 }

// guardSignals starts swallowing the signals; call it before cmd.Start so
// there is no window in which Ctrl-C kills us but not Bazel.
func guardSignals() *signalGuard {
	g := &signalGuard{signals: make(chan os.Signal, 4), done: make(chan struct{}), interrupted: make(chan struct{})}
	guarding.Add(1)
	signal.Notify(g.signals, os.Interrupt, syscall.SIGTERM)
	return g
}

// forwardTo passes SIGTERM on to the started Bazel (one that arrived
// before Start is still buffered and goes out now), and kills it on the
// second SIGINT.
func (g *signalGuard) forwardTo(p *os.Process) {
	g.forwarding = make(chan struct{})
	go func() {
		defer close(g.forwarding)
		interrupts := 0
		for {
			select {
			case s := <-g.signals:
				switch s {
				case syscall.SIGTERM:
					_ = p.Signal(syscall.SIGTERM)
				case os.Interrupt:
					if interrupts++; interrupts == 2 {
						_ = p.Kill()
						close(g.interrupted)
					}
				}
			case <-g.done:
				return
			}
		}
	}()
}

// release restores the previous signal behaviour; call it after cmd.Wait.
func (g *signalGuard) release() {
	signal.Stop(g.signals)
	close(g.done)
	if g.forwarding != nil {
		<-g.forwarding
	}
	guarding.Add(-1)
}

// start starts cmd under a signalGuard, which the caller releases after
// cmd.Wait.
func start(cmd *exec.Cmd, command string) (*signalGuard, error) {
	guard := guardSignals()
	if err := cmd.Start(); err != nil {
		guard.release()
		return nil, &SpawnError{Command: command, Executable: cmd.Args[0], Err: spawnCause(cmd, err)}
	}
	guard.forwardTo(cmd.Process)
	return guard, nil
}

// spawnCause makes sure the cause names the executable: Go's lookup error
// does, but a failed exec of an explicit path reads "fork/exec /x/bazel: …"
// only on some platforms.
func spawnCause(cmd *exec.Cmd, err error) error {
	var execErr *exec.Error
	var pathErr *os.PathError
	if errors.As(err, &execErr) || errors.As(err, &pathErr) {
		return err
	}
	return fmt.Errorf("%s: %w", cmd.Args[0], err)
}

// stopped is the error when the caller's context ended Bazel.
func stopped(command string, err error) error {
	return fmt.Errorf("`%s` was stopped: %w", command, err)
}

// drain reads r to its end so that Bazel never blocks writing to a pipe
// nobody reads.
func drain(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

// workspaceMarkers are the files whose directory is a Bazel workspace.
var workspaceMarkers = []string{"MODULE.bazel", "REPO.bazel", "WORKSPACE.bazel", "WORKSPACE"}

// WorkspaceRoot finds the workspace dir is in: the nearest directory at or
// above it holding a MODULE.bazel, REPO.bazel, WORKSPACE.bazel or
// WORKSPACE file. ok is false outside any workspace, where Bazel would
// only start a server to say so.
func WorkspaceRoot(dir string) (root string, ok bool) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		for _, m := range workspaceMarkers {
			if info, err := os.Stat(filepath.Join(dir, m)); err == nil && !info.IsDir() {
				return dir, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
