// Package analyze runs the checks over every action of a graph as it is
// decoded, on all cores, and gathers what they find into one finding.Set.
//
// A run has three steps, in this order, and a fourth when a Configurer
// is given:
//
//  1. Command lines: as the decoder hands each action over, the checks of
//     the check.CommandLine stage judge its command line, environment and
//     execution info, so the dump is never held in memory; each distinct
//     command line is judged once (check.Lines). An action with
//     inputs is remembered by its mnemonic, target id and input dep set
//     ids, which is all the next step needs.
//  2. Inputs: once the whole graph has been read (Bazel writes actions
//     before the dep sets they name), the workspace status files each
//     remembered action reaches through its dep sets are found, and the
//     checks of the check.Inputs stage judge them.
//  3. Programs: the actions a check deferred (check.Check.Defer: those
//     whose programs must be read, a shell script, a workspace tool) are
//     judged with their outputs and inputs named, and the workspace's
//     files at hand (package execroot), once the graph is read.
//  4. Configurations (Options.Configurer): what the configurations the
//     graph names give its actions beyond what the dump shows (the
//     environment of C++ and test actions, what shell actions inherit) is
//     judged by the checks that judge an environment.
//  5. Targets: every finding names its action's target by id until now;
//     finding.ResolveTargets puts the labels in, since the graph's targets
//     come after its actions too.
package analyze

import (
	"cmp"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/execroot"
	"github.com/ahab-go/ahab/internal/finding"
)

// Options tune a run. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is how many goroutines decode and check actions; 0 means
	// GOMAXPROCS.
	Workers int
	// Format forces the dump's format; 0 detects it from the content.
	Format aquery.Format
	// Progress, if set, is told how far decoding got. It is called from
	// the reading goroutine only.
	Progress func(Progress)
	// Visit, if set, is called with every action in dump order before it
	// is checked (for --verbose); it makes the run single-threaded.
	Visit func(i int, a *aquery.Action)
	// ByAction keeps, besides the set, every action's outputs and
	// findings (Result.ByAction): what the comparison of two execution
	// logs needs to put the static causes beside each divergent spawn.
	// It costs memory in proportion to the actions and their findings.
	ByAction bool
	// Tree is where the workspace's files are, for the actions a check
	// defers to read what they run; nil reads no file.
	Tree *execroot.Tree
	// Configurer, when not nil, adds a last step: what the configurations
	// give actions beyond what the dump shows is judged too (Configurer).
	Configurer *Configurer
}

// Progress is a snapshot of a run.
type Progress struct {
	BytesRead int64
	Actions   int64 // checked so far
	Done      bool
}

// Result is what a run found, and how much it looked at.
type Result struct {
	Findings *finding.Set
	Actions  int // actions in the dump
	Targets  int // targets in the dump
	// ByAction lists every action with its findings, with Options.ByAction,
	// sorted by target, mnemonic and outputs.
	ByAction []ActionFindings
}

// ActionFindings is one action, named as an execution log names its spawn,
// and what the checks found in it.
type ActionFindings struct {
	Mnemonic string
	Target   string
	Outputs  []string // exec paths, as the dump lists them
	Findings []finding.Finding
}

// worker is what one goroutine accumulates. Workers share nothing, so
// they never wait on each other.
type worker struct {
	set *finding.Set
	// lines runs the CommandLine checks, each distinct command line once,
	// adding to set; with Options.ByAction, whose records need every
	// finding, it is nil and report adds each to set and to its record.
	lines  *check.Lines
	report func(finding.Finding)
	// The actions the Inputs step will look at, kept compact: a million
	// actions' worth must not cost more than the findings.
	withInputs []inputs
	depSetIDs  []uint32 // the inputs' dep set ids, back to back
	mnemonics  []string // by index; inputs.mnemonic indexes it
	mnemonic   map[string]uint32
	// byAction is every action checked, with Options.ByAction; nil
	// otherwise.
	byAction []actionRecord
	// configured are the actions the Configurer step looks at.
	configured []configured
	// deferred are the actions checks deferred to the Programs step, and
	// generators the actions that make what may be a launcher.
	deferred    []deferredAction
	deferredIDs []uint32
	// lastDeferred is, for each shared check.Deferred, the last of
	// deferred that has it.
	lastDeferred map[*check.Deferred]int
	generators   []generator
	// keepGenerators says files are read (Options.Tree), which needs them.
	keepGenerators bool
}

// deferredAction is an action a check deferred: what the checks deferred,
// which actions with the same command line share, and the action's own
// target and ids. A graph may defer hundreds of thousands of actions, so
// it is kept small.
type deferredAction struct {
	what     *check.Deferred
	targetID uint32
	// inputDepSets and outputIDs are worker.deferredIDs[start:mid] and
	// [mid:end].
	start, mid, end uint32
	record          int // index into worker.byAction, with Options.ByAction
	// count is how many actions this is: a graph may repeat an action,
	// outputs and all (an amplified benchmark dump does), and each is
	// judged as the first.
	count int
}

// generator is an action that makes what may be a launcher.
type generator struct {
	mnemonic     string
	targetID     uint32
	inputDepSets []uint32
	outputIDs    []uint32
}

// inputs is what the Inputs step needs of one action.
type inputs struct {
	mnemonic   uint32 // index into worker.mnemonics
	targetID   uint32
	start, end uint32 // the dep set ids are worker.depSetIDs[start:end]
	record     int    // index into worker.byAction, with Options.ByAction
}

// actionRecord is an action for Result.ByAction, its target and outputs
// still ids.
type actionRecord struct {
	mnemonic  string
	targetID  uint32
	outputIDs []uint32
	findings  []finding.Finding
}

// Dump decodes a dump from r (name is used in errors) and checks every
// action with checks. The result does not depend on the order of actions
// in the dump or on the number of workers.
func Dump(r io.Reader, name string, checks []*check.Check, opts Options) (Result, error) {
	n := opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if opts.Visit != nil {
		n = 1
	}
	needInputs, defers := false, false
	for _, c := range checks {
		needInputs = needInputs || c.Stage == check.Inputs
		defers = defers || c.Defer != nil
	}
	// Each decoding goroutine has a worker of its own (aquery.Decode says
	// which goroutine calls), so workers never wait on each other.
	workers := make([]*worker, n)
	for i := range workers {
		w := &worker{set: finding.NewSet(), keepGenerators: opts.Tree != nil}
		if opts.ByAction {
			w.report = func(f finding.Finding) {
				w.set.Add(f, 1)
				r := &w.byAction[len(w.byAction)-1]
				r.findings = append(r.findings, f)
			}
		} else {
			w.lines = check.NewLines(checks, w.set, check.LinesKept/n)
		}
		workers[i] = w
	}
	visited := 0
	var checked atomic.Int64
	// Nothing of an action outlives its check: a finding is copied into
	// its set, and worker.check copies the mnemonic and the input dep set
	// ids. So the decoder may reuse actions and the memory they were
	// decoded from, unless findings are kept by action.
	// Deferred actions need their outputs named; reading their files needs
	// their inputs too, and the launchers the graph makes.
	decodeOpts := aquery.Options{Format: opts.Format, Workers: n, ReuseActions: !opts.ByAction,
		ArtifactPaths: opts.ByAction || defers, DepSets: defers && opts.Tree != nil}
	var configs configurations
	if opts.Configurer != nil {
		decodeOpts.Configurations = configs.add
	}
	if opts.Progress != nil {
		decodeOpts.Progress = func(b int64) { opts.Progress(Progress{BytesRead: b, Actions: checked.Load()}) }
	}
	graph, err := aquery.Decode(r, name, decodeOpts, func(i int, a *aquery.Action) error {
		if opts.Visit != nil {
			opts.Visit(visited, a)
			visited++
		}
		w := workers[i]
		if opts.ByAction {
			w.byAction = append(w.byAction, actionRecord{mnemonic: a.Mnemonic, targetID: a.TargetID, outputIDs: a.OutputIDs})
		}
		w.check(checks, a, needInputs)
		if opts.Configurer != nil {
			w.remember(opts.Configurer, &a.Action, a.ConfigurationID)
		}
		checked.Add(1)
		return nil
	})
	if err != nil {
		return Result{}, err
	}

	sets := make([]*finding.Set, 0, len(workers)+1)
	for _, w := range workers {
		if w.lines != nil {
			w.lines.Flush()
		}
		sets = append(sets, w.set)
	}
	if needInputs {
		sets = append(sets, checkInputs(graph, checks, workers))
	}
	if defers {
		sets = append(sets, checkPrograms(graph, workers, opts.Tree, n))
	}
	if opts.Configurer != nil {
		sets = append(sets, checkConfigured(opts.Configurer, configs.checksums, checks, workers))
	}
	if opts.Progress != nil {
		opts.Progress(Progress{Actions: checked.Load(), Done: true})
	}
	all := finding.ResolveTargets(sets, graph.Target)
	res := Result{Findings: all, Actions: graph.Actions(), Targets: graph.Targets()}
	if opts.ByAction {
		res.ByAction = byAction(graph, workers)
	}
	return res, nil
}

// byAction names the recorded actions' targets and outputs, and their
// findings' targets, in an order that does not depend on the workers.
func byAction(graph *aquery.Graph, workers []*worker) []ActionFindings {
	var out []ActionFindings
	for _, w := range workers {
		for _, r := range w.byAction {
			af := ActionFindings{Mnemonic: r.mnemonic, Target: graph.Target(r.targetID), Findings: r.findings}
			for _, id := range r.outputIDs {
				if p, ok := graph.ArtifactPath(id); ok {
					af.Outputs = append(af.Outputs, p)
				}
			}
			for i := range af.Findings {
				f := &af.Findings[i].Action
				if f.Target == "" {
					f.Target, f.TargetID = graph.Target(f.TargetID), 0
				}
			}
			// One action may find the same thing twice (a path in two
			// arguments); the action's list says each once, in report order.
			slices.SortFunc(af.Findings, func(x, y finding.Finding) int { return finding.Compare(&x, &y) })
			af.Findings = slices.CompactFunc(af.Findings, func(x, y finding.Finding) bool { return finding.Compare(&x, &y) == 0 })
			out = append(out, af)
		}
		w.byAction = nil
	}
	slices.SortFunc(out, func(a, b ActionFindings) int {
		return cmp.Or(strings.Compare(a.Target, b.Target), strings.Compare(a.Mnemonic, b.Mnemonic), slices.Compare(a.Outputs, b.Outputs),
			slices.CompareFunc(a.Findings, b.Findings, func(x, y finding.Finding) int { return finding.Compare(&x, &y) }))
	})
	return out
}

// check runs the CommandLine checks over a and remembers it for the
// Inputs step.
func (w *worker) check(checks []*check.Check, a *aquery.Action, needInputs bool) {
	if needInputs && len(a.InputDepSets) > 0 {
		m := w.mnemonicIndex(a.Mnemonic)
		start := len(w.depSetIDs)
		w.depSetIDs = append(w.depSetIDs, a.InputDepSets...)
		w.withInputs = append(w.withInputs, inputs{mnemonic: m, targetID: a.TargetID, start: uint32(start), end: uint32(len(w.depSetIDs)), record: len(w.byAction) - 1})
	}
	var deferred *check.Deferred
	if w.lines != nil {
		deferred = w.lines.Run(&a.Action)
	} else {
		deferred = check.RunDeferred(checks, &a.Action, w.report)
	}
	if deferred != nil && !w.repeatsDeferred(deferred, a) {
		start := len(w.deferredIDs)
		w.deferredIDs = append(w.deferredIDs, a.InputDepSets...)
		mid := len(w.deferredIDs)
		w.deferredIDs = append(w.deferredIDs, a.OutputIDs...)
		w.deferred = append(w.deferred, deferredAction{what: deferred, targetID: a.TargetID,
			start: uint32(start), mid: uint32(mid), end: uint32(len(w.deferredIDs)), record: len(w.byAction) - 1, count: 1})
		if deferred.Shared {
			if w.lastDeferred == nil {
				w.lastDeferred = map[*check.Deferred]int{}
			}
			w.lastDeferred[deferred] = len(w.deferred) - 1
		}
	}
	if w.keepGenerators && execroot.KeepsGenerator(a.Mnemonic) {
		w.generators = append(w.generators, generator{mnemonic: strings.Clone(a.Mnemonic), targetID: a.TargetID,
			inputDepSets: slices.Clone(a.InputDepSets), outputIDs: slices.Clone(a.OutputIDs)})
	}
}

// repeatsDeferred says whether a, deferred as d, is the last action
// deferred with d again: its target, inputs and outputs too. It then
// counts once more.
func (w *worker) repeatsDeferred(d *check.Deferred, a *aquery.Action) bool {
	if !d.Shared {
		return false
	}
	i, ok := w.lastDeferred[d]
	if !ok {
		return false
	}
	last := &w.deferred[i]
	if last.targetID != a.TargetID || !slices.Equal(w.deferredIDs[last.start:last.mid], a.InputDepSets) ||
		!slices.Equal(w.deferredIDs[last.mid:last.end], a.OutputIDs) {
		return false
	}
	last.count++
	return true
}

// checkPrograms is the Programs step: it names the outputs and inputs of
// every deferred action, gives it the workspace's files, and runs the
// checks that deferred it, on n goroutines.
func checkPrograms(graph *aquery.Graph, workers []*worker, tree *execroot.Tree, n int) *finding.Set {
	var all []*deferredAction
	var recordOf []*worker
	for _, w := range workers {
		for i := range w.deferred {
			all = append(all, &w.deferred[i])
			recordOf = append(recordOf, w)
		}
	}
	if tree != nil {
		tree.Generated = generated(graph, workers)
	}
	sets := make([]*finding.Set, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for g := range n {
		sets[g] = finding.NewSet()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(all); i = int(next.Add(1) - 1) {
				d, w := all[i], recordOf[i]
				act := d.what.Action
				act.TargetID = d.targetID
				for _, id := range w.deferredIDs[d.mid:d.end] {
					if p, ok := graph.ArtifactPath(id); ok {
						act.Outputs = append(act.Outputs, p)
					}
				}
				if tree != nil {
					var inputs []string
					graph.Inputs(w.deferredIDs[d.start:d.mid], func(_ uint32, p string) bool { inputs = append(inputs, p); return true })
					act.Files = tree.For(inputs)
				}
				for _, c := range d.what.Checks {
					c.Run(&act, func(f finding.Finding) {
						sets[g].Add(f, d.count)
						if w.byAction != nil {
							r := &w.byAction[d.record]
							r.findings = append(r.findings, f)
						}
					})
				}
			}
		}()
	}
	wg.Wait()
	for _, w := range workers {
		w.deferred, w.deferredIDs, w.lastDeferred, w.generators = nil, nil, nil, nil
	}
	for _, s := range sets[1:] {
		sets[0].Merge(s)
	}
	return sets[0]
}

// generated names every launcher the graph makes by the action that makes
// it.
func generated(graph *aquery.Graph, workers []*worker) map[string]execroot.Generator {
	out := map[string]execroot.Generator{}
	for _, w := range workers {
		for _, g := range w.generators {
			var inputs []string
			graph.Inputs(g.inputDepSets, func(_ uint32, p string) bool { inputs = append(inputs, p); return true })
			for _, id := range g.outputIDs {
				if p, ok := graph.ArtifactPath(id); ok {
					out[p] = execroot.Generator{Mnemonic: g.mnemonic, Target: graph.Target(g.targetID), Inputs: inputs}
				}
			}
		}
	}
	return out
}

// checkInputs is the Inputs step: it finds the workspace status files each
// remembered action reaches and runs the Inputs checks over them.
func checkInputs(graph *aquery.Graph, checks []*check.Check, workers []*worker) *finding.Set {
	set := finding.NewSet()
	for _, w := range workers {
		for _, in := range w.withInputs {
			status := graph.StatusInputs(w.depSetIDs[in.start:in.end])
			if len(status) == 0 {
				continue
			}
			a := action.Action{Mnemonic: w.mnemonics[in.mnemonic], TargetID: in.targetID, StatusInputs: status}
			check.Run(checks, check.Inputs, &a, func(f finding.Finding) {
				set.Add(f, 1)
				if w.byAction != nil {
					r := &w.byAction[in.record]
					r.findings = append(r.findings, f)
				}
			})
		}
		w.withInputs, w.depSetIDs = nil, nil
	}
	return set
}
