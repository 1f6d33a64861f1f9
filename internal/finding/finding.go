package finding

import (
	"cmp"
	"slices"

	"github.com/ahab-go/ahab/internal/program"
)

// ActionRef names the action a finding is about. Two actions of the same
// target and mnemonic cannot be told apart, so their findings merge.
type ActionRef struct {
	Mnemonic string
	// Target is the label of the action's target. A check knows only the
	// target's id in the graph, TargetID, because a dump lists actions
	// before their targets; ResolveTargets replaces the id by the label
	// once the graph has been read, and sets TargetID to 0.
	Target   string
	TargetID uint32
}

// String renders the reference as the text report does (§3.0).
func (a ActionRef) String() string {
	if a.Mnemonic == "" {
		return "action for target " + a.Target
	}
	return a.Mnemonic + " action for target " + a.Target
}

// Source is where a leaked value came from: the variable whose sentinel
// leaked or, under Ahab's own judgement, a variable the build inherits
// from the environment of whoever runs Bazel (--action_env=NAME with no
// value), which aquery never shows.
type Source uint8

// In report order: user < hostname < inherited.
const (
	User Source = iota
	Hostname
	Inherited
)

var sourceNames = [...]string{User: "user", Hostname: "hostname", Inherited: "inherited"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "user"
}

// SourceByName is the inverse of Source.String.
func SourceByName(name string) (Source, bool) {
	for s, n := range sourceNames {
		if n == name {
			return Source(s), true
		}
	}
	return 0, false
}

// Location says where in an action a string was found.
type Location uint8

// In report order: argument < param_file < env_var.
const (
	Argument Location = iota
	ParamFile
	EnvVar
)

func (l Location) String() string {
	switch l {
	case ParamFile:
		return "param_file"
	case EnvVar:
		return "env_var"
	}
	return "argument"
}

// Site is where a string was found. ExecPath is set for param_file sites
// and Key for env_var sites; Value is the whole string (argument, line or
// environment value), not just the part that matched.
type Site struct {
	Location Location
	ExecPath string
	Key      string
	Value    string
}

// Unmet is one condition of a spec that an invocation did not meet: a
// requirement (AnyOf lists what would have satisfied it) or a prohibition
// (Present lists the options that broke it). Both lists are sorted.
type Unmet struct {
	Because string
	AnyOf   []string
	Present []string
}

// Finding is one thing a check found. Which fields are meaningful depends
// on Kind; the rest stay zero. Findings are values: two equal findings are
// the same finding, and a Set counts them.
type Finding struct {
	Kind   Kind
	Action ActionRef

	Source   Source // environment_leak
	Sentinel string // environment_leak
	Site     Site   // environment_leak, absolute_path

	Actual      string // bad_path
	Requirement string // execution_requirement
	Path        string // absolute_path, workspace_status

	Program  program.ID   // the five program kinds
	Wrappers []program.ID // the five program kinds, outermost first
	Synonym  *program.ID  // never_reproducible, conditional_reproducibility
	Unmet    []Unmet      // conditional_reproducibility

	Variation string // variation_source: what differs, e.g. "clock"
	// Command is, for a finding inside the action's shell script, the
	// command it is about, as written: variation_source, and the program
	// kinds when the program is a command of the script. Empty otherwise.
	Command string

	// Evidence is where in a tool or source the output is made to vary,
	// for any kind; reports of Ahab 0.2's judgement never show it. It is a
	// set: a Set keeps it sorted by CompareEvidence, each once, and
	// Compare expects it so.
	Evidence []Evidence
}

// Compare orders findings as the report does (§8.2): by kind, then by the
// kind's members in their JSON order, then by their evidence.
func Compare(a, b *Finding) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Action.Mnemonic, b.Action.Mnemonic); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Action.Target, b.Action.Target); c != 0 {
		return c
	}
	for _, m := range a.Kind.Members() {
		if c := compareMember(m, a, b); c != 0 {
			return c
		}
	}
	return cmpChain(slices.CompareFunc(a.Evidence, b.Evidence, CompareEvidence), cmp.Compare(a.Action.TargetID, b.Action.TargetID))
}

// compareMember compares one member of two findings of the same kind.
func compareMember(m Member, a, b *Finding) int {
	switch m {
	case MemberSource:
		return cmp.Compare(a.Source, b.Source)
	case MemberSentinel:
		return cmp.Compare(a.Sentinel, b.Sentinel)
	case MemberSite:
		return compareSite(a.Site, b.Site)
	case MemberActual:
		return cmp.Compare(a.Actual, b.Actual)
	case MemberRequirement:
		return cmp.Compare(a.Requirement, b.Requirement)
	case MemberPath:
		return cmp.Compare(a.Path, b.Path)
	case MemberProgram:
		return program.Compare(a.Program, b.Program)
	case MemberWrappers:
		return slices.CompareFunc(a.Wrappers, b.Wrappers, program.Compare)
	case MemberSynonym:
		return compareSynonym(a.Synonym, b.Synonym)
	case MemberUnmet:
		return slices.CompareFunc(a.Unmet, b.Unmet, CompareUnmet)
	case MemberVariation:
		return cmp.Compare(a.Variation, b.Variation)
	case MemberCommand, MemberScriptCommand:
		return cmp.Compare(a.Command, b.Command)
	}
	return 0
}

// CompareUnmet orders unmet conditions by reason, then by the sorted
// alternatives, then by the sorted offending options (§5.3).
func CompareUnmet(a, b Unmet) int {
	return cmpChain(
		cmp.Compare(a.Because, b.Because),
		slices.Compare(a.AnyOf, b.AnyOf),
		slices.Compare(a.Present, b.Present))
}

func compareSite(a, b Site) int {
	return cmpChain(
		cmp.Compare(a.Location, b.Location),
		cmp.Compare(a.ExecPath, b.ExecPath),
		cmp.Compare(a.Key, b.Key),
		cmp.Compare(a.Value, b.Value))
}

// compareSynonym puts null before any program.
func compareSynonym(a, b *program.ID) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return program.Compare(*a, *b)
}

func cmpChain(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}
