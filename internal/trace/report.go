package trace

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
)

// Report is what a traced build did beyond what its actions declared.
type Report struct {
	// Actions are the traced actions, every one, in a stable order (by
	// target, mnemonic, outputs); those that read nothing undeclared have
	// an empty Undeclared.
	Actions []ActionReport
	// Baseline is what the host toolchain read on its own, summed over all
	// actions, by path.
	Baseline []BaselineEntry
	// Untraced are the spawns of the execution log whose processes were not
	// found in the trace (a persistent worker, say), in the same order.
	Untraced []ActionRef
	// Static names the static analysis the actions' Causes come from, ""
	// when there was none.
	Static string
}

// ActionRef names an action the way a user finds it.
type ActionRef struct {
	Target   string
	Mnemonic string
	// Outputs are the exec paths the action declared it writes, sorted.
	Outputs []string
}

// ActionReport is one traced action and what it read without declaring it.
type ActionReport struct {
	ActionRef
	// Argv is the spawn's command line, as the execution log has it (not
	// written to the reports; with Target and Mnemonic, it lets a caller
	// find the action among aquery's, where a param file may be expanded).
	Argv       []string
	Undeclared []Undeclared
	// Causes are the static analysis's findings for the same action, every
	// kind, in report order: what the analysis predicted beside what the
	// trace saw.
	Causes []finding.Finding
}

// Undeclared is one path an action opened, stat'ed or listed outside what
// it declared. Path is an exec path or workspace-relative source path for a
// WorkspaceFile (and a listing in the build's tree), absolute otherwise.
type Undeclared struct {
	Path  string
	Class Class
}

// BaselineEntry is one host file of the toolchain baseline: Rule says why
// it is the toolchain's own (one of the Rule* constants), Actions how many
// actions touched it.
type BaselineEntry struct {
	Path    string
	Rule    string
	Actions int
}

// Found reports whether some action read something undeclared.
func (r *Report) Found() bool {
	for i := range r.Actions {
		if len(r.Actions[i].Undeclared) > 0 {
			return true
		}
	}
	return false
}

func compareRefs(a, b ActionRef) int {
	return cmp.Or(
		strings.Compare(a.Target, b.Target),
		strings.Compare(a.Mnemonic, b.Mnemonic),
		slices.Compare(a.Outputs, b.Outputs),
	)
}

// sort puts the report in its documented order, so that the same build
// gives the same bytes whatever order its actions ran in.
func (r *Report) sort() {
	slices.SortStableFunc(r.Actions, func(a, b ActionReport) int {
		return cmp.Or(compareRefs(a.ActionRef, b.ActionRef), slices.Compare(a.Argv, b.Argv))
	})
	slices.SortStableFunc(r.Untraced, compareRefs)
	slices.SortFunc(r.Baseline, func(a, b BaselineEntry) int { return strings.Compare(a.Path, b.Path) })
}
