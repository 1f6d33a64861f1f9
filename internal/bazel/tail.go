package bazel

import (
	"bytes"
	"fmt"
	"strings"
)

// stderrLimit bounds how much of Bazel's stderr we keep. Bazel prints its
// progress there for the whole (possibly hour-long) aquery; the error that
// explains a failure is at the end.
const stderrLimit = 64 << 10

// stderrTail is an io.Writer keeping the last stderrLimit bytes written.
// os/exec writes it from one goroutine and we read it after Wait, so it
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
