package bazel

import (
	"bytes"
	"fmt"
	"strings"
)

// stderrLimit bounds how much of Bazel's stderr is kept. Bazel prints its
// progress there for the whole (possibly hour-long) command; the error that
// explains a failure is at the end.
const stderrLimit = 64 << 10

// stderrTail is an io.Writer keeping the last stderrLimit bytes written.
// One goroutine writes it and it is read once the writer is done, so it
// needs no lock.
type stderrTail struct {
	buf     []byte
	dropped int64 // bytes discarded from the front
}

func (t *stderrTail) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= stderrLimit {
		t.dropped += int64(len(t.buf) + len(p) - stderrLimit)
		t.buf = append(t.buf[:0], p[len(p)-stderrLimit:]...)
		return n, nil
	}
	t.buf = append(t.buf, p...)
	// Compact only when twice over the limit, so each byte is copied O(1) times.
	if len(t.buf) > 2*stderrLimit {
		cut := len(t.buf) - stderrLimit
		t.dropped += int64(cut)
		t.buf = append(t.buf[:0], t.buf[cut:]...)
	}
	return n, nil
}

// String returns the kept text as valid UTF-8 (invalid bytes become U+FFFD,
// as Rust's lossy decoding does). When output was dropped, it says so and
// starts at a line boundary rather than mid-line.
func (t *stderrTail) String() string {
	kept := t.buf
	dropped := t.dropped
	if len(kept) > stderrLimit {
		dropped += int64(len(kept) - stderrLimit)
		kept = kept[len(kept)-stderrLimit:]
	}
	if dropped == 0 {
		return strings.ToValidUTF8(string(kept), "\uFFFD")
	}
	if i := bytes.IndexByte(kept, '\n'); i >= 0 && i < len(kept)-1 {
		dropped += int64(i + 1)
		kept = kept[i+1:]
	}
	return fmt.Sprintf("[%d earlier bytes of Bazel's stderr omitted]\n", dropped) +
		strings.ToValidUTF8(string(kept), "\uFFFD")
}

// lastLines is the end of text: its last n lines.
func lastLines(text string, n int) string {
	end := len(text)
	for i := 0; i < n; i++ {
		j := strings.LastIndexByte(text[:end], '\n')
		if j < 0 {
			return text
		}
		if i == n-1 {
			return text[j+1:]
		}
		end = j
	}
	return text
}

// maxLine bounds a line of stderr handed to Runner.Progress; the rest of
// a longer line is dropped.
const maxLine = 4 << 10

// lineSplitter is an io.Writer that hands each complete line written to
// it, without its newline, to line.
type lineSplitter struct {
	line func(string)
	part []byte
	long bool // the line being gathered is over maxLine
}

func (s *lineSplitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			break
		}
		s.add(p[:i])
		s.line(string(s.part))
		s.part, s.long = s.part[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (s *lineSplitter) add(b []byte) {
	if s.long {
		return
	}
	if len(s.part)+len(b) > maxLine {
		b, s.long = b[:maxLine-len(s.part)], true
	}
	s.part = append(s.part, b...)
}

// flush hands on an unfinished last line.
func (s *lineSplitter) flush() {
	if len(s.part) > 0 {
		s.line(string(s.part))
		s.part = s.part[:0]
	}
}
