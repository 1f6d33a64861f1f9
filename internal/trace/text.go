package trace

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// TextOptions say how to print the text report.
type TextOptions struct {
	// Color paints the findings as the findings report does.
	Color bool
}

// WriteText writes the report for a person: each action that read
// something undeclared with what it read and what the static analysis
// found in it, then a summary of the whole build and of the baseline.
// Traced paths are shown as they are when printable, quoted with escapes
// otherwise, so no path can move the cursor or forge a line.
func WriteText(w io.Writer, r *Report, opts TextOptions) error {
	p := report.Palette{Color: opts.Color}
	bw := bufio.NewWriter(w)
	found := 0
	for _, a := range r.Actions {
		if len(a.Undeclared) == 0 {
			continue
		}
		found++
		fmt.Fprintf(bw, "%s %s", quote.Display(a.Target), quote.Display(a.Mnemonic))
		if len(a.Outputs) > 0 {
			fmt.Fprintf(bw, " → %s", quote.Display(a.Outputs[0]))
			if len(a.Outputs) > 1 {
				fmt.Fprintf(bw, " (+%d)", len(a.Outputs)-1)
			}
		}
		bw.WriteString("\n")
		for _, u := range a.Undeclared {
			fmt.Fprintf(bw, "  %-18s %s\n", u.Class, quote.Display(u.Path))
		}
		if r.Static == "" {
			continue
		}
		for i := range a.Causes {
			fmt.Fprintf(bw, "  %s %s\n", p.Heading("static:"), report.TaggedSentence(&a.Causes[i], p))
			for _, e := range a.Causes[i].Evidence {
				fmt.Fprintf(bw, "    %s\n", report.EvidenceLine(e, p))
			}
		}
		if len(a.Causes) == 0 {
			fmt.Fprintf(bw, "  %s: only the trace shows these reads\n", p.Caution("no static finding"))
		}
	}
	if found > 0 {
		bw.WriteString("\n")
	}
	writeTotals(bw, r)
	return bw.Flush()
}

// writeTotals writes the closing lines of the text report and of the
// summary: how many actions read undeclared paths, how many of them the
// static analysis has findings for, the baseline and the untraced actions.
func writeTotals(bw *bufio.Writer, r *Report) {
	found, paths, alsoStatic := 0, 0, 0
	for _, a := range r.Actions {
		if len(a.Undeclared) == 0 {
			continue
		}
		found++
		paths += len(a.Undeclared)
		if len(a.Causes) > 0 {
			alsoStatic++
		}
	}
	fmt.Fprintf(bw, "%d %s traced; %d read %s not declared", len(r.Actions), report.Plural(len(r.Actions), "action", "actions"),
		found, report.Plural(found, "a path it had", "paths they had"))
	if paths > 0 {
		fmt.Fprintf(bw, " (%d in all)", paths)
	}
	bw.WriteString(".\n")
	if found > 0 && r.Static != "" {
		fmt.Fprintf(bw, "The static analysis (%s) also has findings for %d of them; for %d, only the trace shows a problem.\n", quote.Visible(r.Static), alsoStatic, found-alsoStatic)
	}
	if len(r.Baseline) > 0 {
		counts := map[string]int{}
		var rules []string
		for _, b := range r.Baseline {
			if counts[b.Rule] == 0 {
				rules = append(rules, b.Rule)
			}
			counts[b.Rule]++
		}
		slices.Sort(rules)
		fmt.Fprintf(bw, "Toolchain baseline, not reported against any action: %d host %s (", len(r.Baseline), report.Plural(len(r.Baseline), "path", "paths"))
		for i, rule := range rules {
			if i > 0 {
				bw.WriteString(", ")
			}
			fmt.Fprintf(bw, "%s %d", rule, counts[rule])
		}
		bw.WriteString(").\n")
	}
	if len(r.Untraced) > 0 {
		fmt.Fprintf(bw, "%d %s not traced (no process of %s found in the trace):\n", len(r.Untraced),
			report.Plural(len(r.Untraced), "action", "actions"), report.Plural(len(r.Untraced), "it", "theirs"))
		for _, u := range r.Untraced {
			fmt.Fprintf(bw, "  %s %s", quote.Display(u.Target), quote.Display(u.Mnemonic))
			if len(u.Outputs) > 0 {
				fmt.Fprintf(bw, " → %s", quote.Display(u.Outputs[0]))
			}
			bw.WriteString("\n")
		}
	}
}
