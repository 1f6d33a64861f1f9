package finding

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/program"
)

// Counted is a distinct finding and how many times it occurred.
type Counted struct {
	Finding
	Count int
}

// Set merges identical findings, counting occurrences. The zero value is
// not usable; call NewSet. A Set is not safe for concurrent use: give each
// worker its own and Merge them, which gives the same result in any order.
type Set struct {
	m map[string]*Counted
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: make(map[string]*Counted)} }

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	k := key(&f)
	if c, ok := s.m[k]; ok {
		c.Count += n
		return
	}
	s.m[k] = &Counted{Finding: f, Count: n}
}

// Merge adds every finding of o to s.
func (s *Set) Merge(o *Set) {
	for k, c := range o.m {
		if mine, ok := s.m[k]; ok {
			mine.Count += c.Count
		} else {
			cp := *c
			s.m[k] = &cp
		}
	}
}

// Len is the number of distinct findings.
func (s *Set) Len() int { return len(s.m) }

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, c := range s.m {
		n += c.Count
	}
	return n
}

// Sorted returns the findings in report order (§8.2).
func (s *Set) Sorted() []Counted {
	out := make([]Counted, 0, len(s.m))
	for _, c := range s.m {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Counted) int { return Compare(&a.Finding, &b.Finding) })
	return out
}

// Map rebuilds the set with every finding passed through f, merging
// findings that become equal. It is how target placeholders are resolved
// once the whole graph has been read.
func (s *Set) Map(f func(*Finding)) *Set {
	out := NewSet()
	for _, c := range s.m {
		fd := c.Finding
		f(&fd)
		out.Add(fd, c.Count)
	}
	return out
}

// Equal reports whether two sets hold the same findings with the same counts.
func (s *Set) Equal(o *Set) bool {
	if len(s.m) != len(o.m) {
		return false
	}
	for k, c := range s.m {
		oc, ok := o.m[k]
		if !ok || oc.Count != c.Count {
			return false
		}
	}
	return true
}

// key encodes every field of a finding unambiguously, so that equal keys
// mean equal findings. Strings are length-prefixed.
func key(f *Finding) string {
	var b strings.Builder
	var buf [binary.MaxVarintLen64]byte
	num := func(n uint64) { b.Write(buf[:binary.PutUvarint(buf[:], n)]) }
	str := func(s string) { num(uint64(len(s))); b.WriteString(s) }
	id := func(p program.ID) {
		num(uint64(p.Origin.Kind))
		str(p.Origin.Module)
		if p.Origin.HasExtension {
			num(1)
			str(p.Origin.Extension)
		} else {
			num(0)
		}
		str(p.Path)
	}
	num(uint64(f.Kind))
	str(f.Action.Mnemonic)
	str(f.Action.Target)
	num(uint64(f.Source))
	str(f.Sentinel)
	num(uint64(f.Site.Location))
	str(f.Site.ExecPath)
	str(f.Site.Key)
	str(f.Site.Value)
	str(f.Actual)
	str(f.Requirement)
	str(f.Path)
	id(f.Program)
	num(uint64(len(f.Wrappers)))
	for _, w := range f.Wrappers {
		id(w)
	}
	if f.Synonym != nil {
		num(1)
		id(*f.Synonym)
	} else {
		num(0)
	}
	num(uint64(len(f.Unmet)))
	for _, u := range f.Unmet {
		str(u.Because)
		num(uint64(len(u.AnyOf)))
		for _, s := range u.AnyOf {
			str(s)
		}
		num(uint64(len(u.Present)))
		for _, s := range u.Present {
			str(s)
		}
	}
	return b.String()
}
