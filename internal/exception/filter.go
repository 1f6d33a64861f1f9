package exception

import (
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/glob"
)

// Matches reports whether e excuses f: every predicate e has must hold,
// and a predicate on a facet f lacks fails (§7.2).
func (e *Exception) Matches(f *finding.Finding) bool {
	glob := func(pattern *string, g glob.Glob, carried bool, value string) bool {
		return pattern == nil || carried && g.Match(value)
	}
	k := f.Kind
	leakOrAbs := k == finding.EnvironmentLeak || k == finding.AbsolutePath
	return (e.Kind == nil || e.kind == k) &&
		glob(e.Mnemonic, e.mnemonic, true, f.Action.Mnemonic) &&
		glob(e.Target, e.target, true, f.Action.Target) &&
		// The program's label form, not its wrappers or synonym.
		glob(e.Program, e.program, k.HasProgram(), f.Program.String()) &&
		glob(e.Path, e.path, k.Carries(finding.FieldPath), f.Path) &&
		glob(e.Actual, e.actual, k == finding.BadPath, f.Actual) &&
		glob(e.Requirement, e.requirement, k == finding.ExecutionRequirement, f.Requirement) &&
		(e.Source == nil || k == finding.EnvironmentLeak && *e.Source == f.Source.String()) &&
		(e.Location == nil || leakOrAbs && *e.Location == f.Site.Location.String()) &&
		// Only an environment variable site has a variable name.
		glob(e.EnvVar, e.ev, leakOrAbs && f.Site.Location == finding.EnvVar, f.Site.Key) &&
		glob(e.Variation, e.variation, k == finding.VariationSource, f.Variation) &&
		// Only a finding inside a shell script has a command.
		glob(e.Command, e.command, k.Carries(finding.FieldCommand) && f.Command != "", f.Command)
}

// Summary accounts for what exceptions suppressed (§7.4).
type Summary struct {
	Distinct    int // distinct findings dropped
	Occurrences int // the sum of their counts
	Exceptions  int // exceptions that matched at least one finding
}

// Note is the report's suppression note, e.g. "(3 violations suppressed
// by 2 exceptions)", or "" when nothing was suppressed (§7.4).
func (s Summary) Note() string {
	if s.Distinct == 0 {
		return ""
	}
	return "(" + plural(s.Occurrences, "violation") + " suppressed by " + plural(s.Exceptions, "exception") + ")"
}

func plural(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

// Filter drops every finding some exception excuses. Every exception is
// tried on every finding, so overlapping exceptions are all credited.
// unused holds the exceptions that matched nothing, in load order (§7.4,
// §7.5). exs is the concatenation of all files in command-line order.
func Filter(set *finding.Set, exs []Exception) (kept *finding.Set, s Summary, unused []Exception) {
	if len(exs) == 0 {
		return set, s, nil
	}
	kept = finding.NewSet()
	used := make([]bool, len(exs))
	for _, c := range set.Sorted() {
		dropped := false
		for i := range exs {
			if exs[i].Matches(&c.Finding) {
				used[i] = true
				dropped = true
			}
		}
		if dropped {
			s.Distinct++
			s.Occurrences += c.Count
		} else {
			kept.Add(c.Finding, c.Count)
		}
	}
	for i, u := range used {
		if u {
			s.Exceptions++
		} else if !exs[i].ReadyMade {
			unused = append(unused, exs[i])
		}
	}
	return kept, s, unused
}

// StaleWarning is the warning about exceptions that matched nothing
// (§7.5), without leading or trailing newline; "" when there are none.
// The caller writes "\n" + warning + "\n" to stderr, uncoloured.
func StaleWarning(unused []Exception) string {
	if len(unused) == 0 {
		return ""
	}
	verb := " exceptions matched nothing:"
	if len(unused) == 1 {
		verb = " exception matched nothing:"
	}
	var b strings.Builder
	b.WriteString("warning: " + strconv.Itoa(len(unused)) + verb)
	for i := range unused {
		b.WriteString("\n  - ")
		b.WriteString(unused[i].String())
	}
	return b.String()
}
