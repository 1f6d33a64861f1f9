package report

import (
	"bufio"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/quote"
)

// TextOptions says how to print the text report.
type TextOptions struct {
	// Color paints the report's roles (§1.6).
	Color bool
	// Note is the suppression note, e.g. "(3 violations suppressed by 2
	// exceptions)", or "" when nothing was suppressed (§7.4).
	Note string
	// SignOff appends the Moby-Dick quote (§1.8).
	SignOff bool
}

// defaultPath is the PATH Bazel sets when the action environment is
// strict (§3.2).
const defaultPath = "/bin:/usr/bin:/usr/local/bin"

// Text renders the text report of §8.3 without a trailing newline: the
// heading, one numbered line per distinct finding (in the given order,
// which should be finding.Compare order), the suppression note and the
// sign-off. Where the report goes is the caller's business (§1.5).
func Text(findings []finding.Counted, opts TextOptions) string {
	var b strings.Builder
	writeText(&b, findings, opts)
	return b.String()
}

// WriteText writes what Text returns to w.
func WriteText(w io.Writer, findings []finding.Counted, opts TextOptions) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	writeText(bw, findings, opts)
	return bw.Flush()
}

// WriteTextSeq is WriteText for findings that arrive one at a time
// (Set.InOrder), a line at a time, so that a report of a million findings
// is never one string; distinct and occurrences are the totals the heading
// states. Only the sign-off needs every finding at once.
func WriteTextSeq(w io.Writer, findings iter.Seq[finding.Counted], distinct, occurrences int, opts TextOptions) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	p := Palette{Color: opts.Color}
	writeHeading(bw, p, distinct, occurrences)
	i := 0
	for c := range findings {
		i++
		writeLine(bw, p, i, &c)
	}
	writeTail(bw, p, opts, func() []finding.Counted { return slices.Collect(findings) })
	return bw.Flush()
}

func writeText(b writer, findings []finding.Counted, opts TextOptions) {
	p := Palette{Color: opts.Color}
	occurrences := 0
	for _, f := range findings {
		occurrences += f.Count
	}
	writeHeading(b, p, len(findings), occurrences)
	for i := range findings {
		writeLine(b, p, i+1, &findings[i])
	}
	writeTail(b, p, opts, func() []finding.Counted { return findings })
}

func writeHeading(b writer, p Palette, distinct, occurrences int) {
	noun := "violations"
	if distinct == 1 {
		noun = "violation"
	}
	var heading string
	if distinct == occurrences {
		heading = "found " + strconv.Itoa(distinct) + " hermeticity " + noun + ":"
	} else {
		heading = "found " + strconv.Itoa(distinct) + " distinct hermeticity " + noun +
			" (" + strconv.Itoa(occurrences) + " occurrences):"
	}
	b.WriteString(p.Heading(heading))
}

// writeLine writes the numbered line of one finding (§8.3).
func writeLine(b writer, p Palette, number int, c *finding.Counted) {
	b.WriteString("\n  ")
	b.WriteString(p.Faint(strconv.Itoa(number) + "."))
	b.WriteByte(' ')
	if n := c.Count; n != 1 {
		b.WriteString(p.Caution("×" + strconv.Itoa(n)))
		b.WriteByte(' ')
	}
	b.WriteString(Sentence(&c.Finding, p))
}

// writeTail writes the suppression note and the sign-off, which is chosen
// from every finding: all is only called when there is a sign-off.
func writeTail(b writer, p Palette, opts TextOptions, all func() []finding.Counted) {
	if opts.Note != "" {
		b.WriteString("\n  ")
		b.WriteString(p.Faint(opts.Note))
	}
	if opts.SignOff {
		b.WriteString(SignOff(all(), p))
	}
}

// AllPassed is what stdout receives when nothing is left to report
// (§1.5), the suppression note under it when there is one.
func AllPassed(note string, color bool) string {
	s := "\nAll hermeticity checks passed.\n"
	if note != "" {
		s += "  " + Palette{Color: color}.Faint(note) + "\n"
	}
	return s
}

// Sentence renders one finding as the report's sentence for its kind
// (§8.3), without number or count.
func Sentence(f *finding.Finding, p Palette) string {
	action := p.Action(f.Action.String())
	prefix := f.Kind.Info().Prefix + ": "
	switch f.Kind {
	case finding.EnvironmentLeak:
		variable := "USER"
		if f.Source == finding.Hostname {
			variable = "HOSTNAME"
		}
		where, text := siteText(f.Site)
		return prefix + p.Finding(variable) + " leaked into " + where + " of " + action + ": " + text
	case finding.BadPath:
		return prefix + action + " sets PATH to " + p.Finding(quote.Quote(f.Actual)) +
			", expected " + quote.Quote(defaultPath)
	case finding.ExecutionRequirement:
		return prefix + action + " declares " + p.Finding(quote.Quote(f.Requirement)) +
			", so the build itself says it cannot run like an ordinary action"
	case finding.WorkspaceStatus:
		s := prefix + action + " reads " + p.Finding(quote.Quote(f.Path)) +
			", which carries generated and potentially volatile data"
		if strings.HasSuffix(f.Path, "volatile-status.txt") {
			s += " which Bazel deliberately does not invalidate on"
		}
		return s
	case finding.AbsolutePath:
		where, text := siteText(f.Site)
		return prefix + action + " references absolute path " + p.Finding(quote.Quote(f.Path)) +
			" in " + where + ": " + text
	}
	runs := prefix + action + " runs program " + p.Finding(quote.Quote(f.Program.String())) + provenance(f, p)
	switch f.Kind {
	case finding.SystemProgram:
		return runs + ", which comes from outside the build"
	case finding.HostDerivedProgram:
		return runs + ", which Bazel generated by inspecting this machine"
	case finding.UnknownProgram:
		return runs + ", which has no known reproducibility spec"
	case finding.NeverReproducible:
		return runs + ", which is never reproducible"
	}
	reasons := make([]string, len(f.Unmet))
	for i, u := range f.Unmet {
		reasons[i] = Reason(u)
	}
	return runs + " non-reproducibly: " + strings.Join(reasons, "; ")
}

// Reason renders one unmet condition (§5.7).
func Reason(u finding.Unmet) string {
	if len(u.Present) == 0 {
		return u.Because + ", but none of " + strings.Join(u.AnyOf, " ") + " was passed"
	}
	return u.Because + ", " + strings.Join(u.Present, " ")
}

// siteText says where a string was found and gives it raw: it is the last
// thing on the line, so it needs no quoting (§8.3).
func siteText(s finding.Site) (where, text string) {
	switch s.Location {
	case finding.ParamFile:
		return "param file " + quote.Quote(s.ExecPath), s.Value
	case finding.EnvVar:
		return "environment variable " + quote.Quote(s.Key), s.Value
	}
	return "an argument", s.Value
}

// provenance names the wrappers that were unwrapped and the synonym whose
// spec answered; only the kinds that carry a synonym show it (§8.3).
func provenance(f *finding.Finding, p Palette) string {
	var parts []string
	if len(f.Wrappers) > 0 {
		ws := make([]string, len(f.Wrappers))
		for i, w := range f.Wrappers {
			ws[i] = p.Finding(quote.Quote(w.String()))
		}
		parts = append(parts, "wrapped by "+strings.Join(ws, ", then "))
	}
	if f.Synonym != nil && (f.Kind == finding.NeverReproducible || f.Kind == finding.ConditionalReproducibility) {
		parts = append(parts, "spec from synonym "+p.Finding(quote.Quote(f.Synonym.String())))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
