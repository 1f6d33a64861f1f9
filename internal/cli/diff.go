package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/savedreport"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

// ExitDiverged is the status of `ahab diff` and `ahab reprotest` when the
// builds diverge: distinct from 1, so that a script can tell "the build is
// not reproducible" from "the comparison failed".
const ExitDiverged = 3

const diffUsage = `Usage: ahab diff [flags] OLD NEW [LABEL...]

Compares the execution logs of two builds of the same sources and reports
every action whose outputs differ, root causes first (producers before
consumers), each with the reason: nondeterministic, input_changed,
command_changed, environment_changed, flaky_exit, only_old or only_new.
Actions that only inherit a divergence are counted under their root cause
(downstream when their outputs differ too, absorbed when they do not); the
JSON report lists each. See docs/diff.md.

OLD and NEW are logs Bazel wrote with --execution_log_binary_file,
--execution_log_json_file or --execution_log_compact_file, in any mix; the
format is recognised from the content.

With a static analysis (LABEL, which runs bazel aquery as ahab LABEL does;
--aquery-file; or a saved --report), each divergent action gets the
findings of the same action beside it, and the report says how many root
causes no finding predicts: the measure of what the analysis misses.

Exit status:
  0  the builds agree (or --no-fail)
  1  an error
  2  the command line is wrong
  3  some action diverges

Flags:
`

// diffOptions is the parsed command line of `ahab diff`.
type diffOptions struct {
	analysis   options // what a static analysis needs (labels, Bazel, dump, specs)
	report     string
	logFormat  string
	writeJSON  string
	summary    bool
	noFail     bool
	help       bool
	oldLog     string
	newLog     string
	logFormats execlog.Format
}

func parseDiff(args []string) (*diffOptions, *pflag.FlagSet, error) {
	d := &diffOptions{}
	o := &d.analysis
	fs := pflag.NewFlagSet("ahab diff", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	onceString(fs, &d.writeJSON, "write-json", "", "also write the comparison to `FILE` as JSON (atomically; - for standard output)")
	onceBool(fs, &d.summary, "summary", "", "print a summary (verdicts per mnemonic, the root causes with the largest cascades) instead of every root cause")
	onceBool(fs, &d.noFail, "no-fail", "", "exit 0 even when the builds diverge")
	onceString(fs, &d.logFormat, "log-format", "", "read both logs as `FORMAT` (json, binary, compact) instead of recognising it")
	onceString(fs, &o.aqueryFile, "aquery-file", "", "put the findings of the saved aquery dump `FILE` beside each divergent action")
	onceString(fs, &o.aqueryFormat, "aquery-format", "", "with --aquery-file, read it as `FORMAT` (proto, streamed_proto, jsonproto)")
	onceString(fs, &d.report, "report", "", "put the findings of the saved Ahab JSON report `FILE` beside each divergent action (matched by target and mnemonic, so only for logs that name targets: Bazel 7 and later)")
	fs.StringArrayVar(&o.reproSpecs, "repro-specs", nil, "read reproducibility specs from `FILE` for the static analysis (repeatable)")
	onceString(fs, &o.compat, "compat", "", "judge the static causes as Ahab `VERSION` did (only 0.2)")
	fs.StringArrayVar(&o.configs, "config", nil, "with LABEL, pass `NAME` to aquery as --config=NAME (repeatable)")
	onceString(fs, &o.compilationMode, "compilation-mode", "", "with LABEL, pass `MODE` to aquery as --compilation_mode=MODE")
	onceString(fs, &o.bazel, "bazel", "", "with LABEL, the Bazel `PATH` to run (default \"bazel\")")
	fs.StringArrayVar(&o.bazelFlags, "bazel-flag", nil, "with LABEL, pass `FLAG` to bazel aquery verbatim (repeatable); give the flags of the builds that wrote the logs")
	onceString(fs, &o.outputBase, "output-base", "", "with LABEL, use this Bazel output base `DIR` for the aquery")
	onceBool(fs, &d.help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return nil, fs, usageError{err.Error()}
	}
	if d.help {
		return d, fs, nil
	}
	if fs.NArg() < 2 {
		return nil, fs, usageError{"ahab diff needs two execution logs, OLD and NEW"}
	}
	d.oldLog, d.newLog, o.labels = fs.Arg(0), fs.Arg(1), fs.Args()[2:]
	if err := o.parseCompat(); err != nil {
		return nil, fs, err
	}
	if d.logFormat != "" {
		f, err := execlog.ParseFormat(d.logFormat)
		if err != nil {
			return nil, fs, usageError{"--log-format: " + err.Error()}
		}
		d.logFormats = f
	}
	sources := 0
	for _, given := range []bool{len(o.labels) > 0, o.aqueryFile != "", d.report != ""} {
		if given {
			sources++
		}
	}
	if sources > 1 {
		return nil, fs, usageError{"give one static analysis: a LABEL, --aquery-file or --report"}
	}
	if len(o.labels) == 0 && (o.bazel != "" || len(o.bazelFlags) > 0 || o.outputBase != "" || len(o.configs) > 0 || o.compilationMode != "") {
		return nil, fs, usageError{"--bazel, --bazel-flag, --config, --compilation-mode and --output-base run bazel aquery for a LABEL, and none is given"}
	}
	if o.aqueryFormat != "" && o.aqueryFile == "" {
		return nil, fs, usageError{"--aquery-format needs --aquery-file"}
	}
	if sources == 0 && (len(o.reproSpecs) > 0 || o.compat != "") {
		return nil, fs, usageError{"--repro-specs and --compat judge a static analysis: give a LABEL or --aquery-file"}
	}
	if d.report != "" && (len(o.reproSpecs) > 0 || o.compat != "") {
		return nil, fs, usageError{"--repro-specs and --compat do not apply to a saved --report, which was judged when it was written"}
	}
	if d.writeJSON == "-" && d.summary {
		return nil, fs, usageError{"--write-json - and --summary both write to standard output; write the JSON to a file"}
	}
	return d, fs, nil
}

// runDiff is `ahab diff`.
func runDiff(args []string, sys System) error {
	d, fs, err := parseDiff(args)
	if err != nil {
		return err
	}
	if d.help {
		fmt.Fprint(sys.Stdout, diffUsage+fs.FlagUsagesWrapped(76))
		return nil
	}
	res := newResolver(sys)
	o := &d.analysis
	if err := o.checkValues(res); err != nil {
		return err
	}
	if d.writeJSON != "" {
		if err := checkOutputDir("--write-json", res.path(d.writeJSON)); err != nil {
			return err
		}
	}
	defer tuneMemory(sys)()

	// The static analysis is read first: a bad dump or spec fails in
	// seconds, before logs of many gigabytes are read.
	static, source, err := staticAnalysis(d, sys, res)
	if err != nil {
		return err
	}
	r, err := compareLogs(sys, res.path(d.oldLog), res.path(d.newLog), d.logFormats)
	if err != nil {
		return err
	}
	if static != nil {
		if !static.HasOutputs() && !namesTargets(r) {
			fmt.Fprintf(sys.Stderr, "warning: the logs name no targets (Bazel before 7 writes none), so the findings of --report %s cannot be matched to their actions; give --aquery-file or a LABEL instead\n", quoteArg(d.report))
		}
		r.AttachCauses(source, static)
	}
	return presentDiff(sys, r, d.writeJSON, d.summary, d.noFail, res)
}

// presentDiff writes the reports of a comparison and decides the exit
// status.
func presentDiff(sys System, r *spawndiff.Result, writeJSON string, summary, noFail bool, res resolver) error {
	text, terminal := sys.Stdout, sys.StdoutIsTerminal
	if writeJSON == "-" {
		text, terminal = sys.Stderr, sys.StderrIsTerminal
	}
	if writeJSON != "" {
		write := func(w io.Writer) error { return spawndiff.WriteJSON(w, r) }
		if writeJSON == "-" {
			if err := write(sys.Stdout); err != nil {
				return err
			}
		} else if err := atomicfile.Write(res.path(writeJSON), "JSON report", write); err != nil {
			return err
		}
	}
	opts := spawndiff.TextOptions{Color: sys.color(terminal)}
	bw := bufio.NewWriter(text)
	var err error
	if summary {
		err = spawndiff.WriteSummary(bw, r, opts)
	} else {
		err = spawndiff.WriteText(bw, r, opts)
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if len(r.Actions) > 0 && !noFail {
		return exitError{ExitDiverged}
	}
	return nil
}

// namesTargets says whether the logs name the targets of their spawns.
func namesTargets(r *spawndiff.Result) bool {
	for _, a := range r.Actions {
		if a.Target != "" {
			return true
		}
	}
	return len(r.Actions) == 0
}

// compareLogs reads the two logs, both at once, and compares them.
func compareLogs(sys System, oldPath, newPath string, format execlog.Format) (*spawndiff.Result, error) {
	paths := [2]string{oldPath, newPath}
	files := [2]*os.File{}
	var total int64
	for i, path := range paths {
		f, err := openLog(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[i] = f
		if st, err := f.Stat(); err == nil {
			total += st.Size()
		}
	}
	var read [2]atomic.Int64
	prog := newProgress(sys)
	if prog != nil {
		defer prog.clear()
	}
	logs := [2]*spawndiff.Log{}
	errs := [2]error{}
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() {
			l := spawndiff.NewLog(paths[i])
			opts := execlog.Options{Format: format}
			if prog != nil {
				opts.Progress = func(n int64) {
					read[i].Store(n)
					prog.logs(&read[0], &read[1], total)
				}
			}
			_, errs[i] = execlog.Summarize(bufio.NewReaderSize(files[i], 1<<20), paths[i], opts, l.Tables(), l.Add)
			logs[i] = l
		})
	}
	wg.Wait()
	// Both errors may be the same mistake (two logs of the wrong kind);
	// the old log's is said first, and alone, as one line.
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return nil, err
	}
	return spawndiff.Diff(logs[0], logs[1]), nil
}

// openLog opens an execution log, refusing a directory.
func openLog(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileerr.Read("execution log", path, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fileerr.Read("execution log", path, errors.New("is a directory"))
	}
	return f, nil
}

// staticAnalysis is the analysis the comparison puts beside each divergent
// action, and where it came from; nil when none was asked for.
func staticAnalysis(d *diffOptions, sys System, res resolver) (*analyze.Index, string, error) {
	o := &d.analysis
	if d.report != "" {
		rep, err := savedreport.ReadFile(res.path(d.report))
		if err != nil {
			return nil, "", err
		}
		return analyze.IndexFindings(rep.Findings.Sorted()), d.report, nil
	}
	if o.aqueryFile == "" && len(o.labels) == 0 {
		return nil, "", nil
	}
	lib, err := loadLibrary(res.paths(o.reproSpecs), o.mode)
	if err != nil {
		return nil, "", err
	}
	o.byAction = true
	a, err := analyzeGraph(context.Background(), o, sys, res, lib)
	if err != nil {
		return nil, "", err
	}
	if a.failed != nil {
		return nil, "", a.failed
	}
	source := o.aqueryFile
	if source == "" {
		source = "bazel aquery " + o.query()
	}
	return analyze.NewIndex(a.ByAction), source, nil
}
