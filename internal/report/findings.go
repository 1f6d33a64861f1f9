package report

import (
	"iter"

	"github.com/ahab-go/ahab/internal/finding"
)

// Findings is a report's findings in report order (§8.2), read by index.
// *finding.Ordered is one, decoding each finding as it is asked for, so
// that a report of a million findings is never held decoded; Slice adapts
// a slice.
type Findings interface {
	Len() int
	At(i int) finding.Counted
	Occurrences() int // the sum of the counts
}

// Slice is findings already decoded and in order.
type Slice []finding.Counted

// Len is the number of findings.
func (s Slice) Len() int { return len(s) }

// At returns the i-th finding.
func (s Slice) At(i int) finding.Counted { return s[i] }

// Occurrences is the sum of the counts.
func (s Slice) Occurrences() int {
	n := 0
	for _, c := range s {
		n += c.Count
	}
	return n
}

// all yields every finding in order.
func all(fs Findings) iter.Seq[finding.Counted] {
	return func(yield func(finding.Counted) bool) {
		for i := range fs.Len() {
			if !yield(fs.At(i)) {
				return
			}
		}
	}
}
