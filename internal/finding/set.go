package finding

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

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
// A big graph has hundreds of thousands of distinct findings, so a Set
// keeps each one as a compact encoding of its fields (one string, often a
// third of the Finding struct) and decodes findings only when asked for
// them. The encoding copies every string, so a finding built from
// substrings of a large buffer, as the decoder hands them out, does not
// keep that buffer alive.
type Set struct {
	m       map[uint64]*entry
	len     int
	scratch []byte
}

// entry is one distinct finding: its encoding, its count, and the next
// entry whose encoding hashes alike.
type entry struct {
	key   string
	count int
	next  *entry
}

// seed is shared by every Set so that sets can be absorbed into one
// another without rehashing.
var seed = maphash.MakeSeed()

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: make(map[uint64]*entry)} }

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	s.scratch = encode(s.scratch[:0], &f)
	h := maphash.Bytes(seed, s.scratch)
	for e := s.m[h]; e != nil; e = e.next {
		if e.key == string(s.scratch) { // no allocation
			e.count += n
			return
		}
	}
	s.m[h] = &entry{key: string(s.scratch), count: n, next: s.m[h]}
	s.len++
}

// insert adds an entry that belongs to no other set.
func (s *Set) insert(h uint64, in *entry) {
	for e := s.m[h]; e != nil; e = e.next {
		if e.key == in.key {
			e.count += in.count
			return
		}
	}
	in.next = s.m[h]
	s.m[h] = in
	s.len++
}

// Absorb moves every finding of o into s, adding counts. o is empty
// afterwards.
func (s *Set) Absorb(o *Set) {
	if o.len > s.len {
		// Move the smaller set into the larger one.
		s.m, o.m = o.m, s.m
		s.len, o.len = o.len, s.len
	}
	for h, e := range o.m {
		for e != nil {
			next := e.next
			s.insert(h, e)
			e = next
		}
	}
	o.m, o.len = make(map[uint64]*entry), 0
}

// Merge adds every finding of o to s, leaving o as it was.
func (s *Set) Merge(o *Set) {
	for h, e := range o.m {
		for ; e != nil; e = e.next {
			s.insert(h, &entry{key: e.key, count: e.count})
		}
	}
}

// Len is the number of distinct findings.
func (s *Set) Len() int { return s.len }

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, e := range s.m {
		for ; e != nil; e = e.next {
			n += e.count
		}
	}
	return n
}

// Sorted returns the findings in report order (§8.2).
func (s *Set) Sorted() []Counted {
	out := make([]Counted, 0, s.len)
	for _, e := range s.m {
		for ; e != nil; e = e.next {
			out = append(out, Counted{Finding: decode(e.key), Count: e.count})
		}
	}
	// Sort indexes rather than the 300-byte values themselves, then move
	// each value once, following the permutation's cycles in place.
	idx := make([]int32, len(out))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return Compare(&out[a].Finding, &out[b].Finding) })
	for i := range idx {
		if idx[i] < 0 {
			continue
		}
		tmp := out[i]
		j := i
		for {
			k := int(idx[j])
			idx[j] = -1
			if k == i {
				out[j] = tmp
				break
			}
			out[j] = out[k]
			j = k
		}
	}
	return out
}

// Rewrite passes every finding through f in place, merging findings that
// become equal. It is how target placeholders are resolved once the whole
// graph has been read.
func (s *Set) Rewrite(f func(*Finding)) {
	old := s.m
	s.m, s.len = make(map[uint64]*entry, len(old)), 0
	for _, e := range old {
		for e != nil {
			next := e.next
			fd := decode(e.key)
			f(&fd)
			s.scratch = encode(s.scratch[:0], &fd)
			if string(s.scratch) != e.key {
				e.key = string(s.scratch)
			}
			s.insert(maphash.String(seed, e.key), e)
			e = next
		}
	}
}

// Equal reports whether two sets hold the same findings with the same counts.
func (s *Set) Equal(o *Set) bool {
	if s.len != o.len {
		return false
	}
	for h, e := range s.m {
	next:
		for ; e != nil; e = e.next {
			for oe := o.m[h]; oe != nil; oe = oe.next {
				if oe.key == e.key {
					if oe.count != e.count {
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

// encode appends every field of f, so that equal encodings mean equal
// findings and the encoding decodes back to f. Strings are
// length-prefixed; numbers are varints.
func encode(b []byte, f *Finding) []byte {
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	str := func(s string) { num(len(s)); b = append(b, s...) }
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
	strs := func(ss []string) {
		num(len(ss))
		for _, s := range ss {
			str(s)
		}
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
		strs(u.AnyOf)
		strs(u.Present)
	}
	return b
}

// decode is the inverse of encode. Its strings share the key's memory.
func decode(key string) Finding {
	d := decoder{s: key}
	var f Finding
	f.Kind = Kind(d.num())
	f.Action.Mnemonic = d.str()
	f.Action.Target = d.str()
	f.Source = Source(d.num())
	f.Sentinel = d.str()
	f.Site.Location = Location(d.num())
	f.Site.ExecPath = d.str()
	f.Site.Key = d.str()
	f.Site.Value = d.str()
	f.Actual = d.str()
	f.Requirement = d.str()
	f.Path = d.str()
	f.Program = d.id()
	if n := d.num(); n > 0 {
		f.Wrappers = make([]program.ID, n)
		for i := range f.Wrappers {
			f.Wrappers[i] = d.id()
		}
	}
	if d.num() == 1 {
		syn := d.id()
		f.Synonym = &syn
	}
	if n := d.num(); n > 0 {
		f.Unmet = make([]Unmet, n)
		for i := range f.Unmet {
			f.Unmet[i] = Unmet{Because: d.str(), AnyOf: d.strs(), Present: d.strs()}
		}
	}
	return f
}

type decoder struct{ s string }

func (d *decoder) num() int {
	var v uint64
	var shift uint
	for i := 0; ; i++ {
		c := d.s[i]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			d.s = d.s[i+1:]
			return int(v)
		}
		shift += 7
	}
}

func (d *decoder) str() string {
	n := d.num()
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *decoder) strs() []string {
	n := d.num()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) id() program.ID {
	var p program.ID
	p.Origin.Kind = program.OriginKind(d.num())
	p.Origin.Module = d.str()
	if d.num() == 1 {
		p.Origin.HasExtension = true
		p.Origin.Extension = d.str()
	}
	p.Path = d.str()
	return p
}
