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
	"sync"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/finding"
)

// Options tune a run. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is how many goroutines run checks; 0 means GOMAXPROCS.
	Workers int
	// Format forces the dump's format; 0 detects it from the content.
	Format aquery.Format
	// Progress, if set, is told how far decoding got. It is called from
	// the decoding goroutine only.
	Progress func(Progress)
	// Visit, if set, is called with every action in dump order before it
	// is checked (for --verbose). The action's Target is not known yet.
	Visit func(i int, a *aquery.Action)
}

// Progress is a snapshot of a run.
type Progress struct {
	BytesRead int64
	Actions   int
	Done      bool
}

// Result is what a run found.
type Result struct {
	Findings *finding.Set
	Actions  int
}

// batchSize trades channel overhead against load balance.
const batchSize = 256

// Dump decodes a dump from r (name is used in errors) and checks every
// action with checks. The result does not depend on the order of actions
// in the dump or on the number of workers.
func Dump(r io.Reader, name string, checks []*check.Check, opts Options) (Result, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	batches := make(chan []*aquery.Action, workers*2)
	sets := make([]*finding.Set, workers)
	var wg sync.WaitGroup
	for w := range workers {
		sets[w] = finding.NewSet()
		wg.Add(1)
		go func(set *finding.Set) {
			defer wg.Done()
			report := func(f finding.Finding) { set.Add(f, 1) }
			for batch := range batches {
				for _, a := range batch {
					for _, c := range checks {
						c.Run(&a.Action, report)
					}
				}
			}
		}(sets[w])
	}

	var (
		pending []inputs
		batch   = make([]*aquery.Action, 0, batchSize)
		count   int
	)
	var decodeOpts aquery.Options
	decodeOpts.Format = opts.Format
	if opts.Progress != nil {
		decodeOpts.Progress = func(n int64) { opts.Progress(Progress{BytesRead: n, Actions: count}) }
	}
	graph, err := aquery.Decode(r, name, decodeOpts, func(a *aquery.Action) error {
		if opts.Visit != nil {
			opts.Visit(count, a)
		}
		count++
		a.Target = placeholder(a.TargetID)
		if len(a.InputDepSets) > 0 {
			pending = append(pending, inputs{a.Mnemonic, a.TargetID, a.InputDepSets})
		}
		batch = append(batch, a)
		if len(batch) == batchSize {
			batches <- batch
			batch = make([]*aquery.Action, 0, batchSize)
		}
		return nil
	})
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	wg.Wait()
	if err != nil {
		return Result{}, err
	}

	all := finding.NewSet()
	for _, s := range sets {
		all.Merge(s)
	}
	// The second part: what each action reads, now that dep sets are known.
	report := func(f finding.Finding) { all.Add(f, 1) }
	for _, in := range pending {
		status := graph.StatusInputs(in.depSets)
		if len(status) == 0 {
			continue
		}
		a := action.Action{Mnemonic: in.mnemonic, Target: placeholder(in.targetID), StatusInputs: status}
		for _, c := range checks {
			c.Run(&a, report)
		}
	}
	if opts.Progress != nil {
		opts.Progress(Progress{Actions: count, Done: true})
	}
	resolved := all.Map(func(f *finding.Finding) {
		if id, ok := parsePlaceholder(f.Action.Target); ok {
			f.Action.Target = graph.Target(id)
		}
	})
	return Result{Findings: resolved, Actions: count}, nil
}

// inputs is what the second part of an action's check needs.
type inputs struct {
	mnemonic string
	targetID uint32
	depSets  []uint32
}

// A placeholder stands for a target label until the targets have been
// read. It starts with a NUL byte, which no Bazel label contains.
const placeholderPrefix = "\x00target:"

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
