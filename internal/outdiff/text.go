package outdiff

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// diffText compares two texts line by line: the same lines in another
// order are one difference of Order; otherwise each differing line of
// the block between the common first and last lines is one, paired with
// the line at the same place in the other version.
func (d *Diagnoser) diffText(c *collector, a, b []byte) {
	la, lb := lines(a), lines(b)
	if moved, ok := reordered(la, lb); ok {
		c.add(Difference{At: "line " + strconv.Itoa(moved+1), What: "order", Old: excerptLine(la[moved], 0), New: excerptLine(lb[moved], 0),
			Class: Order, Why: fmt.Sprintf("the same %d lines in another order", len(la))})
		return
	}
	pre := 0
	for pre < len(la) && pre < len(lb) && bytes.Equal(la[pre], lb[pre]) {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && bytes.Equal(la[len(la)-1-suf], lb[len(lb)-1-suf]) {
		suf++
	}
	ba, bb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	if len(ba) > 1 && len(ba) == len(bb) {
		if moved, ok := reordered(ba, bb); ok {
			c.add(Difference{At: "line " + strconv.Itoa(pre+moved+1), What: "order", Old: excerptLine(ba[moved], 0), New: excerptLine(bb[moved], 0),
				Class: Order, Why: fmt.Sprintf("the same %d lines in another order", len(ba))})
			return
		}
	}
	for i := range max(len(ba), len(bb)) {
		at := "line " + strconv.Itoa(pre+i+1)
		switch {
		case i >= len(ba):
			c.add(Difference{At: at, What: "only in build 2", New: excerptLine(bb[i], 0), Class: Unclassified})
		case i >= len(bb):
			c.add(Difference{At: at, What: "only in build 1", Old: excerptLine(ba[i], 0), Class: Unclassified})
		case !bytes.Equal(ba[i], bb[i]):
			d.linePair(c, at, "contents", ba[i], bb[i])
		}
	}
}

// linePair adds the differences between two versions of a line, or of a
// string: one for each class that its differing parts name, at the first
// part that names it.
func (d *Diagnoser) linePair(c *collector, at, what string, a, b []byte) {
	var seen [numClasses]bool
	for _, x := range lineParts(a, b) {
		class, why := d.classify.span(a, b, x)
		if seen[class] {
			continue
		}
		seen[class] = true
		c.add(Difference{At: at, What: what, Old: excerptLine(a, x.pa), New: excerptLine(b, x.pb), Class: class, Why: why})
	}
}

// maxParts bounds how many differing parts of a line are classified one
// by one, and maxPartsBytes the stretch of the line they lie in: past
// them the line is one part.
const (
	maxParts      = 8
	maxPartsBytes = 4 * window
)

// lineParts returns where two versions of a line differ: by fields (runs
// of bytes other than spaces and tabs) when both hold as many, each run of
// adjacent differing fields a part, so that each is classified by what
// it holds (an ls -l line's mode, owners and time); else as one part,
// from the first differing byte to the last.
func lineParts(a, b []byte) []part {
	all := whole(a, b)
	// The fields before the first differing byte and after the last are
	// the same in both: split only the stretch between them.
	start := all.pa
	for start > 0 && !isBlank(a[start-1]) {
		start--
	}
	endA, endB := all.ea, all.eb
	for endA < len(a) && !isBlank(a[endA]) {
		endA, endB = endA+1, endB+1
	}
	if max(endA, endB)-start > maxPartsBytes {
		return []part{all}
	}
	fa, fb := fields(a, start, endA), fields(b, start, endB)
	if len(fa) != len(fb) || len(fa) < 2 {
		return []part{all}
	}
	var parts []part
	for i := 0; i < len(fa); i++ {
		if bytes.Equal(a[fa[i][0]:fa[i][1]], b[fb[i][0]:fb[i][1]]) {
			continue
		}
		j := i
		for j+1 < len(fa) && !bytes.Equal(a[fa[j+1][0]:fa[j+1][1]], b[fb[j+1][0]:fb[j+1][1]]) {
			j++
		}
		if len(parts) == maxParts {
			return []part{all}
		}
		w := whole(a[fa[i][0]:fa[j][1]], b[fb[i][0]:fb[j][1]])
		parts = append(parts, part{fa[i][0] + w.pa, fa[i][0] + w.ea, fb[i][0] + w.pb, fb[i][0] + w.eb})
		i = j
	}
	if len(parts) == 0 {
		return []part{all} // only the blanks differ
	}
	return parts
}

// fields returns where the fields of s[start:end] are.
func fields(s []byte, start, end int) [][2]int {
	var fs [][2]int
	for i := start; i < end; {
		for i < end && isBlank(s[i]) {
			i++
		}
		j := i
		for j < end && !isBlank(s[j]) {
			j++
		}
		if j > i {
			fs = append(fs, [2]int{i, j})
		}
		i = j
	}
	return fs
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// differing returns where a and b differ: a[p:ea] and b[p:eb], after
// their longest common prefix and before their longest common suffix,
// both cut at UTF-8 character boundaries.
func differing(a, b []byte) (p, ea, eb int) {
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && (p < len(a) && !utf8.RuneStart(a[p]) || p < len(b) && !utf8.RuneStart(b[p])) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, len(a) - s, len(b) - s
}

// reordered says whether a and b hold the same lines in another order,
// and the first line that moved.
func reordered(a, b [][]byte) (int, bool) {
	if len(a) != len(b) || len(a) < 2 {
		return 0, false
	}
	first := -1
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return 0, false
	}
	sa, sb := slices.Clone(a[first:]), slices.Clone(b[first:])
	slices.SortFunc(sa, bytes.Compare)
	slices.SortFunc(sb, bytes.Compare)
	for i := range sa {
		if !bytes.Equal(sa[i], sb[i]) {
			return 0, false
		}
	}
	return first, true
}

// lines splits text into lines without their "\n"; a final line without
// one counts.
func lines(s []byte) [][]byte {
	if len(s) == 0 {
		return nil
	}
	ls := bytes.SplitAfter(s, []byte("\n"))
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = bytes.TrimSuffix(l, []byte("\n"))
	}
	return ls
}

// excerptBefore and excerptAfter bound how much of a long line is shown
// around its first difference.
const (
	excerptBefore = 32
	excerptAfter  = 64
)

// excerptLine is line around byte p, with "…" where it was cut, as valid
// UTF-8.
func excerptLine(line []byte, p int) string {
	start := max(0, p-excerptBefore)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	end := min(len(line), p+excerptAfter)
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	var sb strings.Builder
	if start > 0 {
		sb.WriteString("…")
	}
	sb.WriteString(strings.ToValidUTF8(string(line[start:end]), "\uFFFD"))
	if end < len(line) {
		sb.WriteString("…")
	}
	return sb.String()
}
