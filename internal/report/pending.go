package report

import (
	"io"
	"os"
	"sync/atomic"
)

// WriteJSONFileWithText writes the JSON report to path as WriteJSONFileOf
// does and, in the same pass over findings, renders the text report. The
// text report may only be written once the JSON report is safely in place
// (§1.3); rendering it while the JSON report is written and synced decodes
// each finding once rather than twice. The returned PendingText writes the
// whole text report.
func WriteJSONFileWithText(path string, findings Findings, opts TextOptions) (*PendingText, error) {
	return writeJSONFileWithText(path, findings, opts, textHoldBudget, "")
}

// writeJSONFileWithText holds up to budget bytes of text in memory and
// spills the rest into a temporary file in spillDir ("" for the system's).
func writeJSONFileWithText(path string, findings Findings, opts TextOptions, budget int, spillDir string) (*PendingText, error) {
	t := &PendingText{text: newTextRenderer(findings, opts), budget: budget, spillDir: spillDir}
	n := findings.Len()
	if n == 0 {
		return t, WriteJSONFileOf(path, findings)
	}
	err := writeJSONFile(path, func(w io.Writer) error {
		return renderChunks(0, n,
			func(c *chunk) {
				c.out[0] = appendJSONChunk(c.out[0], findings, c.lo, c.hi)
				if !t.stopped.Load() {
					c.out[1] = t.text.append(c.out[1], c.lo, c.hi)
				}
			},
			func(c *chunk) error {
				t.hold(c)
				_, err := w.Write(c.out[0])
				return err
			})
	})
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// textHoldBudget is how much text a PendingText holds in memory: the whole
// report of a big graph, little next to what such a graph costs. The rest
// goes to a temporary file, which costs a write into the page cache rather
// than rendering it again.
const textHoldBudget = 32 << 20

// PendingText is a text report rendered while the JSON report was written:
// the text of findings [0, upTo), in memory up to a budget and then in an
// unlinked temporary file. Whatever could not be kept (no temporary file
// could be written) is rendered when the text is written.
type PendingText struct {
	text     *textRenderer
	budget   int
	spillDir string

	held  [][]byte // the first chunks' text
	size  int      // of held
	spill *os.File // the next chunks' text, when held is full
	spilt int64    // bytes in spill
	upTo  int
	// stopped says nothing more is kept: later chunks' text is not
	// rendered, and one rendered meanwhile is dropped.
	stopped atomic.Bool
}

// hold keeps c's text if it follows what is kept.
func (t *PendingText) hold(c *chunk) {
	text := c.out[1]
	if t.stopped.Load() || c.lo != t.upTo || len(text) == 0 {
		t.stopped.Store(true)
		return
	}
	if t.spill == nil && t.size+len(text) <= t.budget {
		t.held = append(t.held, text)
		t.size += len(text)
		t.upTo = c.hi
		c.out[1] = nil // the chunk's next buffer is a new one
		return
	}
	if t.spill == nil {
		f, err := os.CreateTemp(t.spillDir, "ahab-text-*")
		if err != nil {
			t.stopped.Store(true)
			return
		}
		// Unlinked at once where the system allows it, so that nothing
		// is left behind whatever becomes of the run; elsewhere close
		// removes it.
		os.Remove(f.Name())
		t.spill = f
	}
	if _, err := t.spill.Write(text); err != nil {
		t.stopped.Store(true)
		return
	}
	t.spilt += int64(len(text))
	t.upTo = c.hi
}

// WriteTo writes the text report to w: what was kept, then the rest,
// rendered now. It releases what was kept, so it is called once.
func (t *PendingText) WriteTo(w io.Writer) (int64, error) {
	defer t.close()
	cw := &countingWriter{w: w}
	for _, b := range t.held {
		if _, err := cw.Write(b); err != nil {
			return cw.n, err
		}
	}
	if t.spill != nil {
		if _, err := io.Copy(cw, io.NewSectionReader(t.spill, 0, t.spilt)); err != nil {
			return cw.n, err
		}
	}
	if t.text.n > 0 && t.upTo >= t.text.n {
		return cw.n, nil
	}
	err := renderChunks(t.upTo, t.text.chunked(),
		func(c *chunk) { c.out[0] = t.text.append(c.out[0], c.lo, c.hi) },
		func(c *chunk) error {
			_, err := cw.Write(c.out[0])
			return err
		})
	return cw.n, err
}

func (t *PendingText) close() {
	t.held = nil
	if t.spill != nil {
		t.spill.Close()
		os.Remove(t.spill.Name())
		t.spill = nil
	}
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
