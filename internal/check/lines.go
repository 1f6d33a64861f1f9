package check

import (
	"encoding/binary"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// Lines runs the CommandLine checks over the actions one goroutine is
// given, judging each distinct command line once. Checks are pure
// functions of what they see (the package's doc), and what the
// CommandLine stage sees of an action is its command line: its mnemonic,
// arguments, environment, execution info and param files (lineKey), and
// the id of its target, which a finding only carries. So an action whose
// command line was judged before gets the findings of that judgement,
// its target's id put in (finding.Template), and the same deferral.
//
// Graphs repeat command lines where a macro or a template writes the same
// action for many targets, and amplified benchmark dumps repeat every
// action (docs/performance.md). Most command lines of a real graph are
// met once, so a command line is remembered only when it comes a second
// time, and a run keeps track of at most LinesKept of them: a graph of
// nothing but distinct command lines costs a hash and a lookup an action.
//
// A Lines is not safe for concurrent use; give each goroutine its own.
type Lines struct {
	checks []*Check
	set    *finding.Set
	report func(finding.Finding)
	seen   map[memoKey]*judged // nil: met once
	keep   int                 // how many seen may hold
	// remembered are the non-nil values of seen.
	remembered []*judged
}

// judged is what the CommandLine checks made of a command line.
type judged struct {
	found    []finding.Template
	deferred *Deferred // nil if no check deferred it
	// pending counts the actions of target given found but not yet
	// added to the set: a run of actions of one target adds found once.
	target  uint32
	pending int
}

// Deferred is an action that checks deferred (Check.Defer) and those
// checks. The action is a copy (action.Clone) that outlives the decoder's
// memory, shared by the actions with its command line: its TargetID is
// that of one of them, and whoever runs the checks sets a copy's
// TargetID, Outputs and Files, never what its slices hold.
type Deferred struct {
	Action action.Action
	Checks []*Check
	// Shared says Lines gives this Deferred to the next actions with its
	// command line too.
	Shared bool
}

// LinesKept bounds how many command lines the Lines of one run keep track
// of between them, some 2 MiB of memory: with more goroutines, each keeps
// track of fewer.
const LinesKept = 1 << 16

// NewLines returns a Lines that runs checks, adds what they find to set
// and keeps track of at most keep command lines.
func NewLines(checks []*Check, set *finding.Set, keep int) *Lines {
	return &Lines{checks: checks, set: set, report: func(f finding.Finding) { set.Add(f, 1) },
		seen: make(map[memoKey]*judged), keep: keep}
}

// Run runs the CommandLine checks over a, as runNow does, adding what they
// find to the set by the time Flush returns. It returns what they
// deferred, or nil.
func (l *Lines) Run(a *action.Action) *Deferred {
	if len(a.StatusInputs) > 0 || len(a.Outputs) > 0 || a.Files != nil {
		// Not a command line alone: judged as it is, never remembered.
		return RunDeferred(l.checks, a, l.report)
	}
	k := lineKey(a)
	j, seen := l.seen[k]
	switch {
	case j != nil:
		if j.pending > 0 && j.target != a.TargetID {
			l.add(j)
		}
		j.target = a.TargetID
		j.pending++
		return j.deferred
	case seen:
		return l.remember(k, a)
	default:
		if len(l.seen) < l.keep {
			l.seen[k] = nil
		}
		return RunDeferred(l.checks, a, l.report)
	}
}

// RunDeferred runs the CommandLine checks over a as runNow does, and
// returns what they deferred, or nil.
func RunDeferred(checks []*Check, a *action.Action, report func(finding.Finding)) *Deferred {
	if deferred := runNow(checks, a, report); len(deferred) > 0 {
		return &Deferred{Action: a.Clone(), Checks: deferred}
	}
	return nil
}

// remember runs the checks over a, the second action with its command
// line, and keeps what they found for the next ones.
func (l *Lines) remember(k memoKey, a *action.Action) *Deferred {
	j := new(judged)
	ownFindings := true
	j.deferred = RunDeferred(l.checks, a, func(f finding.Finding) {
		l.set.Add(f, 1)
		// A finding that names another action, or its target by label,
		// is not the command line's alone: such a judgement is not kept.
		ownFindings = ownFindings && f.Action.TargetID == a.TargetID && f.Action.Target == ""
		if ownFindings {
			j.found = append(j.found, finding.TemplateOf(&f))
		}
	})
	if ownFindings {
		if j.deferred != nil {
			j.deferred.Shared = true
		}
		l.seen[k] = j
		l.remembered = append(l.remembered, j)
	}
	return j.deferred
}

// add adds j's pending findings to the set.
func (l *Lines) add(j *judged) {
	for _, t := range j.found {
		l.set.AddTemplate(t, j.target, j.pending)
	}
	j.pending = 0
}

// Flush adds to the set what Run has not added yet. Call it after the
// last action: until then the set may lack findings of actions whose
// command line came before.
func (l *Lines) Flush() {
	for _, j := range l.remembered {
		if j.pending > 0 {
			l.add(j)
		}
	}
}

// lineKey hashes an action's command line: every field of action.Action a
// CommandLine check sees but its target's id (TestLineKeyCoversTheAction).
func lineKey(a *action.Action) memoKey {
	return hashKey(func(b []byte) []byte {
		b = appendString(b, a.Mnemonic)
		b = appendStrings(b, a.Arguments)
		b = binary.AppendUvarint(b, uint64(len(a.Env)))
		for _, e := range a.Env {
			b = appendString(appendString(b, e.Key), e.Value)
		}
		b = appendStrings(b, a.ExecutionInfo)
		b = binary.AppendUvarint(b, uint64(len(a.ParamFiles)))
		for _, pf := range a.ParamFiles {
			b = appendStrings(appendString(b, pf.ExecPath), pf.Lines)
		}
		return b
	})
}
