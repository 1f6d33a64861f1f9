package report

import (
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ahab-go/ahab/internal/finding"
)

// Findings is a report's findings in report order (§8.2), read by index,
// possibly from several goroutines at once. *finding.Ordered is one;
// Slice adapts a slice.
type Findings interface {
	Len() int
	At(i int) finding.Counted
	Occurrences() int // the sum of the counts
}

// Slice is findings already decoded and in order.
type Slice []finding.Counted

// Len is the number of findings.
func (s Slice) Len() int { return len(s) }

// At returns the i-th finding.
func (s Slice) At(i int) finding.Counted { return s[i] }

// Occurrences is the sum of the counts.
func (s Slice) Occurrences() int {
	n := 0
	for _, c := range s {
		n += c.Count
	}
	return n
}

func collect(fs Findings) []finding.Counted {
	out := make([]finding.Counted, fs.Len())
	for i := range out {
		out[i] = fs.At(i)
	}
	return out
}

// chunkLen is how many findings one goroutine renders at a time: enough
// to make the hand-over cheap, few enough that the chunks in flight are a
// few megabytes whatever the size of the report.
const chunkLen = 1024

// writeChunks renders findings [0, n) in chunks on every core and writes
// the chunks to w in order: a report of a million findings is written at
// the speed of all cores, yet never held whole. render appends findings
// [lo, hi) to b and returns the result. The first write error is returned
// once every goroutine has finished.
func writeChunks(w io.Writer, n int, render func(b []byte, lo, hi int) []byte) error {
	return renderChunks(0, n,
		func(c *chunk) { c.out[0] = render(c.out[0], c.lo, c.hi) },
		func(c *chunk) error {
			_, err := w.Write(c.out[0])
			return err
		})
}

// chunk is one run of findings, [lo, hi), and what was rendered of it
// for each of up to two outputs.
type chunk struct {
	lo, hi int
	out    [2][]byte
}

// renderChunks renders findings [from, n) in chunks on every core and hands
// the chunks to consume in order. render appends to each c.out (they come
// empty); consume may keep a buffer by setting it to nil. After consume
// fails, later chunks are still rendered but no longer consumed, and its
// error is returned once every goroutine has finished.
func renderChunks(from, n int, render func(c *chunk), consume func(c *chunk) error) error {
	chunks := (n - from + chunkLen - 1) / chunkLen
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		c := new(chunk)
		for lo := from; lo < n; lo += chunkLen {
			c.lo, c.hi = lo, min(lo+chunkLen, n)
			c.out[0], c.out[1] = c.out[0][:0], c.out[1][:0]
			render(c)
			if err := consume(c); err != nil {
				return err
			}
		}
		return nil
	}
	// inOrder holds each chunk's result channel in chunk order; its size
	// bounds how far rendering runs ahead of consuming.
	inOrder := make(chan chan *chunk, 2*workers)
	type job struct {
		lo, hi int
		done   chan *chunk
	}
	jobs := make(chan job)
	// Chunks are recycled by hand rather than through a sync.Pool, which
	// every collection empties: a chunk's buffers grow to their size once.
	free := make(chan *chunk, 3*workers+1)
	go func() {
		defer close(jobs)
		defer close(inOrder)
		for lo := from; lo < n; lo += chunkLen {
			done := make(chan *chunk, 1)
			inOrder <- done
			jobs <- job{lo: lo, hi: min(lo+chunkLen, n), done: done}
		}
	}()
	var largest [2]atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				var c *chunk
				select {
				case c = <-free:
				default:
					c = new(chunk)
				}
				for i := range c.out {
					if c.out[i] == nil {
						// A new buffer starts at the size chunks have had, so
						// it does not grow by doubling through every size
						// below.
						c.out[i] = make([]byte, 0, largest[i].Load()*9/8)
					}
					c.out[i] = c.out[i][:0]
				}
				c.lo, c.hi = j.lo, j.hi
				render(c)
				for i := range c.out {
					if n := int64(len(c.out[i])); n > largest[i].Load() {
						largest[i].Store(n) // a race only costs a smaller hint
					}
				}
				j.done <- c
			}
		})
	}
	var err error
	for done := range inOrder {
		c := <-done
		if err == nil {
			err = consume(c)
		}
		select {
		case free <- c:
		default:
		}
	}
	wg.Wait()
	return err
}
