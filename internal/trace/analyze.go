package trace

import (
	"io"
	"slices"
)

// Analyze reads the strace log of a build (name is its file name in errors)
// and reports, for each of the build's actions, what its processes read
// outside what it declared. Classification looks at the file system (where
// symlinks lead, what directories hold), so it must run before the build's
// output base is removed. Each action's Causes (its static findings) are
// passed on to its report.
func Analyze(log io.Reader, name string, actions []Action, l Layout) (*Report, error) {
	return analyzeOn(log, name, actions, l, osFS{})
}

func analyzeOn(log io.Reader, name string, actions []Action, l Layout, fsys filesystem) (*Report, error) {
	traces := make([]*actionTrace, len(actions))
	for i := range actions {
		traces[i] = &actionTrace{action: &actions[i]}
	}
	if err := attribute(log, name, traces, l.ExecRoot); err != nil {
		return nil, err
	}
	c := newClassifier(l, fsys)
	r := &Report{Actions: []ActionReport{}, Baseline: []BaselineEntry{}, Untraced: []ActionRef{}}
	for _, t := range traces {
		target := t.action.Target
		if target == "" {
			target = "<unknown target>"
		}
		ref := ActionRef{Target: target, Mnemonic: t.action.Mnemonic, Outputs: slices.Sorted(slices.Values(t.action.Outputs))}
		if !t.traced {
			r.Untraced = append(r.Untraced, ref)
			continue
		}
		r.Actions = append(r.Actions, ActionReport{ActionRef: ref, Argv: t.action.Argv, Undeclared: c.classify(t), Causes: t.action.Causes})
	}
	for _, e := range c.baseline {
		r.Baseline = append(r.Baseline, *e)
	}
	r.sort()
	return r, nil
}
