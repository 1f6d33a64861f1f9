package aquery

import (
	"io"
	"slices"
	"sync"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// pipeline decodes a binary dump on several goroutines while the stream
// reads on. Reading is little more than copying bytes; decoding is the
// work. The reading goroutine only splits the dump into elements and copies
// each into a batch: batches of actions go to the workers, which decode
// each action and hand it to fn; batches of the graph's other elements
// (targets, dep sets, artifacts, path fragments) go, in dump order, to one
// goroutine that builds the graph, so that duplicate ids resolve exactly as
// a sequential read resolves them. Strings are cut from a batch's bytes
// without copying (see elementDecoder.owned).
type pipeline struct {
	actions chan *batch
	graph   chan *batch
	// free holds batches whose every element has been handed over and
	// whose memory nobody keeps (ReuseActions for actions; graph batches
	// always), for the stream to fill again: a dump's worth of memory is
	// then never allocated.
	free    chan *batch
	recycle bool

	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error // the failure with the lowest offset
	off    int64
	failed chan struct{} // closed on the first failure, so reading stops
	once   sync.Once

	// The batches being filled by the reading goroutine, and how many
	// actions it has read.
	pendingActions, pendingGraph *batch
	actionCount                  int
}

// batch is consecutive elements of one kind, back to back in data.
type batch struct {
	data  []byte
	elems []batchElem
}

type batchElem struct {
	num        protowire.Number
	start, end int // the element's bytes are data[start:end]
	entry      entryName
	off        int64 // where the element starts in the dump, for errors
}

const (
	// batchElems and batchBytes bound a batch: enough to make channel
	// traffic small next to the work, small enough to spread the work.
	batchElems = 128
	batchBytes = 256 << 10
)

func newPipeline(s *stream, b *builder, workers int, reuse bool, fn func(*Action) error) *pipeline {
	p := &pipeline{
		actions: make(chan *batch, 2*workers),
		graph:   make(chan *batch, 4),
		free:    make(chan *batch, 2*workers+8),
		recycle: reuse,
		failed:  make(chan struct{}),
	}
	for range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			d := &elementDecoder{owned: true}
			if reuse {
				d.reuse = new(Action)
			}
			for bt := range p.actions {
				for _, e := range bt.elems {
					a, err := d.action(bt.data[e.start:e.end])
					if err != nil {
						p.fail(e.off, s.errorAt(e.entry, e.off, err))
						continue
					}
					if err := fn(a); err != nil {
						p.fail(e.off, err)
					}
				}
				if reuse {
					p.release(bt)
				}
			}
		}()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		// The builder copies what it keeps, so graph batches are always
		// reused.
		d := &elementDecoder{b: b}
		for bt := range p.graph {
			for _, e := range bt.elems {
				if err := d.element(e.num, bt.data[e.start:e.end]); err != nil {
					p.fail(e.off, s.errorAt(e.entry, e.off, err))
				}
			}
			p.release(bt)
		}
	}()
	return p
}

// read reads an element of n bytes from the stream into the batch for its
// kind, sending the batch on when it is full.
func (p *pipeline) read(s *stream, num protowire.Number, n int, entry entryName, off int64) error {
	pending, out := &p.pendingGraph, p.graph
	if num == fieldActions {
		pending, out = &p.pendingActions, p.actions
		p.actionCount++
	}
	if *pending == nil {
		*pending = p.batch()
	}
	bt := *pending
	start := len(bt.data)
	// Grown without zeroing: the read overwrites every byte.
	bt.data = slices.Grow(bt.data, n)[:start+n]
	got, err := io.ReadFull(s.br, bt.data[start:])
	s.off += int64(got)
	if err := s.truncated(err, got, n); err != nil {
		return s.errorAt(entry, off, err)
	}
	bt.elems = append(bt.elems, batchElem{num: num, start: start, end: start + n, entry: entry, off: off})
	if len(bt.elems) >= batchElems || len(bt.data) >= batchBytes {
		*pending = nil
		return p.send(out, bt)
	}
	return nil
}

func (p *pipeline) send(out chan *batch, bt *batch) error {
	select {
	case out <- bt:
		return nil
	case <-p.failed:
		return errPipelineFailed
	}
}

// errPipelineFailed stops reading; wait then returns the failure itself.
var errPipelineFailed = &Error{Err: io.ErrClosedPipe, Offset: -1}

// batch returns an empty batch, a recycled one when there is one.
func (p *pipeline) batch() *batch {
	select {
	case bt := <-p.free:
		return bt
	default:
		return &batch{data: make([]byte, 0, batchBytes)}
	}
}

// release makes a batch available again. A batch that grew past the usual
// size for one huge element is dropped rather than kept.
func (p *pipeline) release(bt *batch) {
	if cap(bt.data) > 2*batchBytes {
		return
	}
	bt.data, bt.elems = bt.data[:0], bt.elems[:0]
	select {
	case p.free <- bt:
	default:
	}
}

func (p *pipeline) fail(off int64, err error) {
	p.mu.Lock()
	if p.err == nil || off < p.off {
		p.err, p.off = err, off
	}
	p.mu.Unlock()
	p.once.Do(func() { close(p.failed) })
}

// wait sends the last batches, lets the goroutines finish and returns the
// first failure in dump order, if any.
func (p *pipeline) wait() error {
	if p.actions != nil {
		for _, pb := range []struct {
			bt  *batch
			out chan *batch
		}{{p.pendingActions, p.actions}, {p.pendingGraph, p.graph}} {
			if pb.bt != nil && len(pb.bt.elems) > 0 {
				p.send(pb.out, pb.bt)
			}
		}
		close(p.actions)
		close(p.graph)
		// Every queued element is still decoded, so that the failure
		// reported is the earliest in dump order whatever the timing.
		p.wg.Wait()
		p.actions = nil
	}
	return p.err
}

// ownedString returns b as a string sharing b's memory. It is only for
// bytes nobody writes to while the string is in use: a batch is refilled
// only once fn is done with its actions (ReuseActions), and never
// otherwise.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
