package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/outdiff"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/savedreport"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

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

With a static analysis (LABEL, a pattern or a query, which runs bazel
aquery as ahab LABEL does, of deps(LABEL): every action its build runs,
its dependencies' and external repositories' included; --aquery-file; or a
saved --report), each divergent action gets the findings of the same action
beside it, and the report says how many root causes no finding predicts:
the measure of what the analysis misses.

With --outputs OLD_DIR NEW_DIR, the two builds' outputs (output bases,
execution roots, bazel-out or bazel-bin trees, or what ahab reprotest
--keep kept), each differing output of a root cause gets what differs
inside it, classified when the bytes name a path, a time, a user, an
order...; --diffoscope DIR adds diffoscope's HTML report on each pair.

Divergent builds exit 1, as findings do (0 with --no-fail).

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
	outputs    [2]string // --outputs OLD_DIR NEW_DIR
	diffoscope string
}

// takeOutputs takes --outputs OLD_DIR NEW_DIR (or --outputs=OLD_DIR
// NEW_DIR) out of args, before they are parsed: a flag with two values,
// which pflag cannot read. Nothing after "--" is a flag.
func takeOutputs(args []string) ([]string, [2]string, error) {
	var dirs [2]string
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		var values []string
		switch {
		case a == "--outputs":
			values = args[i+1 : min(i+3, len(args))]
			i += len(values)
		case strings.HasPrefix(a, "--outputs="):
			values = append([]string{strings.TrimPrefix(a, "--outputs=")}, args[i+1:min(i+2, len(args))]...)
			i += len(values) - 1
		default:
			rest = append(rest, a)
			continue
		}
		if dirs != [2]string{} {
			return nil, dirs, usageError{"--outputs is given twice"}
		}
		if len(values) < 2 || values[0] == "" || values[1] == "" || strings.HasPrefix(values[1], "--") {
			return nil, dirs, usageError{"--outputs needs two directories, OLD_DIR and NEW_DIR: the outputs of the two builds"}
		}
		dirs = [2]string{values[0], values[1]}
	}
	return rest, dirs, nil
}

func parseDiff(args []string) (*diffOptions, *pflag.FlagSet, error) {
	d := &diffOptions{}
	o := &d.analysis
	fs := pflag.NewFlagSet("ahab diff", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	args, outputs, err := takeOutputs(args)
	if err != nil {
		return nil, fs, err
	}
	d.outputs = outputs
	onceString(fs, &d.writeJSON, "write-json", "", "also write the comparison to `FILE` as JSON (atomically; - for standard output)")
	onceBool(fs, &d.summary, "summary", "", "print a summary (verdicts per mnemonic, the root causes with the largest cascades) instead of every root cause")
	onceBool(fs, &d.noFail, "no-fail", "", "exit 0 even when the builds diverge")
	onceString(fs, &d.logFormat, "log-format", "", "read both logs as `FORMAT` (json, binary, compact) instead of recognising it")
	onceString(fs, &o.aqueryFile, "aquery-file", "", "put the findings of the saved aquery dump `FILE` beside each divergent action")
	onceString(fs, &o.aqueryFormat, "aquery-format", "", "with --aquery-file, read it as `FORMAT` (proto, streamed_proto, jsonproto)")
	onceString(fs, &o.workspace, "workspace", "", "with --aquery-file, the workspace `DIR` the dump was taken in, for reading the scripts, tools and sources its actions run")
	onceString(fs, &d.report, "report", "", "put the findings of the saved Ahab JSON report `FILE` beside each divergent action (matched by target and mnemonic, so only for logs that name targets: Bazel 7 and later)")
	fs.StringArrayVar(&o.reproSpecs, "repro-specs", nil, "read reproducibility specs from `FILE` for the static analysis (repeatable)")
	onceString(fs, &o.compat, "compat", "", "judge the static causes as Ahab `VERSION` did (only 0.2)")
	o.addBazelFlags(fs, "the aquery of LABEL (give the builds' own)")
	onceString(fs, &o.outputBase, "output-base", "", "with LABEL, use this Bazel output base `DIR` for the aquery")
	// Read by takeOutputs; here for the help.
	fs.String("outputs", "", "say what differs inside each root cause's outputs, read from the two builds' outputs `OLD_DIR NEW_DIR` (output bases, execution roots, bazel-out or bazel-bin trees)")
	onceString(fs, &d.diffoscope, "diffoscope", "", "with --outputs, also write diffoscope's HTML report on each pair of outputs into `DIR`")
	onceBool(fs, &d.help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return nil, fs, flagError(err)
	}
	if d.help {
		return d, fs, nil
	}
	if fs.NArg() < 2 {
		return nil, fs, usageError{"ahab diff needs two execution logs, OLD and NEW"}
	}
	if d.diffoscope != "" && d.outputs == [2]string{} {
		return nil, fs, usageError{"--diffoscope compares the builds' outputs: give them with --outputs OLD_DIR NEW_DIR"}
	}
	d.oldLog, d.newLog, o.labels = fs.Arg(0), fs.Arg(1), fs.Args()[2:]
	if err := checkLabels(o.labels); err != nil {
		return nil, fs, err
	}
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
	if o.workspace != "" && o.aqueryFile == "" {
		return nil, fs, usageError{"--workspace goes with --aquery-file: with a LABEL, Bazel says where the workspace is"}
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
		fmt.Fprint(sys.Stdout, helpText(diffUsage, fs))
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
	var trees [2]outdiff.Tree
	var builds [2]outdiff.Build
	if d.outputs != [2]string{} {
		for i, dir := range d.outputs {
			trees[i] = outdiff.Tree{Dir: res.path(dir)}
			if st, err := os.Stat(trees[i].Dir); err != nil || !st.IsDir() {
				return fmt.Errorf("--outputs %s: not a directory, expected the outputs of build %d (an output base, execution root, bazel-out or bazel-bin)", quoteArg(dir), i+1)
			}
			b, err := trees[i].Describe()
			if err != nil {
				return err
			}
			builds[i] = b
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
			warn(sys, "the logs name no targets (Bazel before 7 writes none), so the findings of --report %s cannot be matched to their actions; give --aquery-file or a LABEL instead", quoteArg(d.report))
		}
		r.AttachCauses(source, static)
	}
	if d.outputs != [2]string{} {
		r.Diagnose(trees[0], trees[1], outdiff.New(builds[0], builds[1], outdiff.Options{}))
		if d.diffoscope != "" {
			if err := runDiffoscope(context.Background(), sys, r, res.path(d.diffoscope)); err != nil {
				return err
			}
		}
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
			if err := writeStdout(sys, write); err != nil {
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
		return exitError{ExitFindings}
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
	prog := newProgress(sys, "ahab diff")
	defer prog.clear()
	logs := [2]*spawndiff.Log{}
	errs := [2]error{}
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() {
			l := spawndiff.NewLog(paths[i])
			opts := execlog.Options{Format: format}
			opts.Progress = func(n int64) {
				read[i].Store(n)
				prog.logs(&read[0], &read[1], total)
			}
			// The name goes into the reader's messages, escaped once here.
			_, errs[i] = execlog.Summarize(bufio.NewReaderSize(files[i], 1<<20), quote.IfNeeded(paths[i]), opts, l.Tables(), l.Add)
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
	o.byAction, o.wholeBuild = true, true
	a, err := analyzeGraph(context.Background(), o, sys, res, lib)
	if err != nil {
		return nil, "", err
	}
	if a.failed != nil {
		return nil, "", a.failed
	}
	source := o.aqueryFile
	if source == "" {
		source = "bazel aquery " + quote.IfNeeded(o.query())
	}
	return analyze.NewIndex(a.ByAction), source, nil
}
