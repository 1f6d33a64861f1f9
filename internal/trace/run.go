package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/bazel"
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
	// Labels are what to build: target patterns as `bazel build` takes
	// them, or a query expression, whose targets (bazel cquery) are built.
	Labels []string
	// Bazel is the Bazel executable ("bazel" when empty).
	Bazel string
	// Strace is the strace executable ("strace" when empty).
	Strace string
	// Dir is where Bazel runs, in the workspace ("" for the working
	// directory).
	Dir string
	// Env is Bazel's environment (nil for this process's).
	Env []string
	// Flags are passed to `bazel build` (and the cquery of a query)
	// before Ahab's own, which win: the user's --config,
	// --compilation_mode and --bazel-flag values.
	Flags []string
	// KeepTrace, when set, is a directory to keep the raw strace output
	// (strace.txt) and the execution log (execution_log.binpb) in.
	KeepTrace string
	// TempDir is where the scratch directory is made (os.TempDir() when
	// empty).
	TempDir string
	// Progress, when not nil, gets one line per phase.
	Progress io.Writer
	// BazelProgress, when not nil, is told what Bazel says it is doing
	// (bazel.Runner.Progress).
	BazelProgress func(bazel.Progress)
	// Grace is how long Bazel has to stop after an interrupt before its
	// process tree is killed (bazel.DefaultGrace when zero).
	Grace time.Duration
	// Static, when not nil, runs the static analysis of the labels with
	// runner in the scratch output base the build then uses, and returns
	// its findings by action and what it ran (the report's Static); Run
	// shuts down the server it starts before the build. Nil means no
	// static analysis: the actions have no causes.
	Static func(ctx context.Context, outputBase string) (*analyze.Index, string, error)
	// Warn, when not nil, is told (one line each) what the trace could
	// not do that the report does without.
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

// StoppedError means a signal or the end of the context stopped the
// trace; Err is bazel.ErrInterrupted, bazel.ErrTerminated or the
// context's cause. Bazel's process tree was stopped (or killed) and the
// scratch directory removed before it was returned.
type StoppedError struct {
	Err error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("ahab trace was stopped (%v): the traced build was cancelled and its scratch directory removed", e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// buildCommand names the traced build in errors.
const buildCommand = "bazel build (under strace)"

// Run builds o.Labels with Bazel under strace, in a scratch output base
// (after the static analysis, o.Static, in the same one), and reports
// what each action read without declaring it, beside what the static
// analysis found in it. It leaves nothing behind: the static analysis's
// server is shut down before the build, which runs with --batch and no
// convenience links; the scratch directory (output user root, output
// base, TMPDIR, trace) is removed before Run returns, also when a SIGINT
// or SIGTERM stops it (bazel.WithSignals: Bazel's whole process tree is
// stopped, then killed).
func Run(ctx context.Context, o Options) (*Report, error) {
	if len(o.Labels) == 0 {
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
	ctx, release := bazel.WithSignals(ctx)
	defer release()
	tmp, err := os.MkdirTemp(o.TempDir, "ahab-trace-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a scratch directory: %w", err)
	}
	defer bazel.RemoveAll(tmp)
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return nil, err
	}
	s := &session{
		o:      o,
		strace: strace,
		runner: &bazel.Runner{Bazel: o.Bazel, Dir: o.Dir, Env: o.Env, Progress: o.BazelProgress, Grace: o.Grace},
		// The output user root is the output base's parent, as the
		// analysis's aquery pins it (bazel.OutputUserRoot): the aquery and
		// the build then share Bazel's install base and the external
		// repositories the aquery fetched.
		userRoot:   tmp,
		outputBase: filepath.Join(tmp, "output_base"),
		tmpDir:     filepath.Join(tmp, "tmp"),
		traceFile:  filepath.Join(tmp, "strace.txt"),
		execLog:    filepath.Join(tmp, execLogName),
		targetFile: filepath.Join(tmp, "targets.txt"),
		scope:      bazel.ScopeFor(workspace, filepath.Join(tmp, "output_base")),
	}
	if err := os.Mkdir(s.tmpDir, 0o755); err != nil {
		return nil, err
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
	static, source, err := s.static(ctx)
	if err != nil {
		return nil, s.stoppedOr(ctx, err)
	}
	if err := s.build(ctx); err != nil {
		return nil, s.stoppedOr(ctx, err)
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
	r.Static = source
	return r, s.stopped(ctx)
}

// stopped returns a *StoppedError if a signal came or ctx ended.
func (s *session) stopped(ctx context.Context) error {
	if err := bazel.Stopped(ctx); err != nil {
		return &StoppedError{Err: err}
	}
	return nil
}

// stoppedOr is err, or the *StoppedError of a trace stopped meanwhile.
func (s *session) stoppedOr(ctx context.Context, err error) error {
	if stopped := s.stopped(ctx); stopped != nil {
		return stopped
	}
	return err
}

// execLogName is the execution log's file name. Bazel writes it in its
// binary form, varint-delimited SpawnExec messages: for the same build it is
// about a third of the JSON form's size and reads faster (docs/trace.md).
const execLogName = "execution_log.binpb"

// session is one Run's files and commands.
type session struct {
	o          Options
	strace     string
	runner     *bazel.Runner
	userRoot   string
	outputBase string
	tmpDir     string
	traceFile  string
	execLog    string
	targetFile string
	scope      bazel.Scope
	targets    []string // the query's targets; nil for patterns
}

// startup are Bazel's startup options: batch mode, so that no server
// outlives the command, in the scratch output user root and base, so that
// nothing is cached from an earlier build and nothing is left for a later.
func (s *session) startup() []string {
	return []string{"--batch", "--output_user_root=" + s.userRoot, "--output_base=" + s.outputBase}
}

// wrapper is strace's argv, to which Bazel's is appended.
func (s *session) wrapper() []string {
	return []string{
		s.strace, "--seccomp-bpf", "-f", "-y",
		fmt.Sprintf("-s%d", straceStringLimit),
		"-o", s.traceFile,
		"-e", "trace=" + strings.Join(Syscalls, ","),
	}
}

// buildArgs is the traced build's argv after Bazel's executable.
func (s *session) buildArgs() []string {
	args := append(s.startup(), "build")
	args = append(args, s.o.Flags...)
	args = append(args,
		// Every action runs here and now, unsandboxed, so that strace sees
		// it: no sandbox (not permitted in containers, and it would hide
		// the host behind its mounts), no cache, no remote execution.
		"--spawn_strategy=standalone",
		"--disk_cache=",
		"--remote_cache=",
		"--remote_executor=",
		// The build runs in the user's workspace: its convenience links
		// must stay as they are, pointing into the user's output base.
		"--symlink_prefix=/",
		// What each spawn declared.
		"--execution_log_binary_file="+s.execLog)
	if s.targets != nil {
		return append(args, "--target_pattern_file="+s.targetFile)
	}
	args = append(args, "--")
	return append(args, s.scope.Patterns(s.o.Labels)...)
}

// buildEnv is the build's environment: the user's, with TMPDIR in the
// scratch directory, where what an action leaves is removed with it.
func (s *session) buildEnv() []string {
	base := s.o.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		if !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	return append(env, "TMPDIR="+s.tmpDir)
}

func (s *session) build(ctx context.Context) error {
	s.progress("building %s under strace\n", strings.Join(s.o.Labels, " "))
	return s.runner.Run(ctx, bazel.Invocation{Command: buildCommand, Wrap: s.wrapper(), Args: s.buildArgs(), Env: s.buildEnv()})
}

func (s *session) actions() ([]Action, error) {
	f, err := os.Open(s.execLog)
	if err != nil {
		return nil, fmt.Errorf("the execution log of the build: %w", err)
	}
	defer f.Close()
	return readExecLog(f, filepath.Base(s.execLog))
}

// findWorkspace is the workspace root at or above dir
// (bazel.WorkspaceRoot), symlinks resolved.
func findWorkspace(dir string) (string, error) {
	root, ok := bazel.WorkspaceRoot(dir)
	if !ok {
		if dir == "" {
			dir, _ = os.Getwd()
		}
		return "", fmt.Errorf("%s: not in a Bazel workspace, expected a WORKSPACE, WORKSPACE.bazel or MODULE.bazel file here or above", dir)
	}
	return filepath.EvalSymlinks(root)
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
