package report

import (
	"bytes"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
)

// manyFindings is a report big enough to be rendered in several chunks.
func manyFindings(n int) []finding.Counted {
	set := finding.NewSet()
	for i := range n {
		set.Add(finding.Finding{
			Kind:   finding.AbsolutePath,
			Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//pkg" + strconv.Itoa(i) + ":lib"},
			Path:   "/opt/include",
			Site:   finding.Site{Location: finding.Argument, Value: "-I/opt/include"},
		}, 1+i%3)
	}
	return set.Sorted()
}

// Rendering in chunks on every core writes the same bytes as one goroutine
// writing one finding after another, and the JSON reads back to the set.
func TestChunkedRenderingIsSequentialRendering(t *testing.T) {
	findings := manyFindings(5*chunkLen + 17)
	render := func() (json, text string) {
		var j, x bytes.Buffer
		if err := WriteJSON(&j, findings); err != nil {
			t.Fatal(err)
		}
		if err := WriteText(&x, findings, TextOptions{Note: "(a note)"}); err != nil {
			t.Fatal(err)
		}
		return j.String(), x.String()
	}
	parJSON, parText := render()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	seqJSON, seqText := render()
	if parJSON != seqJSON {
		t.Error("the JSON report rendered on several cores differs from one rendered on one")
	}
	if parText != seqText {
		t.Error("the text report rendered on several cores differs from one rendered on one")
	}
	if n := strings.Count(parText, "\n  "); n != len(findings)+1 {
		t.Errorf("%d report lines, want %d findings and the note", n, len(findings))
	}
	set, err := ReadJSON(strings.NewReader(parJSON))
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Sorted(); len(got) != len(findings) || got[len(got)-1].Action != findings[len(findings)-1].Action {
		t.Errorf("the JSON report reads back to %d findings, want %d", len(got), len(findings))
	}
}

// A failed write is reported, and stops nothing from finishing.
func TestChunkedRenderingReportsWriteErrors(t *testing.T) {
	err := writeChunks(failingWriter{}, 10*chunkLen, func(b []byte, lo, hi int) []byte { return append(b, 'x') })
	if err == nil || err.Error() != "disk full" {
		t.Errorf("err = %v, want disk full", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

var errDiskFull = errors.New("disk full")
