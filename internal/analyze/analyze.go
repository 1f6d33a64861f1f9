// Package analyze runs the checks over every action of a graph as it is
// decoded, on all cores, and gathers what they find into one finding.Set.
//
// An action is checked in two parts. Its command line, environment and
// execution info are checked as soon as the decoder hands it over, so the
// dump is never held in memory. Its target label and the workspace status
// files among its inputs can only be known once the whole graph has been
// read (Bazel writes actions before the targets and dep sets they refer
// to), so each action keeps just its mnemonic, target id and input dep set
// ids, and is checked again at the end as an action with nothing but its
// inputs. Every check sees both parts; only the workspace status check
// finds anything in the second.
package analyze

import (
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/check"
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
	// is checked (for --verbose); it makes the run single-threaded. The
	// action's Target is not known yet.
	Visit func(i int, a *aquery.Action)
}

// Progress is a snapshot of a run.
type Progress struct {
	BytesRead int64
	Actions   int64 // checked so far
	Done      bool
}

// Result is what a run found.
type Result struct {
	Findings *finding.Set
	Actions  int
}

// worker is what one goroutine accumulates. Workers share nothing, so
// they never wait on each other.
type worker struct {
	set    *finding.Set
	report func(finding.Finding) // adds to set; made once, not per action
	// What the second part of each action's check needs, kept compact: a
	// million actions' worth must not cost more than the findings.
	pending   []inputs
	depSetIDs []uint32 // the inputs' dep set ids, back to back
	mnemonics []string // by index; inputs.mnemonic indexes it
	mnemonic  map[string]uint32
	// The last placeholder made: an action's neighbours usually belong to
	// the same target, so this saves most placeholder allocations.
	lastID     uint32
	lastTarget string
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
	// Each decoding goroutine takes a worker from the pool for one action
	// and puts it back; there are as many workers as goroutines, so taking
	// one never blocks for long.
	pool := make(chan *worker, n)
	workers := make([]*worker, n)
	for i := range workers {
		w := &worker{set: finding.NewSet()}
		w.report = func(f finding.Finding) { w.set.Add(f, 1) }
		workers[i] = w
		pool <- w
	}
	visited := 0
	var checked atomic.Int64
	// Nothing of an action outlives its check: a finding is copied into
	// its set, and worker.check copies the mnemonic and the input dep set
	// ids. So the decoder may reuse actions and the memory they were
	// decoded from.
	decodeOpts := aquery.Options{Format: opts.Format, Workers: n, ReuseActions: true}
	if opts.Progress != nil {
		decodeOpts.Progress = func(b int64) { opts.Progress(Progress{BytesRead: b, Actions: checked.Load()}) }
	}
	graph, err := aquery.Decode(r, name, decodeOpts, func(a *aquery.Action) error {
		if opts.Visit != nil {
			opts.Visit(visited, a)
			visited++
		}
		w := <-pool
		w.check(checks, a)
		pool <- w
		checked.Add(1)
		return nil
	})
	if err != nil {
		return Result{}, err
	}

	// The second part: what each action reads, now that dep sets are
	// known.
	status := finding.NewSet()
	report := func(f finding.Finding) { status.Add(f, 1) }
	sets := []*finding.Set{status}
	for _, w := range workers {
		sets = append(sets, w.set)
		for _, in := range w.pending {
			inputs := graph.StatusInputs(w.depSetIDs[in.start:in.end])
			if len(inputs) == 0 {
				continue
			}
			a := action.Action{Mnemonic: w.mnemonics[in.mnemonic], Target: placeholder(in.targetID), StatusInputs: inputs}
			for _, c := range checks {
				c.Run(&a, report)
			}
		}
		w.pending, w.depSetIDs = nil, nil
	}
	if opts.Progress != nil {
		opts.Progress(Progress{Actions: checked.Load(), Done: true})
	}
	all := finding.Union(sets, func(target string) (string, bool) {
		if id, ok := parsePlaceholder(target); ok {
			return graph.Target(id), true
		}
		return "", false
	})
	return Result{Findings: all, Actions: graph.Actions()}, nil
}

func (w *worker) check(checks []*check.Check, a *aquery.Action) {
	if a.TargetID != w.lastID || w.lastTarget == "" {
		w.lastID, w.lastTarget = a.TargetID, placeholder(a.TargetID)
	}
	a.Target = w.lastTarget
	if len(a.InputDepSets) > 0 {
		m, ok := w.mnemonic[a.Mnemonic]
		if !ok {
			if w.mnemonic == nil {
				w.mnemonic = make(map[string]uint32)
			}
			m = uint32(len(w.mnemonics))
			w.mnemonic[a.Mnemonic] = m
			w.mnemonics = append(w.mnemonics, strings.Clone(a.Mnemonic))
		}
		start := len(w.depSetIDs)
		w.depSetIDs = append(w.depSetIDs, a.InputDepSets...)
		w.pending = append(w.pending, inputs{mnemonic: m, targetID: a.TargetID, start: uint32(start), end: uint32(len(w.depSetIDs))})
	}
	for _, c := range checks {
		c.Run(&a.Action, w.report)
	}
}

// inputs is what the second part of an action's check needs.
type inputs struct {
	mnemonic   uint32 // index into worker.mnemonics
	targetID   uint32
	start, end uint32 // the dep set ids are worker.depSetIDs[start:end]
}

// A placeholder stands for a target label until the targets have been
// read. It starts with a control byte, which no Bazel label contains, and
// not with NUL, which finding keys escape: relabelling a key whose target
// needs no unescaping is the fast path.
const placeholderPrefix = "\x01target:"

func placeholder(id uint32) string {
	return placeholderPrefix + strconv.FormatUint(uint64(id), 10)
}

func parsePlaceholder(s string) (uint32, bool) {
	rest, ok := strings.CutPrefix(s, placeholderPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 10, 32)
	return uint32(n), err == nil
}
