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
	chunks := (n + chunkLen - 1) / chunkLen
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		var b []byte
		for lo := 0; lo < n; lo += chunkLen {
			b = render(b[:0], lo, min(lo+chunkLen, n))
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	type job struct {
		lo, hi int
		done   chan *[]byte
	}
	// inOrder holds each chunk's result channel in chunk order; its size
	// bounds how far rendering runs ahead of writing.
	inOrder := make(chan chan *[]byte, 2*workers)
	jobs := make(chan job)
	// Buffers are recycled by hand rather than through a sync.Pool, which
	// every collection empties: a chunk's buffer grows to its size once.
	buffers := make(chan *[]byte, 3*workers+1)
	go func() {
		defer close(jobs)
		defer close(inOrder)
		for lo := 0; lo < n; lo += chunkLen {
			done := make(chan *[]byte, 1)
			inOrder <- done
			jobs <- job{lo: lo, hi: min(lo+chunkLen, n), done: done}
		}
	}()
	var largest atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				var b *[]byte
				select {
				case b = <-buffers:
				default:
					// A new buffer starts at the size chunks have had, so it
					// does not grow by doubling through every size below.
					b = new([]byte)
					*b = make([]byte, 0, largest.Load()*9/8)
				}
				*b = render((*b)[:0], j.lo, j.hi)
				if n := int64(len(*b)); n > largest.Load() {
					largest.Store(n) // a race only costs a smaller hint
				}
				j.done <- b
			}
		})
	}
	var err error
	for done := range inOrder {
		b := <-done
		if err == nil {
			_, err = w.Write(*b)
		}
		select {
		case buffers <- b:
		default:
		}
	}
	wg.Wait()
	return err
}
