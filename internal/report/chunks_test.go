package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// Both reports rendered in one pass are the reports rendered one after the
// other, whether the text was held whole in memory, partly in memory and
// partly in a temporary file, or partly not at all (no temporary file
// could be made), on one core or several.
func TestJSONFileWithText(t *testing.T) {
	opts := TextOptions{Note: "(a note)"}
	for _, n := range []int{0, 1, chunkLen, 3*chunkLen + 5} {
		findings := Slice(manyFindings(n))
		var wantText bytes.Buffer
		if err := WriteTextOf(&wantText, findings, opts); err != nil {
			t.Fatal(err)
		}
		var wantJSON bytes.Buffer
		if err := WriteJSONOf(&wantJSON, findings); err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{0, wantText.Len() / 2, textHoldBudget} {
			for _, spill := range []string{"spill", "none"} {
				for _, procs := range []int{1, 4} {
					name := fmt.Sprintf("%d_findings/budget_%d/%s/%d_procs", n, budget, spill, procs)
					t.Run(name, func(t *testing.T) {
						defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
						dir := t.TempDir()
						spillDir := filepath.Join(dir, "spill")
						if spill == "spill" {
							os.Mkdir(spillDir, 0o755)
						}
						path := filepath.Join(dir, "report.json")
						pending, err := writeJSONFileWithText(path, findings, opts, budget, spillDir)
						if err != nil {
							t.Fatal(err)
						}
						if got, err := os.ReadFile(path); err != nil || string(got) != wantJSON.String() {
							t.Errorf("the JSON report differs from WriteJSONOf's (err %v)", err)
						}
						var text bytes.Buffer
						if _, err := pending.WriteTo(&text); err != nil {
							t.Fatal(err)
						}
						if text.String() != wantText.String() {
							t.Errorf("the text report differs from WriteTextOf's:\n%s", diffLines(wantText.String(), text.String()))
						}
						if left, _ := os.ReadDir(spillDir); len(left) > 0 {
							t.Errorf("%d temporary files left behind", len(left))
						}
					})
				}
			}
		}
	}
}

// A JSON report that cannot be written leaves no text to print.
func TestJSONFileWithTextFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "report.json")
	pending, err := WriteJSONFileWithText(path, Slice(manyFindings(10)), TextOptions{})
	if err == nil || pending != nil {
		t.Errorf("writing into a missing directory: pending %v, err %v; want an error and nothing pending", pending, err)
	}
}

// diffLines shows the first line where two texts part.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(w), len(g))
}
