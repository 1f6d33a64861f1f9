package report

import (
	"bytes"
	"strings"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/rogpeppe/go-internal/diff"
)

// Diff compares two reports of mode m for --expect-json (§8.6): the
// pretty JSON of each, expected as the old side, as a unified diff without the file
// header, every line ending in "\n". Lines are coloured by their first
// character when color is set (§1.6). Diff is empty when the reports are
// equal. Both must be in finding.Compare order.
//
// The diff is go-internal's, which matches lines that occur once in each
// side first: every entry of a report names its target, so a big report
// diffs in O(n log n) and aligns on the findings themselves rather than
// on their many identical "}," lines.
func Diff(expected, found Findings, m mode.Mode, color bool) string {
	d := diff.Diff("expected", []byte(renderJSON(expected, m)), "found", []byte(renderJSON(found, m)))
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
