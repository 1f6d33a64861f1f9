package cli

import (
	"errors"
	"fmt"
	"math"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/savedreport"
)

const mergeUsage = `Usage: ahab merge [flags] REPORT.json...

Adds up JSON reports written with --write-json, so that a build too big for
one aquery can be analyzed as slices of its label space (one per CI job)
and judged as one. Counts of identical findings are summed; the result does
not depend on the order of the files. Exceptions apply to the sum: write the
slices with --no-fail and no exceptions, then merge with them. The reports
must be of one judgement (all with --compat 0.2, or none), which the sum,
its exceptions and --expect-json then share.

Flags:
`

// runMerge is `ahab merge`.
func runMerge(args []string, sys System) error {
	o := &options{}
	fs := pflag.NewFlagSet("ahab merge", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.Usage = func() {}
	onceString(fs, &o.writeJSON, "write-json", "", "write the sum to `FILE` (atomically)")
	onceString(fs, &o.expectJSON, "expect-json", "", "compare the sum with the report in `FILE`")
	fs.StringArrayVar(&o.exceptions, "exceptions-json", nil, "excuse findings of the sum with the exceptions in `FILE` (repeatable)")
	onceBool(fs, &o.noFail, "no-fail", "", "exit 0 even when the sum has findings")
	o.presentation.addFlags(fs)
	onceBool(fs, &o.shutUp, "shut-up", "", "leave out the Moby-Dick sign-off")
	onceBool(fs, &o.help, "help", "h", "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if o.help {
		fmt.Fprint(sys.Stdout, helpText(mergeUsage, fs))
		return nil
	}
	if fs.NArg() == 0 {
		return usageError{"ahab merge needs at least one REPORT.json"}
	}
	if o.noFail && o.expectJSON != "" {
		return usageError{"--no-fail cannot be used with --expect-json: a mismatch must fail"}
	}
	if err := o.presentation.check(false, o.writeJSON); err != nil {
		return err
	}
	res := newResolver(sys)
	sum := finding.NewSet()
	total := 0
	paths := res.paths(fs.Args())
	for i, p := range paths {
		rep, err := savedreport.ReadFile(p)
		if err != nil {
			return err
		}
		// The sum is of the reports' judgement, which must be one.
		if i == 0 {
			o.mode = rep.Mode
		} else if rep.Mode != o.mode {
			return fmt.Errorf("%s holds findings of %s, but %s holds findings of %s: merge reports of one judgement",
				quote.IfNeeded(p), rep.Mode.Describe(), quote.IfNeeded(paths[0]), o.mode.Describe())
		}
		// Each report's total fits (savedreport.Read checks it); the sum must
		// too, or the merged report would be one nobody can read.
		if n := rep.Findings.Occurrences(); n > math.MaxInt64-total {
			return fmt.Errorf("%s: its counts and those of the reports before it add up to more than %d", quote.IfNeeded(p), math.MaxInt64)
		} else {
			total += n
		}
		sum.Merge(rep.Findings)
	}
	wanted, err := loadOutputs(o, res)
	if err != nil {
		return err
	}
	return wanted.deliver(sys, o, res, newStreams(sys, o), sum, scope{})
}

var errKindsUsage = errors.New("usage: ahab kinds [KIND | --markdown]")

// runKinds is `ahab kinds [KIND]`: the kinds of finding, or one in full.
func runKinds(args []string, sys System) error {
	if len(args) == 1 && args[0] == "--markdown" {
		fmt.Fprint(sys.Stdout, report.KindsMarkdown())
		return nil
	}
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(sys.Stdout, "Usage: ahab kinds [KIND | --markdown]\n\nLists the kinds of finding, explains one, or prints docs/kinds.md.\n\n"+exitStatusHelp)
		return nil
	}
	switch len(args) {
	case 0:
		for _, k := range finding.Kinds() {
			fmt.Fprintf(sys.Stdout, "%-28s %s\n", k, k.Info().Title)
		}
		return nil
	case 1:
		k, ok := finding.KindByTag(args[0])
		if !ok {
			return usageError{fmt.Sprintf("unknown kind %s; run 'ahab kinds' to list them", quoteArg(args[0]))}
		}
		info := k.Info()
		fmt.Fprintf(sys.Stdout, "%s: %s\n\nReported as: %s\nWhy it matters: %s\nWhat to do: %s\nWhat it cannot see: %s\nAn exception: %s\n",
			k, info.Title, info.Class, info.Why, info.Remedy, info.BlindSpots, info.Excuse)
		fmt.Fprintf(sys.Stdout, "Exception fields: kind, mnemonic, target")
		for _, f := range info.Fields {
			fmt.Fprintf(sys.Stdout, ", %s", f)
		}
		fmt.Fprintln(sys.Stdout)
		return nil
	}
	return usageError{errKindsUsage.Error()}
}
