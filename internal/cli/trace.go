package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/trace"
)

const traceUsage = `Usage: ahab trace [flags] LABEL

Builds LABEL with Bazel under strace, in a scratch output base with no cache
and every action run unsandboxed, and reports per action the files it opened,
stat'ed or listed outside what it declared: workspace files, host files and
directory listings. What the host C toolchain and C library read on their own
(the dynamic loader, locales, gcc's installation, the C++ toolchain's declared
include directories) is summarised once as the baseline. Nothing is left
behind: Bazel runs with --batch and the scratch directory is removed, also on
Ctrl-C. See docs/trace.md.

Needs strace (apt-get install strace) and Linux.

Exit status:
  0  no action read anything undeclared beyond the baseline
  1  some action did, or an error
  2  the command line is wrong

Flags:
`

// runTrace is `ahab trace`.
func runTrace(args []string, sys System) error {
	var (
		writeJSON, bazelPath, keepTrace string
		bazelFlags                      []string
		help                            bool
	)
	fs := pflag.NewFlagSet("ahab trace", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	onceString(fs, &writeJSON, "write-json", "", "also write the report to `FILE` as JSON (atomically)")
	onceString(fs, &bazelPath, "bazel", "", "the Bazel `PATH` to run (default \"bazel\")")
	fs.StringArrayVar(&bazelFlags, "bazel-flag", nil, "pass `FLAG` to bazel build verbatim (repeatable), e.g. --bazel-flag=--config=ci")
	onceString(fs, &keepTrace, "keep-trace", "", "keep the raw strace output and the execution log in `DIR`")
	onceBool(fs, &help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if help {
		fmt.Fprint(sys.Stdout, traceUsage+fs.FlagUsagesWrapped(76))
		return nil
	}
	switch fs.NArg() {
	case 0:
		return usageError{"ahab trace needs a LABEL to build"}
	case 1:
	default:
		return usageError{fmt.Sprintf("unexpected argument %q: ahab trace builds one LABEL", fs.Arg(1))}
	}
	res := newResolver(sys)
	o := trace.Options{
		Label:     fs.Arg(0),
		Bazel:     bazelPath,
		Dir:       bazel.WorkingDir(sys.LookupEnv),
		Env:       sys.Environ(),
		Flags:     bazelFlags,
		KeepTrace: res.path(keepTrace),
	}
	if sys.StderrIsTerminal {
		o.Progress = sys.Stderr
	}
	r, err := trace.Run(context.Background(), o)
	if err != nil {
		return err
	}
	if writeJSON != "" {
		if err := writeFileAtomic(res.path(writeJSON), func(w io.Writer) error { return trace.WriteJSON(w, r) }); err != nil {
			return err
		}
	}
	if !r.Found() {
		return trace.WriteText(sys.Stdout, r)
	}
	if err := trace.WriteText(sys.Stderr, r); err != nil {
		return err
	}
	return exitError{ExitFindings}
}

// writeFileAtomic writes path through a temporary file in the same
// directory, renamed over it once complete, so that a failed write never
// leaves a truncated file.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
