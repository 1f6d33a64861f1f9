package spawndiff

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// SummaryTop is how many mnemonics and root causes the summary lists.
const SummaryTop = 10

// WriteSummary writes a comparison in a screenful instead of root cause by
// root cause: the header of the text report, the divergent actions per
// mnemonic (root causes, downstream, absorbed), and the root causes with
// the largest cascades, each with how many actions descend from it. It
// fits in 30 lines whatever the size of the build.
func WriteSummary(w io.Writer, r *Result, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	t := textWriter{w: bw, p: report.Palette{Color: opts.Color}, r: r}
	t.header()
	if len(r.Actions) == 0 {
		return bw.Flush()
	}

	type row struct {
		mnemonic                    string
		roots, downstream, absorbed int
	}
	byMnemonic := map[string]*row{}
	for i := range r.Actions {
		a := &r.Actions[i]
		m := byMnemonic[a.Mnemonic]
		if m == nil {
			m = &row{mnemonic: a.Mnemonic}
			byMnemonic[a.Mnemonic] = m
		}
		switch {
		case a.Verdict.IsRoot():
			m.roots++
		case a.Verdict == Downstream:
			m.downstream++
		default:
			m.absorbed++
		}
	}
	rows := make([]*row, 0, len(byMnemonic))
	for _, m := range byMnemonic {
		rows = append(rows, m)
	}
	total := func(m *row) int { return m.roots + m.downstream + m.absorbed }
	slices.SortFunc(rows, func(a, b *row) int {
		return cmp.Or(cmp.Compare(total(b), total(a)), cmp.Compare(a.mnemonic, b.mnemonic))
	})
	width := len("mnemonic")
	for _, m := range rows[:min(len(rows), SummaryTop)] {
		width = max(width, len(quote.Display(m.mnemonic)))
	}
	t.line("")
	t.line(t.p.Heading("Divergent actions by mnemonic:"))
	t.line(fmt.Sprintf("  %-*s %11s %11s %11s", width, "mnemonic", "root causes", "downstream", "absorbed"))
	for _, m := range rows[:min(len(rows), SummaryTop)] {
		t.line(fmt.Sprintf("  %-*s %11d %11d %11d", width, quote.Display(m.mnemonic), m.roots, m.downstream, m.absorbed))
	}
	if more := len(rows) - SummaryTop; more > 0 {
		t.line("  … and ", report.Count(more, "more mnemonic"))
	}

	var roots []int
	for i := range r.Actions {
		if r.Actions[i].Verdict.IsRoot() {
			roots = append(roots, i)
		}
	}
	cascade := func(i int) int { return r.Actions[i].Downstream + r.Actions[i].Absorbed }
	// Stable: among equal cascades, report order (producers first).
	slices.SortStableFunc(roots, func(a, b int) int { return cmp.Compare(cascade(b), cascade(a)) })
	t.line("")
	t.line(t.p.Heading("Root causes with the largest cascades:"))
	for n, i := range roots[:min(len(roots), SummaryTop)] {
		a := &r.Actions[i]
		name := a.Target
		if name == "" && len(a.Outputs) > 0 {
			name = a.Outputs[0]
		}
		line := "  " + t.p.Faint(strconv.Itoa(n+1)+".") + " " + t.p.Caution(a.Verdict.String()) + " " + quote.Display(a.Mnemonic) + " " + t.p.Finding(quote.Display(name)) +
			": " + strconv.Itoa(a.Downstream) + " downstream, " + strconv.Itoa(a.Absorbed) + " absorbed"
		switch {
		case r.Static == "" || a.Explained():
		case len(a.UnknownPrograms()) > 0:
			line += " " + t.p.Caution("(unknown program)")
		default:
			line += " " + t.p.Caution("(no static cause)")
		}
		t.line(line)
	}
	if more := len(roots) - SummaryTop; more > 0 {
		t.line("  … and ", report.Count(more, "more root cause"))
	}
	return bw.Flush()
}
