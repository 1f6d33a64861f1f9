package main

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/savedreport"
)

// emptyExpectation is what Ahab writes for a report with no findings
// (§8.1), of its own judgement; a target's first `check` compares against
// it.
const emptyExpectation = "{\n  \"mode\": \"default\",\n  \"violations\": []\n}\n"

// Summary counts a recorded report's findings, in total and per kind.
type Summary struct {
	Distinct, Occurrences int
	Kinds                 map[string]*KindCount
}

// KindCount is one kind's share of a Summary.
type KindCount struct {
	Distinct, Occurrences int
}

// Summarize reads an expectation.json (a report in the §8.1 format) and
// counts it, per kind.
func Summarize(data []byte, file string) (Summary, error) {
	rep, err := savedreport.Read(file, bytes.NewReader(data))
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Kinds: map[string]*KindCount{}}
	for _, c := range rep.Findings.Sorted() {
		kind := c.Kind.String()
		k := s.Kinds[kind]
		if k == nil {
			k = &KindCount{}
			s.Kinds[kind] = k
		}
		k.Distinct++
		k.Occurrences += c.Count
		s.Distinct++
		s.Occurrences += c.Count
	}
	return s, nil
}

// Add accumulates another summary into s (the cross-project total).
func (s *Summary) Add(o Summary) {
	if s.Kinds == nil {
		s.Kinds = map[string]*KindCount{}
	}
	s.Distinct += o.Distinct
	s.Occurrences += o.Occurrences
	for kind, c := range o.Kinds {
		k := s.Kinds[kind]
		if k == nil {
			k = &KindCount{}
			s.Kinds[kind] = k
		}
		k.Distinct += c.Distinct
		k.Occurrences += c.Occurrences
	}
}

// Format renders the summary as §11 prints it: a heading line, then one line
// per kind, most distinct findings first (ties by kind).
func (s Summary) Format(label string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %s: %d distinct, %d occurrences\n", label, s.Distinct, s.Occurrences)
	kinds := slices.Collect(maps.Keys(s.Kinds))
	slices.SortFunc(kinds, func(a, b string) int {
		return cmp.Or(cmp.Compare(s.Kinds[b].Distinct, s.Kinds[a].Distinct), strings.Compare(a, b))
	})
	for _, kind := range kinds {
		c := s.Kinds[kind]
		fmt.Fprintf(&b, "      %6d distinct  %6d occurrences  %s\n", c.Distinct, c.Occurrences, kind)
	}
	return b.String()
}
