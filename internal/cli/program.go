package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

const programUsage = `Usage: ahab program [--compat 0.2] [--repro-specs FILE]... [--fact FACT]... -- ARGV...

Shows how Ahab judges one command line, as the reproducibility check would
see it in an action (after param-file expansion): the program's name in
label form, every library lookup with the entry that answered, the wrappers
unwrapped, the synonym whose spec answered, the spec itself, the options its
clauses see after folding and recognition, and the verdict with its reasons.
For a program described by what it does (its behaviour), it shows each
argument's role, and each effect: whether it applies, what neutralises it,
and what it writes. --fact adds a fact of the place the command runs in
(stdin:pipe, fixed:mtime, env:TZ=UTC; see docs/specs.md), as a script
would. Use it to write and debug a spec file without running Bazel.

Flags:
`

// runProgram is `ahab program`.
func runProgram(args []string, sys System) error {
	var specs, facts []string
	var help bool
	o := &options{}
	fs := pflag.NewFlagSet("ahab program", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	fs.Usage = func() {}
	fs.StringArrayVar(&specs, "repro-specs", nil, "also read reproducibility specs from `FILE` (repeatable)")
	fs.StringArrayVar(&facts, "fact", nil, "judge as if `FACT` held where the command runs (repeatable): stdin:pipe, fixed:mtime, env:NAME=VALUE…")
	onceString(fs, &o.compat, "compat", "", "judge as Ahab `VERSION` did (only 0.2)")
	fs.BoolVarP(&help, "help", "h", false, "print this help and exit")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if help {
		fmt.Fprint(sys.Stdout, helpText(programUsage, fs))
		return nil
	}
	if err := o.parseCompat(); err != nil {
		return err
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return usageError{"ahab program needs a command line after --"}
	}
	lib, err := loadLibrary(newResolver(sys).paths(specs), o.mode)
	if err != nil {
		return err
	}
	explainProgram(visibleLines{sys.Stdout}, lib, argv, facts)
	return nil
}

// visibleLines writes each line it is given with what would not show as
// itself escaped (quote.Visible), so that an argument on the command line
// or a name in a spec file cannot drive the terminal. explainProgram
// writes whole lines, so a write never splits an escape.
type visibleLines struct{ w io.Writer }

func (v visibleLines) Write(p []byte) (int, error) {
	lines := strings.Split(string(p), "\n")
	for i, l := range lines {
		lines[i] = quote.Visible(l)
	}
	if _, err := io.WriteString(v.w, strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}

// explainProgram writes the account of one command line, judged where
// facts hold.
func explainProgram(w io.Writer, lib *spec.Library, argv []string, facts []string) {
	p := program.Of(argv[0])
	fmt.Fprintf(w, "program:  %s\n", p)
	if p.String() != argv[0] {
		fmt.Fprintf(w, "          (argv[0] %s)\n", quote.Quote(argv[0]))
	}
	r := lib.Trace(p, argv[1:], func(st spec.Step) {
		if !st.Found {
			fmt.Fprintf(w, "lookup:   %s: no entry\n", st.Key)
			return
		}
		e := st.Entry
		carrier := ""
		if e.Program != st.Key {
			carrier = fmt.Sprintf(" via pattern %s", e.Program)
		}
		switch e.Kind {
		case spec.SpecEntry:
			fmt.Fprintf(w, "lookup:   %s: spec%s (%s)\n", st.Key, carrier, e.Origin)
		case spec.SameAsEntry:
			fmt.Fprintf(w, "lookup:   %s: same_as %s%s (%s)\n", st.Key, e.SameAs, carrier, e.Origin)
		case spec.WrapsEntry:
			how := "first_argument"
			if e.Wraps.Kind == spec.AfterSeparator {
				how = "after_separator " + quote.Quote(e.Wraps.Separator)
			}
			outcome := "unwraps the program it runs"
			if !st.Fired {
				outcome = "finds nothing to unwrap, so the wrapper itself is judged"
			}
			fmt.Fprintf(w, "lookup:   %s: wraps %s%s (%s): %s\n", st.Key, how, carrier, e.Origin, outcome)
		}
	})
	for i, wr := range r.Wrappers {
		fmt.Fprintf(w, "wrapper %d: %s\n", i+1, wr)
	}
	if len(r.Wrappers) > 0 {
		fmt.Fprintf(w, "runs:     %s\n", r.Program)
	}
	if syn, ok := r.Synonym(); ok {
		fmt.Fprintf(w, "synonym:  %s answers for it\n", syn)
	}

	verdict := func(kind finding.Kind, why string) {
		fmt.Fprintf(w, "verdict:  %s: %s\n", kind, why)
	}
	switch {
	case r.Program.Origin.Kind == program.System && lib.Mode() == mode.Ahab02:
		verdict(finding.SystemProgram, "it comes from outside the build, and no spec can vouch for the machine's own tools")
		return
	case r.Program.Origin.Kind == program.System:
		verdict(finding.SystemProgram, "it comes from outside the build")
		if r.Spec == nil {
			return
		}
		fmt.Fprintln(w, "and, judged by its name:")
	case r.Spec == nil:
		verdict(finding.UnknownProgram, "no spec answers for it; describe it in a --repro-specs file")
		return
	}
	if r.Spec.Behaviour != nil && lib.Mode() != mode.Ahab02 {
		explainBehaviour(w, r.Spec.Behaviour, r.Args, facts)
		return
	}
	describeSpec(w, r.Spec)
	if r.Spec.Reproducibility == spec.Sometimes {
		fmt.Fprintf(w, "options:  %s\n", strings.Join(quoteAll(r.Spec.Options(r.Args)), " "))
	}
	v := r.Spec.Assess(r.Args)
	switch v.Outcome {
	case spec.Reproducible:
		fmt.Fprintln(w, "verdict:  reproducible")
	case spec.NotReproducible:
		verdict(finding.NeverReproducible, "no set of options makes it reproducible")
	case spec.HostDerivedProgram:
		verdict(finding.HostDerivedProgram, "Bazel generated it by inspecting this machine")
	case spec.Conditional:
		fmt.Fprintf(w, "verdict:  %s, because\n", finding.ConditionalReproducibility)
		for _, u := range v.Unmet {
			fmt.Fprintf(w, "  - %s\n", report.Reason(finding.Unmet(u)))
		}
	}
}

// applyStatus says whether an effect (or what a program keeps) applies to
// facts, and what neutralised it, in words.
func applyStatus(e spec.Effect, facts []string) (applies bool, by, status string) {
	applies, by = e.Apply(facts)
	switch {
	case applies && by != "":
		return applies, by, "neutralised by " + by
	case applies:
		return applies, by, "applies"
	}
	return applies, by, "does not apply here"
}

// explainBehaviour writes how a program described by its behaviour reads
// its command line and what it writes.
func explainBehaviour(w io.Writer, b *spec.Behaviour, args, facts []string) {
	inv := b.Read(args, facts, nil)
	fmt.Fprintln(w, "spec:     a behaviour")
	for _, a := range inv.Args {
		role := a.Role.String()
		if a.Option != "" && !a.HasValue {
			role = "flag"
		}
		if a.Option != "" && !a.Known {
			role = "undeclared"
		}
		fmt.Fprintf(w, "  %s: %s\n", quoteAll([]string{a.String()})[0], role)
	}
	fmt.Fprintf(w, "  stdin: %s; stdout: %s\n", inv.Stdin, inv.Stdout)
	for _, e := range b.Effects {
		applies, by, status := applyStatus(e, inv.Facts)
		fmt.Fprintf(w, "  effect %s: %s: %s", e.Value, e.Because, status)
		if len(e.Unless) > 0 && (!applies || by == "") {
			fmt.Fprintf(w, " (neutralised by any of %s)", strings.Join(globTexts(e.Unless), " "))
		}
		fmt.Fprintln(w)
	}
	for _, f := range inv.Sets {
		fmt.Fprintf(w, "  establishes %s for the commands after it\n", f)
	}
	for _, k := range b.Keeps {
		_, _, status := applyStatus(k, inv.Facts)
		fmt.Fprintf(w, "  what it writes keeps %s of what it reads: %s: %s\n", k.Value, k.Because, status)
	}
	if len(inv.Effects) == 0 {
		fmt.Fprintln(w, "verdict:  reproducible: nothing it writes varies")
		return
	}
	fmt.Fprintf(w, "verdict:  %s, because\n", finding.VariationSource)
	for _, e := range inv.Effects {
		fmt.Fprintf(w, "  - it writes %s (%q): %s\n", e.Value.Noun(), e.Value.String(), e.Because)
	}
}

func describeSpec(w io.Writer, s *spec.Spec) {
	fmt.Fprintf(w, "spec:     reproducibility %s\n", s.Reproducibility)
	if s.Reproducibility != spec.Sometimes {
		return
	}
	clause := func(what string, c spec.Clause) {
		fmt.Fprintf(w, "  %s any of %s", what, strings.Join(globTexts(c.AnyOf), " "))
		if c.When != nil {
			fmt.Fprintf(w, " when %s", strings.Join(globTexts(c.When.Family), " "))
			if len(c.When.Off) > 0 {
				fmt.Fprintf(w, " (off: %s)", strings.Join(globTexts(c.When.Off), " "))
			}
			fmt.Fprint(w, " is on")
		}
		fmt.Fprintf(w, ": %s\n", c.Because)
	}
	for _, c := range s.Requirements {
		clause("requires", c)
	}
	for _, c := range s.Prohibitions {
		clause("forbids", c)
	}
	if len(s.TakesValue) > 0 {
		fmt.Fprintf(w, "  takes a value: %s\n", strings.Join(globTexts(s.TakesValue), " "))
	}
	if len(s.DeclaredPaths) > 0 {
		fmt.Fprintf(w, "  declared paths: %s\n", strings.Join(globTexts(s.DeclaredPaths), " "))
	}
	if s.RecognizeWith != "" {
		fmt.Fprintf(w, "  recognized with: %s\n", s.RecognizeWith)
	}
	for raw, canonical := range sortedMap(s.Recognize) {
		fmt.Fprintf(w, "  recognizes %s as %s\n", raw, canonical)
	}
}

func globTexts(gs []glob.Glob) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if strings.ContainsAny(s, " \t\n\"'\\") || s == "" {
			s = quote.Quote(s)
		}
		out[i] = s
	}
	return out
}

// sortedMap iterates a map in key order, so the output is deterministic.
func sortedMap(m map[string]string) func(yield func(string, string) bool) {
	return func(yield func(string, string) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
