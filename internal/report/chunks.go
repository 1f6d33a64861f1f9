package report

import (
	"bytes"
	"io"
	"runtime"
	"sync"

	"github.com/ahab-go/ahab/internal/finding"
)

// Findings is a report's findings in report order (§8.2), read by index,
// possibly from several goroutines at once. *finding.Ordered is one;
// Slice adapts a slice.
type Findings interface {
	Len() int
	At(i int) finding.Counted
}

// Slice is findings already decoded and in order.
type Slice []finding.Counted

// Len is the number of findings.
func (s Slice) Len() int { return len(s) }

// At returns the i-th finding.
func (s Slice) At(i int) finding.Counted { return s[i] }

func occurrences(fs Findings) int {
	n := 0
	for i := range fs.Len() {
		n += fs.At(i).Count
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
// the speed of all cores, yet never held whole. render writes findings
// [lo, hi) to b. The first write error is returned once every goroutine
// has finished.
func writeChunks(w io.Writer, n int, render func(b *bytes.Buffer, lo, hi int)) error {
	chunks := (n + chunkLen - 1) / chunkLen
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		var b bytes.Buffer
		for lo := 0; lo < n; lo += chunkLen {
			b.Reset()
			render(&b, lo, min(lo+chunkLen, n))
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
		}
		return nil
	}
	type job struct {
		lo, hi int
		done   chan *bytes.Buffer
	}
	// inOrder holds each chunk's result channel in chunk order; its size
	// bounds how far rendering runs ahead of writing.
	inOrder := make(chan chan *bytes.Buffer, 2*workers)
	jobs := make(chan job)
	buffers := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	go func() {
		defer close(jobs)
		defer close(inOrder)
		for lo := 0; lo < n; lo += chunkLen {
			done := make(chan *bytes.Buffer, 1)
			inOrder <- done
			jobs <- job{lo: lo, hi: min(lo+chunkLen, n), done: done}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				b := buffers.Get().(*bytes.Buffer)
				b.Reset()
				render(b, j.lo, j.hi)
				j.done <- b
			}
		})
	}
	var err error
	for done := range inOrder {
		b := <-done
		if err == nil {
			_, err = w.Write(b.Bytes())
		}
		buffers.Put(b)
	}
	wg.Wait()
	return err
}
