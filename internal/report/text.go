package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
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
	// Scope says how much was analysed, e.g. "(45 actions of 12 targets
	// analysed)", or "" when it is not known (a saved report).
	Scope string
	// Hints puts under each finding, indented, what to do about it
	// (Finding.Remedy).
	Hints bool
	// Mode is the judgement the findings were made with: a report of
	// Ahab 0.2's shows no evidence.
	Mode mode.Mode
}

// WriteText writes the text report of §8.3 without a trailing newline:
// the heading, one numbered line per distinct finding (in the given order,
// which should be finding.Compare order), the suppression note and the
// sign-off. Where the report goes is the caller's business (§1.5).
//
// Everything taken from the graph or a report (labels, arguments, paths)
// is written so that it shows as itself: control characters and other
// invisible ones are escaped, so a value can neither break its line nor
// drive the terminal.
func WriteText(w io.Writer, findings Findings, opts TextOptions) error {
	p := Palette{Color: opts.Color}
	n := findings.Len()
	b := appendHeading(nil, p, n, findings.Occurrences())
	for i := range n {
		c := findings.At(i)
		b = appendLine(b, p, i+1, &c)
		if opts.Mode != mode.Ahab02 {
			for _, e := range c.Evidence {
				b = appendEvidence(append(b, "\n     "...), e, p)
			}
		}
		if opts.Hints {
			b = appendHint(b, p, &c.Finding)
		}
		if len(b) >= 64<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if opts.Note != "" {
		b = append(b, "\n  "...)
		b = append(b, p.Faint(opts.Note)...)
	}
	if opts.Scope != "" {
		b = append(b, "\n  "...)
		b = append(b, p.Faint(opts.Scope)...)
	}
	if opts.SignOff {
		b = append(b, SignOff(findings, p)...)
	}
	_, err := w.Write(b)
	return err
}

// Text is WriteText into a string.
func Text(findings Findings, opts TextOptions) string {
	var b strings.Builder
	WriteText(&b, findings, opts)
	return b.String()
}

func appendHeading(b []byte, p Palette, distinct, occurrences int) []byte {
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
	return append(b, p.Heading(heading)...)
}

// appendLine appends the numbered line of one finding (§8.3).
func appendLine(b []byte, p Palette, number int, c *finding.Counted) []byte {
	b = append(b, "\n  "...)
	b = p.open(b, faintColor)
	b = strconv.AppendInt(b, int64(number), 10)
	b = append(b, '.')
	b = p.close(b)
	b = append(b, ' ')
	if n := c.Count; n != 1 {
		b = p.open(b, cautionColor)
		b = append(b, "×"...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = p.close(b)
		b = append(b, ' ')
	}
	return appendSentenceOf(b, &c.Finding, p, true)
}

// appendHint appends the indented line of a finding's remedy. The remedy
// quotes values from the graph as they are, so they are made visible.
func appendHint(b []byte, p Palette, f *finding.Finding) []byte {
	b = append(b, "\n     "...)
	b = p.open(b, faintColor)
	b = append(b, "fix: "...)
	b = p.close(b)
	return quote.AppendVisible(b, f.Remedy())
}

// EvidenceLine is the line that shows one piece of a finding's evidence,
// without indent: `evidence: FILE:LINE: TEXT`, its file and text made
// visible as the report's values are.
func EvidenceLine(e finding.Evidence, p Palette) string {
	return string(appendEvidence(nil, e, p))
}

func appendEvidence(b []byte, e finding.Evidence, p Palette) []byte {
	b = p.open(b, faintColor)
	b = append(b, "evidence: "...)
	b = p.close(b)
	switch {
	case e.File != "":
		b = quote.AppendVisible(b, e.File)
		if e.Line != 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(e.Line), 10)
		}
		b = append(b, ": "...)
	case e.Line != 0:
		// In the action's own script.
		b = append(b, "line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, ": "...)
	}
	return quote.AppendVisible(b, e.Text)
}

// AllPassed is what the report says when nothing is left to report
// (§1.5): the suppression note under it when there is one, and how much
// was analysed.
func AllPassed(opts TextOptions) string {
	s := "\nAll hermeticity checks passed.\n"
	for _, line := range []string{opts.Note, opts.Scope} {
		if line != "" {
			s += "  " + Palette{Color: opts.Color}.Faint(line) + "\n"
		}
	}
	return s
}
