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
			c.add(d.linePair(at, ba[i], bb[i]))
		}
	}
}

// linePair is the difference between two versions of a line.
func (d *Diagnoser) linePair(at string, a, b []byte) Difference {
	p, ea, eb := differing(a, b)
	class, why := d.classify.span(a, b, p, ea, eb)
	return Difference{At: at, What: "contents", Old: excerptLine(a, p), New: excerptLine(b, p), Class: class, Why: why}
}

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
