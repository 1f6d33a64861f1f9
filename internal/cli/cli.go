// Package cli is the ahab command: it parses the command line, resolves
// the user's paths, validates spec and exception files before Bazel runs,
// picks the mode in one switch and turns errors into exit codes in one
// place. Everything else lives in the packages it wires together.
package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/exception"
	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

// Main runs ahab with args (without the program name) and returns the exit
// status.
func Main(args []string, sys System) int {
	if len(args) > 0 {
		switch args[0] {
		case "program":
			return finish(sys, runProgram(args[1:], sys))
		case "merge":
			return finish(sys, runMerge(args[1:], sys))
		case "kinds":
			return finish(sys, runKinds(args[1:], sys))
		case "trace":
			return finish(sys, runTrace(args[1:], sys))
		}
	}
	o, fs, err := parseAnalysis(args)
	if err != nil {
		return finish(sys, err)
	}
	switch {
	case o.help:
		io.WriteString(sys.Stdout, usage(fs))
		return ExitOK
	case o.version:
		fmt.Fprintf(sys.Stdout, "ahab %s\n", Version())
		return ExitOK
	}
	return finish(sys, run(o, sys))
}

// finish turns the error of a run into an exit status, printing it unless
// the run already said everything it had to say.
func finish(sys System, err error) int {
	if err == nil {
		return ExitOK
	}
	var e exitError
	if errors.As(err, &e) {
		return e.code
	}
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(sys.Stderr, "error: %s\n\nRun 'ahab --help' for usage.\n", u.msg)
		return ExitUsage
	}
	fmt.Fprintf(sys.Stderr, "Error: %s\n", err)
	return ExitFindings
}

// resolver resolves the user's file paths (§1.2): a relative path is taken
// relative to BUILD_WORKING_DIRECTORY when that is set (even to ""), so
// that `bazel run` finds files where the user is.
type resolver struct {
	base  string
	isSet bool
}

func newResolver(sys System) resolver {
	base, ok := sys.LookupEnv("BUILD_WORKING_DIRECTORY")
	return resolver{base: base, isSet: ok}
}

func (r resolver) path(p string) string {
	if p == "" || p == "-" || strings.HasPrefix(p, "/") || !r.isSet {
		return p
	}
	return filepath.Join(r.base, p)
}

func (r resolver) paths(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = r.path(p)
	}
	return out
}

func run(o *options, sys System) error {
	defer tuneMemory(sys)()
	res := newResolver(sys)
	if o.explainJSON != "" {
		rep, err := report.ReadJSONFile(res.path(o.explainJSON))
		if err != nil {
			return err
		}
		ordered := rep.Findings.Ordered()
		if o.sarif != "" {
			if err := writeSARIF(sys, o, res, ordered, rep.Mode, ""); err != nil {
				return err
			}
		}
		return present(sys, o, ordered.Len(), exception.Summary{}, func(w io.Writer) error {
			return writeFindings(w, o, ordered, textOptions(sys, o, ""))
		})
	}

	// Everything the user wrote is read and validated before Bazel runs:
	// a bad file costs milliseconds, not an analysis.
	lib, err := loadLibrary(res.paths(o.reproSpecs), o.mode)
	if err != nil {
		return err
	}
	out, err := loadOutputs(o, res)
	if err != nil {
		return err
	}
	found, err := analyzeGraph(o, sys, res, lib)
	if err != nil {
		return err
	}
	return out.deliver(sys, o, res, found)
}

// outputs is what the user asked to be done with the findings, with the
// files it needs already read, so that a bad one fails before any work.
type outputs struct {
	exceptions []exception.Exception
	expected   *finding.Set // nil without --expect-json
}

func loadOutputs(o *options, res resolver) (*outputs, error) {
	out := &outputs{}
	for _, p := range res.paths(o.exceptions) {
		more, err := exception.LoadFile(p, o.mode)
		if err != nil {
			return nil, err
		}
		out.exceptions = append(out.exceptions, more...)
	}
	if o.expectJSON != "" {
		path := res.path(o.expectJSON)
		rep, err := report.ReadJSONFile(path)
		if err != nil {
			return nil, err
		}
		if rep.Mode != o.mode {
			return nil, modeMismatch(path, rep.Mode, o.mode)
		}
		out.expected = rep.Findings
	}
	return out, nil
}

// modeMismatch is the error for a baseline of another judgement than the
// run's: comparing them would show every difference between the two
// judgements as a change of the build.
func modeMismatch(path string, baseline, run mode.Mode) error {
	fix := "add --compat 0.2 (the compat attribute of the macros) to compare with it, or record a new baseline with Ahab's own judgement (--write-json, or bazel run the ahab_update target)"
	if baseline == mode.Default {
		fix = "drop --compat 0.2 to compare with it, or record a new baseline with --compat 0.2"
	}
	return fmt.Errorf("%s holds findings of %s, but this run uses %s: %s", quote.IfNeeded(path), baseline.Describe(), run.Describe(), fix)
}

// deliver applies the exceptions to what was found, warns about stale
// ones, writes the JSON report, then compares or reports (§1.3 steps 6–10).
func (out *outputs) deliver(sys System, o *options, res resolver, found *finding.Set) error {
	kept, summary, unused := exception.Filter(found, out.exceptions)
	if len(unused) > 0 {
		fmt.Fprintf(sys.Stderr, "\n%s\n", exception.StaleWarning(unused))
	}
	// Sorted once, and only when something is written: a bare
	// --expect-json compares sets.
	ordered := sync.OnceValue(kept.Ordered)
	if o.writeJSON != "" {
		// §1.3: the JSON report is in place before anything is reported.
		if err := writeJSONReport(res.path(o.writeJSON), ordered(), o.mode); err != nil {
			return err
		}
	}
	if o.sarif != "" {
		if err := writeSARIF(sys, o, res, ordered(), o.mode, summary.Note()); err != nil {
			return err
		}
	}
	if out.expected != nil {
		if kept.Equal(out.expected) {
			return nil
		}
		diff := report.Diff(out.expected.Ordered(), ordered(), o.mode, sys.color(sys.StderrIsTerminal))
		fmt.Fprintf(sys.Stderr, "\n%s", diff)
		return exitError{ExitFindings}
	}
	textOpts := textOptions(sys, o, summary.Note())
	return present(sys, o, ordered().Len(), summary, func(w io.Writer) error {
		return writeFindings(w, o, ordered(), textOpts)
	})
}

// writeJSONReport writes the JSON report of mode m to path atomically
// (§8.1).
func writeJSONReport(path string, findings report.Findings, m mode.Mode) error {
	return atomicfile.Write(path, "JSON report", func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := report.WriteJSON(bw, findings, m); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// loadLibrary is the built-in library of mode m with the user's files on
// top, in command-line order (§5.5).
func loadLibrary(paths []string, m mode.Mode) (*spec.Library, error) {
	lib, err := spec.LoadBuiltin(m)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if err := lib.LoadFile(p); err != nil {
			return nil, err
		}
	}
	return lib, nil
}

// analyzeGraph gets the graph, from a file or from Bazel, and checks it.
func analyzeGraph(o *options, sys System, res resolver, lib *spec.Library) (*finding.Set, error) {
	checks := check.All(lib)
	aopts := analyze.Options{}
	if o.verbose {
		aopts.Visit = func(i int, a *aquery.Action) { printAction(sys.Stdout, i, a) }
	}
	prog := newProgress(sys)
	if prog != nil {
		aopts.Progress = prog.update
		defer prog.clear()
	}

	if o.aqueryFile != "" {
		if o.aqueryFormat != "" {
			f, err := aquery.ParseFormat(o.aqueryFormat)
			if err != nil {
				return nil, usageError{fmt.Sprintf("--aquery-format: %v", err)}
			}
			aopts.Format = f
		}
		return analyzeFile(res.path(o.aqueryFile), sys, checks, aopts)
	}

	runner := &bazel.Runner{
		Bazel: o.bazel,
		Dir:   bazel.WorkingDir(sys.LookupEnv),
		Env:   sys.Environ(),
	}
	if runner.Bazel == "" {
		runner.Bazel = "bazel"
	}
	ctx := context.Background()
	outputBase := o.outputBase
	if outputBase == "" {
		if prog != nil {
			prog.phase("bazel info")
		}
		ob, err := runner.OutputBase(ctx)
		if err != nil {
			return nil, err
		}
		outputBase = ob
	}
	req := bazel.AqueryRequest{
		OutputBase:      outputBase,
		Configs:         o.configs,
		CompilationMode: o.compilationMode,
		Flags:           o.bazelFlags,
		Output:          o.aqueryOutput,
		Label:           o.label,
	}
	o.session = &bazelSession{runner: runner, req: req}
	if o.aqueryOutput != "" {
		f, err := aquery.ParseFormat(o.aqueryOutput)
		if err != nil || f == aquery.JSONProto {
			return nil, usageError{fmt.Sprintf("--aquery-output must be proto or streamed_proto, not %q", o.aqueryOutput)}
		}
		aopts.Format = f
	} else {
		aopts.Format = aquery.Proto
	}
	if o.mode != mode.Ahab02 {
		// What the build inherits from the environment never shows in
		// aquery; Bazel's configuration says it.
		if prog != nil {
			prog.phase("bazel config")
		}
		inherited, err := runner.InheritedActionEnv(ctx, req)
		if err != nil {
			fmt.Fprintf(sys.Stderr, "warning: could not read Bazel's configuration, so variables the build inherits from the environment (--action_env=NAME) are not reported: %s\n", oneLine(err.Error()))
		} else if len(inherited) > 0 {
			checks = check.All(lib, inherited...)
		}
	}
	if prog != nil {
		prog.phase("bazel aquery")
	}
	var result analyze.Result
	err := runner.Aquery(ctx, req, func(stdout io.Reader) error {
		var err error
		result, err = analyze.Dump(stdout, "stdout", checks, aopts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return result.Findings, nil
}

func analyzeFile(path string, sys System, checks []*check.Check, aopts analyze.Options) (*finding.Set, error) {
	var r io.Reader = sys.Stdin
	name := "<stdin>"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fileerr.Read("aquery dump", path, err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, fileerr.Read("aquery dump", path, errors.New("is a directory"))
		}
		r, name = f, path
	}
	result, err := analyze.Dump(r, name, checks, aopts)
	if err != nil {
		return nil, err
	}
	return result.Findings, nil
}

// textOptions says how the text report is printed on stderr.
func textOptions(sys System, o *options, note string) report.TextOptions {
	return report.TextOptions{
		Color:   sys.color(sys.StderrIsTerminal),
		Note:    note,
		SignOff: !o.shutUp && sys.StderrIsTerminal,
	}
}

// present prints a report the way §1.5 places it: findings on stderr
// (exit 1 unless --no-fail), a clean bill on stdout. text writes the text
// report of the findings.
func present(sys System, o *options, findings int, summary exception.Summary, text func(io.Writer) error) error {
	if findings == 0 {
		w, terminal := cleanBillStream(sys, o)
		io.WriteString(w, report.AllPassed(summary.Note(), sys.color(terminal)))
		return nil
	}
	io.WriteString(sys.Stderr, "\n")
	text(sys.Stderr)
	io.WriteString(sys.Stderr, "\n")
	if o.noFail {
		return nil
	}
	return exitError{ExitFindings}
}

// oneLine keeps the first line of a message, for a warning that must stay
// one line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
