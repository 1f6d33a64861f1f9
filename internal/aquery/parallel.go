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
// each into a batch of elements of one kind, and every batch goes to the
// workers. A worker decodes each action and hands it to fn. The graph's
// other elements (targets, dep sets, artifacts, path fragments) are
// decoded on the workers too, into a graphLog, and one more goroutine
// replays the logs into the builder in dump order, so that duplicate ids
// resolve exactly as a sequential read resolves them: Bazel writes
// hundreds of thousands of these small elements in sections of their own,
// where the workers would otherwise wait. Strings are cut from a batch's
// bytes without copying (see elementDecoder.owned).
type pipeline struct {
	work chan *batch // every batch, for the workers
	// graph holds the graph batches in dump order, for the goroutine that
	// replays them once their worker is done.
	graph chan *batch
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
	// For graph batches: what the worker decoded, and a signal that it is
	// done.
	log     graphLog
	decoded chan struct{}
}

// batchElem is one element of a batch, kept small: the reading goroutine
// writes one per element into memory a worker last read.
type batchElem struct {
	off        int64  // where the element starts in the dump, for errors
	start, end uint32 // the element's bytes are data[start:end]
	index      uint32 // the element's number among those of its field
	num        uint8  // the container field
}

func (e *batchElem) entry() entryName {
	return entryName{protowire.Number(e.num), int(e.index)}
}

const (
	// batchElems and batchBytes bound a batch: enough to make channel
	// traffic small next to the work, small enough to spread the work.
	batchElems = 1024
	batchBytes = 256 << 10
)

func newPipeline(s *stream, b *builder, workers int, reuse bool, fn func(*Action) error) *pipeline {
	p := &pipeline{
		work:    make(chan *batch, 2*workers),
		graph:   make(chan *batch, 2*workers+4),
		free:    make(chan *batch, 4*workers+8),
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
			for bt := range p.work {
				if bt.decoded != nil {
					d.graph = &bt.log
					for _, e := range bt.elems {
						if err := d.element(protowire.Number(e.num), bt.data[e.start:e.end]); err != nil {
							p.fail(e.off, s.errorAt(e.entry(), e.off, err))
						}
					}
					bt.decoded <- struct{}{}
					continue
				}
				for _, e := range bt.elems {
					a, err := d.action(bt.data[e.start:e.end])
					if err != nil {
						p.fail(e.off, s.errorAt(e.entry(), e.off, err))
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
		for bt := range p.graph {
			select {
			case <-bt.decoded:
				bt.log.replay(b)
				p.release(bt)
			case <-p.failed:
				// The graph is thrown away; the batch may never have
				// reached a worker, or a worker may still be reading it,
				// so it is neither waited for nor reused.
			}
		}
	}()
	return p
}

// read reads an element of n bytes from the stream into the batch for its
// kind, sending the batch on when it is full.
func (p *pipeline) read(s *stream, num protowire.Number, n int, entry entryName, off int64) error {
	bt := p.pending(num)
	start := len(bt.data)
	// Grown without zeroing: the read overwrites every byte.
	bt.data = slices.Grow(bt.data, n)[:start+n]
	got, err := io.ReadFull(s.br, bt.data[start:])
	s.off += int64(got)
	if err := s.truncated(err, got, n); err != nil {
		return s.errorAt(entry, off, err)
	}
	return p.added(bt, num, start, entry, off)
}

// add copies into the batch for its kind an element the stream already
// holds in its buffer.
func (p *pipeline) add(num protowire.Number, body []byte, entry entryName, off int64) error {
	bt := p.pending(num)
	start := len(bt.data)
	bt.data = append(bt.data, body...)
	return p.added(bt, num, start, entry, off)
}

// pending is the batch being filled for elements of kind num.
func (p *pipeline) pending(num protowire.Number) *batch {
	pending := &p.pendingGraph
	if num == fieldActions {
		pending = &p.pendingActions
		p.actionCount++
	}
	if *pending == nil {
		*pending = p.batch(num != fieldActions)
	}
	return *pending
}

// added records the element that now ends bt.data, sending the batch on
// when it is full.
func (p *pipeline) added(bt *batch, num protowire.Number, start int, entry entryName, off int64) error {
	bt.elems = append(bt.elems, batchElem{off: off, start: uint32(start), end: uint32(len(bt.data)), index: uint32(entry.index), num: uint8(num)})
	if len(bt.elems) >= batchElems || len(bt.data) >= batchBytes {
		if num == fieldActions {
			p.pendingActions = nil
		} else {
			p.pendingGraph = nil
		}
		return p.send(bt)
	}
	return nil
}

// send hands a batch to the workers and, for a graph batch, queues it for
// replay in dump order.
func (p *pipeline) send(bt *batch) error {
	if bt.decoded != nil {
		select {
		case p.graph <- bt:
		case <-p.failed:
			return errPipelineFailed
		}
	}
	select {
	case p.work <- bt:
		return nil
	case <-p.failed:
		return errPipelineFailed
	}
}

// errPipelineFailed stops reading; wait then returns the failure itself.
var errPipelineFailed = &Error{Err: io.ErrClosedPipe, Offset: -1}

// batch returns an empty batch, a recycled one when there is one.
func (p *pipeline) batch(graph bool) *batch {
	var bt *batch
	select {
	case bt = <-p.free:
	default:
		bt = &batch{data: make([]byte, 0, batchBytes)}
	}
	if graph && bt.decoded == nil {
		bt.decoded = make(chan struct{}, 1)
	} else if !graph {
		bt.decoded = nil
	}
	return bt
}

// release makes a batch available again. A batch that grew past the usual
// size for one huge element is dropped rather than kept.
func (p *pipeline) release(bt *batch) {
	if cap(bt.data) > 2*batchBytes {
		return
	}
	bt.data, bt.elems = bt.data[:0], bt.elems[:0]
	bt.log.reset()
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
	if p.work != nil {
		for _, bt := range []*batch{p.pendingActions, p.pendingGraph} {
			if bt != nil && len(bt.elems) > 0 {
				p.send(bt)
			}
		}
		close(p.work)
		close(p.graph)
		// Every queued element is still decoded, so that the failure
		// reported is the earliest in dump order whatever the timing.
		p.wg.Wait()
		p.work = nil
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
