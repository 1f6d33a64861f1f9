// Package reprotest builds a Bazel workspace twice, the second time under
// varied conditions, and hands back both execution logs and output trees:
// the engine of `ahab reprotest`, as reprotest is for the distributions
// and `bb detect nondeterminism` for Bazel. Comparing the logs is package
// spawndiff's work, the outputs package outdiff's, and running Bazel
// package bazel's.
//
// Both builds run in copies of the workspace (without its convenience
// links), each with its own output base, server and TMPDIR, in a scratch
// directory: the user's workspace, output base, server and TMPDIR are never
// touched. Each server is shut down as soon as its build ends; its outputs
// are kept for the comparison (Builds.Outputs) and the rest removed; the
// scratch directory goes with Builds.Close, or at once when Run fails or
// is stopped.
package reprotest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/outdiff"
)

// DefaultGap is Options.Gap when it is zero: over the two seconds of a zip
// file's time stamps, so that even those differ between the copies.
const DefaultGap = 3 * time.Second

// Options say what to build and how to vary it.
type Options struct {
	// Labels are the target patterns to build, as `bazel build` takes them
	// (after "--", so "-//x:y" excludes).
	Labels []string
	// Workspace is the user's workspace root (bazel.WorkspaceRoot).
	Workspace string
	// Bazel is the executable, "bazel" when empty; a name without a slash
	// is looked up on this process's PATH.
	Bazel string
	// Env is the user's environment, the base of both builds' (nil: this
	// process's).
	Env []string
	// BazelFlags are passed to both `bazel build`s verbatim, before the
	// flags Run adds (which turn the caches off and write the logs).
	BazelFlags []string
	// Vary says what the second build changes; nil means the default
	// (DefaultVariations).
	Vary *Variations
	// User is the account the second build runs as under Vary.User; ""
	// means SecondUser, made when there is none.
	User string
	// VaryEnv are the NAME=VALUE variables Vary.Env sets in the second
	// build (and unsets in the first); none means CaptureEnvironment.
	VaryEnv []string
	// Gap is the least time between making the two copies when Vary.Time
	// is on; zero means DefaultGap.
	Gap time.Duration
	// TempDir is where the scratch directory is made; "" means
	// os.TempDir(). It needs room for two copies of the workspace and two
	// output bases (one at a time), and both builds' outputs (their
	// bazel-out, kept for the comparison).
	TempDir string
	// KeepDir, when not "", is a directory where the logs are kept as
	// old.binlog and new.binlog; Builds.Old and New are then there, and
	// Close leaves them. The copies and output bases are never kept.
	KeepDir string
	// KeepOutputs, when not "", is a directory where the logs are kept as
	// KeepDir keeps them, and both builds' outputs beside them, as old/ and
	// new/ (each build's bazel-out, and the outdiff.BuildFile that
	// describes it); Builds.Outputs are then there, and Close leaves them.
	KeepOutputs string
	// Targets, when not empty, are the targets to build instead of
	// Labels (a query's, resolved): the builds read them from a file
	// (--target_pattern_file), however many there are. Labels still name
	// what is built in messages.
	Targets []string
	// Progress, when not nil, gets one line per phase.
	Progress io.Writer
	// BazelProgress, when not nil, is told what Bazel says it is doing
	// (bazel.Runner.Progress).
	BazelProgress func(bazel.Progress)
}

// Builds are the two builds' execution logs. Close removes them (unless
// they were kept) with the rest of the scratch directory.
type Builds struct {
	// Old and New are the paths of the first and the second build's
	// --execution_log_binary_file.
	Old, New string
	// Varied is what the second build did vary: Options.Vary, but for
	// what the machine did not allow.
	Varied Variations
	// Reached says, for each variation asked for, what it gave each build,
	// or why it was skipped.
	Reached []Reach
	// Commands are the two builds' argv, for reports.
	Commands [2][]string
	// Outputs are the two builds' output trees (each its execution root's
	// bazel-out, under the directory named), and Described the two builds
	// as package outdiff reads them: what differs inside an output.
	Outputs   [2]string
	Described [2]outdiff.Build

	dir      string
	otherFS  string // the second copy's scratch directory on a tmpfs, or ""
	madeUser string // the account Run made for the second build, or ""
	skipped  []Reach
}

// Close removes the scratch directories, and the account Run made.
func (b *Builds) Close() error {
	var errs []error
	for _, d := range []string{b.dir, b.otherFS} {
		if d != "" {
			errs = append(errs, bazel.RemoveAll(d))
		}
	}
	if b.madeUser != "" {
		errs = append(errs, removeAccount(b.madeUser))
	}
	b.dir, b.otherFS, b.madeUser = "", "", ""
	return errors.Join(errs...)
}

// BuildError is a build that failed.
type BuildError struct {
	Build int    // 1 or 2
	Dir   string // where it ran: the copy of the workspace
	// Exit is Bazel's failure, with the end of its stderr.
	Exit *bazel.ExitError
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build %d of 2 (`bazel build` in %s) exited with %s:\n%s", e.Build, e.Dir, e.Exit.Status, e.Exit.LastLines(tailLines))
}

func (e *BuildError) Unwrap() error { return e.Exit }

// StoppedError is a Run stopped by a signal or by its context: Err is
// bazel.ErrInterrupted, bazel.ErrTerminated or the context's cause.
type StoppedError struct {
	Phase string // what was running, as "build 2 of 2"
	Err   error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("reprotest was stopped during %s: %v", e.Phase, e.Err)
}
func (e *StoppedError) Unwrap() error { return e.Err }

// Run builds o.Labels twice and returns the two logs; the caller must
// Close the Builds. Run holds SIGINT and SIGTERM while it runs
// (bazel.WithSignals): the first, or the end of ctx, stops the running
// build as Ctrl-C would, a second kills it, and either way the servers are
// shut down and the scratch directory removed before Run returns a
// *StoppedError.
func Run(ctx context.Context, o Options) (*Builds, error) {
	if len(o.Labels) == 0 {
		return nil, errors.New("reprotest: no target pattern to build")
	}
	if o.Workspace == "" {
		return nil, errors.New("reprotest: no workspace")
	}
	ws, err := filepath.Abs(o.Workspace)
	if err != nil {
		return nil, err
	}
	if root, ok := bazel.WorkspaceRoot(ws); !ok || root != ws {
		return nil, fmt.Errorf("%s: not a Bazel workspace root, expected a directory with a WORKSPACE, WORKSPACE.bazel, MODULE.bazel or REPO.bazel file", ws)
	}
	o.Workspace = ws
	if o.KeepOutputs != "" {
		for _, name := range []string{"old", "new"} {
			if _, err := os.Lstat(filepath.Join(o.KeepOutputs, name)); err == nil {
				return nil, fmt.Errorf("%s: %s exists already, expected a directory without old/ and new/ to keep the builds in", o.KeepOutputs, name)
			}
		}
	}
	bazelPath, err := exec.LookPath(cmp(o.Bazel, "bazel"))
	if err != nil {
		return nil, fmt.Errorf("reprotest: %w", err)
	}
	if o.Gap == 0 {
		o.Gap = DefaultGap
	}
	if o.Vary == nil {
		def := DefaultVariations()
		o.Vary = &def
	}

	ctx, release := bazel.WithSignals(ctx)
	defer release()
	dir, err := os.MkdirTemp(o.TempDir, "ahab-reprotest-")
	if err != nil {
		return nil, fmt.Errorf("reprotest: %w", err)
	}
	b := &Builds{dir: dir, Varied: *o.Vary}
	runner := &bazel.Runner{Bazel: bazelPath, Progress: o.BazelProgress}
	if err := b.run(ctx, runner, &o, bazelPath); err != nil {
		if cerr := b.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, err
	}
	return b, nil
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (b *Builds) run(ctx context.Context, runner *bazel.Runner, o *Options, bazelPath string) error {
	h, err := b.probe(ctx, o)
	if err != nil {
		return err
	}
	if len(o.Targets) > 0 {
		if err := os.WriteFile(targetFile(b.dir), []byte(strings.Join(o.Targets, "\n")+"\n"), 0o644); err != nil {
			return fmt.Errorf("reprotest: %w", err)
		}
	}
	// What the machine allows of the variations asked for.
	asked, vary := *o.Vary, *o
	vary.Vary = &b.Varied
	o = &vary
	var copied time.Time
	var plans [2]build
	var gap time.Duration
	for n := 1; n <= 2; n++ {
		phase := fmt.Sprintf("build %d of 2", n)
		if err := stoppedIn(ctx, phase); err != nil {
			return err
		}
		p := plan(o, bazelPath, b.dir, n, h)
		plans[n-1] = p
		b.Commands[n-1] = p.argv(p.args...)
		if n == 2 && o.Vary.Time {
			// See Variations.Time: the copies' times must differ.
			if wait := o.Gap - time.Since(copied); wait > 0 {
				b.progress(o, "waiting %v so that the second copy is made %v after the first", wait.Round(time.Millisecond), o.Gap)
				if err := sleep(ctx, phase, wait); err != nil {
					return err
				}
			}
		}
		b.progress(o, "%s: copying the workspace to %s", phase, p.copyDir)
		start := time.Now()
		if n == 2 {
			gap = start.Sub(copied)
		}
		if err := copyWorkspace(ctx, o.Workspace, p.copyDir, p.umask, p.reverse); err != nil {
			if stopped := stoppedIn(ctx, phase); stopped != nil {
				return stopped
			}
			return err
		}
		copied = time.Now()
		if err := os.MkdirAll(p.tmp, 0o755); err != nil {
			return fmt.Errorf("%s: %w", phase, err)
		}
		if err := prepare(p); err != nil {
			return err
		}
		b.progress(o, "%s in %s", phase, p.copyDir)
		buildErr := p.build(ctx, runner, phase)
		// The server goes before anything else, also when the build failed
		// or was stopped.
		downErr := p.shutdown(runner)
		if buildErr != nil {
			return errors.Join(buildErr, downErr)
		}
		if downErr != nil {
			return downErr
		}
		if err := b.harvest(p, o, start); err != nil {
			return err
		}
		// The copy and output base are done with; with Vary.Path off, the
		// second build needs their paths.
		for _, root := range p.roots {
			if err := bazel.RemoveAll(root); err != nil {
				return err
			}
		}
		if _, err := os.Stat(logPath(b.dir, n)); err != nil {
			return fmt.Errorf("%s wrote no execution log: %w", phase, err)
		}
	}
	b.Old, b.New = logPath(b.dir, 1), logPath(b.dir, 2)
	b.Reached = b.reached(asked, o, h, plans, gap)
	switch {
	case o.KeepOutputs != "":
		return b.keepOutputs(ctx, o.KeepOutputs)
	case o.KeepDir != "":
		return b.keep(o.KeepDir)
	}
	return nil
}

// keep moves the logs to dir (copying them when a rename cannot).
func (b *Builds) keep(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, p := range []*string{&b.Old, &b.New} {
		to := filepath.Join(dir, filepath.Base(*p))
		if err := os.Rename(*p, to); err != nil {
			if err := copyFile(*p, to, 0o666&^fs.FileMode(0o022)); err != nil {
				return err
			}
		}
		*p = to
	}
	return nil
}

func (b *Builds) progress(o *Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// shmDir is where Linux systems mount a tmpfs.
const shmDir = "/dev/shm"

// otherFileSystem makes a scratch directory for the second copy on the
// tmpfs at /dev/shm, when it is one, is not where the scratch directory
// is, and has room for twice the workspace's files; else it returns "".
func otherFileSystem(workspace, tempDir string) string {
	room := tmpfsRoom(shmDir)
	if room == 0 || tmpfsRoom(cmp(tempDir, os.TempDir())) > 0 {
		return ""
	}
	var size uint64
	_ = filepath.WalkDir(workspace, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += uint64(info.Size())
			}
		}
		return nil
	})
	if 2*size > room {
		return ""
	}
	dir, err := os.MkdirTemp(shmDir, "ahab-reprotest-")
	if err != nil {
		return ""
	}
	return dir
}

// stoppedIn is the error of a Run stopped before or during phase, or nil.
func stoppedIn(ctx context.Context, phase string) error {
	if err := bazel.Stopped(ctx); err != nil {
		return &StoppedError{Phase: phase, Err: err}
	}
	return nil
}

func sleep(ctx context.Context, phase string, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return stoppedIn(ctx, phase)
	}
}

// tailLines is how many of Bazel's last lines of stderr a BuildError
// shows.
const tailLines = 30

// invocation is the Bazel command args in build p: through its wrapper,
// with its startup options, in its copy and environment.
func (p *build) invocation(command string, args ...string) bazel.Invocation {
	return bazel.Invocation{
		Command: command,
		Wrap:    p.client[:p.bazelAt],
		Args:    append(slices.Clone(p.client[p.bazelAt+1:]), args...),
		Dir:     p.copyDir,
		Env:     p.env,
	}
}

// build runs build p.
func (p *build) build(ctx context.Context, runner *bazel.Runner, phase string) error {
	err := runner.Run(ctx, p.invocation("bazel build", p.args...))
	if stopped, ok := errors.AsType[*bazel.StoppedError](err); ok {
		return &StoppedError{Phase: phase, Err: stopped.Cause}
	}
	if exit, ok := errors.AsType[*bazel.ExitError](err); ok {
		return &BuildError{Build: p.n, Dir: p.copyDir, Exit: exit}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", phase, err)
	}
	return nil
}

// shutdown stops build p's server, if it started one: `bazel shutdown`
// with the build's startup options, through its wrapper (as the build's
// account, whose server it is), then whatever server of its output base
// is still there is killed with what it runs. It runs whatever became of
// the caller's context: a server must not outlive Run.
func (p *build) shutdown(runner *bazel.Runner) error {
	if err := runner.ShutdownWith(p.outputBase, p.invocation("")); err != nil {
		return fmt.Errorf("build %d of 2: %w", p.n, err)
	}
	return nil
}
