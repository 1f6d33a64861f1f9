package trace

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// summaryTop is how many paths and targets the summary lists.
const summaryTop = 10

// WriteSummary writes a screenful instead of every action: how many
// actions read what they had not declared, per class of read, and the
// paths and targets with the most of them, each with how many actions;
// then the same closing lines as WriteText.
func WriteSummary(w io.Writer, r *Report, opts TextOptions) error {
	p := report.Palette{Color: opts.Color}
	bw := bufio.NewWriter(w)
	byClass := map[Class]int{}
	byPath := map[string]int{}
	byTarget := map[string]int{}
	for _, a := range r.Actions {
		if len(a.Undeclared) == 0 {
			continue
		}
		byTarget[a.Target]++
		seen := map[Class]bool{}
		for _, u := range a.Undeclared {
			byPath[u.Path]++
			if !seen[u.Class] {
				seen[u.Class] = true
				byClass[u.Class]++
			}
		}
	}
	if len(byClass) > 0 {
		fmt.Fprintln(bw, p.Heading("Actions that read what they had not declared, by what they read:"))
		for _, c := range slices.Sorted(maps.Keys(byClass)) {
			fmt.Fprintf(bw, "  %-18s %d\n", c, byClass[c])
		}
		for _, list := range []struct {
			title  string
			counts map[string]int
		}{{"Paths read by the most actions:", byPath}, {"Targets with the most such actions:", byTarget}} {
			fmt.Fprintf(bw, "\n%s\n", p.Heading(list.title))
			for i, e := range top(list.counts) {
				fmt.Fprintf(bw, "  %d. %s: %d %s\n", i+1, quote.Display(e.key), e.n, report.Plural(e.n, "action", "actions"))
			}
		}
		bw.WriteString("\n")
	}
	writeTotals(bw, r)
	return bw.Flush()
}

type counted struct {
	key string
	n   int
}

// top is the summaryTop keys with the highest counts, ties by key.
func top(counts map[string]int) []counted {
	var all []counted
	for k, n := range counts {
		all = append(all, counted{k, n})
	}
	slices.SortFunc(all, func(a, b counted) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.key, b.key)) })
	return all[:min(len(all), summaryTop)]
}
