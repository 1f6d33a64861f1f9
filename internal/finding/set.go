package finding

import (
	"hash/maphash"
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
// worker its own and Absorb them into one, which gives the same result in
// any order.
//
// A Set owns its findings: Add copies the strings of a finding it has not
// seen before, so a finding built from substrings of a large buffer (as the
// decoder hands out) does not keep that buffer alive. Findings are keyed by
// a hash of their fields, with equality deciding collisions, so a distinct
// finding costs its fields once and not again as a key.
type Set struct {
	m   map[uint64][]*Counted
	len int
}

// seed is shared by every Set so that sets can be absorbed into one
// another without rehashing.
var seed = maphash.MakeSeed()

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: make(map[uint64][]*Counted)} }

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	h := hash(&f)
	for _, c := range s.m[h] {
		if Compare(&c.Finding, &f) == 0 {
			c.Count += n
			return
		}
	}
	s.m[h] = append(s.m[h], &Counted{Finding: f.clone(), Count: n})
	s.len++
}

// Absorb moves every finding of o into s, adding counts. o is empty
// afterwards.
func (s *Set) Absorb(o *Set) {
	if o.len > s.len {
		// Move the smaller set into the larger one.
		*s, *o = *o, *s
	}
	for h, cs := range o.m {
		for _, c := range cs {
			s.insert(h, c)
		}
	}
	*o = *NewSet()
}

func (s *Set) insert(h uint64, c *Counted) {
	for _, mine := range s.m[h] {
		if Compare(&mine.Finding, &c.Finding) == 0 {
			mine.Count += c.Count
			return
		}
	}
	s.m[h] = append(s.m[h], c)
	s.len++
}

// Merge adds every finding of o to s, leaving o as it was.
func (s *Set) Merge(o *Set) {
	for _, cs := range o.m {
		for _, c := range cs {
			s.Add(c.Finding, c.Count)
		}
	}
}

// Len is the number of distinct findings.
func (s *Set) Len() int { return s.len }

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, cs := range s.m {
		for _, c := range cs {
			n += c.Count
		}
	}
	return n
}

// Sorted returns the findings in report order (§8.2).
func (s *Set) Sorted() []Counted {
	// Sorting pointers moves 8 bytes a swap instead of a whole finding.
	ptrs := make([]*Counted, 0, s.len)
	for _, cs := range s.m {
		ptrs = append(ptrs, cs...)
	}
	slices.SortFunc(ptrs, func(a, b *Counted) int { return Compare(&a.Finding, &b.Finding) })
	out := make([]Counted, len(ptrs))
	for i, c := range ptrs {
		out[i] = *c
	}
	return out
}

// Rewrite passes every finding through f in place, merging findings that
// become equal. It is how target placeholders are resolved once the whole
// graph has been read, without copying the set.
func (s *Set) Rewrite(f func(*Finding)) {
	old := s.m
	*s = *NewSet()
	for _, cs := range old {
		for _, c := range cs {
			f(&c.Finding)
			c.Finding = c.Finding.clone()
			s.insert(hash(&c.Finding), c)
		}
	}
}

// Equal reports whether two sets hold the same findings with the same counts.
func (s *Set) Equal(o *Set) bool {
	if s.len != o.len {
		return false
	}
	for h, cs := range s.m {
	next:
		for _, c := range cs {
			for _, oc := range o.m[h] {
				if Compare(&c.Finding, &oc.Finding) == 0 {
					if c.Count != oc.Count {
						return false
					}
					continue next
				}
			}
			return false
		}
	}
	return true
}

// hash covers every field Compare looks at, so equal findings hash alike.
// Strings are length-prefixed so that field boundaries cannot shift.
func hash(f *Finding) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	num := func(n int) {
		var b [8]byte
		for i := range b {
			b[i] = byte(n >> (8 * i))
		}
		h.Write(b[:])
	}
	str := func(s string) { num(len(s)); h.WriteString(s) }
	id := func(p program.ID) {
		num(int(p.Origin.Kind))
		str(p.Origin.Module)
		if p.Origin.HasExtension {
			num(1)
			str(p.Origin.Extension)
		} else {
			num(0)
		}
		str(p.Path)
	}
	num(int(f.Kind))
	str(f.Action.Mnemonic)
	str(f.Action.Target)
	num(int(f.Source))
	str(f.Sentinel)
	num(int(f.Site.Location))
	str(f.Site.ExecPath)
	str(f.Site.Key)
	str(f.Site.Value)
	str(f.Actual)
	str(f.Requirement)
	str(f.Path)
	id(f.Program)
	num(len(f.Wrappers))
	for _, w := range f.Wrappers {
		id(w)
	}
	if f.Synonym != nil {
		num(1)
		id(*f.Synonym)
	} else {
		num(0)
	}
	num(len(f.Unmet))
	for _, u := range f.Unmet {
		str(u.Because)
		num(len(u.AnyOf))
		for _, s := range u.AnyOf {
			str(s)
		}
		num(len(u.Present))
		for _, s := range u.Present {
			str(s)
		}
	}
	return h.Sum64()
}

// clone copies every string and slice of f, so the copy shares no memory
// with whatever f's strings were cut from.
func (f Finding) clone() Finding {
	c := strings.Clone
	id := func(p program.ID) program.ID {
		p.Origin.Module = c(p.Origin.Module)
		p.Origin.Extension = c(p.Origin.Extension)
		p.Path = c(p.Path)
		return p
	}
	f.Action = ActionRef{Mnemonic: c(f.Action.Mnemonic), Target: c(f.Action.Target)}
	f.Sentinel = c(f.Sentinel)
	f.Site = Site{Location: f.Site.Location, ExecPath: c(f.Site.ExecPath), Key: c(f.Site.Key), Value: c(f.Site.Value)}
	f.Actual = c(f.Actual)
	f.Requirement = c(f.Requirement)
	f.Path = c(f.Path)
	f.Program = id(f.Program)
	if f.Wrappers != nil {
		ws := make([]program.ID, len(f.Wrappers))
		for i, w := range f.Wrappers {
			ws[i] = id(w)
		}
		f.Wrappers = ws
	}
	if f.Synonym != nil {
		s := id(*f.Synonym)
		f.Synonym = &s
	}
	if f.Unmet != nil {
		us := make([]Unmet, len(f.Unmet))
		for i, u := range f.Unmet {
			us[i] = Unmet{Because: c(u.Because), AnyOf: cloneStrings(u.AnyOf), Present: cloneStrings(u.Present)}
		}
		f.Unmet = us
	}
	return f
}

func cloneStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}
