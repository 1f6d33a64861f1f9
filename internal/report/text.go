package report

import (
	"bufio"
	"bytes"
	"io"
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
	writeText(&b, Slice(findings), opts)
	return b.String()
}

// WriteText writes what Text returns to w.
func WriteText(w io.Writer, findings []finding.Counted, opts TextOptions) error {
	return WriteTextOf(w, Slice(findings), opts)
}

// WriteTextOf is WriteText for any Findings, such as Set.Ordered: the lines
// are rendered on every core and streamed out in order, so a report of a
// million findings is never one string. Only the sign-off needs every
// finding at once.
func WriteTextOf(w io.Writer, findings Findings, opts TextOptions) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	writeText(bw, findings, opts)
	return bw.Flush()
}

func writeText(b writer, findings Findings, opts TextOptions) {
	p := Palette{Color: opts.Color}
	writeHeading(b, p, findings.Len(), occurrences(findings))
	writeChunks(b, findings.Len(), func(buf *bytes.Buffer, lo, hi int) {
		for i := lo; i < hi; i++ {
			c := findings.At(i)
			writeLine(buf, p, i+1, &c)
		}
	})
	writeTail(b, p, opts, func() []finding.Counted { return collect(findings) })
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
	writeSentence(b, &c.Finding, p)
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
	var b strings.Builder
	writeSentence(&b, f, p)
	return b.String()
}

// writeSentence writes a finding's sentence piece by piece: a report
// writes one per line, and building each as a string first would cost
// more than the rest of the line.
func writeSentence(b writer, f *finding.Finding, p Palette) {
	// action writes the coloured "<Mnemonic> action for target <label>".
	action := func() {
		p.open(b, actionColor)
		if f.Action.Mnemonic != "" {
			b.WriteString(f.Action.Mnemonic)
			b.WriteByte(' ')
		}
		b.WriteString("action for target ")
		b.WriteString(f.Action.Target)
		p.close(b)
	}
	// quoted writes a coloured, quoted value.
	quoted := func(s string) {
		p.open(b, findingColor)
		quote.Write(b, s)
		p.close(b)
	}
	b.WriteString(f.Kind.Info().Prefix)
	b.WriteString(": ")
	switch f.Kind {
	case finding.EnvironmentLeak:
		variable := "USER"
		if f.Source == finding.Hostname {
			variable = "HOSTNAME"
		}
		b.WriteString(p.Finding(variable))
		b.WriteString(" leaked into ")
		writeWhere(b, f.Site)
		b.WriteString(" of ")
		action()
		b.WriteString(": ")
		b.WriteString(f.Site.Value)
		return
	case finding.BadPath:
		action()
		b.WriteString(" sets PATH to ")
		quoted(f.Actual)
		b.WriteString(", expected ")
		quote.Write(b, defaultPath)
		return
	case finding.ExecutionRequirement:
		action()
		b.WriteString(" declares ")
		quoted(f.Requirement)
		b.WriteString(", so the build itself says it cannot run like an ordinary action")
		return
	case finding.WorkspaceStatus:
		action()
		b.WriteString(" reads ")
		quoted(f.Path)
		b.WriteString(", which carries generated and potentially volatile data")
		if strings.HasSuffix(f.Path, "volatile-status.txt") {
			b.WriteString(" which Bazel deliberately does not invalidate on")
		}
		return
	case finding.AbsolutePath:
		action()
		b.WriteString(" references absolute path ")
		quoted(f.Path)
		b.WriteString(" in ")
		writeWhere(b, f.Site)
		b.WriteString(": ")
		b.WriteString(f.Site.Value)
		return
	}
	action()
	b.WriteString(" runs program ")
	quoted(f.Program.String())
	b.WriteString(provenance(f, p))
	switch f.Kind {
	case finding.SystemProgram:
		b.WriteString(", which comes from outside the build")
	case finding.HostDerivedProgram:
		b.WriteString(", which Bazel generated by inspecting this machine")
	case finding.UnknownProgram:
		b.WriteString(", which has no known reproducibility spec")
	case finding.NeverReproducible:
		b.WriteString(", which is never reproducible")
	default:
		b.WriteString(" non-reproducibly: ")
		for i, u := range f.Unmet {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(Reason(u))
		}
	}
}

// writeWhere says where a string was found; the string itself is given
// raw, last on the line, so it needs no quoting (§8.3).
func writeWhere(b writer, s finding.Site) {
	switch s.Location {
	case finding.ParamFile:
		b.WriteString("param file ")
		quote.Write(b, s.ExecPath)
	case finding.EnvVar:
		b.WriteString("environment variable ")
		quote.Write(b, s.Key)
	default:
		b.WriteString("an argument")
	}
}

// Reason renders one unmet condition (§5.7).
func Reason(u finding.Unmet) string {
	if len(u.Present) == 0 {
		return u.Because + ", but none of " + strings.Join(u.AnyOf, " ") + " was passed"
	}
	return u.Because + ", " + strings.Join(u.Present, " ")
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
