package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/spec"
)

// Syscalls are the system calls traced: every way to open, stat, probe,
// read a link or list a directory by name, and what shapes the process
// tree and its working directories. A leading "?" lets strace skip a call
// the architecture lacks (open, stat and fork do not exist on arm64).
var Syscalls = []string{
	"?open", "openat", "?openat2", "?creat",
	"?stat", "?lstat", "?newfstatat", "?fstatat64", "?stat64", "?lstat64", "?statx",
	"?access", "faccessat", "?faccessat2", "?readlink", "readlinkat",
	"?getdents", "getdents64",
	"execve", "?execveat", "clone", "?clone3", "?fork", "?vfork", "chdir", "fchdir",
}

// straceStringLimit is strace's -s: longer than any argument Linux allows
// (MAX_ARG_STRLEN, 128 KiB), so that argv arrays and paths are never cut
// short and an action's command line can be matched with its spawn.
const straceStringLimit = 131072

// Options say what to build and how.
type Options struct {
	// Label is the target pattern to build, one argument.
	Label string
	// Bazel is the Bazel executable ("bazel" when empty).
	Bazel string
	// Strace is the strace executable ("strace" when empty).
	Strace string
	// Dir is where Bazel runs, in the workspace ("" for the working
	// directory).
	Dir string
	// Env is Bazel's environment (nil for this process's).
	Env []string
	// Flags are passed to `bazel build` before Ahab's own, which win.
	Flags []string
	// KeepTrace, when set, is a directory to keep the raw strace output
	// (strace.txt) and the execution log (execution_log.binpb) in.
	KeepTrace string
	// TempDir is where the scratch directory is made (os.TempDir() when
	// empty).
	TempDir string
	// Progress receives Bazel's stderr as it runs; nil keeps only its tail,
	// for errors.
	Progress io.Writer
	// Grace is how long Bazel has to stop after an interrupt before it is
	// killed (10 s when zero).
	Grace time.Duration
	// Library is the reproducibility-spec library the static analysis
	// judges programs with; nil means the built-in one of Ahab's own
	// judgement (mode.Default).
	Library *spec.Library
	// Warn, when not nil, is told (one line each) what the static analysis
	// could not do that the report does without.
	Warn func(string)
}

// MissingStraceError means strace is not installed.
type MissingStraceError struct {
	Strace string
	Err    error
}

func (e *MissingStraceError) Error() string {
	return fmt.Sprintf("%s not found (%v): ahab trace runs the build under strace; install it with `apt-get install strace`", e.Strace, e.Err)
}

func (e *MissingStraceError) Unwrap() error { return e.Err }

// BuildError means a Bazel command of the trace failed. It carries the tail
// of Bazel's stderr, which says why.
type BuildError struct {
	Command  string // "bazel build (under strace)"
	ExitCode int
	Stderr   string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("`%s` exited with exit status: %d:\n%s", e.Command, e.ExitCode, e.Stderr)
}

// InterruptedError means a signal or the context stopped the trace. Bazel
// was asked to stop (and killed if it did not in time) and the scratch
// output base removed before it was returned.
type InterruptedError struct {
	Cause string // "interrupt", "terminated", or the context's error
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("stopped (%s): the traced build was cancelled and its scratch output base removed", e.Cause)
}

// Run analyses o.Label with `bazel aquery`, then builds it with Bazel under
// strace, both in one scratch output base, and reports what each action read
// without declaring it, beside what the static analysis found in it. It
// leaves nothing behind: the aquery's server is shut down before the build,
// which runs with --batch, and the scratch directory (output user root,
// output base, trace) is removed before Run returns, also when a SIGINT or
// SIGTERM stops it.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Label == "" {
		return nil, errors.New("no label to build, expected a target pattern such as //pkg:target")
	}
	strace := o.Strace
	if strace == "" {
		strace = "strace"
	}
	if _, err := exec.LookPath(strace); err != nil {
		return nil, &MissingStraceError{Strace: strace, Err: err}
	}
	workspace, err := findWorkspace(o.Dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(o.TempDir, "ahab-trace-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a scratch directory: %w", err)
	}
	defer bazel.RemoveAll(tmp)
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return nil, err
	}
	// Caught for the whole run, so that whenever one arrives the scratch
	// directory is removed before we exit.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	s := &session{
		o:       o,
		signals: signals,
		strace:  strace,
		// The output user root is the output base's parent, as the
		// analysis's aquery pins it (bazel.OutputUserRoot): the aquery and
		// the build then share Bazel's install base and the external
		// repositories the aquery fetched.
		userRoot:   tmp,
		outputBase: filepath.Join(tmp, "output_base"),
		traceFile:  filepath.Join(tmp, "strace.txt"),
		execLog:    filepath.Join(tmp, execLogName),
	}
	if o.KeepTrace != "" {
		// Absolute: strace and Bazel run in o.Dir, we read them here.
		keep, err := filepath.Abs(o.KeepTrace)
		if err == nil {
			err = os.MkdirAll(keep, 0o755)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot keep the trace in %s: %w", o.KeepTrace, err)
		}
		s.traceFile = filepath.Join(keep, "strace.txt")
		s.execLog = filepath.Join(keep, execLogName)
	}
	// The static analysis first: it fails fast on a label Bazel cannot
	// analyse, and the build then finds the external repositories fetched
	// (outside the trace, where they are no action's doing).
	static, err := s.static(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.build(ctx); err != nil {
		return nil, err
	}
	actions, err := s.actions()
	if err != nil {
		return nil, err
	}
	attachStatic(actions, static)
	if err := s.stopped(ctx); err != nil {
		return nil, err
	}
	execRoot, err := findExecRoot(s.outputBase)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(s.traceFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Analyze(f, filepath.Base(s.traceFile), actions, Layout{
		ExecRoot:   execRoot,
		OutputBase: s.outputBase,
		Workspace:  workspace,
		BazelRoot:  tmp,
	})
	if err != nil {
		return nil, err
	}
	r.Static = "bazel aquery " + quote.IfNeeded(o.Label)
	return r, s.stopped(ctx)
}

// stopped returns an InterruptedError if a signal came or ctx ended since
// the last command.
func (s *session) stopped(ctx context.Context) error {
	select {
	case sig := <-s.signals:
		return &InterruptedError{Cause: sig.String()}
	case <-ctx.Done():
		return &InterruptedError{Cause: ctx.Err().Error()}
	default:
		return nil
	}
}

// execLogName is the execution log's file name. Bazel writes it in its
// binary form, varint-delimited SpawnExec messages: for the same build it is
// about a third of the JSON form's size and reads faster (docs/trace.md).
const execLogName = "execution_log.binpb"

// session is one Run's files and commands.
type session struct {
	o          Options
	signals    chan os.Signal
	strace     string
	userRoot   string
	outputBase string
	traceFile  string
	execLog    string
}

func (s *session) bazel() string {
	if s.o.Bazel == "" {
		return "bazel"
	}
	return s.o.Bazel
}

// startup are Bazel's startup options: batch mode, so that no server
// outlives the command, in the scratch output user root and base, so that
// nothing is cached from an earlier build and nothing is left for a later.
func (s *session) startup() []string {
	return []string{"--batch", "--output_user_root=" + s.userRoot, "--output_base=" + s.outputBase}
}

// BuildArgs is the traced command line: strace, then Bazel.
func (s *session) buildArgs() []string {
	args := []string{
		s.strace, "--seccomp-bpf", "-f", "-y",
		fmt.Sprintf("-s%d", straceStringLimit),
		"-o", s.traceFile,
		"-e", "trace=" + strings.Join(Syscalls, ","),
		s.bazel(),
	}
	args = append(args, s.startup()...)
	args = append(args, "build")
	args = append(args, s.o.Flags...)
	return append(args,
		// Every action runs here and now, unsandboxed, so that strace sees
		// it: no sandbox (not permitted in containers, and it would hide
		// the host behind its mounts), no cache, no remote execution.
		"--spawn_strategy=standalone",
		"--disk_cache=",
		"--remote_cache=",
		"--remote_executor=",
		// What each spawn declared.
		"--execution_log_binary_file="+s.execLog,
		"--", s.o.Label)
}

func (s *session) build(ctx context.Context) error {
	s.progress("ahab trace: building %s under strace\n", s.o.Label)
	return s.run(ctx, "bazel build (under strace)", s.buildArgs())
}

func (s *session) actions() ([]Action, error) {
	f, err := os.Open(s.execLog)
	if err != nil {
		return nil, fmt.Errorf("the execution log of the build: %w", err)
	}
	defer f.Close()
	return readExecLog(f, filepath.Base(s.execLog))
}

// run runs argv in its own process group, so that a Ctrl-C reaches it only
// through us: on SIGINT or SIGTERM (or the end of ctx) the group gets SIGINT,
// which Bazel answers by cancelling the build, and SIGKILL if it is still
// there after the grace period. strace blocks those signals itself while it
// writes to a file, so it stays to the end and exits with Bazel.
func (s *session) run(ctx context.Context, command string, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.o.Dir
	cmd.Env = s.o.Env
	tail := &tailWriter{}
	cmd.Stderr = tail
	if s.o.Progress != nil {
		cmd.Stderr = io.MultiWriter(tail, s.o.Progress)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.stopped(ctx); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot start `%s`: %w", command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var cause string
	var err error
	select {
	case err = <-done:
	case sig := <-s.signals:
		cause = sig.String()
	case <-ctx.Done():
		cause = ctx.Err().Error()
	}
	if cause != "" {
		pgid := cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(s.grace()):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-done
		}
		return &InterruptedError{Cause: cause}
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return &BuildError{Command: command, ExitCode: exit.ExitCode(), Stderr: strings.TrimRightFunc(tail.String(), unicode.IsSpace)}
		}
		return fmt.Errorf("`%s`: %w", command, err)
	}
	return nil
}

// findWorkspace is the directory at or above dir holding a WORKSPACE,
// WORKSPACE.bazel or MODULE.bazel file, symlinks resolved.
func findWorkspace(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{"WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel"} {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() {
				return d, nil
			}
		}
		if d == filepath.Dir(d) {
			return "", fmt.Errorf("%s: not in a Bazel workspace, expected a WORKSPACE, WORKSPACE.bazel or MODULE.bazel file here or above", dir)
		}
	}
}

// findExecRoot is the one directory in <output base>/execroot.
func findExecRoot(outputBase string) (string, error) {
	dir := filepath.Join(outputBase, "execroot")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("the build's execution root: %w", err)
	}
	var roots []string
	for _, e := range entries {
		if e.IsDir() {
			roots = append(roots, e.Name())
		}
	}
	if len(roots) != 1 {
		return "", fmt.Errorf("%s: %d execution roots (%s), expected one", dir, len(roots), strings.Join(roots, ", "))
	}
	return filepath.Join(dir, roots[0]), nil
}

// tailWriter keeps the last tailLimit bytes written to it: Bazel's stderr
// holds its progress for the whole build, and the reason for a failure at
// the end.
type tailWriter struct{ buf []byte }

const tailLimit = 32 << 10

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*tailLimit {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailLimit:]...)
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	b := t.buf
	if len(b) > tailLimit {
		b = b[len(b)-tailLimit:]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
