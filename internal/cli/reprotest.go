package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/outdiff"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/reprotest"
	"github.com/ahab-go/ahab/internal/spec"
)

const reprotestUsage = `Usage: ahab reprotest [flags] LABEL...

Builds LABEL twice and compares the builds as ahab diff does: every action
whose outputs differ, root causes first, with the static findings of the
same action beside each and what differs inside each of its outputs (a
path, a time, a user, an order...). Both builds run in fresh copies of the
workspace (without its bazel-* links), each with an output base, a Bazel
server and a TMPDIR of its own and no cache (--disk_cache=, no remote cache
reads or writes); the second copy is at another path, made later, and the
second build runs under another time zone, locale, umask, host name,
account, home and environment, with its files created in another order and
more jobs on more CPUs. Your workspace, output base and server are never
touched, and nothing is left behind (unless --keep): the copies and output
bases are removed and the servers shut down, also on Ctrl-C or SIGTERM. See
docs/diff.md.

Each LABEL is a target pattern (-//x excludes) or a query, whose targets
(bazel cquery) are built. The static analysis runs first, in a scratch
output base of its own, as ahab LABEL would, of deps(LABEL): every action
the builds run, their dependencies' and external repositories' included;
--no-static leaves it out.

Divergent builds exit 1, as findings do (0 with --no-fail); a build that
fails exits 3 and says which, with Bazel's last lines.

Flags:
`

// reprotestOptions is the parsed command line of `ahab reprotest`.
type reprotestOptions struct {
	analysis   options // labels, Bazel, --bazel-flag, specs, for the builds and the static analysis
	vary       string
	varyEnv    []string
	user       string
	keep       string
	diffoscope string
	keepLogs   string
	writeJSON  string
	summary    bool
	noFail     bool
	noStatic   bool
	help       bool
	variation  reprotest.Variations
}

func parseReprotest(args []string) (*reprotestOptions, *pflag.FlagSet, error) {
	r := &reprotestOptions{}
	o := &r.analysis
	fs := pflag.NewFlagSet("ahab reprotest", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	onceString(fs, &r.vary, "vary", "", "what the second build varies: `LIST` of path, time, tz, locale, umask, file_order, hostname, user, home, jobs, kernel, aslr, env, exec_path; \"default\" (all but kernel and exec_path), \"all\", \"none\", or the default and more or less with +name and -name (e.g. -user,+kernel)")
	fs.StringArrayVar(&r.varyEnv, "vary-env", nil, "with the env variation, set `NAME=VALUE` in the second build and unset it in the first (repeatable; default REPROTEST_CAPTURE_ENVIRONMENT=i_capture_the_environment)")
	onceString(fs, &r.user, "user", "", "with the user variation, run the second build as the account `NAME` (default ahab-reprotest, made for the run and removed after it)")
	o.addBazelFlags(fs, "both builds and the aquery")
	onceString(fs, &r.keepLogs, "keep-logs", "", "keep the two execution logs in `DIR` (old.binlog and new.binlog), to compare again with ahab diff")
	onceString(fs, &r.keep, "keep", "", "keep both builds' outputs and logs in `DIR` (old/ and new/, old.binlog and new.binlog), for ahab diff --outputs or diffoscope")
	onceString(fs, &r.diffoscope, "diffoscope", "", "also write diffoscope's HTML report on each root cause's outputs into `DIR`")
	onceString(fs, &r.writeJSON, "write-json", "", "also write the comparison to `FILE` as JSON (atomically; - for standard output)")
	onceBool(fs, &r.summary, "summary", "", "print a summary (verdicts per mnemonic, the root causes with the largest cascades) instead of every root cause")
	onceBool(fs, &r.noFail, "no-fail", "", "exit 0 even when the builds diverge")
	onceBool(fs, &r.noStatic, "no-static", "", "leave out the static analysis (the causes beside each divergent action)")
	fs.StringArrayVar(&o.reproSpecs, "repro-specs", nil, "read reproducibility specs from `FILE` for the static analysis (repeatable)")
	onceBool(fs, &r.help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return nil, fs, flagError(err)
	}
	if r.help {
		return r, fs, nil
	}
	o.labels = fs.Args()
	if len(o.labels) == 0 {
		return nil, fs, usageError{"ahab reprotest needs a LABEL to build"}
	}
	if err := checkLabels(o.labels); err != nil {
		return nil, fs, err
	}
	r.variation = reprotest.DefaultVariations()
	if r.vary != "" {
		v, err := reprotest.ParseVariations(r.vary)
		if err != nil {
			return nil, fs, usageError{"--vary: " + err.Error()}
		}
		r.variation = v
	}
	for _, kv := range r.varyEnv {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" || strings.ContainsAny(name, " \t\n") {
			return nil, fs, usageError{fmt.Sprintf("--vary-env %s: expected NAME=VALUE", quoteArg(kv))}
		}
	}
	if len(r.varyEnv) > 0 && !r.variation.Env {
		return nil, fs, usageError{"--vary-env sets variables of the env variation, which --vary leaves out"}
	}
	if r.user != "" && !r.variation.User {
		return nil, fs, usageError{"--user names the account of the user variation, which --vary leaves out"}
	}
	if r.keep != "" && r.keepLogs != "" {
		return nil, fs, usageError{"--keep keeps the logs with the outputs: give it alone, without --keep-logs"}
	}
	if r.noStatic && len(o.reproSpecs) > 0 {
		return nil, fs, usageError{"--repro-specs judges the static analysis, which --no-static leaves out"}
	}
	if r.writeJSON == "-" && r.summary {
		return nil, fs, usageError{"--write-json - and --summary both write to standard output; write the JSON to a file"}
	}
	return r, fs, nil
}

// runReprotest is `ahab reprotest`.
func runReprotest(args []string, sys System) error {
	r, fs, err := parseReprotest(args)
	if err != nil {
		return err
	}
	if r.help {
		fmt.Fprint(sys.Stdout, helpText(reprotestUsage, fs))
		return nil
	}
	res := newResolver(sys)
	o := &r.analysis
	if err := o.checkValues(res); err != nil {
		return err
	}
	if r.writeJSON != "" {
		if err := checkOutputDir("--write-json", res.path(r.writeJSON)); err != nil {
			return err
		}
	}
	lib, err := loadLibrary(res.paths(o.reproSpecs), o.mode)
	if err != nil {
		return err
	}
	dir := bazel.WorkingDir(sys.LookupEnv)
	workspace, ok := bazel.WorkspaceRoot(dir)
	if !ok {
		return inWorkspace(dir)
	}

	// From here on until everything is cleaned up, SIGINT and SIGTERM stop
	// what runs (bazel.WithSignals), so that a Ctrl-C during the static
	// analysis or the comparison still shuts the servers down and removes
	// the scratch directories.
	ctx, release := bazel.WithSignals(context.Background())
	defer release()
	prog := newProgress(sys, "ahab reprotest")
	defer prog.clear()
	o.progress = prog
	fmt.Fprintf(sys.Stderr, "ahab reprotest: building %s twice; the second build varies %s\n", quote.Display(bazel.Query(o.labels)), r.variation)

	// The static analysis first: it fails in seconds on a label Bazel
	// cannot analyse, before two builds have run; it also turns a query
	// into the targets to build.
	s, err := scratchAnalysis(ctx, o, sys, res, lib, !r.noStatic)
	if err != nil {
		return err
	}
	builds, err := reprotest.Run(ctx, reprotest.Options{
		Labels:        o.labels,
		Targets:       s.targets,
		Workspace:     workspace,
		Bazel:         o.bazel,
		Env:           sys.Environ(),
		BazelFlags:    o.bazelArgs(),
		Vary:          &r.variation,
		User:          r.user,
		VaryEnv:       r.varyEnv,
		KeepDir:       res.path(r.keepLogs),
		KeepOutputs:   res.path(r.keep),
		Progress:      phaseWriter{prog},
		BazelProgress: prog.onBazel,
	})
	if err != nil {
		var be *reprotest.BuildError
		if errors.As(err, &be) && be.Build == 2 && r.variation.User {
			note(sys, "build 2 ran as another account (the user variation); if the build needs files only yours can read, --vary=-user leaves it out")
		}
		return err
	}
	defer builds.Close()
	prog.clear()
	for _, reach := range builds.Reached {
		fmt.Fprintln(sys.Stderr, reach)
	}
	if err := bazel.Stopped(ctx); err != nil {
		return fmt.Errorf("reprotest was stopped: %w", err)
	}
	prog.phase("comparing the execution logs")
	diff, err := compareLogs(sys, builds.Old, builds.New, 0)
	if err != nil {
		return err
	}
	if err := bazel.Stopped(ctx); err != nil {
		return fmt.Errorf("reprotest was stopped: %w", err)
	}
	diff.Old, diff.New = "build 1", "build 2"
	if s.static != nil {
		diff.AttachCauses(s.source, s.static)
	}
	diff.Diagnose(outdiff.Tree{Dir: builds.Outputs[0]}, outdiff.Tree{Dir: builds.Outputs[1]},
		outdiff.New(builds.Described[0], builds.Described[1], outdiff.Options{}))
	if r.diffoscope != "" {
		if err := runDiffoscope(ctx, sys, diff, res.path(r.diffoscope)); err != nil {
			if stopped := bazel.Stopped(ctx); stopped != nil {
				return fmt.Errorf("reprotest was stopped: %w", stopped)
			}
			return err
		}
	}
	prog.clear()
	return presentDiff(sys, diff, r.writeJSON, r.summary, r.noFail, res)
}

// phaseWriter turns the lines of a progress io.Writer (reprotest's and
// trace's, one a phase) into progress phases.
type phaseWriter struct{ p *progress }

func (w phaseWriter) Write(b []byte) (int, error) {
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" {
			w.p.phase(line)
		}
	}
	return len(b), nil
}

// scratch is what a scratch output base told: the static analysis (with
// static) and a query's targets (nil for patterns).
type scratch struct {
	static  *analyze.Index
	source  string
	targets []string
}

// scratchAnalysis turns a query among o's labels into the targets to
// build (bazel cquery), and with static runs the static analysis of their
// whole build as `ahab LABEL` does (deps(LABEL)), both in an output base of
// its own under a scratch directory, never the user's, with the options
// of the builds. It leaves nothing behind: its server is shut down and the
// directory removed, also when ctx ends.
func scratchAnalysis(ctx context.Context, o *options, sys System, res resolver, lib *spec.Library, static bool) (scratch, error) {
	query := slices.ContainsFunc(o.labels, func(l string) bool { return !bazel.IsPattern(l) })
	if !query && !static {
		return scratch{}, nil
	}
	dir, err := os.MkdirTemp("", "ahab-reprotest-aquery-")
	if err != nil {
		return scratch{}, err
	}
	a := *o
	a.outputBase = filepath.Join(dir, "output_base")
	a.byAction, a.wholeBuild = true, true
	runner := a.runner(sys, o.progress)
	defer func() {
		runner.Shutdown(a.outputBase)
		bazel.RemoveAll(dir)
	}()
	var s scratch
	if query {
		o.progress.phase("bazel cquery")
		expr := bazel.Query(o.labels)
		if ws, ok := bazel.WorkspaceRoot(runner.Dir); ok {
			expr = bazel.ScopeFor(ws, a.outputBase).Query(expr)
		}
		targets, err := runner.Targets(ctx, bazel.TargetsRequest{OutputBase: a.outputBase, Configs: o.configs, CompilationMode: o.compilationMode, Flags: o.bazelFlags, Expr: expr})
		if err != nil {
			return scratch{}, err
		}
		if len(targets) == 0 {
			return scratch{}, fmt.Errorf("%s names no target to build", quote.IfNeeded(bazel.Query(o.labels)))
		}
		s.targets = targets
	}
	if !static {
		return s, nil
	}
	result, err := analyzeGraph(ctx, &a, sys, res, lib)
	if err != nil {
		return scratch{}, err
	}
	if result.failed != nil {
		return scratch{}, result.failed
	}
	s.static, s.source = analyze.NewIndex(result.ByAction), "bazel aquery "+quote.IfNeeded(a.query())
	return s, nil
}
