package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/quote"
)

// progress says on standard error what a run is doing once it takes long
// enough to wonder: what Ahab does (phase), what Bazel says it does (its
// phase, targets, actions done, from its own stderr) and how far reading
// got. On a terminal that is one line, rewritten in place and cleared at
// the end; elsewhere (a pipe, CI), where a log would fill up with carriage
// returns, it is one line for each phase that lasts more than a second,
// and nothing for a quick run. A nil *progress shows nothing.
type progress struct {
	w        io.Writer
	prefix   string // "ahab", "ahab trace"
	terminal bool
	mu       sync.Mutex
	start    time.Time
	last     time.Time
	name     string // Ahab's phase
	bazelIs  bazel.Phase
	shown    bool
	// pending is the line of a phase that has not lasted a second yet.
	pending interface{ Stop() bool }
	// afterFunc is time.AfterFunc, or the test's.
	afterFunc func(time.Duration, func()) interface{ Stop() bool }
}

// phaseDelay is how long a phase runs before a line off a terminal says
// so, and lineDelay how long a run goes before the terminal's line shows.
const (
	phaseDelay = time.Second
	lineDelay  = 500 * time.Millisecond
)

func newProgress(sys System, prefix string) *progress {
	_, ci := sys.LookupEnv("CI")
	now := time.Now()
	return &progress{w: sys.Stderr, prefix: prefix, terminal: sys.StderrIsTerminal && !ci, start: now, last: now, name: "reading",
		afterFunc: func(d time.Duration, f func()) interface{ Stop() bool } { return time.AfterFunc(d, f) }}
}

// phase says what Ahab does now: "bazel aquery", "build 1 of 2".
func (p *progress) phase(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.name, p.bazelIs = name, 0
	if p.terminal {
		p.draw(quote.Visible(name) + "…")
		return
	}
	p.later(name)
}

// later prints the line of a phase off a terminal once it has lasted
// phaseDelay, unless another phase comes first.
func (p *progress) later(what string) {
	if p.pending != nil {
		p.pending.Stop()
	}
	line := fmt.Sprintf("%s: %s…\n", p.prefix, quote.Visible(what))
	var t interface{ Stop() bool }
	t = p.afterFunc(phaseDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.pending == t {
			io.WriteString(p.w, line)
			p.pending = nil
		}
	})
	p.pending = t
}

// onBazel is Runner.Progress: what Bazel says it does.
func (p *progress) onBazel(b bazel.Progress) {
	if p == nil || b.Phase == bazel.Message {
		return // Bazel's errors reach the user in Ahab's, whole
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := b.Phase != p.bazelIs
	p.bazelIs = b.Phase
	if !p.terminal {
		if changed {
			what := b.Command + ": " + b.Phase.String()
			if p.name != b.Command && p.name != "reading" {
				// Which of Ahab's phases it is: "build 2 of 2 in …".
				what = p.name + " (" + what + ")"
			}
			p.later(what)
		}
		return
	}
	if changed || p.due() {
		p.draw(b.Command + ": " + quote.Visible(b.Line))
	}
}

// update is called for every chunk the decoder reads.
func (p *progress) update(s analyze.Progress) {
	if p == nil || !p.terminal {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.due() {
		return
	}
	p.draw(fmt.Sprintf("%s: %.1f MB read, %d actions checked", p.name, float64(s.BytesRead)/1e6, s.Actions))
}

// logs is update for the two execution logs ahab diff reads at once: it
// is called from both readers with the bytes each has read.
func (p *progress) logs(old, new *atomic.Int64, total int64) {
	if p == nil || !p.terminal {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.due() {
		return
	}
	p.draw(fmt.Sprintf("reading the logs: %.1f of %.1f MB", float64(old.Load()+new.Load())/1e6, float64(total)/1e6))
}

// due says whether to redraw now: at most ten times a second, and only
// once a run has taken long enough to matter.
func (p *progress) due() bool {
	now := time.Now()
	if now.Sub(p.start) < lineDelay || now.Sub(p.last) < 100*time.Millisecond {
		return false
	}
	p.last = now
	return true
}

func (p *progress) draw(line string) {
	if time.Since(p.start) < lineDelay {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

// clear ends the progress: the terminal's line is wiped, a phase line not
// yet printed never is.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != nil {
		p.pending.Stop()
		p.pending = nil
	}
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
