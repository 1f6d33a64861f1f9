package spawndiff

import "github.com/ahab-go/ahab/internal/analyze"

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
