// Package cli is the ahab command: it parses the command line, resolves
// the user's paths, validates spec and exception files before Bazel runs,
// picks the mode in one switch and turns errors into exit codes in one
// place. Everything else lives in the packages it wires together.
package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/exception"
	"github.com/ahab-go/ahab/internal/execroot"
	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/savedreport"
	"github.com/ahab-go/ahab/internal/spec"
)

// Main runs ahab with args (without the program name) and returns the exit
// status.
func Main(args []string, sys System) int {
	if len(args) > 0 {
		run, ok := map[string]func([]string, System) error{
			"program":        runProgram,
			"merge":          runMerge,
			"kinds":          runKinds,
			"diff":           runDiff,
			"reprotest":      runReprotest,
			"trace":          runTrace,
			"aquery-command": runAqueryCommand,
		}[args[0]]
		if ok {
			return finish(sys, command{Name: "ahab " + args[0], Failure: ExitFailure}, run(args[1:], sys))
		}
	}
	main := command{Name: "ahab", Failure: ExitFailure}
	o, fs, err := parseAnalysis(args)
	if err != nil {
		return finish(sys, main, err)
	}
	switch {
	case o.help:
		io.WriteString(sys.Stdout, usage(fs))
		return ExitOK
	case o.version:
		fmt.Fprintf(sys.Stdout, "ahab %s\n", Version())
		return ExitOK
	}
	main.Failure = failureStatus(o.mode)
	return finish(sys, main, run(o, sys))
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
	out := newStreams(sys, o)
	if o.explainJSON != "" {
		rep, err := savedreport.ReadFile(res.path(o.explainJSON))
		if err != nil {
			return err
		}
		// The report is shown as of the judgement it was made with.
		o.mode = rep.Mode
		ordered := rep.Findings.Ordered()
		if o.sarif != "" {
			if err := writeSARIF(sys, o, res, ordered, rep.Mode, ""); err != nil {
				return err
			}
		}
		return out.present(o, ordered, exception.Summary{}, scope{}, nil)
	}

	// Everything the user wrote is read and validated before Bazel runs:
	// a bad file or flag costs milliseconds, not an analysis.
	if err := o.checkValues(res); err != nil {
		return err
	}
	lib, err := loadLibrary(res.paths(o.reproSpecs), o.mode)
	if err != nil {
		return err
	}
	wanted, err := loadOutputs(o, res)
	if err != nil {
		return err
	}
	a, err := analyzeGraph(context.Background(), o, sys, res, lib)
	if err != nil {
		return err
	}
	if a.Actions == 0 && !o.allowEmpty {
		return fmt.Errorf("nothing was analysed: %s holds no action, so a clean report would say nothing; check the query, or pass --allow-empty if an empty graph is expected", a.source)
	}
	// On a terminal or not, since CI is where a dump saved without the
	// sentinels goes unnoticed; but not when --expect-json matched, which
	// promises silence. Either way it costs no sort of its own: the
	// findings are sorted for the report, for the exceptions or for the
	// mismatch anyway, and Set.Ordered sorts once.
	warnNoSentinel := func() {
		if a.Actions > 0 && o.aqueryFile != "" && !a.sentinelSeen(a.Findings) {
			warn(sys, "no USER or HOSTNAME sentinel appears in %s: either nothing leaked, or the dump was not taken with the sentinels and environment leaks cannot show; `ahab aquery-command LABEL` prints the command that takes a dump as Ahab does", a.source)
		}
	}
	if wanted.expected == nil {
		warnNoSentinel()
	}
	err = wanted.deliver(sys, o, res, out, a.Findings, scope{known: true, actions: a.Actions, targets: a.Targets})
	if wanted.expected != nil && err != nil {
		warnNoSentinel()
	}
	if a.failed != nil {
		// --keep_going: what analysed is reported; what did not fails
		// the run, as Bazel failed.
		fmt.Fprintf(sys.Stderr, "\n%s\n", quote.Lines(a.failed.Error()))
		if err == nil || errors.Is(err, exitError{ExitFindings}) {
			err = exitError{failureStatus(o.mode)}
		}
	}
	return err
}

// scope is how much an analysis looked at, which every report states so
// that a clean report of nothing is never mistaken for a clean build.
type scope struct {
	known            bool // false for a saved report, which does not say
	actions, targets int
}

// outputs is what the user asked to be done with the findings, with the
// files it needs already read, so that a bad one fails before any work.
type outputs struct {
	exceptions []exception.Exception
	expected   *finding.Set // nil without --expect-json
}

func loadOutputs(o *options, res resolver) (*outputs, error) {
	out := &outputs{}
	for _, p := range o.exceptions {
		more, err := loadExceptions(res, p, o.mode)
		if err != nil {
			return nil, err
		}
		out.exceptions = append(out.exceptions, more...)
	}
	if o.expectJSON != "" {
		path := res.path(o.expectJSON)
		rep, err := savedreport.ReadFile(path)
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
func (wanted *outputs) deliver(sys System, o *options, res resolver, out streams, found *finding.Set, sc scope) error {
	kept, summary, unused := exception.Filter(found, wanted.exceptions)
	if len(unused) > 0 {
		fmt.Fprintf(sys.Stderr, "\n%s\n", quote.Lines(exception.StaleWarning(unused)))
	}
	// Sorted once, and only when something is written: a bare
	// --expect-json compares sets.
	ordered := sync.OnceValue(kept.Ordered)
	if o.writeJSON != "" {
		// §1.3: the JSON report is in place before anything is reported.
		if err := writeJSONReport(out, res.path(o.writeJSON), ordered(), o.mode); err != nil {
			return err
		}
	}
	if o.sarif != "" {
		if err := writeSARIF(sys, o, res, ordered(), o.mode, summary.Note()); err != nil {
			return err
		}
	}
	if wanted.expected != nil {
		if kept.Equal(wanted.expected) {
			return nil
		}
		fmt.Fprintf(sys.Stderr, "\n%s", expectationMismatch(sys, o, wanted.expected, kept, out.color(sys.Stderr)))
		return exitError{ExitFindings}
	}
	return out.present(o, ordered(), summary, sc, wanted.exceptions)
}

// expectationMismatch says how the findings differ from the baseline: a
// header a person reads first, counting what is new, gone or differently
// often found, each as the report's sentence; then the diff of the two
// reports; then the command that records the new baseline.
func expectationMismatch(sys System, o *options, expected, found *finding.Set, color bool) string {
	var b strings.Builder
	added, removed, changed := report.Changes(expected.Ordered(), found.Ordered())
	fmt.Fprintf(&b, "the findings differ from %s: %d new, %d gone, %d found a different number of times\n", quote.IfNeeded(o.expectJSON), len(added), len(removed), len(changed))
	p := report.Palette{Color: color}
	for _, group := range []struct {
		mark string
		list []finding.Counted
	}{{"new", added}, {"gone", removed}} {
		for _, c := range group.list {
			fmt.Fprintf(&b, "  %s: %s\n", group.mark, report.Sentence(&c.Finding, p))
		}
	}
	for _, c := range changed {
		fmt.Fprintf(&b, "  now ×%d: %s\n", c.Count, report.Sentence(&c.Finding, p))
	}
	b.WriteString("\n")
	b.WriteString(report.Diff(expected.Ordered(), found.Ordered(), o.mode, color))
	b.WriteString("\nIf the new findings are what you expect, record them as the baseline:\n  ")
	b.WriteString(refreshCommand(sys, o))
	b.WriteString("\n")
	return b.String()
}

// refreshCommand is how the user records a new baseline: the macro's
// update target under `bazel run`, else this command line with
// --write-json in place of --expect-json.
func refreshCommand(sys System, o *options) string {
	if _, underBazel := sys.LookupEnv("BUILD_WORKSPACE_DIRECTORY"); underBazel {
		return "bazel run the ahab_update target of the same baseline (e.g. bazel run //:hermeticity.update)"
	}
	words := []string{"ahab"}
	for _, a := range o.args {
		switch {
		case a == "--expect-json":
			words = append(words, "--no-fail", "--write-json")
		case strings.HasPrefix(a, "--expect-json="):
			words = append(words, "--no-fail", "--write-json="+strings.TrimPrefix(a, "--expect-json="))
		default:
			words = append(words, a)
		}
	}
	return shellJoin(words)
}

// shellJoin quotes words for a POSIX shell where they need it. A word
// with a character that would not show as itself is written in bash's
// $'…' form with the bytes of such characters as \xHH, so that the
// command, printed for the user to copy, cannot drive the terminal.
func shellJoin(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:@+,%") == "":
			quoted[i] = w
		case quote.Visible(w) == w:
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		default:
			quoted[i] = ansiC(w)
		}
	}
	return strings.Join(quoted, " ")
}

// ansiC is w in bash's $'…' quoting.
func ansiC(w string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case quote.Visible(w[i:i+size]) == w[i:i+size]:
			b.WriteString(w[i : i+size])
		default:
			for _, c := range []byte(w[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// loadExceptions reads an exception file, or a ready-made set named
// ahab:NAME, which is no path to resolve.
func loadExceptions(res resolver, path string, m mode.Mode) ([]exception.Exception, error) {
	if name, ok := strings.CutPrefix(path, exception.SetPrefix); ok {
		return exception.LoadSet(name, m)
	}
	return exception.LoadFile(res.path(path), m)
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

// analysis is what analyzing a graph found and how much it looked at.
type analysis struct {
	analyze.Result
	source string // the dump's name, for messages, escaped (quote.IfNeeded)
	// failed is Bazel's account of the targets it could not analyse when
	// --keep_going still gave a graph of the rest; nil otherwise.
	failed error
}

// sentinelSeen says whether a USER or HOSTNAME sentinel reached the graph
// anywhere: every occurrence is an environment_leak finding. Report order
// puts those first, so only they are decoded; the sort is the report's.
func (a analysis) sentinelSeen(found *finding.Set) bool {
	o := found.Ordered()
	for i := range o.Len() {
		c := o.At(i)
		if c.Kind != finding.EnvironmentLeak {
			return false
		}
		if c.Source != finding.Inherited {
			return true
		}
	}
	return false
}

// analyzeGraph gets the graph, from a file or from Bazel, and checks it.
// Ending ctx stops Bazel.
func analyzeGraph(ctx context.Context, o *options, sys System, res resolver, lib *spec.Library) (analysis, error) {
	checks := check.All(lib)
	aopts := analyze.Options{ByAction: o.byAction}
	if o.verbose {
		aopts.Visit = func(i int, a *aquery.Action) { printAction(sys.Stdout, i, a) }
	}
	prog := o.progress
	if prog == nil {
		prog = newProgress(sys, "ahab")
		defer prog.clear()
	}
	aopts.Progress = prog.update

	if o.aqueryFile != "" {
		if o.aqueryFormat != "" {
			f, err := aquery.ParseFormat(o.aqueryFormat)
			if err != nil {
				return analysis{}, usageError{fmt.Sprintf("--aquery-format: %v", err)}
			}
			aopts.Format = f
		}
		if o.mode != mode.Ahab02 && (o.workspace != "" || o.outputBase != "") {
			aopts.Tree = &execroot.Tree{OutputBase: res.path(o.outputBase)}
			if o.workspace != "" {
				aopts.Tree.Workspace = res.path(o.workspace)
			}
		}
		return analyzeFile(res.path(o.aqueryFile), sys, checks, aopts)
	}

	runner := o.runner(sys, prog)
	if err := inWorkspace(runner.Dir); err != nil {
		return analysis{}, err
	}
	req, err := aqueryRequest(ctx, o, runner, prog)
	if err != nil {
		return analysis{}, err
	}
	o.session = &bazelSession{runner: runner, req: req}
	if o.aqueryOutput != "" {
		f, err := aquery.ParseFormat(o.aqueryOutput)
		if err != nil || f == aquery.JSONProto {
			return analysis{}, usageError{fmt.Sprintf("--aquery-output must be proto or streamed_proto, not %s", quoteArg(o.aqueryOutput))}
		}
		aopts.Format = f
	} else {
		aopts.Format = aquery.Proto
	}
	if o.mode != mode.Ahab02 {
		// What the configurations give the actions beyond what aquery
		// shows (inherited variables, the environment of C++ and test
		// actions), read from those the aquery used, in one Bazel call
		// once the graph is read.
		aopts.Configurer = &analyze.Configurer{Applies: bazel.OmitsEnvironment, Read: func(checksums map[uint32]string) map[uint32]analyze.Configuration {
			prog.phase("bazel config")
			configs, err := runner.Configurations(ctx, req, slices.Collect(maps.Values(checksums)))
			if err != nil {
				warn(sys, "could not read Bazel's configuration, so what the build's configuration gives its actions beyond what aquery shows (variables inherited with --action_env=NAME, the environment of C++ and test actions) is not reported: %s", oneLine(err.Error()))
				return nil
			}
			out := map[uint32]analyze.Configuration{}
			for id, sum := range checksums {
				if c, ok := configs[sum]; ok {
					out[id] = analyze.Configuration{Inherited: c.Inherited(), Env: c.Environment}
				}
			}
			return out
		}}
	}
	if o.mode != mode.Ahab02 {
		root, _ := bazel.WorkspaceRoot(runner.Dir)
		aopts.Tree = &execroot.Tree{Workspace: root, OutputBase: req.OutputBase}
	}
	prog.phase("bazel aquery")
	a := analysis{source: "the aquery output of " + quote.Quote(o.query())}
	err = runner.Aquery(ctx, req, func(stdout io.Reader) error {
		var err error
		a.Result, err = analyze.Dump(stdout, "stdout", checks, aopts)
		return err
	})
	if incomplete, ok := errors.AsType[*bazel.IncompleteError](err); ok {
		if a.Actions > 0 {
			// Bazel failed (--keep_going analysed what it could) but gave
			// a whole graph: report it, and fail for the rest.
			a.failed, err = incomplete, nil
		} else {
			err = incomplete.Exit // it printed nothing: only its error counts
		}
	}
	if err != nil {
		return analysis{}, err
	}
	return a, nil
}

// inWorkspace says so when Bazel would run outside any workspace, before
// a Bazel server starts only to say it.
func inWorkspace(dir string) error {
	if _, ok := bazel.WorkspaceRoot(dir); ok {
		return nil
	}
	where := dir
	if where == "" {
		where, _ = os.Getwd()
	}
	return fmt.Errorf("%s is not inside a Bazel workspace (no MODULE.bazel, WORKSPACE.bazel or WORKSPACE in it or above it): run ahab in your workspace, or analyze a saved dump with --aquery-file", quote.IfNeeded(where))
}

// runner is the Bazel the command runs, in the working directory of §1.2,
// telling prog what Bazel says it does.
func (o *options) runner(sys System, prog *progress) *bazel.Runner {
	return &bazel.Runner{
		Bazel:    cmp.Or(o.bazel, "bazel"),
		Dir:      bazel.WorkingDir(sys.LookupEnv),
		Env:      sys.Environ(),
		Progress: prog.onBazel,
	}
}

// aqueryRequest is the aquery of the command line, its output base asked of
// `bazel info` unless --output-base gives it. With an output base other
// than the one the workspace's convenience links lead into, the patterns
// of the whole workspace leave the links out (bazel.Scope).
func aqueryRequest(ctx context.Context, o *options, runner *bazel.Runner, prog *progress) (bazel.AqueryRequest, error) {
	outputBase := o.outputBase
	if outputBase == "" {
		prog.phase("bazel info")
		info := runner.OutputBaseOnly
		if o.mode == mode.Ahab02 {
			info = runner.OutputBase // §2 step 1's argv
		}
		ob, err := info(ctx)
		if err != nil {
			return bazel.AqueryRequest{}, err
		}
		outputBase = ob
	}
	label := o.query()
	if ws, ok := bazel.WorkspaceRoot(runner.Dir); ok {
		label = bazel.ScopeFor(ws, outputBase).Query(label)
	}
	return bazel.AqueryRequest{
		OutputBase:      outputBase,
		Configs:         o.configs,
		CompilationMode: o.compilationMode,
		Flags:           o.bazelFlags,
		Output:          o.aqueryOutput,
		Label:           label,
	}, nil
}

func analyzeFile(path string, sys System, checks []*check.Check, aopts analyze.Options) (analysis, error) {
	var r io.Reader = sys.Stdin
	name := "<stdin>"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return analysis{}, fileerr.Read("aquery dump", path, err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return analysis{}, fileerr.Read("aquery dump", path, errors.New("is a directory"))
		}
		// The name goes into every message about the dump: escaped once,
		// here, whatever the decoder does with it.
		r, name = f, quote.IfNeeded(path)
	}
	result, err := analyze.Dump(r, name, checks, aopts)
	if err != nil {
		return analysis{}, err
	}
	return analysis{Result: result, source: name}, nil
}

// oneLine keeps the first line of a message, for a warning that must stay
// one line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
