package finding

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"
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
	// counts maps each key to its count; nil while sorted says it all (a
	// set ResolveTargets made, until something is added).
	counts map[string]int
	// sorted is the entries in key order; nil when counts has changed
	// since.
	sorted  []entry
	scratch []byte
}

// entry is one distinct finding: its key and its count.
type entry struct {
	key   string
	count int
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{counts: make(map[string]int)} }

// byKey is the set's map, made from its sorted entries if it has none.
func (s *Set) byKey() map[string]int {
	if s.counts == nil {
		s.counts = make(map[string]int, len(s.sorted))
		for _, e := range s.sorted {
			s.counts[e.key] = e.count
		}
	}
	return s.counts
}

// Add records n more occurrences of f.
func (s *Set) Add(f Finding, n int) {
	s.scratch = appendKey(s.scratch[:0], &f)
	s.addKey(s.scratch, n)
}

func (s *Set) addKey(key []byte, n int) {
	counts := s.byKey()
	if _, ok := counts[string(key)]; ok { // no allocation
		counts[string(key)] += n
	} else {
		counts[string(key)] = n
	}
	s.sorted = nil
}

// Merge adds every finding of o to s, leaving o as it was.
func (s *Set) Merge(o *Set) {
	counts := s.byKey()
	for k, n := range o.byKey() {
		counts[k] += n
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
//
// A finding's key is rewritten in place of being decoded and encoded
// again (the label goes where the target's field is, the id's four bytes
// become zeros), the new keys are written back to back into a few large
// buffers, and the result is made in report order, sorted once: the set
// has no map until something is added to it. For 384k findings (the
// renumbered amplification of docs/performance.md) that took 0.7 s of CPU
// the other way.
func ResolveTargets(sets []*Set, label func(id uint32) string) *Set {
	n := 0
	for _, s := range sets {
		n += s.Len()
	}
	entries := make([]entry, 0, n)
	var keys keyBuffer
	for _, s := range sets {
		for k, count := range s.each {
			// The kind, then the mnemonic and the target's label, each an
			// escaped string (appendKey).
			mnemonicEnd := 1 + encodedLen(k[1:])
			targetEnd := mnemonicEnd + encodedLen(k[mnemonicEnd:])
			if targetEnd-mnemonicEnd > len(emptyString) {
				entries = append(entries, entry{k, count}) // labelled already
				continue
			}
			id := binary.BigEndian.Uint32([]byte(k[len(k)-4:]))
			b := keys.start(len(k) + 2*len(label(id)))
			b = append(b, k[:mnemonicEnd]...)
			b = appendString(b, label(id))
			b = append(b, k[targetEnd:len(k)-4]...)
			b = append(b, 0, 0, 0, 0)
			entries = append(entries, entry{keys.end(b), count})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	// Findings of two targets' ids may be one finding once labelled.
	merged := entries[:0]
	for _, e := range entries {
		if last := len(merged) - 1; last >= 0 && merged[last].key == e.key {
			merged[last].count += e.count
			continue
		}
		merged = append(merged, e)
	}
	return &Set{sorted: slices.Clip(merged)}
}

// each yields every key of the set and its count, in no particular order.
func (s *Set) each(yield func(string, int) bool) {
	if s.counts == nil {
		for _, e := range s.sorted {
			if !yield(e.key, e.count) {
				return
			}
		}
		return
	}
	for k, n := range s.counts {
		if !yield(k, n) {
			return
		}
	}
}

// emptyString is "" as appendString writes it.
var emptyString = appendString(nil, "")

// encodedLen is the length of the escaped string that k starts with
// (appendString): up to its terminator, 0x00 0x01, included.
func encodedLen(k string) int {
	n := 0
	for {
		i := strings.IndexByte(k[n:], 0)
		n += i + 2
		if k[n-1] == 1 {
			return n
		}
	}
}

// keyBuffer holds keys back to back in large buffers, each key a string
// that shares a buffer's memory: a few allocations for hundreds of
// thousands of keys. A buffer is never written again where a key lies.
type keyBuffer struct {
	buf []byte
}

const keyBufferSize = 1 << 20

// start returns where to append a key of about n bytes.
func (kb *keyBuffer) start(n int) []byte {
	if cap(kb.buf)-len(kb.buf) < n {
		kb.buf = make([]byte, 0, max(keyBufferSize, n))
	}
	return kb.buf[len(kb.buf):]
}

// end makes a string of the key b, which start began, and keeps its
// bytes.
func (kb *keyBuffer) end(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(b) != cap(kb.buf)-len(kb.buf) {
		// The key outgrew the buffer and was moved: it stands alone.
		return string(b)
	}
	kb.buf = kb.buf[:len(kb.buf)+len(b)]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Len is the number of distinct findings.
func (s *Set) Len() int {
	if s.counts == nil {
		return len(s.sorted)
	}
	return len(s.counts)
}

// Occurrences is the total count.
func (s *Set) Occurrences() int {
	n := 0
	for _, c := range s.each {
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
	if s.Len() != o.Len() {
		return false
	}
	counts := o.byKey()
	for k, n := range s.each {
		if m, ok := counts[k]; !ok || m != n {
			return false
		}
	}
	return true
}

// Has reports whether s holds f.
func (s *Set) Has(f Finding) bool {
	s.scratch = appendKey(s.scratch[:0], &f)
	_, ok := s.byKey()[string(s.scratch)]
	return ok
}

// Template is a finding without its target, as a Set keeps it: its key
// less the target's id, which a key ends with. The CommandLine checks find
// the same things in every action with the same command line (package
// check's line memo), whatever the target, so what they found in one
// action is given to the next as templates, not found again.
type Template struct{ key string }

// TemplateOf returns f without its target's id. f's target must not be
// resolved yet (Action.Target empty), as a check reports it.
func TemplateOf(f *Finding) Template {
	k := appendKey(nil, f)
	return Template{string(k[:len(k)-4])}
}

// AddTemplate records n more occurrences of t in the target whose id is
// targetID: what Add does with the finding t was made from, its
// Action.TargetID set to targetID.
func (s *Set) AddTemplate(t Template, targetID uint32, n int) {
	s.scratch = binary.BigEndian.AppendUint32(append(s.scratch[:0], t.key...), targetID)
	s.addKey(s.scratch, n)
}
