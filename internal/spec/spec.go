// Package spec is what Ahab knows about programs: the spec format users
// write (§5.4, and the behaviours of docs/specs.md: what a program's
// options and operands are to it and what it writes that varies),
// assessing an invocation against a spec (§5.3), the library that resolves
// a program through synonyms and wrappers to the spec that answers for it
// (§5.5, §5.6), and the built-in library itself, as JSON under library/.
package spec

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// Disposition is a spec's baseline: reproducibility in the file format.
type Disposition uint8

// The four dispositions.
const (
	Always Disposition = iota
	Never
	Sometimes
	HostDerived
)

// dispositionNames are the file format's spellings, in Disposition order.
var dispositionNames = [...]string{"always", "never", "sometimes", "host_derived"}

// String is the disposition as the file format spells it.
func (d Disposition) String() string {
	if int(d) < len(dispositionNames) {
		return dispositionNames[d]
	}
	return "unknown"
}

// Outcome is the result of assessing an invocation.
type Outcome uint8

// The four outcomes.
const (
	Reproducible Outcome = iota
	NotReproducible
	Conditional
	HostDerivedProgram
)

// Verdict is an assessment: the outcome and, when Conditional, the unmet
// conditions, sorted and de-duplicated.
type Verdict struct {
	Outcome Outcome
	Unmet   []Unmet
}

// Unmet is one condition an invocation did not meet: a requirement
// (AnyOf lists what would have satisfied it) or a prohibition (Present
// lists the options that broke it). Both lists are sorted.
type Unmet struct {
	Because string
	AnyOf   []string
	Present []string
}

// compareUnmet orders unmet conditions by reason, then by the sorted
// alternatives, then by the sorted offending options (§5.3).
func compareUnmet(a, b Unmet) int {
	return cmp.Or(
		strings.Compare(a.Because, b.Because),
		slices.Compare(a.AnyOf, b.AnyOf),
		slices.Compare(a.Present, b.Present))
}

// The reasons of the short forms (§5.2).
const (
	RequiredFlagBecause = "it needs an option it was not given"
	BreakingFlagBecause = "it was given an option that breaks it"
)

// Guard is the condition of a clause (§5.3 step 3): it holds when the last
// option that matches Off or Family matches Family. Off is tried first, so
// an option in both turns the family off.
type Guard struct {
	Family []glob.Glob
	Off    []glob.Glob
}

// Clause is a requirement (one of AnyOf must be present) or a prohibition
// (none of AnyOf may be present) that applies when When holds, or always
// when When is nil. Because finishes the sentence "this is not
// reproducible because…".
type Clause struct {
	When    *Guard
	AnyOf   []glob.Glob
	Because string
}

// Spec says what is known about one program (§5.2). Specs are built by New
// or read from a file; glob sets are sorted by pattern text and free of
// duplicates.
type Spec struct {
	Reproducibility Disposition
	// Requirements and Prohibitions hold the short forms (required_flags,
	// breaking_flags) first, one clause per pattern, then the long forms.
	Requirements []Clause
	Prohibitions []Clause
	// TakesValue names the flags whose value is the next argument; the two
	// are folded into flag=value before anything else looks at them.
	TakesValue []glob.Glob
	// DeclaredPaths names the folded options whose absolute paths describe
	// the output rather than the machine (§3.4.3).
	DeclaredPaths []glob.Glob
	// Recognize maps a folded argument to the option it stands for, by
	// whole-string lookup; unlisted arguments stand for themselves.
	Recognize map[string]string
	// RecognizeWith names a recogniser implemented in Go (see
	// RecognizerNames), applied before Recognize. It is our extension of
	// the file format, for the two built-in specs whose spelling rules a
	// table cannot state (§6.1 rustc, §6.2 llvm-ar).
	RecognizeWith string
	// Behaviour is what the program does, in the vocabulary of Ahab's own
	// judgement (options, roles, effects); nil for a spec that says only
	// what Ahab 0.2's format can. Our extension of the format.
	Behaviour *Behaviour
}

// Definition is a spec as written: the short forms and pattern texts that
// New compiles into a Spec. Clause globs may be given in any order and
// with duplicates.
type Definition struct {
	// Mode is the judgement the spec's globs match under.
	Mode            mode.Mode
	Reproducibility Disposition
	RequiredFlags   []string
	BreakingFlags   []string
	Requirements    []Clause
	Prohibitions    []Clause
	TakesValue      []string
	DeclaredPaths   []string
	Recognize       map[string]string
	RecognizeWith   string
	Behaviour       *Behaviour
}

// New compiles a definition. It fails only on an unknown RecognizeWith.
func New(d Definition) (*Spec, error) {
	if d.RecognizeWith != "" {
		if _, ok := recognizers[d.RecognizeWith]; !ok {
			return nil, unknownRecognizerError(d.RecognizeWith)
		}
	}
	s := &Spec{
		Reproducibility: d.Reproducibility,
		TakesValue:      Globs(d.Mode, d.TakesValue...),
		DeclaredPaths:   Globs(d.Mode, d.DeclaredPaths...),
		RecognizeWith:   d.RecognizeWith,
		Behaviour:       d.Behaviour,
	}
	// §5.2: every short-form pattern is its own clause; as sets, the
	// patterns are de-duplicated first.
	for _, g := range Globs(d.Mode, d.RequiredFlags...) {
		s.Requirements = append(s.Requirements, Clause{AnyOf: []glob.Glob{g}, Because: RequiredFlagBecause})
	}
	for _, g := range Globs(d.Mode, d.BreakingFlags...) {
		s.Prohibitions = append(s.Prohibitions, Clause{AnyOf: []glob.Glob{g}, Because: BreakingFlagBecause})
	}
	for _, c := range d.Requirements {
		s.Requirements = append(s.Requirements, normalizeClause(c))
	}
	for _, c := range d.Prohibitions {
		s.Prohibitions = append(s.Prohibitions, normalizeClause(c))
	}
	if len(d.Recognize) > 0 {
		s.Recognize = maps.Clone(d.Recognize)
	}
	return s, nil
}

func normalizeClause(c Clause) Clause {
	out := Clause{AnyOf: normalizeGlobs(c.AnyOf), Because: c.Because}
	if c.When != nil {
		out.When = &Guard{Family: normalizeGlobs(c.When.Family), Off: normalizeGlobs(c.When.Off)}
	}
	return out
}

// Globs compiles patterns for mode m into a glob set: sorted by pattern
// text, without duplicates; nil when there are none.
func Globs(m mode.Mode, patterns ...string) []glob.Glob {
	if len(patterns) == 0 {
		return nil
	}
	compile := glob.For(m)
	globs := make([]glob.Glob, len(patterns))
	for i, p := range patterns {
		globs[i] = compile(p)
	}
	return normalizeGlobs(globs)
}

func normalizeGlobs(globs []glob.Glob) []glob.Glob {
	if len(globs) == 0 {
		return nil
	}
	globs = slices.Clone(globs)
	slices.SortFunc(globs, glob.Compare)
	return slices.Compact(globs)
}

// Equal compares specs by value.
func (s *Spec) Equal(o *Spec) bool {
	if s == nil || o == nil {
		return s == o
	}
	return s.Reproducibility == o.Reproducibility &&
		slices.EqualFunc(s.Requirements, o.Requirements, clausesEqual) &&
		slices.EqualFunc(s.Prohibitions, o.Prohibitions, clausesEqual) &&
		slices.Equal(s.TakesValue, o.TakesValue) &&
		slices.Equal(s.DeclaredPaths, o.DeclaredPaths) &&
		maps.Equal(s.Recognize, o.Recognize) &&
		s.RecognizeWith == o.RecognizeWith &&
		reflect.DeepEqual(s.Behaviour, o.Behaviour)
}

func clausesEqual(a, b Clause) bool {
	if a.Because != b.Because || !slices.Equal(a.AnyOf, b.AnyOf) || (a.When == nil) != (b.When == nil) {
		return false
	}
	return a.When == nil || (slices.Equal(a.When.Family, b.When.Family) && slices.Equal(a.When.Off, b.When.Off))
}

// Assess judges the arguments of one invocation (argv without argv[0]),
// exactly as §5.3 says.
func (s *Spec) Assess(args []string) Verdict {
	switch s.Reproducibility {
	case Always:
		return Verdict{Outcome: Reproducible}
	case Never:
		return Verdict{Outcome: NotReproducible}
	case HostDerived:
		return Verdict{Outcome: HostDerivedProgram}
	}

	// Most invocations have few options: their list stays on the stack.
	var buf [64]string
	present := s.appendOptions(buf[:0], args)
	var unmet []Unmet
	for _, c := range s.Requirements {
		if !c.applies(present) || slices.ContainsFunc(present, func(o string) bool { return matchesAny(c.AnyOf, o) }) {
			continue
		}
		unmet = append(unmet, Unmet{Because: c.Because, AnyOf: patternTexts(c.AnyOf)})
	}
	for _, c := range s.Prohibitions {
		if !c.applies(present) {
			continue
		}
		var offending []string
		for _, o := range present {
			if matchesAny(c.AnyOf, o) {
				offending = append(offending, o)
			}
		}
		if len(offending) > 0 {
			slices.Sort(offending)
			unmet = append(unmet, Unmet{Because: c.Because, Present: slices.Compact(offending)})
		}
	}
	if len(unmet) == 0 {
		return Verdict{Outcome: Reproducible}
	}
	slices.SortFunc(unmet, compareUnmet)
	unmet = slices.CompactFunc(unmet, func(a, b Unmet) bool { return compareUnmet(a, b) == 0 })
	return Verdict{Outcome: Conditional, Unmet: unmet}
}

// Options is what the clauses of a spec see of an invocation: the
// arguments folded with takes_value and passed through the recognisers
// (§5.3 steps 1 and 2), in order, duplicates kept.
func (s *Spec) Options(args []string) []string {
	return s.appendOptions(make([]string, 0, len(args)), args)
}

// appendOptions appends the options of args to present.
func (s *Spec) appendOptions(present, args []string) []string {
	recognizer := recognizers[s.RecognizeWith]
	i := 0
	s.fold(args, func(option string, _ []string) {
		if option, ok := s.recognize(recognizer, i, option); ok {
			present = append(present, option)
		}
		i++
	})
	return present
}

// DeclaredPathArgs returns the raw arguments that are declared paths
// (§3.4.3): those a folded option matching DeclaredPaths came from, the
// flag and its value when they were two arguments. Recognize is not
// applied: declared paths are about spelling, not meaning.
func (s *Spec) DeclaredPathArgs(args []string) []string {
	if len(s.DeclaredPaths) == 0 {
		return nil
	}
	var declared []string
	s.fold(args, func(option string, raw []string) {
		if matchesAny(s.DeclaredPaths, option) {
			declared = append(declared, raw...)
		}
	})
	return declared
}

// fold walks args joining each takes_value flag with the argument after
// it (§5.3 step 1) and calls emit with each option and the raw arguments
// it came from. A valued flag at the end stays alone; the next argument
// is taken even if it looks like a flag.
func (s *Spec) fold(args []string, emit func(option string, raw []string)) {
	for i := 0; i < len(args); i++ {
		if i+1 < len(args) && matchesAny(s.TakesValue, args[i]) {
			emit(args[i]+"="+args[i+1], args[i:i+2])
			i++
			continue
		}
		emit(args[i], args[i:i+1])
	}
}

// recognize is §5.3 step 2: the Go recogniser (which may drop an
// argument) and then the table. i is the option's place among the folded
// options.
func (s *Spec) recognize(recognizer Recognizer, i int, option string) (string, bool) {
	if recognizer != nil {
		var keep bool
		if option, keep = recognizer(i, option); !keep {
			return "", false
		}
	}
	if canonical, ok := s.Recognize[option]; ok {
		return canonical, true
	}
	return option, true
}

// applies says whether a clause speaks to this invocation.
func (c *Clause) applies(present []string) bool {
	return c.When == nil || c.When.Holds(present)
}

// Holds decides the guard by the last option that speaks to it (§5.3
// step 3): `-g -g0` is off, `-g0 -g` is on; silence is off.
func (g *Guard) Holds(present []string) bool {
	for i := len(present) - 1; i >= 0; i-- {
		if matchesAny(g.Off, present[i]) {
			return false
		}
		if matchesAny(g.Family, present[i]) {
			return true
		}
	}
	return false
}

func matchesAny(globs []glob.Glob, s string) bool {
	for _, g := range globs {
		if g.Match(s) {
			return true
		}
	}
	return false
}

// patternTexts is a glob set as the sorted, de-duplicated texts a finding
// carries.
func patternTexts(globs []glob.Glob) []string {
	if len(globs) == 0 {
		return nil
	}
	texts := make([]string, len(globs))
	for i, g := range globs {
		texts[i] = g.String()
	}
	slices.Sort(texts)
	return slices.Compact(texts)
}

// Recognizer maps the i-th folded argument to the option it stands for;
// keep false drops the argument.
type Recognizer func(i int, arg string) (option string, keep bool)

// recognizers are the recognisers a spec may name with recognize_with.
var recognizers = map[string]Recognizer{
	"rustc_codegen":    recognizeRustcCodegen,
	"ar_modifiers":     recognizeArModifiers,
	"coreutils_applet": recognizeCoreutilsApplet,
}

// recognizeCoreutilsApplet spells the first argument of a multi-call
// coreutils binary, the applet it runs, as `applet=NAME`, so a spec can
// speak of the applet without also matching an argument that happens to
// be spelt like one (`coreutils echo date` runs echo, not date).
func recognizeCoreutilsApplet(i int, arg string) (string, bool) {
	if i == 0 {
		return "applet=" + arg, true
	}
	return arg, true
}

// RecognizerNames lists the names recognize_with accepts, sorted.
func RecognizerNames() []string {
	return slices.Sorted(maps.Keys(recognizers))
}

// recognizeRustcCodegen spells rustc's `--codegen=X` as `-CX` so one
// pattern covers both (§6.1).
func recognizeRustcCodegen(_ int, arg string) (string, bool) {
	if value, ok := strings.CutPrefix(arg, "--codegen="); ok {
		return "-C" + value, true
	}
	return arg, true
}

// arModifierLetters are the letters of ar's operation and modifiers
// (§6.2); an argument made only of them is the operation word.
const arModifierLetters = "abcDdfhiLlNOoPpqrSsTtUuVvxX"

// recognizeArModifiers turns ar's operation word into
// `modifiers:<letters sorted and de-duplicated>`, so `rcsD` and `Drcs`
// are one option and a pattern like `modifiers:*D*` finds the D (§6.2).
func recognizeArModifiers(_ int, arg string) (string, bool) {
	if arg == "" {
		return arg, true
	}
	var seen [128]bool
	for i := 0; i < len(arg); i++ {
		if arg[i] >= 128 || strings.IndexByte(arModifierLetters, arg[i]) < 0 {
			return arg, true
		}
		seen[arg[i]] = true
	}
	var b strings.Builder
	b.WriteString("modifiers:")
	for c := range seen {
		if seen[c] {
			b.WriteByte(byte(c))
		}
	}
	return b.String(), true
}

// Resolution is where resolving a program ended (§5.6).
type Resolution struct {
	Program  program.ID   // what finally runs, after unwrapping
	Args     []string     // its arguments
	Wrappers []program.ID // the wrappers unwrapped on the way, outermost first
	Spec     *Spec        // nil when no spec answers
	Carrier  program.ID   // the library key that carried Spec
}

// Synonym is the key that carried the spec when it is not the program
// itself (§3.6): set when a same_as chain was followed or a pattern
// answered.
func (r Resolution) Synonym() (program.ID, bool) {
	if r.Spec == nil || r.Carrier == r.Program {
		return program.ID{}, false
	}
	return r.Carrier, true
}
