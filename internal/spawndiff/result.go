package spawndiff

import (
	"fmt"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/outdiff"
	"github.com/ahab-go/ahab/internal/spawn"
)

// Verdict is what happened to one spawn between the two builds.
type Verdict uint8

// The verdicts, in the order reports count them: the root causes, then
// what follows from them, then the spawns that did not diverge.
const (
	// Nondeterministic: the same command, environment and inputs, and
	// different outputs.
	Nondeterministic Verdict = iota
	// InputChanged: an input differs that no diverging spawn of either log
	// produced: a source file, a workspace status file, or the output of
	// an action that is not a spawn (a param file, an expanded template).
	InputChanged
	// CommandChanged: the command line differs (or, for spawns paired by
	// target and mnemonic, the declared outputs).
	CommandChanged
	// EnvironmentChanged: the environment differs.
	EnvironmentChanged
	// FlakyExit: the same command, environment and inputs, and a
	// different exit code (whether or not the outputs differ too).
	FlakyExit
	// OnlyOld and OnlyNew: the spawn ran in one build only.
	OnlyOld
	OnlyNew
	// Downstream: only inputs produced by diverging spawns differ, and the
	// outputs (or exit code) differ too: the divergence goes on.
	Downstream
	// Absorbed: only inputs produced by diverging spawns differ, and the
	// outputs and exit code are the same: the divergence stops here.
	Absorbed
	// Identical: nothing differs. Identical spawns are counted, not
	// listed.
	Identical
	numVerdicts
)

var verdictNames = [numVerdicts]string{
	Nondeterministic:   "nondeterministic",
	InputChanged:       "input_changed",
	CommandChanged:     "command_changed",
	EnvironmentChanged: "environment_changed",
	FlakyExit:          "flaky_exit",
	OnlyOld:            "only_old",
	OnlyNew:            "only_new",
	Downstream:         "downstream",
	Absorbed:           "absorbed",
	Identical:          "identical",
}

// String is the verdict's tag, as the JSON report writes it.
func (v Verdict) String() string {
	if v < numVerdicts {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Verdicts lists every verdict in report order.
func Verdicts() []Verdict {
	vs := make([]Verdict, numVerdicts)
	for i := range vs {
		vs[i] = Verdict(i)
	}
	return vs
}

// IsRoot reports whether actions with the verdict are root causes: every
// divergent verdict but Downstream and Absorbed.
func (v Verdict) IsRoot() bool { return v < Downstream }

// Differences says which aspects of a matched pair of spawns differ.
type Differences uint8

const (
	DiffCommand Differences = 1 << iota
	DiffEnvironment
	DiffInputs
	DiffOutputs
	DiffExitCode
)

var differenceNames = []string{"command", "environment", "inputs", "outputs", "exit_code"}

// Names lists the differences by the names the JSON report uses, in a
// fixed order.
func (d Differences) Names() []string {
	names := []string{}
	for i, name := range differenceNames {
		if d&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return names
}

func (d Differences) String() string { return strings.Join(d.Names(), ",") }

// Result is the comparison of two logs.
type Result struct {
	// Old and New name the logs, as NewLog was told.
	Old, New string
	// OldSpawns and NewSpawns are how many spawns each log has.
	OldSpawns, NewSpawns int
	// Counts is the number of spawns (pairs, for matched ones) of each
	// verdict, Identical included.
	Counts [numVerdicts]int
	// Static names where the causes came from (AttachCauses), or is ""
	// when no static analysis was given.
	Static string
	// Actions are the divergent spawns: the root causes first, producers
	// before consumers, then the downstream and absorbed ones in the same
	// order. The order depends only on the logs' content, never on the
	// order of spawns in them.
	Actions []Action
}

// Roots counts the root causes, and those of them a static cause
// explains.
func (r *Result) Roots() (roots, explained int) {
	for i := range r.Actions {
		if a := &r.Actions[i]; a.Verdict.IsRoot() {
			roots++
			if a.Explained() {
				explained++
			}
		}
	}
	return roots, explained
}

// Count is how many spawns got verdict v.
func (r *Result) Count(v Verdict) int { return r.Counts[v] }

// Action is one divergent spawn: a matched pair, or a spawn of one log
// only.
type Action struct {
	Verdict  Verdict
	Mnemonic string
	// Target is the spawn's target label, or "" when the logs do not say
	// (Bazel before 7).
	Target string
	// Outputs are the declared outputs (of the new spawn; of the old one
	// for OnlyOld), sorted: what identifies the action.
	Outputs []string
	// Differs says what differs, for a matched pair; the verdict follows
	// from it by precedence (see docs/diff.md).
	Differs Differences
	// RootCauses are, for Downstream and Absorbed actions, the indexes in
	// Result.Actions of the root causes the action descends from, in
	// report order.
	RootCauses []int
	// Downstream and Absorbed count, for a root cause, the downstream and
	// absorbed actions that descend from it.
	Downstream, Absorbed int

	// What differs, kept for root causes only.
	//
	// OutputChanges are the output files that differ, by path.
	OutputChanges []FileChange
	// InputChanges are the first MaxListed inputs (by path) that differ
	// and that no diverging spawn produced; SourceInputChanges counts
	// them all.
	InputChanges       []FileChange
	SourceInputChanges int
	// Argument is the first argument that differs (CommandChanged), or nil
	// when the arguments are the same and the declared outputs are not
	// (OldOutputs then holds the old ones).
	Argument   *ArgumentChange
	OldOutputs []string
	// Variable is the first environment variable, by name, that differs;
	// VariableChanges counts them all.
	Variable        *VariableChange
	VariableChanges int
	// OldExit and NewExit are the exit codes.
	OldExit, NewExit int32

	// Causes are the static analysis's findings for the same action
	// (AttachCauses), every kind, in report order.
	Causes []finding.Finding
}

// Explained says whether one of the action's causes predicts a divergence
// (Kind.PredictsDivergence).
func (a *Action) Explained() bool {
	for _, f := range a.Causes {
		if f.Kind.PredictsDivergence() {
			return true
		}
	}
	return false
}

// MaxListed bounds how many changed inputs an action keeps for reports.
const MaxListed = 10

// FileChange is one file whose content differs between the builds.
type FileChange struct {
	Path string
	// Old and New are the contents; nil when the file is absent on that
	// side (not an input, or not produced).
	Old, New *Content

	// What differs inside an output of a root cause, when the builds'
	// outputs were given (Result.Diagnose).
	//
	// Inside is the diagnosis, or nil; NotDiagnosed then says why, when a
	// diagnosis was tried.
	Inside       *outdiff.Diagnosis
	NotDiagnosed string
	// OldFile and NewFile are where the two versions were found.
	OldFile, NewFile string
	// Diffoscope is the path of diffoscope's HTML report on the two
	// versions, when one was written.
	Diffoscope string
}

// Content is a file's content as a log describes it: a digest (the hash
// in lowercase hex, as the log wrote it), or an unresolved symlink's
// target.
type Content struct {
	Digest        spawn.Digest
	SymlinkTarget string
}

// Short is the content in a few characters: the first 8 hex digits of the
// hash and the size ("3f2a91c0 20 B"), or "-> target" for a symlink.
func (c *Content) Short() string {
	if c == nil {
		return "absent"
	}
	if c.SymlinkTarget != "" {
		return "-> " + c.SymlinkTarget
	}
	h := c.Digest.Hash
	if len(h) > 8 {
		h = h[:8]
	}
	if h == "" {
		h = "no digest"
	}
	return fmt.Sprintf("%s %d B", h, c.Digest.Size)
}

// ArgumentChange is the first argument that differs.
type ArgumentChange struct {
	// Index is the argument's position, argv[0] being 0.
	Index int
	// Old and New are the arguments at Index; a side whose command line is
	// shorter has none (OldMissing or NewMissing).
	Old, New               string
	OldMissing, NewMissing bool
}

// VariableChange is the first environment variable that differs.
type VariableChange struct {
	Name string
	// Old and New are the values; nil when the variable is unset.
	Old, New *string
}
