package finding

import (
	"slices"
	"strings"
)

// Counted is a distinct finding and how many times it occurred.
type Counted struct {
	Finding
	Count int
}

// Set merges identical findings, counting occurrences. The zero value is
// not usable; call NewSet. A Set is not safe for concurrent use: give each
// worker its own and combine them (Merge, ResolveTargets), which gives the
// same result in any order.
//
// A big graph has hundreds of thousands of distinct findings, so a Set
// keeps each one as its key (see key.go): one string, a fraction of the
// size of a Finding, that sorts in report order and decodes back. The key
// copies every string, so a finding built from substrings of a large
// buffer, as the decoder hands them out, does not keep that buffer alive.
type Set struct {
	counts  map[string]int
	sorted  []entry // the entries in key order; nil when counts has changed since
	scratch []byte
}

// entry is one distinct finding: its key and its count.
type entry struct {
	key   string
	count int
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{counts: make(map[string]int)} }

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	s.scratch = appendKey(s.scratch[:0], &f)
	s.addKey(s.scratch, n)
}

func (s *Set) addKey(key []byte, n int) {
	if _, ok := s.counts[string(key)]; ok { // no allocation
		s.counts[string(key)] += n
	} else {
		s.counts[string(key)] = n
	}
	s.sorted = nil
}

// Merge adds every finding of o to s, leaving o as it was.
func (s *Set) Merge(o *Set) {
	for k, n := range o.counts {
		s.counts[k] += n
	}
	s.sorted = nil
}

// ResolveTargets returns one set holding every finding of sets with the
// label of its target in place of the target's id (ActionRef.TargetID).
// Checks name an action's target by its id because a dump lists actions
// before the targets they belong to; this is the one step that turns ids
// into labels, once the whole graph has been read. Findings that already
// carry a label keep it; one with neither is of an action whose target_id
// is absent, i.e. 0, which label answers as Ahab 0.2 did (§3.0: the
// target whose id is 0, or "<unknown target>").
func ResolveTargets(sets []*Set, label func(id uint32) string) *Set {
	out := NewSet()
	var key []byte
	for _, s := range sets {
		for k, n := range s.counts {
			f := decodeKey(k)
			if f.Action.Target == "" {
				f.Action.Target, f.Action.TargetID = label(f.Action.TargetID), 0
			}
			key = appendKey(key[:0], &f)
			out.addKey(key, n)
		}
	}
	return out
}

// Len is the number of distinct findings.
func (s *Set) Len() int { return len(s.counts) }

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Sorted returns the findings in report order (§8.2).
func (s *Set) Sorted() []Counted {
	o := s.Ordered()
	out := make([]Counted, o.Len())
	for i := range out {
		out[i] = o.At(i)
	}
	return out
}

// Ordered returns the findings in report order (§8.2) as a view that
// decodes each finding only when it is asked for, so that writing a report
// of a million findings never holds a million decoded findings. The set
// must not change while the view is in use.
func (s *Set) Ordered() *Ordered {
	if s.sorted == nil {
		s.sorted = make([]entry, 0, len(s.counts))
		for k, n := range s.counts {
			s.sorted = append(s.sorted, entry{k, n})
		}
		// Keys are built so that their byte order is report order.
		slices.SortFunc(s.sorted, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	}
	return &Ordered{entries: s.sorted}
}

// Ordered is a set's findings in report order.
type Ordered struct {
	entries []entry
}

// Len is the number of distinct findings.
func (o *Ordered) Len() int { return len(o.entries) }

// At decodes the i-th finding.
func (o *Ordered) At(i int) Counted {
	e := o.entries[i]
	return Counted{Finding: decodeKey(e.key), Count: e.count}
}

// Occurrences is the total count.
func (o *Ordered) Occurrences() int {
	n := 0
	for _, e := range o.entries {
		n += e.count
	}
	return n
}

// Equal reports whether two sets hold the same findings with the same
// counts.
func (s *Set) Equal(o *Set) bool {
	if len(s.counts) != len(o.counts) {
		return false
	}
	for k, n := range s.counts {
		if m, ok := o.counts[k]; !ok || m != n {
			return false
		}
	}
	return true
}

// Has reports whether s holds f.
func (s *Set) Has(f Finding) bool {
	s.scratch = appendKey(s.scratch[:0], &f)
	_, ok := s.counts[string(s.scratch)]
	return ok
}
