package report

import (
	"bytes"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/rogpeppe/go-internal/diff"
)

// Diff compares two reports of mode m for --expect-json (§8.6): the
// pretty JSON of each, with C1 controls escaped since the diff is shown on
// a terminal, expected as the old side, as a unified diff without the file
// header, every line ending in "\n". Lines are coloured by their first
// character when color is set (§1.6). Diff is empty when the reports are
// equal. Both must be in finding.Compare order.
//
// The diff is go-internal's, which matches lines that occur once in each
// side first: every entry of a report names its target, so a big report
// diffs in O(n log n) and aligns on the findings themselves rather than
// on their many identical "}," lines.
func Diff(expected, found Findings, m mode.Mode, color bool) string {
	d := diff.Diff("expected", renderVisibleJSON(expected, m), "found", renderVisibleJSON(found, m))
	if d == nil {
		return ""
	}
	// The header (diff, ---, +++) names nothing worth a line here.
	for range 3 {
		if i := bytes.IndexByte(d, '\n'); i >= 0 {
			d = d[i+1:]
		}
	}
	p := Palette{Color: color}
	var out strings.Builder
	for line := range strings.Lines(string(d)) {
		out.WriteString(p.diffLine(strings.TrimSuffix(line, "\n")))
		out.WriteByte('\n')
	}
	return out.String()
}

// renderVisibleJSON is the report's JSON as a diff shows it on a
// terminal: the C1 controls JSON writes raw escaped (TerminalJSON), the
// final newline left out.
func renderVisibleJSON(findings Findings, m mode.Mode) []byte {
	var b bytes.Buffer
	w := NewTerminalJSON(&b)
	WriteJSON(w, findings, m)
	w.Flush()
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Changes lists how found differs from expected, both in finding.Compare
// order: the findings only found (added), only expected (removed), and
// those in both with another count (changed, with the count found).
func Changes(expected, found Findings) (added, removed, changed []finding.Counted) {
	i, j := 0, 0
	for i < expected.Len() || j < found.Len() {
		switch {
		case j == found.Len():
			removed = append(removed, expected.At(i))
			i++
		case i == expected.Len():
			added = append(added, found.At(j))
			j++
		default:
			e, f := expected.At(i), found.At(j)
			switch c := finding.Compare(&e.Finding, &f.Finding); {
			case c < 0:
				removed = append(removed, e)
				i++
			case c > 0:
				added = append(added, f)
				j++
			default:
				if e.Count != f.Count {
					changed = append(changed, f)
				}
				i++
				j++
			}
		}
	}
	return added, removed, changed
}
