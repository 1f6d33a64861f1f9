package finding

import (
	"hash/maphash"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Counted is a distinct finding and how many times it occurred.
type Counted struct {
	Finding
	Count int
}

// Set merges identical findings, counting occurrences. The zero value is
// not usable; call NewSet. A Set is not safe for concurrent use: give each
// worker its own and Union them into one, which gives the same result in
// any order.
//
// A big graph has hundreds of thousands of distinct findings, so a Set
// keeps each one as its key (see key.go): one string, a fraction of the
// size of a Finding, that sorts in report order and decodes back. The key
// copies every string, so a finding built from substrings of a large
// buffer, as the decoder hands them out, does not keep that buffer alive.
//
// A set is either open, its entries also in a hash map so that adding is
// cheap, or sorted, its entries in report order and no map at all: a
// finished set is only read, in order, so Union and Ordered leave it
// sorted rather than pay for a map nobody will use. Adding to a sorted set
// opens it again. An open set lists its entries in the order they came,
// and cuts entries and keys from blocks: a worker's hundred thousand
// findings are then a few allocations, and reading them all, as Union
// does, walks memory in order rather than the map's random one.
type Set struct {
	m       map[uint64]*entry // nil when sorted
	entries []*entry          // every entry: in key order when sorted
	slab    []entry           // where the next entries are cut from
	keys    []byte            // where the next keys are cut from
	scratch []byte
}

// entry is one distinct finding: its encoding, its count, and the next
// entry whose encoding hashes alike.
type entry struct {
	key   string
	count int
	next  *entry
}

// seed hashes the keys of every Set.
var seed = maphash.MakeSeed()

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: make(map[uint64]*entry)} }

// open makes sure the set has its map.
func (s *Set) open() {
	if s.m != nil {
		return
	}
	s.m = make(map[uint64]*entry, len(s.entries))
	for _, e := range s.entries {
		h := maphash.String(seed, e.key)
		e.next = s.m[h]
		s.m[h] = e
	}
}

// all lists the entries: in key order when the set is sorted, else in the
// order they were first added.
func (s *Set) all() []*entry { return s.entries }

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	s.open()
	s.scratch = appendKey(s.scratch[:0], &f)
	h := maphash.Bytes(seed, s.scratch)
	for e := s.m[h]; e != nil; e = e.next {
		if e.key == string(s.scratch) { // no allocation
			e.count += n
			return
		}
	}
	e := s.newEntry(s.newKey(s.scratch), n)
	e.next = s.m[h]
	s.m[h] = e
}

// Slab sizes: entries are 32 bytes, keys a few hundred.
const (
	slabEntries = 1024
	keyBlock    = 64 << 10
)

func (s *Set) newEntry(key string, n int) *entry {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]entry, 0, slabEntries)
	}
	s.slab = append(s.slab, entry{key: key, count: n})
	e := &s.slab[len(s.slab)-1]
	s.entries = append(s.entries, e)
	return e
}

// newKey copies b into the set's key blocks.
func (s *Set) newKey(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(s.keys)-len(s.keys) < len(b) {
		s.keys = make([]byte, 0, max(len(b), keyBlock))
	}
	at := len(s.keys)
	s.keys = append(s.keys, b...)
	return unsafe.String(&s.keys[at], len(b))
}

// Merge adds every finding of o to s, leaving o as it was.
func (s *Set) Merge(o *Set) {
	s.open()
next:
	for _, in := range o.all() {
		h := maphash.String(seed, in.key)
		for e := s.m[h]; e != nil; e = e.next {
			if e.key == in.key {
				e.count += in.count
				continue next
			}
		}
		e := s.newEntry(in.key, in.count)
		e.next = s.m[h]
		s.m[h] = e
	}
}

// Len is the number of distinct findings.
func (s *Set) Len() int { return len(s.entries) }

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, e := range s.all() {
		n += e.count
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
// of a million findings never holds a million decoded findings. The view
// may be read from several goroutines at once; the set must not change
// while it is in use.
func (s *Set) Ordered() *Ordered {
	if s.m != nil {
		s.entries = sortEntries(split(s.entries))
		s.m = nil
	}
	return &Ordered{entries: s.entries}
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

// Union returns a sorted set of every finding of sets, adding the counts
// of equal ones, and leaves sets empty. With a label function, every
// target t for which label(t) is ok becomes that label first, merging
// findings that become equal: this is how the analysis resolves target
// placeholders once the whole graph has been read. The target is a key's
// third field, so it is replaced where it lies: no finding is decoded.
// Each set is relabelled and sorted on a goroutine of its own (a lone big
// set is split among the cores), so label must be safe for concurrent use.
func Union(sets []*Set, label func(target string) (string, bool)) *Set {
	var parts [][]*entry
	if len(sets) == 1 {
		parts = split(sets[0].all())
	} else {
		parts = make([][]*entry, len(sets))
	}
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() {
			if len(sets) > 1 {
				parts[i] = sets[i].all()
			}
			if label != nil {
				relabel(parts[i], label)
			}
			parts[i] = sortPart(parts[i])
		})
	}
	wg.Wait()
	for _, s := range sets {
		*s = *NewSet()
	}
	return &Set{entries: mergeParts(parts)}
}

// relabel rewrites the target of the entries whose label is ok. The new
// keys are cut from blocks of one allocation each rather than allocated
// one by one.
func relabel(entries []*entry, label func(string) (string, bool)) {
	var block []byte
	for _, e := range entries {
		start, end, old := targetField(e.key)
		l, ok := label(old)
		if !ok || l == old {
			continue
		}
		// At most: a label of NULs doubles in length.
		n := start + 2*len(l) + 2 + len(e.key) - end
		if cap(block)-len(block) < n {
			block = make([]byte, 0, max(n, relabelBlock))
		}
		at := len(block)
		block = append(block, e.key[:start]...)
		block = appendString(block, l)
		block = append(block, e.key[end:]...)
		e.key = unsafe.String(&block[at], len(block)-at)
	}
}

// relabelBlock is the size of the blocks relabelled keys are cut from.
const relabelBlock = 256 << 10

// parallelMin is the size from which a set is sorted on every core.
const parallelMin = 4096

// split cuts entries into one part per core, or one part if there are few.
func split(entries []*entry) [][]*entry {
	n := 1
	if len(entries) >= parallelMin {
		n = runtime.GOMAXPROCS(0)
	}
	parts := make([][]*entry, n)
	for p := range parts {
		parts[p] = entries[p*len(entries)/n : (p+1)*len(entries)/n]
	}
	return parts
}

// sortEntries sorts parts on every core and merges them into one new
// slice in key order, which is report order: keys are built so that byte
// order is Compare's order. Entries with equal keys, which relabelling can
// make, become one whose count is their sum.
func sortEntries(parts [][]*entry) []*entry {
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { parts[i] = sortPart(parts[i]) })
	}
	wg.Wait()
	return mergeParts(parts)
}

// sortPart sorts entries in place and merges equal neighbours.
func sortPart(entries []*entry) []*entry {
	slices.SortFunc(entries, compareEntries)
	out := entries[:0]
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].key == e.key {
			out[n-1].count += e.count
			continue
		}
		out = append(out, e)
	}
	return out
}

// mergeParts merges sorted parts without duplicates into one, adding the
// counts of entries with equal keys, on every core: the keys are cut into
// ranges at pivots taken from the biggest part, and each goroutine merges
// one range of every part.
func mergeParts(parts [][]*entry) []*entry {
	if len(parts) == 0 {
		return nil
	}
	total, biggest := 0, 0
	for i, part := range parts {
		total += len(part)
		if len(part) > len(parts[biggest]) {
			biggest = i
		}
	}
	ranges := 1
	if total >= parallelMin {
		ranges = runtime.GOMAXPROCS(0)
	}
	// cuts[r][p] is where range r starts in part p; range r ends where
	// range r+1 starts.
	cuts := make([][]int, ranges+1)
	for r := range cuts {
		cuts[r] = make([]int, len(parts))
		for p, part := range parts {
			switch {
			case r == 0:
			case r == ranges:
				cuts[r][p] = len(part)
			default:
				pivot := parts[biggest][r*len(parts[biggest])/ranges].key
				cuts[r][p], _ = slices.BinarySearchFunc(part, pivot, func(e *entry, k string) int { return strings.Compare(e.key, k) })
			}
		}
	}
	merged := make([][]*entry, ranges)
	var wg sync.WaitGroup
	for r := range ranges {
		wg.Go(func() {
			heads := make([][]*entry, len(parts))
			n := 0
			for p, part := range parts {
				heads[p] = part[cuts[r][p]:cuts[r+1][p]]
				n += len(heads[p])
			}
			merged[r] = mergeHeads(make([]*entry, 0, n), heads)
		})
	}
	wg.Wait()
	if ranges == 1 {
		return merged[0]
	}
	out := make([]*entry, 0, total)
	for _, m := range merged {
		out = append(out, m...)
	}
	return out
}

// mergeHeads appends to out the entries of the sorted heads in key order,
// taking the smallest head first each time and adding the counts of equal
// keys into one entry.
func mergeHeads(out []*entry, heads [][]*entry) []*entry {
	for {
		least := -1
		for i, h := range heads {
			if len(h) > 0 && (least < 0 || h[0].key < heads[least][0].key) {
				least = i
			}
		}
		if least < 0 {
			return out
		}
		e := heads[least][0]
		heads[least] = heads[least][1:]
		if n := len(out); n > 0 && out[n-1].key == e.key {
			out[n-1].count += e.count
			continue
		}
		out = append(out, e)
	}
}

func compareEntries(a, b *entry) int { return strings.Compare(a.key, b.key) }

// Equal reports whether two sets hold the same findings with the same
// counts. Both are left sorted.
func (s *Set) Equal(o *Set) bool {
	if s.Len() != o.Len() {
		return false
	}
	a, b := s.Ordered().entries, o.Ordered().entries
	for i := range a {
		if a[i].key != b[i].key || a[i].count != b[i].count {
			return false
		}
	}
	return true
}
