package report

import (
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
	// Scope says how much was analysed, e.g. "(45 actions of 12 targets
	// analysed)", or "" when it is not known (a saved report).
	Scope string
	// Hints puts under each finding, indented, what to do about it
	// (Finding.Remedy).
	Hints bool
}

// defaultPath is the PATH Bazel sets when the action environment is
// strict (§3.2).
const defaultPath = "/bin:/usr/bin:/usr/local/bin"

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

// Sentence renders one finding as the report's sentence for its kind
// (§8.3), without number or count.
func Sentence(f *finding.Finding, p Palette) string {
	return string(appendSentence(nil, f, p))
}

// TaggedSentence is Sentence with the kind's tag after the prefix, as the
// numbered lines of the text report write it, for reports that quote a
// finding beside something else.
func TaggedSentence(f *finding.Finding, p Palette) string {
	return string(appendSentenceOf(nil, f, p, true))
}

func appendSentence(b []byte, f *finding.Finding, p Palette) []byte {
	return appendSentenceOf(b, f, p, false)
}

// appendSentenceOf appends a finding's sentence piece by piece to the
// line it is on. withKind puts the kind's tag after the
// prefix, "hermeticity violation [absolute_path]:", which is what an
// exception names.
func appendSentenceOf(b []byte, f *finding.Finding, p Palette, withKind bool) []byte {
	// action appends the coloured "<Mnemonic> action for target <label>".
	action := func(b []byte) []byte {
		b = p.open(b, actionColor)
		if f.Action.Mnemonic != "" {
			b = quote.AppendVisible(b, f.Action.Mnemonic)
			b = append(b, ' ')
		}
		b = append(b, "action for target "...)
		b = quote.AppendVisible(b, f.Action.Target)
		return p.close(b)
	}
	// quoted appends a coloured, quoted value.
	quoted := func(b []byte, s string) []byte {
		b = p.open(b, findingColor)
		b = quote.Append(b, s)
		return p.close(b)
	}
	b = append(b, f.Kind.Class().String()...)
	if withKind {
		b = append(b, " ["...)
		b = append(b, f.Kind.String()...)
		b = append(b, ']')
	}
	b = append(b, ": "...)
	switch f.Kind {
	case finding.EnvironmentLeak:
		if f.Source == finding.Inherited {
			b = action(b)
			b = append(b, " inherits environment variable "...)
			b = quoted(b, f.Site.Key)
			b = append(b, " from whoever runs Bazel (--action_env="...)
			b = quote.AppendVisible(b, f.Site.Key)
			return append(b, " with no value)"...)
		}
		variable := "USER"
		if f.Source == finding.Hostname {
			variable = "HOSTNAME"
		}
		b = append(b, p.Finding(variable)...)
		b = append(b, " leaked into "...)
		b = appendWhere(b, f.Site)
		b = append(b, " of "...)
		b = action(b)
		b = append(b, ": "...)
		return quote.AppendVisible(b, f.Site.Value)
	case finding.BadPath:
		b = action(b)
		b = append(b, " sets PATH to "...)
		b = quoted(b, f.Actual)
		b = append(b, ", expected "...)
		return quote.Append(b, defaultPath)
	case finding.ExecutionRequirement:
		b = action(b)
		b = append(b, " declares "...)
		b = quoted(b, f.Requirement)
		return append(b, ", so the build itself says it cannot run like an ordinary action"...)
	case finding.WorkspaceStatus:
		b = action(b)
		b = append(b, " reads "...)
		b = quoted(b, f.Path)
		b = append(b, ", which carries generated and potentially volatile data"...)
		if strings.HasSuffix(f.Path, "volatile-status.txt") {
			b = append(b, " which Bazel deliberately does not invalidate on"...)
		}
		return b
	case finding.VariationSource:
		b = action(b)
		b = append(b, " writes "...)
		b = append(b, variationPhrase(f.Variation)...)
		b = append(b, " ("...)
		b = quoted(b, f.Variation)
		b = append(b, ") into an output, in its script: "...)
		return quote.AppendVisible(b, f.Command)
	case finding.AbsolutePath:
		b = action(b)
		b = append(b, " references absolute path "...)
		b = quoted(b, f.Path)
		b = append(b, " in "...)
		b = appendWhere(b, f.Site)
		b = append(b, ": "...)
		return quote.AppendVisible(b, f.Site.Value)
	}
	b = action(b)
	b = append(b, " runs program "...)
	b = quoted(b, f.Program.String())
	b = appendProvenance(b, f, p)
	switch f.Kind {
	case finding.SystemProgram:
		b = append(b, ", which comes from outside the build"...)
	case finding.HostDerivedProgram:
		b = append(b, ", which Bazel generated by inspecting this machine"...)
	case finding.UnknownProgram:
		b = append(b, ", which has no known reproducibility spec"...)
	case finding.NeverReproducible:
		b = append(b, ", which is never reproducible"...)
	default:
		b = append(b, " non-reproducibly: "...)
		for i, u := range f.Unmet {
			if i > 0 {
				b = append(b, "; "...)
			}
			b = appendReason(b, u)
		}
	}
	if f.Command != "" {
		b = append(b, ", in its script: "...)
		b = quote.AppendVisible(b, f.Command)
	}
	return b
}

// variationPhrase says in words what a variation_source finding's
// variation is; internal/shell names them.
func variationPhrase(variation string) string {
	switch variation {
	case "random":
		return "a random number"
	case "pid":
		return "a process id"
	case "pwd":
		return "the directory it runs in"
	case "clock":
		return "the time"
	case "urandom":
		return "random bytes"
	case "hostname":
		return "the machine's name"
	case "user":
		return "the user's name"
	case "tempname":
		return "a temporary file's random name"
	case "uname":
		return "what the kernel says of itself"
	case "cpus":
		return "the number of CPUs"
	case "order":
		return "the order a directory lists in"
	case "filemeta":
		return "file times or owners"
	case "environment":
		return "the environment"
	}
	return "something that differs between runs"
}

// appendWhere says where a string was found; the string itself is given
// raw, last on the line, so it needs no quoting (§8.3).
func appendWhere(b []byte, s finding.Site) []byte {
	switch s.Location {
	case finding.ParamFile:
		b = append(b, "param file "...)
		return quote.Append(b, s.ExecPath)
	case finding.EnvVar:
		b = append(b, "environment variable "...)
		return quote.Append(b, s.Key)
	default:
		return append(b, "an argument"...)
	}
}

// Reason renders one unmet condition (§5.7).
func Reason(u finding.Unmet) string {
	return string(appendReason(nil, u))
}

func appendReason(b []byte, u finding.Unmet) []byte {
	b = quote.AppendVisible(b, u.Because)
	strs, tail := u.Present, ""
	if len(u.Present) == 0 {
		b = append(b, ", but none of "...)
		strs, tail = u.AnyOf, " was passed"
	} else {
		b = append(b, ", "...)
	}
	for i, s := range strs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = quote.AppendVisible(b, s)
	}
	return append(b, tail...)
}

// appendProvenance names the wrappers that were unwrapped and the synonym
// whose spec answered; only the kinds that carry a synonym show it (§8.3).
func appendProvenance(b []byte, f *finding.Finding, p Palette) []byte {
	synonym := f.Synonym != nil && (f.Kind == finding.NeverReproducible || f.Kind == finding.ConditionalReproducibility)
	if len(f.Wrappers) == 0 && !synonym {
		return b
	}
	b = append(b, " ("...)
	if len(f.Wrappers) > 0 {
		b = append(b, "wrapped by "...)
		for i, w := range f.Wrappers {
			if i > 0 {
				b = append(b, ", then "...)
			}
			b = p.open(b, findingColor)
			b = quote.Append(b, w.String())
			b = p.close(b)
		}
		if synonym {
			b = append(b, ", "...)
		}
	}
	if synonym {
		b = append(b, "spec from synonym "...)
		b = p.open(b, findingColor)
		b = quote.Append(b, f.Synonym.String())
		b = p.close(b)
	}
	return append(b, ')')
}
