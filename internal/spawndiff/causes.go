package spawndiff

import (
	"slices"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/finding"
)

// AttachCauses puts the static analysis beside the divergent actions: each
// gets the findings of the action of static that has one of its outputs
// (or, when static was made from a saved report, the same target and
// mnemonic), and its target label from there when the logs name none.
// source says where the analysis came from, for the reports.
func (r *Result) AttachCauses(source string, static *analyze.Index) {
	r.Static = source
	for i := range r.Actions {
		a := &r.Actions[i]
		var af *analyze.ActionFindings
		if static.HasOutputs() {
			af = static.ByOutputs(a.Outputs)
		} else if a.Target != "" {
			af = static.ByRef(a.Target, a.Mnemonic)
		}
		if af == nil {
			continue
		}
		if a.Target == "" {
			a.Target = af.Target
		}
		a.Causes = af.Findings
	}
}

// UnknownPrograms are the programs of the action's unknown_program
// findings, in report order: a cause nobody described, which the analysis
// can neither confirm nor rule out.
func (a *Action) UnknownPrograms() []string {
	var out []string
	for _, f := range a.Causes {
		if f.Kind == finding.UnknownProgram {
			if p := f.Program.String(); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// UnknownRoots counts the root causes that no finding explains but that
// run a program no spec describes.
func (r *Result) UnknownRoots() int {
	n := 0
	for i := range r.Actions {
		if a := &r.Actions[i]; a.Verdict.IsRoot() && !a.Explained() && len(a.UnknownPrograms()) > 0 {
			n++
		}
	}
	return n
}
