package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
)

func TestProgressOnlyOnATerminalOutsideCI(t *testing.T) {
	sys, _, _ := testSystem(nil)
	if newProgress(sys) != nil {
		t.Error("progress on a pipe")
	}
	sys, _, _ = testSystem(map[string]string{"CI": "true"})
	sys.StderrIsTerminal = true
	if newProgress(sys) != nil {
		t.Error("progress under CI")
	}
	sys, _, stderr := testSystem(nil)
	sys.StderrIsTerminal = true
	p := newProgress(sys)
	if p == nil {
		t.Fatal("no progress on a terminal")
	}
	p.start = time.Now().Add(-time.Second) // a run long enough to report on
	p.last = p.start
	p.update(analyze.Progress{BytesRead: 12_500_000, Actions: 4200})
	if !strings.Contains(stderr.String(), "12.5 MB read, 4200 actions checked") {
		t.Errorf("progress line %q", stderr)
	}
	p.clear()
	if !strings.HasSuffix(stderr.String(), "\r\x1b[K") {
		t.Errorf("progress line not cleared: %q", stderr)
	}
}
