package finding

import (
	"hash/maphash"
	"runtime"
	"slices"
	"strings"
	"sync"
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
// keeps each one as its key (see key.go): one string, a fraction of the
// size of a Finding, that sorts in report order and decodes back. The key
// copies every string, so a finding built from substrings of a large
// buffer, as the decoder hands them out, does not keep that buffer alive.
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
	s.scratch = appendKey(s.scratch[:0], &f)
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
	keys := s.sortedEntries()
	out := make([]Counted, len(keys))
	for i, e := range keys {
		out[i] = Counted{Finding: decodeKey(e.key), Count: e.count}
	}
	return out
}

// Ordered returns the findings in report order (§8.2) as a view that
// decodes each finding only when it is asked for, so that writing a report
// of a million findings never holds a million decoded findings. The view
// may be read from several goroutines at once; the set must not change
// while it is in use.
func (s *Set) Ordered() *Ordered {
	return &Ordered{entries: s.sortedEntries()}
}

// Ordered is a set's findings in report order.
type Ordered struct {
	entries []*entry
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

// sortedEntries sorts by key, which is sorting in report order: keys are
// built so that byte order is Compare's order.
func (s *Set) sortedEntries() []*entry {
	out := make([]*entry, 0, s.len)
	for _, e := range s.m {
		for ; e != nil; e = e.next {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
	return out
}

// Rewrite passes every finding through f, merging findings that become
// equal. It is how target placeholders are resolved once the whole graph
// has been read. A big set is rewritten on every core, so f must be safe
// for concurrent use.
func (s *Set) Rewrite(f func(*Finding)) {
	entries := make([]*entry, 0, s.len)
	for _, e := range s.m {
		for ; e != nil; e = e.next {
			entries = append(entries, e)
		}
	}
	parts := 1
	if len(entries) >= rewriteParallelMin {
		parts = runtime.GOMAXPROCS(0)
	}
	sets := make([]*Set, parts)
	var wg sync.WaitGroup
	for p := range parts {
		sets[p] = &Set{m: make(map[uint64]*entry, len(entries)/parts)}
		chunk := entries[p*len(entries)/parts : (p+1)*len(entries)/parts]
		wg.Go(func() {
			out := sets[p]
			for _, e := range chunk {
				fd := decodeKey(e.key)
				f(&fd)
				out.scratch = appendKey(out.scratch[:0], &fd)
				if string(out.scratch) != e.key {
					e.key = string(out.scratch)
				}
				e.next = nil
				out.insert(maphash.String(seed, e.key), e)
			}
		})
	}
	wg.Wait()
	*s = *sets[0]
	for _, o := range sets[1:] {
		s.Absorb(o)
	}
}

// rewriteParallelMin is the size from which Rewrite spreads over cores.
const rewriteParallelMin = 4096

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
