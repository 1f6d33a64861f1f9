package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/trace"
)

const traceUsage = `Usage: ahab trace [flags] LABEL...

Builds LABEL with Bazel under strace, in a scratch output base with no cache
and every action run unsandboxed, and reports per action the files it opened,
stat'ed or listed outside what it declared: workspace files, host files and
directory listings. What the host C toolchain and C library read on their own
(the dynamic loader, locales, gcc's installation, the C++ toolchain's declared
include directories) is summarised once as the baseline. Beside each action
are the findings of the static analysis (bazel aquery of deps(LABEL) in the
same output base, with Ahab's own judgement: every action the build runs,
its dependencies' and external repositories' included), so you see which
reads it predicted. Each LABEL is a target pattern (-//x excludes) or a
query, whose targets (bazel cquery) are built. Nothing is left behind: the
aquery's server is shut down, the build runs with --batch, leaves your
bazel-* links alone and has a TMPDIR of its own, and the scratch directory
is removed, also on Ctrl-C or SIGTERM, which stop the build's whole process
tree. See docs/trace.md.

The report goes to standard output; with --write-json -, the JSON goes there
and the report to standard error.

Needs strace (apt-get install strace) and Linux. An action that read
anything undeclared beyond the baseline is a finding: exit 1 (0 with
--no-fail).

Flags:
`

// runTrace is `ahab trace`.
func runTrace(args []string, sys System) error {
	var (
		o                    options
		writeJSON, keepTrace string
		summary, noFail      bool
	)
	fs := pflag.NewFlagSet("ahab trace", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	o.addBazelFlags(fs, "the build and the aquery")
	onceString(fs, &writeJSON, "write-json", "", "also write the report to `FILE` as JSON (atomically; - for standard output)")
	onceBool(fs, &summary, "summary", "", "print the reads counted (per class; the paths and targets with the most) instead of every action")
	onceBool(fs, &noFail, "no-fail", "", "print the report but exit 0 even when an action read something undeclared")
	fs.StringArrayVar(&o.reproSpecs, "repro-specs", nil, "also read reproducibility specs from `FILE` for the static analysis (repeatable)")
	onceString(fs, &keepTrace, "keep-trace", "", "keep the raw strace output and the execution log in `DIR`")
	onceBool(fs, &o.help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if o.help {
		fmt.Fprint(sys.Stdout, helpText(traceUsage, fs))
		return nil
	}
	o.labels = fs.Args()
	if len(o.labels) == 0 {
		return usageError{"ahab trace needs a LABEL to build"}
	}
	if err := checkLabels(o.labels); err != nil {
		return err
	}
	if writeJSON == "-" && summary {
		return usageError{"--write-json - and --summary both write to standard output; write the JSON to a file"}
	}
	res := newResolver(sys)
	// What the user wrote is checked before the build, which takes minutes.
	if err := o.checkValues(res); err != nil {
		return err
	}
	if writeJSON != "" {
		if err := checkOutputDir("--write-json", res.path(writeJSON)); err != nil {
			return err
		}
	}
	lib, err := loadLibrary(res.paths(o.reproSpecs), mode.Default)
	if err != nil {
		return err
	}
	ctx, release := bazel.WithSignals(context.Background())
	defer release()
	prog := newProgress(sys, "ahab trace")
	defer prog.clear()
	o.progress = prog
	t := trace.Options{
		Labels:        o.labels,
		Bazel:         o.bazel,
		Dir:           bazel.WorkingDir(sys.LookupEnv),
		Env:           sys.Environ(),
		Flags:         o.bazelArgs(),
		KeepTrace:     res.path(keepTrace),
		Progress:      phaseWriter{prog},
		BazelProgress: prog.onBazel,
		Warn:          func(msg string) { warn(sys, "%s", msg) },
		Static: func(ctx context.Context, outputBase string) (*analyze.Index, string, error) {
			a := o
			a.outputBase = outputBase
			a.byAction, a.wholeBuild = true, true
			result, err := analyzeGraph(ctx, &a, sys, res, lib)
			if err != nil {
				return nil, "", err
			}
			if result.failed != nil {
				// --keep_going analysed what it could: the build will fail
				// on the rest and say why.
				warn(sys, "the static analysis is incomplete: %s", oneLine(result.failed.Error()))
			}
			return analyze.NewIndex(result.ByAction), "bazel aquery " + quote.IfNeeded(a.query()), nil
		},
	}
	r, err := trace.Run(ctx, t)
	if err != nil {
		return err
	}
	prog.clear()
	return presentTrace(sys, res, writeJSON, summary, noFail, r)
}

// presentTrace writes the reports of a trace as the analysis does
// (streams): the text report to standard output, unless the JSON goes
// there (--write-json -), in which case the text goes to standard error.
// The JSON is in place before the text is written. It fails the run when
// some action read something undeclared.
func presentTrace(sys System, res resolver, writeJSON string, summary, noFail bool, r *trace.Report) error {
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
	write := trace.WriteText
	if summary {
		write = trace.WriteSummary
	}
	if err := write(out, r, trace.TextOptions{Color: sys.color(terminal)}); err != nil {
		return err
	}
	if r.Found() && !noFail {
		return exitError{ExitFindings}
	}
	return nil
}
