package aquery

import (
	"sync"
	"unsafe"
)

// actionPool decodes actions on several goroutines while the stream reads
// on. Reading a dump is little more than copying bytes; decoding actions and
// checking them is the work, and it parallelises: each action's body is
// copied out of the stream's buffer once, and every string of the action is
// cut from that copy without further copies (see owned).
type actionPool struct {
	jobs chan actionJob
	// free holds bodies fn is done with, for the stream to read the next
	// actions into, when fn keeps nothing of an action (ReuseActions):
	// a dump's worth of bodies is then never allocated.
	free chan []byte
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error // the failure with the lowest offset
	off  int64
	// failed is set once any worker fails, so the reader stops early.
	failed chan struct{}
	once   sync.Once
}

type actionJob struct {
	body  []byte
	entry entryName
	start int64
}

// poolBatch is how many actions travel together, to keep channel traffic
// small next to the work.
const poolBatch = 64

// maxRecycled is the largest body kept for reuse: a rare huge action must
// not pin its buffer for the rest of the run.
const maxRecycled = 64 << 10

func newActionPool(s *stream, workers int, reuse bool, fn func(*Action) error) *actionPool {
	p := &actionPool{jobs: make(chan actionJob, workers*poolBatch), failed: make(chan struct{})}
	if reuse {
		p.free = make(chan []byte, 2*workers*poolBatch)
	}
	for range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			d := &elementDecoder{owned: true}
			if reuse {
				d.reuse = new(Action)
			}
			for job := range p.jobs {
				a, err := d.action(job.body)
				if err != nil {
					p.fail(job.start, s.errorAt(job.entry, job.start, err))
					continue
				}
				if err := fn(a); err != nil {
					p.fail(job.start, err)
				}
				if p.free != nil && cap(job.body) <= maxRecycled {
					select {
					case p.free <- job.body[:0]:
					default:
					}
				}
			}
		}()
	}
	return p
}

// body returns a buffer of n bytes for the next action: a recycled one
// when one is free and big enough.
func (p *actionPool) body(n int) []byte {
	if p.free != nil {
		select {
		case b := <-p.free:
			if cap(b) >= n {
				return b[:n]
			}
		default:
		}
	}
	return make([]byte, n)
}

// submit hands an action's body to a worker; the pool owns body from now on.
func (p *actionPool) submit(body []byte, entry entryName, start int64) error {
	select {
	case p.jobs <- actionJob{body: body, entry: entry, start: start}:
		return nil
	case <-p.failed:
		return p.wait()
	}
}

func (p *actionPool) fail(off int64, err error) {
	p.mu.Lock()
	if p.err == nil || off < p.off {
		p.err, p.off = err, off
	}
	p.mu.Unlock()
	p.once.Do(func() { close(p.failed) })
}

// wait lets the workers finish and returns the first failure in dump order.
func (p *actionPool) wait() error {
	if p.jobs != nil {
		close(p.jobs)
		// Every queued action is still decoded, so that the failure
		// reported is the earliest in dump order whatever the timing.
		p.wg.Wait()
		p.jobs = nil
	}
	return p.err
}

// ownedString returns b as a string sharing b's memory. It is only for
// bytes nobody writes to again: an action body handed to the pool.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
