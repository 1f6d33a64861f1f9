package aquery

import (
	"io"
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
// decoded on the workers too, into a graphLog, as are the references of
// each action, and one more goroutine replays the logs into the builder in
// dump order, so that repeated ids and dangling references are found
// exactly where a sequential read finds them: Bazel writes hundreds of
// thousands of these small elements in sections of their own, where the
// workers would otherwise wait. Strings are cut from a batch's bytes
// without copying (see elementDecoder.owned).
type pipeline struct {
	work chan *batch // every batch, for the workers
	// ordered holds every batch in the order it was sent, for the
	// goroutine that replays its log once its worker is done.
	ordered chan *batch
	// free holds batches whose every element has been handed over and
	// whose memory nobody keeps (ReuseActions for actions; graph batches
	// always), for the stream to fill again: a dump's worth of memory is
	// then never allocated.
	free    chan *batch
	recycle bool
	// batchCap is the capacity a new batch starts with: less than
	// batchBytes when the whole dump is smaller.
	batchCap int

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

// batch is consecutive elements of one kind (actions, or the graph's
// other elements), back to back in data as the dump frames them, each with
// its tag and length. The reading goroutine writes nothing per element but
// its bytes, and a worker walks the framing again: every worker waits on
// the one reader, so the reader does the least it can.
type batch struct {
	data    []byte
	n       int        // how many elements
	runs    []batchRun // where data comes from in the dump
	first   counts     // each field's count before the batch's elements
	actions bool       // a batch of actions, or of the graph's other elements
	// What the worker decoded, and a signal that it is done.
	log     graphLog
	decoded chan struct{}
}

// counts is how many elements of each container field have been read.
type counts [fieldPathFragments + 1]int

// batchRun says that data, from pos on and until the next run, is the
// dump from off on, byte for byte.
type batchRun struct {
	pos int
	off int64
}

// cursor walks a batch's elements.
type cursor struct {
	bt     *batch
	pos    int
	run    int
	counts counts
	// The current element.
	num  protowire.Number
	body []byte
	off  int64 // where it starts in the dump
}

func (bt *batch) cursor() cursor { return cursor{bt: bt, counts: bt.first} }

// next moves to the next element, reporting false after the last. The
// reader checked the framing, so it is not checked again.
func (c *cursor) next() bool {
	data := c.bt.data
	if c.pos >= len(data) {
		return false
	}
	runs := c.bt.runs
	for c.run+1 < len(runs) && runs[c.run+1].pos <= c.pos {
		c.run++
	}
	c.off = runs[c.run].off + int64(c.pos-runs[c.run].pos)
	tag, n := protowire.ConsumeVarint(data[c.pos:])
	size, m := protowire.ConsumeVarint(data[c.pos+n:])
	c.num = protowire.Number(tag >> 3)
	c.counts[c.num]++
	start := c.pos + n + m
	c.pos = start + int(size)
	c.body = data[start:c.pos]
	return true
}

func (c *cursor) entry() entryName { return entryName{c.num, c.counts[c.num]} }

func (c *cursor) place() place { return place{off: c.off, index: c.counts[c.num], num: c.num} }

const (
	// batchElems and batchBytes bound a batch: enough to make channel
	// traffic small next to the work, small enough to spread the work.
	batchElems = 1024
	batchBytes = 256 << 10
)

func newPipeline(s *stream, b *builder, workers int, reuse bool, fn func(int, *Action) error, configuration func(uint32, string)) *pipeline {
	p := &pipeline{
		work:     make(chan *batch, 2*workers),
		ordered:  make(chan *batch, 2*workers+4),
		free:     make(chan *batch, 4*workers+8),
		recycle:  reuse,
		batchCap: min(batchBytes, s.r.Size()),
		failed:   make(chan struct{}),
	}
	for worker := range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			d := &elementDecoder{owned: true, configuration: configuration}
			if reuse {
				d.reuse = new(Action)
			}
			for bt := range p.work {
				c := bt.cursor()
				d.graph = &bt.log
				for c.next() {
					if !bt.actions {
						if err := d.element(c.num, c.body, c.place()); err != nil {
							p.fail(c.off, s.errorAt(c.entry(), c.off, err))
						}
						continue
					}
					a, err := d.action(c.body)
					if err != nil {
						p.fail(c.off, s.errorAt(c.entry(), c.off, err))
						continue
					}
					d.graph.action(c.place(), &d.refs)
					if err := fn(worker, a); err != nil {
						p.fail(c.off, err)
					}
				}
				bt.decoded <- struct{}{}
			}
		}()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		// Every batch sent is decoded, even after a failure, and replayed,
		// so that the failure reported is the earliest in dump order
		// whatever the timing. The builder copies what it keeps, so a
		// batch is free once replayed, unless fn may keep its actions'
		// strings.
		for bt := range p.ordered {
			<-bt.decoded
			if at, err := bt.log.replay(b); err != nil {
				p.fail(at.off, s.errorAt(at.entry(), at.off, err))
			}
			if !bt.actions || p.recycle {
				p.release(bt)
			}
		}
	}()
	return p
}

// read reads the body of an element, n bytes, from the stream into the
// batch for its kind, framed as tag and length again, and sends the batch
// on when it is full. The element is already counted in s.counts; off is
// where it starts in the dump.
func (p *pipeline) read(s *stream, num protowire.Number, n int, entry entryName, off int64) error {
	bt := p.pending(num, &s.counts)
	start := len(bt.data)
	bt.data = protowire.AppendTag(bt.data, num, protowire.BytesType)
	bt.data = protowire.AppendVarint(bt.data, uint64(n))
	// The framing written may be shorter than the dump's, whose varints
	// may be padded: the next element's place then starts a run of its
	// own.
	bt.place(start, off)
	var err error
	if bt.data, err = s.r.ReadAppend(bt.data, n); err != nil {
		// The batch keeps its whole elements only: it is still decoded,
		// for an error in them may come earlier in the dump.
		bt.data = bt.data[:start]
		if last := len(bt.runs) - 1; last >= 0 && bt.runs[last].pos == start {
			bt.runs = bt.runs[:last]
		}
		return s.errorAt(entry, off, err)
	}
	return p.added(bt, num)
}

// add copies into the batch for its kind an element the stream holds in
// its buffer, framing included, and sends the batch on when it is full.
// The element is already counted in s.counts; off is where it starts in
// the dump.
func (p *pipeline) add(s *stream, num protowire.Number, element []byte, off int64) error {
	bt := p.pending(num, &s.counts)
	bt.place(len(bt.data), off)
	bt.data = append(bt.data, element...)
	return p.added(bt, num)
}

// place records that bt.data[pos:] comes from the dump at off, unless the
// last run already says so.
func (bt *batch) place(pos int, off int64) {
	if n := len(bt.runs); n > 0 && bt.runs[n-1].off+int64(pos-bt.runs[n-1].pos) == off {
		return
	}
	bt.runs = append(bt.runs, batchRun{pos: pos, off: off})
}

// pending is the batch being filled for elements of kind num, whose next
// element is the last one counted.
func (p *pipeline) pending(num protowire.Number, counted *counts) *batch {
	pending := &p.pendingGraph
	if num == fieldActions {
		pending = &p.pendingActions
		p.actionCount++
	}
	if *pending == nil {
		bt := p.batch(num == fieldActions)
		bt.first = *counted
		bt.first[num]--
		*pending = bt
	}
	return *pending
}

// added counts the element just copied into bt, sending the batch on when
// it is full.
func (p *pipeline) added(bt *batch, num protowire.Number) error {
	bt.n++
	if bt.n >= batchElems || len(bt.data) >= batchBytes {
		if num == fieldActions {
			p.pendingActions = nil
		} else {
			p.pendingGraph = nil
		}
		return p.send(bt)
	}
	return nil
}

// send hands a batch to the workers and queues it for replay in dump
// order. It always delivers, for the workers and the replaying goroutine
// go on until the end; it says when a failure means reading should stop.
func (p *pipeline) send(bt *batch) error {
	p.ordered <- bt
	p.work <- bt
	select {
	case <-p.failed:
		return errPipelineFailed
	default:
		return nil
	}
}

// errPipelineFailed stops reading; wait then returns the failure itself.
var errPipelineFailed = &Error{Err: io.ErrClosedPipe, Offset: -1}

// batch returns an empty batch, a recycled one when there is one.
func (p *pipeline) batch(actions bool) *batch {
	var bt *batch
	select {
	case bt = <-p.free:
	default:
		bt = &batch{data: make([]byte, 0, p.batchCap), decoded: make(chan struct{}, 1)}
	}
	bt.actions = actions
	return bt
}

// release makes a batch available again. A batch that grew past the usual
// size for one huge element is dropped rather than kept.
func (p *pipeline) release(bt *batch) {
	if cap(bt.data) > 2*batchBytes {
		return
	}
	bt.data, bt.n, bt.runs = bt.data[:0], 0, bt.runs[:0]
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
			if bt != nil && bt.n > 0 {
				p.send(bt)
			}
		}
		close(p.work)
		close(p.ordered)
		p.wg.Wait()
		p.work = nil
	}
	return p.err
}

// ownedString returns b as a string sharing b's memory. It is only for
// bytes nobody writes to while the string is in use: a batch is refilled
// only once fn is done with its actions (ReuseActions), and never
// otherwise; a graph's target labels are never written again.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
