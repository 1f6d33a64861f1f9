package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
)

// progress shows on a terminal how far a long run got, on one stderr line
// that is rewritten in place and cleared at the end. It is never shown on
// a pipe or under CI, where a log would fill up with carriage returns.
type progress struct {
	w     io.Writer
	mu    sync.Mutex
	start time.Time
	last  time.Time
	name  string
	shown bool
}

func newProgress(sys System) *progress {
	if !sys.StderrIsTerminal {
		return nil
	}
	if _, ci := sys.LookupEnv("CI"); ci {
		return nil
	}
	now := time.Now()
	return &progress{w: sys.Stderr, start: now, last: now, name: "reading"}
}

func (p *progress) phase(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.name = name
	p.draw(fmt.Sprintf("%s…", name))
}

// update is called for every chunk the decoder reads.
func (p *progress) update(s analyze.Progress) {
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
	if now.Sub(p.start) < 500*time.Millisecond || now.Sub(p.last) < 100*time.Millisecond {
		return false
	}
	p.last = now
	return true
}

func (p *progress) draw(line string) {
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
