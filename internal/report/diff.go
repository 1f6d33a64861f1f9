package report

import (
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/ahab-go/ahab/internal/finding"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// Diff compares two reports for --expect-json (§8.6): the pretty JSON of
// each (expected is the old side) as a unified diff with three lines of
// context and no file header, every line ending in "\n". Lines are
// coloured by their first character when color is set (§1.6). Diff is
// empty when the reports are equal. Both lists must be in
// finding.Compare order.
func Diff(expected, found []finding.Counted, color bool) string {
	old, new := renderJSON(expected), renderJSON(found)
	if old == new {
		return ""
	}
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	// Autojunk would treat the many identical "}," lines of a large report
	// as noise and give a poor alignment.
	m := difflib.NewMatcherWithJunk(a, b, false, nil)
	p := Palette{Color: color}
	var out strings.Builder
	line := func(s string) {
		out.WriteString(p.diffLine(s))
		out.WriteByte('\n')
	}
	// Neither document ends in a newline, so its last line is marked when
	// it is shown, as diff(1) does.
	noNewline := func(last bool) {
		if last {
			line(`\ No newline at end of file`)
		}
	}
	for _, group := range m.GetGroupedOpCodes(diffContext) {
		first, last := group[0], group[len(group)-1]
		line("@@ -" + unifiedRange(first.I1, last.I2) + " +" + unifiedRange(first.J1, last.J2) + " @@")
		for _, op := range group {
			switch op.Tag {
			case 'e':
				for i := op.I1; i < op.I2; i++ {
					line(" " + a[i])
					noNewline(i == len(a)-1)
				}
				continue
			}
			if op.Tag == 'r' || op.Tag == 'd' {
				for i := op.I1; i < op.I2; i++ {
					line("-" + a[i])
					noNewline(i == len(a)-1)
				}
			}
			if op.Tag == 'r' || op.Tag == 'i' {
				for j := op.J1; j < op.J2; j++ {
					line("+" + b[j])
					noNewline(j == len(b)-1)
				}
			}
		}
	}
	return out.String()
}

// unifiedRange is the GNU form of a hunk range: the 1-based start, with
// the length only when it is not 1, and an empty range named by the line
// before it.
func unifiedRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return strconv.Itoa(begin)
	}
	if length == 0 {
		begin--
	}
	return strconv.Itoa(begin) + "," + strconv.Itoa(length)
}
