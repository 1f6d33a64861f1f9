package cli

import (
	"fmt"

	"github.com/ahab-go/ahab/internal/exception"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
)

// suggestSet says which ready-made exception set would excuse most of the
// findings, when one would excuse more than half and the run does not
// use it already: the one-word fix for a workspace's deliberate choice
// (abseil's findings are all the autoconfigured C++ toolchain's), which a
// newcomer would otherwise excuse by hand or not at all. It returns "" when
// no set would. Each finding is decoded once and tried against every set;
// the sets are a handful of exceptions that reject a finding of another
// kind first.
func suggestSet(findings report.Findings, using []exception.Exception, m mode.Mode) string {
	n := findings.Len()
	if n == 0 {
		return ""
	}
	used := map[string]bool{}
	for _, e := range using {
		used[e.Origin] = true
	}
	type candidate struct {
		name       string
		exceptions []exception.Exception
		excused    int
	}
	var sets []*candidate
	for _, name := range exception.SetNames() {
		if used[exception.SetPrefix+name] {
			continue
		}
		exs, err := exception.LoadSet(name, m)
		if err != nil {
			continue // a set of Ahab's own judgement only, under --compat 0.2
		}
		sets = append(sets, &candidate{name: name, exceptions: exs})
	}
	if len(sets) == 0 {
		return ""
	}
	for i := range n {
		c := findings.At(i)
		for _, s := range sets {
			if excusedBy(&c.Finding, s.exceptions) {
				s.excused++
			}
		}
	}
	var best *candidate
	for _, s := range sets { // sorted by name: the first of a tie wins
		if best == nil || s.excused > best.excused {
			best = s
		}
	}
	if best.excused*2 <= n {
		return ""
	}
	return fmt.Sprintf("%d%% of the findings (%d of %d) are excused by --exceptions-json %s%s (exception_sets = [%q] in the macros): pass it if the choice it excuses is deliberate",
		best.excused*100/n, best.excused, n, exception.SetPrefix, best.name, best.name)
}

func excusedBy(f *finding.Finding, exs []exception.Exception) bool {
	for i := range exs {
		if exs[i].Matches(f) {
			return true
		}
	}
	return false
}
