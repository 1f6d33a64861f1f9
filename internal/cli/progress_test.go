package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/bazel"
)

// manualTimers stands in for time.AfterFunc: the test says when a timer
// fires.
type manualTimers struct{ due []*manualTimer }

type manualTimer struct {
	f       func()
	stopped bool
}

func (m *manualTimer) Stop() bool { was := !m.stopped; m.stopped = true; return was }

func (m *manualTimers) afterFunc(_ time.Duration, f func()) interface{ Stop() bool } {
	t := &manualTimer{f: f}
	m.due = append(m.due, t)
	return t
}

// fire runs the timers that were not stopped, as time would.
func (m *manualTimers) fire() {
	for _, t := range m.due {
		if !t.stopped {
			t.stopped = true
			t.f()
		}
	}
	m.due = nil
}

// Off a terminal, a phase says so in one line once it has lasted a
// second, and a quick one not at all.
func TestProgressOffATerminal(t *testing.T) {
	for _, env := range []map[string]string{nil, {"CI": "true"}} {
		sys, _, stderr := testSystem(env)
		sys.StderrIsTerminal = env != nil // CI on a terminal counts as a log
		p := newProgress(sys, "ahab reprotest")
		var timers manualTimers
		p.afterFunc = timers.afterFunc
		p.phase("build 1 of 2")
		p.onBazel(bazel.Progress{Command: "bazel build", Phase: bazel.Loading, Line: "Loading: 0 packages loaded"})
		p.onBazel(bazel.Progress{Command: "bazel build", Phase: bazel.Loading, Line: "Loading: 3 packages loaded"})
		p.onBazel(bazel.Progress{Command: "bazel build", Phase: bazel.Building, Line: "[3 / 10] Executing genrule //a:b"})
		timers.fire() // the build has gone on for a second
		p.phase("build 2 of 2")
		p.clear() // it ended at once
		timers.fire()
		if got, want := stderr.String(), "ahab reprotest: build 1 of 2 (bazel build: building)…\n"; got != want {
			t.Errorf("env %v: stderr %q, want %q", env, got, want)
		}
	}
}

func TestProgressOnATerminal(t *testing.T) {
	sys, _, stderr := testSystem(nil)
	sys.StderrIsTerminal = true
	p := newProgress(sys, "ahab")
	p.start = time.Now().Add(-time.Second) // a run long enough to report on
	p.last = p.start
	p.update(analyze.Progress{BytesRead: 12_500_000, Actions: 4200})
	if !strings.Contains(stderr.String(), "12.5 MB read, 4200 actions checked") {
		t.Errorf("progress line %q", stderr)
	}
	p.onBazel(bazel.Progress{Command: "bazel aquery", Phase: bazel.Analyzing, Line: "Analyzing: 11 targets (2 packages loaded, 0 targets configured)\x1b[31m"})
	if !strings.HasSuffix(stderr.String(), "\r\x1b[Kbazel aquery: Analyzing: 11 targets (2 packages loaded, 0 targets configured)\\u{1b}[31m") {
		t.Errorf("Bazel's line, escaped, is not the progress line: %q", stderr)
	}
	p.clear()
	if !strings.HasSuffix(stderr.String(), "\r\x1b[K") {
		t.Errorf("progress line not cleared: %q", stderr)
	}
	var nothing *progress
	nothing.phase("x") // a nil progress shows nothing
	nothing.clear()
}
