package analyze

import "github.com/ahab-go/ahab/internal/finding"

// Index finds the static analysis of an action that an execution log
// names: by its outputs, which both sides give as exec paths, or by target
// and mnemonic, when the findings came from a saved report that has
// nothing else.
type Index struct {
	actions  []ActionFindings
	byOutput map[string]int // exec path → index into actions
	byRef    map[finding.ActionRef]int
}

// NewIndex indexes actions (Result.ByAction) by their outputs.
func NewIndex(actions []ActionFindings) *Index {
	x := &Index{actions: actions, byOutput: make(map[string]int)}
	for i, a := range actions {
		for _, out := range a.Outputs {
			// Bazel gives every output one generating action; a dump that
			// says otherwise keeps the first, in the sorted order.
			if _, dup := x.byOutput[out]; !dup {
				x.byOutput[out] = i
			}
		}
	}
	return x
}

// IndexFindings groups findings (a saved report's) by the action they
// name, for Index.ByRef: a report names an action by its target and
// mnemonic only.
func IndexFindings(findings []finding.Counted) *Index {
	x := &Index{byRef: make(map[finding.ActionRef]int)}
	for _, c := range findings {
		i, ok := x.byRef[c.Action]
		if !ok {
			i = len(x.actions)
			x.byRef[c.Action] = i
			x.actions = append(x.actions, ActionFindings{Mnemonic: c.Action.Mnemonic, Target: c.Action.Target})
		}
		x.actions[i].Findings = append(x.actions[i].Findings, c.Finding)
	}
	return x
}

// ByOutputs is the action that declares the first of outputs the graph
// knows, or nil.
func (x *Index) ByOutputs(outputs []string) *ActionFindings {
	for _, out := range outputs {
		if i, ok := x.byOutput[out]; ok {
			return &x.actions[i]
		}
	}
	return nil
}

// ByRef is the action of target with mnemonic, or nil.
func (x *Index) ByRef(target, mnemonic string) *ActionFindings {
	if i, ok := x.byRef[finding.ActionRef{Mnemonic: mnemonic, Target: target}]; ok {
		return &x.actions[i]
	}
	return nil
}

// HasOutputs says whether the index can match by outputs: it was made
// from a graph, not from a report.
func (x *Index) HasOutputs() bool { return x.byOutput != nil }
