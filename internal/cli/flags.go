package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/spf13/pflag"
)

// options is the parsed command line of an analysis (§1.1).
type options struct {
	args            []string // as given, for the command that refreshes a baseline
	labels          []string // the positional labels
	defaultLabel    string   // analysed when no label is given (the macros')
	allowEmpty      bool
	configs         []string
	compilationMode string
	outputBase      string
	workspace       string
	verbose         bool
	shutUp          bool
	noFail          bool
	writeJSON       string
	explainJSON     string
	expectJSON      string
	reproSpecs      []string
	exceptions      []string
	aqueryFile      string
	aqueryFormat    string
	aqueryOutput    string
	bazel           string
	bazelFlags      []string
	compat          string
	mode            mode.Mode // from compat
	help            bool
	version         bool
	presentation    // --sarif, --summary, --hints (sarif.go)
	// byAction keeps every action's findings (analyze.Options.ByAction),
	// for `ahab diff`.
	byAction bool
	// wholeBuild asks aquery for every action the build of the labels
	// runs, deps(LABEL), not only the labels' own: what judges each spawn
	// of a build (diff, reprotest, trace).
	wholeBuild bool
	// session is the Bazel the analysis ran, once it has; nil otherwise.
	session *bazelSession
	// progress, when not nil, is the command's, which the analysis shows
	// its own on; nil gives it one of its own.
	progress *progress
}

// once is a flag value that may be given one value, as the original's
// command line insisted; pflag would silently keep the last one. The same
// value again is accepted: a macro's launcher and the arguments after
// `bazel run //:target --` may both say --shut-up, and neither is wrong.
type once struct {
	name string
	set  bool
	str  *string
	bl   *bool
}

func (o *once) String() string {
	switch {
	case o.str != nil:
		return *o.str
	case o.bl != nil:
		return strconv.FormatBool(*o.bl)
	}
	return ""
}

func (o *once) Set(v string) error {
	if o.bl != nil {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return err
		}
		v = strconv.FormatBool(b)
	}
	if o.set {
		if v == o.String() {
			return nil
		}
		return fmt.Errorf("already given as %s; give a flag once, or again with the same value", quoteArg(o.String()))
	}
	o.set = true
	if o.bl != nil {
		*o.bl = v == "true"
		return nil
	}
	*o.str = v
	return nil
}

func (o *once) Type() string {
	if o.bl != nil {
		return "bool"
	}
	return "string"
}

func onceString(fs *pflag.FlagSet, p *string, name, short, usage string) {
	fs.VarP(&once{name: name, str: p}, name, short, usage)
	fs.Lookup(name).DefValue = ""
}

func onceBool(fs *pflag.FlagSet, p *bool, name, short, usage string) {
	fs.VarP(&once{name: name, bl: p}, name, short, usage)
	f := fs.Lookup(name)
	f.NoOptDefVal = "true"
	f.DefValue = "false"
}

func analysisFlags(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("ahab", pflag.ContinueOnError)
	fs.SortFlags = false
	o.addBazelFlags(fs, "aquery")
	onceBool(fs, &o.noFail, "no-fail", "", "print the report but exit 0 even when something was found")
	onceString(fs, &o.writeJSON, "write-json", "", "also write the findings to `FILE` as a JSON report (atomically)")
	onceString(fs, &o.expectJSON, "expect-json", "", "compare the findings with the report in `FILE`: silent and 0 on a match, a diff and 1 otherwise")
	onceString(fs, &o.explainJSON, "explain-json", "", "print the report saved in `FILE`; runs no Bazel and needs no LABEL")
	o.presentation.addFlags(fs)
	fs.StringArrayVar(&o.reproSpecs, "repro-specs", nil, "read reproducibility specs from `FILE` (repeatable; later files win, all beat the built-ins)")
	fs.StringArrayVar(&o.exceptions, "exceptions-json", nil, "excuse findings with the exceptions in `FILE` (repeatable; files are unioned)")
	onceString(fs, &o.aqueryFile, "aquery-file", "", "read a saved aquery dump from `FILE` (- for stdin) instead of running Bazel: proto, streamed_proto or jsonproto, detected from the content")
	onceString(fs, &o.aqueryFormat, "aquery-format", "", "with --aquery-file, read it as `FORMAT` (proto, streamed_proto, jsonproto) instead of detecting it")
	onceString(fs, &o.aqueryOutput, "aquery-output", "", "ask Bazel for `FORMAT` (proto, or streamed_proto for Bazel 7 and later)")
	onceString(fs, &o.outputBase, "output-base", "", "use this Bazel output base `DIR` instead of asking bazel info (kept verbatim); with --aquery-file, where the dump's external repositories are, for reading the tools they hold")
	onceString(fs, &o.workspace, "workspace", "", "with --aquery-file, the workspace `DIR` the dump was taken in, for reading the scripts, tools and sources its actions run")
	onceString(fs, &o.compat, "compat", "", "judge exactly as Ahab `VERSION` did (only 0.2): the original's checks, verdicts and report, byte for byte")
	onceBool(fs, &o.allowEmpty, "allow-empty", "", "accept a graph without actions (by default that is an error: a clean report of nothing would pass silently)")
	onceString(fs, &o.defaultLabel, "default-label", "", "analyze `LABEL` when none is given on the command line (the macros pass theirs with it, so that `bazel run //:target -- //x/...` replaces it)")
	onceBool(fs, &o.shutUp, "shut-up", "", "leave out the Moby-Dick sign-off")
	onceBool(fs, &o.verbose, "verbose", "v", "print every action before checking it")
	onceBool(fs, &o.version, "version", "V", "print the version and exit")
	onceBool(fs, &o.help, "help", "h", "print this help and exit")
	return fs
}

// addBazelFlags adds the flags of every command that runs Bazel, which
// mean the same in each: --config, --compilation-mode and --bazel-flag go
// to what (the aquery; the builds and the aquery), --bazel names Bazel.
func (o *options) addBazelFlags(fs *pflag.FlagSet, what string) {
	fs.StringArrayVar(&o.configs, "config", nil, "pass `NAME` to "+what+" as --config=NAME (repeatable, in order)")
	onceString(fs, &o.compilationMode, "compilation-mode", "", "pass `MODE` to "+what+" as --compilation_mode=MODE (fastbuild, dbg, opt)")
	fs.StringArrayVar(&o.bazelFlags, "bazel-flag", nil, "pass `FLAG` to "+what+" verbatim (repeatable), e.g. --bazel-flag=--keep_going")
	onceString(fs, &o.bazel, "bazel", "", "the Bazel `PATH` to run (default \"bazel\", so bazelisk works)")
}

// bazelArgs are the options --config, --compilation-mode and
// --bazel-flag give a Bazel command, in the aquery's order: the configs,
// then the mode (so that it beats a config's), then the flags.
func (o *options) bazelArgs() []string {
	var args []string
	for _, c := range o.configs {
		args = append(args, "--config="+c)
	}
	if o.compilationMode != "" {
		args = append(args, "--compilation_mode="+o.compilationMode)
	}
	return append(args, o.bazelFlags...)
}

// parseAnalysis parses the command line of an analysis. A usage mistake is
// a usageError (exit 2).
func parseAnalysis(args []string) (*options, *pflag.FlagSet, error) {
	o := &options{args: args}
	fs := analysisFlags(o)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		return nil, fs, flagError(err)
	}
	if o.help || o.version {
		return o, fs, nil
	}
	if err := o.parseCompat(); err != nil {
		return nil, fs, err
	}
	if err := o.presentation.check(o.verbose, o.writeJSON); err != nil {
		return nil, fs, err
	}
	o.labels = fs.Args()
	if err := checkLabels(o.labels); err != nil {
		return nil, fs, err
	}
	if o.query() == "" && o.explainJSON == "" && o.aqueryFile == "" {
		return nil, fs, usageError{"a LABEL to analyze is required, unless --explain-json or --aquery-file is given"}
	}
	if len(o.labels) > 0 && (o.explainJSON != "" || o.aqueryFile != "") {
		return nil, fs, usageError{fmt.Sprintf("unexpected LABEL %s: --explain-json and --aquery-file analyze no label", quoteArg(o.labels[0]))}
	}
	if o.noFail && o.expectJSON != "" {
		return nil, fs, usageError{"--no-fail cannot be used with --expect-json: a mismatch must fail"}
	}
	if o.aqueryFormat != "" && o.aqueryFile == "" {
		return nil, fs, usageError{"--aquery-format needs --aquery-file"}
	}
	if o.aqueryFile != "" && (o.aqueryOutput != "" || o.bazel != "" || len(o.bazelFlags) > 0) {
		return nil, fs, usageError{"--aquery-file reads a saved dump, so --aquery-output, --bazel and --bazel-flag do not apply"}
	}
	if o.workspace != "" && o.aqueryFile == "" {
		return nil, fs, usageError{"--workspace goes with --aquery-file: when Ahab runs Bazel, Bazel says where the workspace is"}
	}
	return o, fs, nil
}

// checkLabels refuses a LABEL that is empty, or that holds a control
// character, which no label or query can: Bazel would only echo it back
// in its error, where it could forge a line of Ahab's.
func checkLabels(labels []string) error {
	for _, l := range labels {
		if strings.TrimSpace(l) == "" {
			return usageError{"an empty LABEL: give a label or query, e.g. //... or \"//... - //x/...\""}
		}
		if strings.ContainsFunc(l, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f || 0x80 <= r && r < 0xa0 }) || !utf8.ValidString(l) {
			return usageError{fmt.Sprintf("LABEL %s holds a control character, which no label or query can", quoteArg(l))}
		}
	}
	return nil
}

// query is what aquery is asked for: the labels given, as one union, as
// `bazel build` takes several; else the default label. With wholeBuild,
// the actions of their whole build: deps() of the labels as `bazel build`
// takes them (-//x excludes).
func (o *options) query() string {
	switch {
	case o.wholeBuild:
		return "deps(" + bazel.Query(o.labels) + ")"
	case len(o.labels) == 0:
		return o.defaultLabel
	}
	return strings.Join(o.labels, " + ")
}

// checkOutputBase accepts the output base of a workspace, or a new one
// for Bazel to create: an output base of Ahab's own keeps the sentinel
// USER from invalidating the one ordinary builds use.
func checkOutputBase(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("--output-base %s is not a directory, expected the output base of a Bazel workspace (bazel info output_base) or a new one", quoteArg(dir))
	}
	if parent, err := os.Stat(filepath.Dir(dir)); err != nil || !parent.IsDir() {
		return fmt.Errorf("--output-base %s: neither it nor its parent directory exists, expected the output base of a Bazel workspace (bazel info output_base) or a new one in an existing directory", quoteArg(dir))
	}
	return nil
}

// compilationModes are the values of Bazel's --compilation_mode.
var compilationModes = []string{"fastbuild", "dbg", "opt"}

// checkValues checks what the flags name before any work is done: a
// compilation mode Bazel knows, an output base that is a directory, a
// directory to write the report in, and a Bazel workspace to run in.
func (o *options) checkValues(res resolver) error {
	if o.compilationMode != "" && !slices.Contains(compilationModes, o.compilationMode) {
		return usageError{fmt.Sprintf("--compilation-mode %s, expected one of: %s", quoteArg(o.compilationMode), strings.Join(compilationModes, ", "))}
	}
	if o.outputBase != "" {
		if err := checkOutputBase(o.outputBase); err != nil {
			return err
		}
	}
	for flag, path := range map[string]string{"--write-json": o.writeJSON, "--sarif": o.sarif} {
		if path != "" || slices.Contains(o.args, flag+"=") || slices.Contains(o.args, flag) {
			if err := checkOutputDir(flag, res.path(path)); err != nil {
				return err
			}
		}
	}
	return nil
}

// quoteArg shows a value from the command line in a message.
func quoteArg(s string) string { return quote.Value(s) }

// flagError is the usage error for what pflag refused, with the flag or
// value the user typed quoted as every message quotes (pflag's own words
// quote with Go's %q, or not at all).
func flagError(err error) usageError {
	if e, ok := errors.AsType[*pflag.NotExistError](err); ok && e.GetSpecifiedShortnames() == "" {
		return usageError{"unknown flag: " + quote.IfNeeded("--"+e.GetSpecifiedName())}
	}
	if e, ok := errors.AsType[*pflag.InvalidValueError](err); ok {
		return usageError{fmt.Sprintf("invalid argument %s for \"--%s\" flag: %v", quoteArg(e.GetValue()), e.GetFlag().Name, e.Unwrap())}
	}
	if e, ok := errors.AsType[*pflag.InvalidSyntaxError](err); ok {
		return usageError{"bad flag syntax: " + quote.IfNeeded(e.GetSpecifiedFlag())}
	}
	return usageError{err.Error()}
}

// parseCompat sets the mode from --compat.
func (o *options) parseCompat() error {
	if o.compat == "" {
		return nil
	}
	m, err := mode.Parse(o.compat)
	if err != nil {
		return usageError{"--compat: " + err.Error()}
	}
	o.mode = m
	return nil
}

const usageHead = `ahab: advanced hermeticity analyzer for Bazel

Usage:
  ahab [flags] LABEL                  analyze what bazel aquery says LABEL would run
  ahab [flags] --aquery-file FILE     analyze a saved aquery dump instead
  ahab --explain-json FILE            print a saved report
  ahab program [--repro-specs FILE]... -- ARGV...
                                      show how a command line is judged
  ahab merge [flags] REPORT.json...   add up reports of slices of one build
  ahab trace [flags] LABEL            build LABEL under strace and report what
                                      each action reads without declaring it
  ahab kinds                          list the kinds of finding
  ahab diff [flags] OLD NEW [LABEL]   compare the execution logs of two builds
  ahab reprotest [flags] LABEL        build LABEL twice, varied, and compare
  ahab aquery-command LABEL           print the aquery command ahab runs

Each LABEL is a pattern or a query, e.g. //... or "//... - //x/..."; several
are analysed as their union. Every subcommand has --help.

Flags:
`

func usage(fs *pflag.FlagSet) string {
	return helpText(usageHead, fs)
}

// helpText is a command's --help: its head, its flags and the exit
// statuses, which are the same in every command.
func helpText(head string, fs *pflag.FlagSet) string {
	return head + fs.FlagUsagesWrapped(76) + "\n" + exitStatusHelp
}
