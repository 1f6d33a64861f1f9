package spawndiff

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/outdiff"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// TextOptions say how to print the text report.
type TextOptions struct {
	// Color paints verdicts, paths and counts as the findings report does.
	Color bool
}

// WriteText writes the text report of r to w: a header counting the
// verdicts, then each root cause, producers first, with what differs and
// how many downstream and absorbed actions descend from it. Downstream
// and absorbed actions are folded into those counts, not listed (the JSON
// report lists them). Every string from a log is escaped, so a log cannot
// put control characters on the terminal.
func WriteText(w io.Writer, r *Result, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	t := textWriter{w: bw, p: report.Palette{Color: opts.Color}, r: r}
	t.header()
	n := 0
	for i := range r.Actions {
		a := &r.Actions[i]
		if !a.Verdict.IsRoot() {
			break
		}
		if n == 0 {
			t.line("")
			t.line(t.p.Heading("Root causes, producers first:"))
		}
		n++
		t.root(n, a)
	}
	if r.Count(Downstream)+r.Count(Absorbed) > 0 {
		t.line("")
		t.line(t.p.Faint("Downstream and absorbed actions are counted under the root causes they descend from; the JSON report lists each."))
	}
	return bw.Flush()
}

type textWriter struct {
	w *bufio.Writer
	p report.Palette
	r *Result
}

func (t *textWriter) line(parts ...string) {
	for _, p := range parts {
		t.w.WriteString(p)
	}
	t.w.WriteByte('\n')
}

func (t *textWriter) header() {
	r := t.r
	divergent := len(r.Actions)
	t.line("Compared ", quote.Display(r.Old), " (", report.Count(r.OldSpawns, "spawn"), ") with ", quote.Display(r.New), " (", report.Count(r.NewSpawns, "spawn"), "): ",
		t.p.Heading(report.Count(divergent, "action")+" diverge"), ", ", strconv.Itoa(r.Count(Identical)), " identical.")
	roots, follow := 0, 0
	var rootParts, followParts []string
	for _, v := range Verdicts() {
		c := r.Count(v)
		if c == 0 || v == Identical {
			continue
		}
		part := strconv.Itoa(c) + " " + v.String()
		if v.IsRoot() {
			roots += c
			rootParts = append(rootParts, part)
		} else {
			follow += c
			followParts = append(followParts, part)
		}
	}
	if roots > 0 {
		t.line("  ", report.Count(roots, "root cause"), ": ", strings.Join(rootParts, ", "))
	}
	if follow > 0 {
		t.line("  ", strconv.Itoa(follow), " follow from them: ", strings.Join(followParts, ", "))
	}
	if r.Static != "" && roots > 0 {
		_, explained := r.Roots()
		unexplained := strconv.Itoa(roots-explained) + " unexplained"
		if n := r.UnknownRoots(); n > 0 {
			unexplained += ", " + strconv.Itoa(n) + " of them running an unknown program"
		}
		t.line("  ", "the static analysis of ", quote.Visible(r.Static), " predicts ", strconv.Itoa(explained), " of ", report.Count(roots, "root cause"),
			"; ", t.p.Caution(unexplained))
	}
}

// root prints one root cause.
func (t *textWriter) root(n int, a *Action) {
	name := a.Target
	if name == "" && len(a.Outputs) > 0 {
		name = a.Outputs[0]
	}
	const indent = "     "
	t.line("")
	t.line("  ", t.p.Faint(strconv.Itoa(n)+"."), " ", t.p.Caution(a.Verdict.String()), " ", quote.Display(a.Mnemonic), " ", t.p.Finding(quote.Display(name)))
	switch a.Verdict {
	case Nondeterministic:
		t.line(indent, "same command, environment and inputs")
	case FlakyExit:
		t.line(indent, "same command, environment and inputs; exit code ", strconv.Itoa(int(a.OldExit)), " -> ", strconv.Itoa(int(a.NewExit)))
	case OnlyOld:
		t.line(indent, "ran only in ", quote.Display(t.r.Old))
	case OnlyNew:
		t.line(indent, "ran only in ", quote.Display(t.r.New))
	case CommandChanged:
		if c := a.Argument; c != nil {
			old, new := excerpts(c.Old, c.New)
			if c.OldMissing {
				old = "absent"
			}
			if c.NewMissing {
				new = "absent"
			}
			t.line(indent, "argument ", strconv.Itoa(c.Index), ": ", old, " -> ", new)
		} else {
			t.line(indent, "declared outputs: ", safeList(a.OldOutputs), " -> ", safeList(a.Outputs))
		}
	case EnvironmentChanged:
		if c := a.Variable; c != nil {
			line := indent + quote.Display(c.Name) + ": " + value(c.Old) + " -> " + value(c.New)
			if more := a.VariableChanges - 1; more > 0 {
				line += " (and " + report.Count(more, "more variable") + ")"
			}
			t.line(line)
		}
	case InputChanged:
		for _, c := range a.InputChanges {
			t.line(indent, "input ", t.p.Finding(quote.Display(c.Path)), ": ", quote.Visible(c.Old.Short()), " -> ", quote.Visible(c.New.Short()))
		}
		if more := a.SourceInputChanges - len(a.InputChanges); more > 0 {
			t.line(indent, "… and ", report.Count(more, "more input"))
		}
	}
	for i, c := range a.OutputChanges {
		if i == MaxListed {
			t.line(indent, "… and ", report.Count(len(a.OutputChanges)-MaxListed, "more output"))
			break
		}
		t.line(indent, "output ", quote.Display(c.Path), ": ", quote.Visible(c.Old.Short()), " -> ", quote.Visible(c.New.Short()))
		t.inside(indent+"  ", &a.OutputChanges[i])
	}
	t.causes(indent, a)
	var follow []string
	if a.Downstream > 0 {
		follow = append(follow, report.Count(a.Downstream, "downstream action"))
	}
	if a.Absorbed > 0 {
		follow = append(follow, strconv.Itoa(a.Absorbed)+" absorbed")
	}
	if len(follow) > 0 {
		t.line(indent, "… and ", t.p.Caution(strings.Join(follow, ", ")))
	}
}

// causes prints the static findings that predict the action's divergence;
// when there are none, the programs it runs that no spec describes (a
// cause nobody described), or else that nothing does; and counts the
// action's other findings.
func (t *textWriter) causes(indent string, a *Action) {
	if t.r.Static == "" {
		return
	}
	explained := a.Explained()
	others := 0
	for i := range a.Causes {
		f := &a.Causes[i]
		switch {
		case f.Kind.PredictsDivergence():
			t.line(indent, t.p.Heading("cause:"), " ", report.TaggedSentence(f, t.p))
			for _, e := range f.Evidence {
				t.line(indent, "  ", report.EvidenceLine(e, t.p))
			}
		case !explained && f.Kind == finding.UnknownProgram:
			t.line(indent, t.p.Caution("unknown program:"), " ", report.TaggedSentence(f, t.p))
		default:
			others++
		}
	}
	if !explained && len(a.UnknownPrograms()) == 0 {
		t.line(indent, t.p.Caution("no static cause"), ": the analysis does not predict this divergence")
	}
	if others > 0 {
		verb := " that predict"
		if others == 1 {
			verb = " that predicts"
		}
		t.line(indent, t.p.Faint("(and "+report.Count(others, "finding")+verb+" no divergence, in the JSON report)"))
	}
}

func safeList(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quote.Display(s)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func value(v *string) string {
	if v == nil {
		return "unset"
	}
	return quote.Quote(*v)
}

// excerptBefore and excerptAfter bound how much of a long argument is
// shown around its first difference.
const (
	excerptBefore = 24
	excerptAfter  = 40
)

// excerpts quotes two differing strings, each cut to the part around
// where they first differ, with "…" where text was cut.
func excerpts(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	// Start at a rune boundary both strings share.
	start := max(0, p-excerptBefore)
	for start > 0 && !utf8.RuneStart(a[start]) {
		start--
	}
	return excerpt(a, start, p), excerpt(b, start, p)
}

func excerpt(s string, start, diff int) string {
	end := min(len(s), diff+excerptAfter)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	q := quote.Quote(s[start:end])
	if start > 0 {
		q = "…" + q
	}
	if end < len(s) {
		q += "…"
	}
	return q
}

// maxInside is how many differences inside an output the text report
// shows; the JSON report has them all (up to outdiff's bound).
const maxInside = 3

// inside prints what differs inside an output (Result.Diagnose): the
// diagnosis's class and the classes of its other differences, its first
// differences and how many more there are; or why there is none; and
// where diffoscope's report is.
func (t *textWriter) inside(indent string, c *FileChange) {
	switch d := c.Inside; {
	case d != nil:
		head := "inside (" + string(d.Format) + "): " + t.p.Caution(d.Class.String())
		var others []string
		for _, k := range d.Classes {
			if k != d.Class {
				others = append(others, k.String())
			}
		}
		if len(others) > 0 {
			head += " (also " + strings.Join(others, ", ") + ")"
		}
		t.line(indent, head)
		// The differences that gave the class first, then the others.
		shown := 0
		for _, first := range []bool{true, false} {
			for _, diff := range d.Differences {
				if diff.Follows || (diff.Class == d.Class) != first || shown == maxInside {
					continue
				}
				line := differenceText(diff)
				if len(others) > 0 {
					line = diff.Class.String() + ": " + line
				}
				t.line(indent, "  ", line)
				shown++
			}
		}
		if more := len(d.Differences) - shown + d.More; more > 0 {
			t.line(indent, "  … and ", report.Count(more, "more difference"))
		}
		if d.Partial != "" {
			t.line(indent, "  ", t.p.Faint("("+quote.Visible(d.Partial)+")"))
		}
	case c.NotDiagnosed != "":
		t.line(indent, t.p.Faint("inside: not compared: "+quote.Visible(c.NotDiagnosed)))
	}
	if c.Diffoscope != "" {
		t.line(indent, "diffoscope: ", quote.Display(c.Diffoscope))
	}
}

// differenceText is one difference inside an output, on one line: where,
// what, the two values and why; a member's, through to the first
// difference inside it.
func differenceText(d outdiff.Difference) string {
	s := quote.Visible(d.At) + ": " + quote.Visible(d.What)
	if in := d.Inside; in != nil {
		for _, inner := range in.Differences {
			if !inner.Follows {
				return s + ", inside (" + string(in.Format) + "): " + differenceText(inner)
			}
		}
	}
	if d.Old != "" || d.New != "" {
		s += " " + quote.Quote(d.Old) + " -> " + quote.Quote(d.New)
	}
	if d.Why != "" {
		s += " (" + quote.Visible(d.Why) + ")"
	}
	return s
}
