package bazel

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

// DefaultGrace is how long a Bazel command has to stop, once asked as
// Ctrl-C asks, before its process tree is killed (Runner.Grace). Bazel
// usually answers in a second; an action that ignores SIGTERM makes it
// wait for process-wrapper's kill delay (15 s), which is not worth it.
const DefaultGrace = 10 * time.Second

// waitDelay bounds how long a finished command's pipes are read once
// its process tree is gone, should a process outside it (one that made a
// session of its own) hold them open.
const waitDelay = 5 * time.Second

// Invocation is one Bazel command, as Runner.Run runs it.
type Invocation struct {
	// Command names it in messages, as "bazel build".
	Command string
	// Args is the argv after the Bazel executable: startup options, the
	// command, its options and arguments.
	Args []string
	// Wrap, when not empty, is the argv of a program that runs Bazel
	// (strace, unshare, sh -c …): Bazel's argv is appended to it.
	Wrap []string
	// Dir is where it runs; "" means Runner.Dir.
	Dir string
	// Env is its environment; nil means Runner.Env.
	Env []string
	// Stdout receives Bazel's standard output; nil discards it.
	Stdout io.Writer
}

// Run runs inv and waits for it. Its standard input is the null device
// and its standard error is kept (the end of it) for the error that says
// why it failed: an *ExitError; a *SpawnError when it could not start; a
// *StoppedError when ctx ended first.
//
// Every command runs in a session of its own, so that a Ctrl-C at the
// terminal reaches Ahab alone and Bazel hears exactly what Ahab passes
// on: when ctx ends (WithSignals ends it on SIGINT or SIGTERM), Bazel's
// process group gets one SIGINT, which Bazel answers by cancelling the
// command and exiting; if it has not exited within Runner.Grace, or on a
// second signal, its process tree is killed. Whatever it left behind in
// its session when it exits is killed too: nothing it started outlives
// it but a server, which Bazel starts in a session of its own.
func (r *Runner) Run(ctx context.Context, inv Invocation) error {
	p, err := r.start(ctx, inv, false)
	if err != nil {
		return err
	}
	p.wait()
	return p.err()
}

// process is a started Invocation.
type process struct {
	command string
	cmd     *exec.Cmd
	stderr  *stderrTail
	// stdout is the read end of Bazel's stdout when the caller reads it.
	stdout *os.File
	// readEnds are the pipes our goroutines copy from.
	readEnds []*os.File
	copies   sync.WaitGroup
	// exited is closed once Bazel has exited and what it left in its
	// session has been killed.
	exited  chan struct{}
	waitErr error
	kill    func() // kills the tree at once
	killNow chan struct{}
	watcher sync.WaitGroup
	stop    error // why the command was stopped; nil if it ended by itself
	release func()
}

// start starts inv under the signal policy of Run. With readStdout, the
// caller reads p.stdout instead of inv.Stdout being filled.
func (r *Runner) start(ctx context.Context, inv Invocation, readStdout bool) (*process, error) {
	if err := Stopped(ctx); err != nil {
		return nil, &StoppedError{Command: inv.Command, Cause: err}
	}
	ctx, release := WithSignals(ctx)
	argv := append(slices.Clone(inv.Wrap), r.executable())
	argv = append(argv, inv.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cmp.Or(inv.Dir, r.Dir)
	cmd.Env = inv.Env
	if cmd.Env == nil {
		cmd.Env = r.Env
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p := &process{command: inv.Command, cmd: cmd, stderr: &stderrTail{}, exited: make(chan struct{}),
		killNow: make(chan struct{}), release: release}
	p.kill = sync.OnceFunc(func() { close(p.killNow) })

	var writeEnds []*os.File
	fail := func(err error) (*process, error) {
		for _, f := range append(writeEnds, p.readEnds...) {
			f.Close()
		}
		if p.stdout != nil {
			p.stdout.Close()
		}
		release()
		return nil, err
	}
	pipe := func() (*os.File, *os.File, error) {
		rd, wr, err := os.Pipe()
		if err != nil {
			return nil, nil, &SpawnError{Command: inv.Command, Executable: argv[0], Err: err}
		}
		writeEnds = append(writeEnds, wr)
		return rd, wr, nil
	}
	errRead, errWrite, err := pipe()
	if err != nil {
		return fail(err)
	}
	p.readEnds = append(p.readEnds, errRead)
	cmd.Stderr = errWrite
	var stderr io.Writer = p.stderr
	var lines *lineSplitter
	if r.Progress != nil {
		lines = &lineSplitter{line: r.progressLine(inv.Command)}
		stderr = io.MultiWriter(p.stderr, lines)
	}
	switch {
	case readStdout:
		rd, wr, err := pipe()
		if err != nil {
			return fail(err)
		}
		p.stdout, cmd.Stdout = rd, wr
	case inv.Stdout != nil:
		rd, wr, err := pipe()
		if err != nil {
			return fail(err)
		}
		p.readEnds = append(p.readEnds, rd)
		cmd.Stdout = wr
		p.copies.Go(func() { _, _ = io.Copy(inv.Stdout, rd) })
	}
	if err := cmd.Start(); err != nil {
		return fail(&SpawnError{Command: inv.Command, Executable: argv[0], Err: spawnCause(cmd, err)})
	}
	for _, f := range writeEnds {
		f.Close()
	}
	p.copies.Go(func() {
		_, _ = io.Copy(stderr, errRead)
		if lines != nil {
			lines.flush()
		}
	})

	pid := cmd.Process.Pid
	go func() {
		p.waitErr = cmd.Wait()
		killSession(pid)
		close(p.exited)
	}()
	grace := cmp.Or(r.Grace, DefaultGrace)
	p.watcher.Go(func() {
		select {
		case <-p.exited:
			return
		case <-p.killNow:
			killSession(pid)
			return
		case <-ctx.Done():
		}
		p.stop = context.Cause(ctx)
		// The process group, as the terminal's Ctrl-C would: Bazel's
		// client, or strace and its Bazel.
		_ = syscall.Kill(-pid, syscall.SIGINT)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-p.exited:
			return
		case <-hardStop(ctx):
		case <-t.C:
		case <-p.killNow:
		}
		killSession(pid)
	})
	return p, nil
}

// wait waits for the process to exit, its tree to be gone and its output
// to be read.
func (p *process) wait() {
	<-p.exited
	p.watcher.Wait()
	copied := make(chan struct{})
	go func() { p.copies.Wait(); close(copied) }()
	select {
	case <-copied:
	case <-time.After(waitDelay):
		// Someone outside the tree holds the pipes: what Bazel wrote
		// has been read.
		for _, f := range p.readEnds {
			_ = f.SetReadDeadline(time.Now())
		}
		<-copied
	}
	for _, f := range p.readEnds {
		f.Close()
	}
	p.release()
}

// err is the outcome of a finished process, as Run returns it.
func (p *process) err() error {
	if p.stop != nil {
		return &StoppedError{Command: p.command, Cause: p.stop}
	}
	if state := p.cmd.ProcessState; state != nil && !state.Success() {
		return exitError(p.command, state, p.stderr)
	}
	if p.waitErr != nil {
		return fmt.Errorf("`%s`: %w", p.command, p.waitErr)
	}
	return nil
}

// progressLine is the stderr line handler of one command: it tells
// Runner.Progress what Bazel says it does, an ERROR: or WARNING: line
// with the indented lines that continue it.
func (r *Runner) progressLine(command string) func(string) {
	inMessage := false
	return func(line string) {
		if inMessage && isContinuation(line) {
			r.Progress(Progress{Command: command, Phase: Message, Line: line})
			return
		}
		p, ok := parseProgress(line)
		inMessage = ok && p.Phase == Message
		if ok {
			p.Command = command
			r.Progress(p)
		}
	}
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
