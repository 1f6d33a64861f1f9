package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/spf13/pflag"
)

// options is the parsed command line of an analysis (§1.1).
type options struct {
	label           string
	configs         []string
	compilationMode string
	outputBase      string
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
	// session is the Bazel the analysis ran, once it has; nil otherwise.
	session *bazelSession
}

// once is a flag value that may be given at most once, as the original's
// command line insisted; pflag would silently keep the last one.
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
	if o.set {
		return fmt.Errorf("cannot be used multiple times")
	}
	o.set = true
	if o.bl != nil {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return err
		}
		*o.bl = b
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
	fs.StringArrayVar(&o.configs, "config", nil, "pass `NAME` to aquery as --config=NAME (repeatable, in order)")
	onceString(fs, &o.compilationMode, "compilation-mode", "", "pass `MODE` to aquery as --compilation_mode=MODE (fastbuild, dbg, opt)")
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
	onceString(fs, &o.bazel, "bazel", "", "the Bazel `PATH` to run (default \"bazel\", so bazelisk works)")
	fs.StringArrayVar(&o.bazelFlags, "bazel-flag", nil, "pass `FLAG` to bazel aquery verbatim (repeatable), e.g. --bazel-flag=--keep_going")
	onceString(fs, &o.outputBase, "output-base", "", "use this Bazel output base `DIR` instead of asking bazel info (kept verbatim)")
	onceString(fs, &o.compat, "compat", "", "judge exactly as Ahab `VERSION` did (only 0.2): the original's checks, verdicts and report, byte for byte")
	onceBool(fs, &o.shutUp, "shut-up", "", "leave out the Moby-Dick sign-off")
	onceBool(fs, &o.verbose, "verbose", "v", "print every action before checking it")
	onceBool(fs, &o.version, "version", "V", "print the version and exit")
	onceBool(fs, &o.help, "help", "h", "print this help and exit")
	return fs
}

// parseAnalysis parses the command line of an analysis. A usage mistake is
// a usageError (exit 2).
func parseAnalysis(args []string) (*options, *pflag.FlagSet, error) {
	o := &options{}
	fs := analysisFlags(o)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		return nil, fs, usageError{err.Error()}
	}
	if o.help || o.version {
		return o, fs, nil
	}
	if err := o.parseCompat(); err != nil {
		return nil, fs, err
	}
	if err := o.presentation.check(o.verbose); err != nil {
		return nil, fs, err
	}
	pos := fs.Args()
	switch {
	case len(pos) > 1:
		return nil, fs, usageError{fmt.Sprintf("unexpected argument %q: give one LABEL (quote a query like \"//... - //x/...\" as one argument)", pos[1])}
	case len(pos) == 1:
		o.label = pos[0]
	}
	if o.label == "" && o.explainJSON == "" && o.aqueryFile == "" {
		return nil, fs, usageError{"a LABEL to analyze is required, unless --explain-json or --aquery-file is given"}
	}
	if o.noFail && o.expectJSON != "" {
		return nil, fs, usageError{"--no-fail cannot be used with --expect-json: a mismatch must fail"}
	}
	if o.aqueryFormat != "" && o.aqueryFile == "" {
		return nil, fs, usageError{"--aquery-format needs --aquery-file"}
	}
	if o.aqueryFile != "" && (o.outputBase != "" || o.aqueryOutput != "" || o.bazel != "" || len(o.bazelFlags) > 0) {
		return nil, fs, usageError{"--aquery-file reads a saved dump, so --output-base, --aquery-output, --bazel and --bazel-flag do not apply"}
	}
	return o, fs, nil
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
  ahab kinds                          list the kinds of finding

LABEL is passed to bazel aquery as one argument, e.g. //... or "//... - //x/...".

Flags:
`

const usageTail = `
Exit status:
  0  nothing found (or --no-fail, or --expect-json matched)
  1  something found, --expect-json differed, or an error
  2  the command line is wrong
`

func usage(fs *pflag.FlagSet) string {
	var b strings.Builder
	b.WriteString(usageHead)
	b.WriteString(fs.FlagUsagesWrapped(76))
	b.WriteString(usageTail)
	return b.String()
}
