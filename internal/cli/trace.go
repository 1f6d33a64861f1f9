package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/trace"
)

const traceUsage = `Usage: ahab trace [flags] LABEL

Builds LABEL with Bazel under strace, in a scratch output base with no cache
and every action run unsandboxed, and reports per action the files it opened,
stat'ed or listed outside what it declared: workspace files, host files and
directory listings. What the host C toolchain and C library read on their own
(the dynamic loader, locales, gcc's installation, the C++ toolchain's declared
include directories) is summarised once as the baseline. Beside each action
are the findings of the static analysis (bazel aquery of LABEL in the same
output base, with Ahab's own judgement), so you see which reads it predicted.
Nothing is left behind: the aquery's server is shut down, the build runs with
--batch and the scratch directory is removed, also on Ctrl-C. See
docs/trace.md.

The report goes to standard output; with --write-json -, the JSON goes there
and the report to standard error.

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
		bazelFlags, reproSpecs          []string
		help                            bool
	)
	fs := pflag.NewFlagSet("ahab trace", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	onceString(fs, &writeJSON, "write-json", "", "also write the report to `FILE` as JSON (atomically; - for standard output)")
	onceString(fs, &bazelPath, "bazel", "", "the Bazel `PATH` to run (default \"bazel\")")
	fs.StringArrayVar(&bazelFlags, "bazel-flag", nil, "pass `FLAG` to bazel aquery and build verbatim (repeatable), e.g. --bazel-flag=--config=ci")
	fs.StringArrayVar(&reproSpecs, "repro-specs", nil, "also read reproducibility specs from `FILE` for the static analysis (repeatable)")
	onceString(fs, &keepTrace, "keep-trace", "", "keep the raw strace output and the execution log in `DIR`")
	onceBool(fs, &help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
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
		return usageError{fmt.Sprintf("unexpected argument %s: ahab trace builds one LABEL", quoteArg(fs.Arg(1)))}
	}
	res := newResolver(sys)
	// What the user wrote is checked before the build, which takes minutes.
	if writeJSON != "" {
		if err := checkOutputDir("--write-json", res.path(writeJSON)); err != nil {
			return err
		}
	}
	lib, err := loadLibrary(res.paths(reproSpecs), mode.Default)
	if err != nil {
		return err
	}
	o := trace.Options{
		Label:     fs.Arg(0),
		Bazel:     bazelPath,
		Dir:       bazel.WorkingDir(sys.LookupEnv),
		Env:       sys.Environ(),
		Flags:     bazelFlags,
		KeepTrace: res.path(keepTrace),
		Library:   lib,
		Warn:      func(msg string) { warn(sys, "%s", msg) },
	}
	if sys.StderrIsTerminal {
		o.Progress = sys.Stderr
	}
	r, err := trace.Run(context.Background(), o)
	if err != nil {
		return err
	}
	return presentTrace(sys, res, writeJSON, r)
}

// presentTrace writes the reports of a trace as the analysis does
// (streams): the text report to standard output, unless the JSON goes
// there (--write-json -), in which case the text goes to standard error.
// The JSON is in place before the text is written. It fails the run when
// some action read something undeclared.
func presentTrace(sys System, res resolver, writeJSON string, r *trace.Report) error {
	out, terminal := sys.Stdout, sys.StdoutIsTerminal
	if writeJSON == "-" {
		out, terminal = sys.Stderr, sys.StderrIsTerminal
	}
	if writeJSON != "" {
		write := func(w io.Writer) error { return trace.WriteJSON(w, r) }
		var err error
		if writeJSON == "-" {
			err = writeStdout(sys, write)
		} else {
			err = atomicfile.Write(res.path(writeJSON), "JSON report", write)
		}
		if err != nil {
			return err
		}
	}
	if err := trace.WriteText(out, r, trace.TextOptions{Color: sys.color(terminal)}); err != nil {
		return err
	}
	if r.Found() {
		return exitError{ExitFindings}
	}
	return nil
}
