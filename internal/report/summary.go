package report

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/label"
	"github.com/ahab-go/ahab/internal/quote"
)

// Summary is a report counted instead of listed: its findings per kind,
// and the programs, packages and absolute-path prefixes that account for
// the most of them. A row's counts are also what excluding it (an
// exception naming the program, the package's targets or the prefix)
// would remove, so a person sees where to start.
type Summary struct {
	Distinct, Occurrences int
	Targets, Packages     int // how many have findings
	Kinds                 []SummaryRow
	TopPrograms           []SummaryRow
	TopPackages           []SummaryRow
	TopPrefixes           []SummaryRow // of absolute_path findings' paths
}

// SummaryRow is a kind, program, package or prefix and its findings.
type SummaryRow struct {
	Name                  string
	Distinct, Occurrences int
}

// SummaryTop is how many programs, packages and prefixes a summary names.
const SummaryTop = 10

// Summarize counts findings, keeping the top programs, packages and
// prefixes: those with the most distinct findings, then occurrences, then
// by name. It is a pure function of the findings, whatever their order.
func Summarize(findings Findings, top int) Summary {
	s := Summary{Distinct: findings.Len(), Occurrences: findings.Occurrences()}
	kinds := make([]SummaryRow, len(finding.Kinds()))
	programs, packages, prefixes := tally{}, tally{}, tally{}
	targets := map[string]bool{}
	for c := range all(findings) {
		f := &c.Finding
		if int(f.Kind) < len(kinds) {
			kinds[f.Kind].Distinct++
			kinds[f.Kind].Occurrences += c.Count
		}
		targets[f.Action.Target] = true
		packages.add(packageOf(f.Action.Target), c.Count)
		if f.Kind.HasProgram() {
			programs.add(f.Program.String(), c.Count)
		}
		if f.Kind == finding.AbsolutePath {
			prefixes.add(pathPrefix(f.Path), c.Count)
		}
	}
	for k, row := range kinds {
		if row.Distinct > 0 {
			row.Name = finding.Kind(k).String()
			s.Kinds = append(s.Kinds, row)
		}
	}
	s.Targets, s.Packages = len(targets), len(packages)
	s.TopPrograms, s.TopPackages, s.TopPrefixes = programs.top(top), packages.top(top), prefixes.top(top)
	return s
}

// tally counts findings by name.
type tally map[string]*SummaryRow

func (t tally) add(name string, count int) {
	row := t[name]
	if row == nil {
		row = &SummaryRow{Name: name}
		t[name] = row
	}
	row.Distinct++
	row.Occurrences += count
}

func (t tally) top(n int) []SummaryRow {
	rows := make([]SummaryRow, 0, len(t))
	for _, r := range t {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b SummaryRow) int {
		return cmp.Or(cmp.Compare(b.Distinct, a.Distinct), cmp.Compare(b.Occurrences, a.Occurrences), strings.Compare(a.Name, b.Name))
	})
	return rows[:min(n, len(rows))]
}

// pathPrefix is a path's first two components, "/usr/include" of
// "/usr/include/stdio.h": deep enough to tell one installation from
// another, shallow enough to gather a toolchain's files.
func pathPrefix(path string) string {
	slashes := 0
	for i := range len(path) {
		if path[i] == '/' && i > 0 {
			if slashes++; slashes == 2 {
				return path[:i]
			}
		}
	}
	return path
}

// packageOf is the label of a target's package, "//a/b" or "@r//a", or
// the target itself when it is no label (the original's "<unknown
// target>").
func packageOf(target string) string {
	l, err := label.Parse(target)
	if err != nil {
		return target
	}
	return l.Package()
}

// SummaryOptions says how to print a summary.
type SummaryOptions struct {
	Color bool
	// Width is how many columns the summary may use; 0 means 100.
	Width int
}

// WriteSummary prints s as two pairs of tables side by side: the kinds
// beside the absolute-path prefixes, then the programs beside the
// packages. It takes at most 25 lines whatever the size of the report:
// the total, two headings, the 11 kinds, the 10 top rows and a line
// saying what excluding a row does. Names too long for their column are
// shortened in the middle.
func WriteSummary(w io.Writer, s Summary, opts SummaryOptions) error {
	p := Palette{Color: opts.Color}
	width := opts.Width
	if width <= 0 {
		width = 100
	}
	var b strings.Builder
	b.WriteString(p.Heading("found " + thousands(s.Distinct) + " distinct " + Plural(s.Distinct, "finding", "findings") +
		" (" + thousands(s.Occurrences) + " " + Plural(s.Occurrences, "occurrence", "occurrences") + ") in " +
		thousands(s.Targets) + " " + Plural(s.Targets, "target", "targets") + " of " + thousands(s.Packages) + " " + Plural(s.Packages, "package", "packages")))
	// Each half is a name and two numbers, whose columns fit the largest.
	nums := [2]int{max(len("distinct"), len(thousands(s.Distinct))), max(len("occurrences"), len(thousands(s.Occurrences)))}
	names := max(width-3-2*(4+nums[0]+nums[1]), 2*12)
	// Both pairs share their columns, so the page reads as one table.
	lw, rw := nameWidths(names,
		max(longest(s.Kinds, "kind", "(none)"), longest(s.TopPrograms, "program", "(no programs)")),
		max(longest(s.TopPrefixes, "absolute-path prefix", "(no absolute paths)"), longest(s.TopPackages, "package", "(none)")))
	// A kind's name is never shortened: there are few, and each is short.
	if k := longest(s.Kinds, "kind", "(none)"); lw < k {
		lw, rw = k, names-k
	}
	pair := func(left, right []SummaryRow, leftHead, rightHead, leftNone, rightNone string) {
		b.WriteString("\n")
		b.WriteString(p.Heading(strings.TrimRight(row(leftHead, "distinct", "occurrences", lw, nums)+"   "+
			row(rightHead, "distinct", "occurrences", rw, nums), " ")))
		half := func(rows []SummaryRow, i, width int, none string) string {
			switch {
			case i < len(rows):
				return row(rows[i].Name, thousands(rows[i].Distinct), thousands(rows[i].Occurrences), width, nums)
			case i == 0:
				return row(none, "", "", width, nums)
			}
			return row("", "", "", width, nums)
		}
		for i := range max(len(left), len(right), 1) {
			b.WriteString("\n")
			b.WriteString(strings.TrimRight(half(left, i, lw, leftNone)+"   "+half(right, i, rw, rightNone), " "))
		}
	}
	pair(s.Kinds, s.TopPrefixes, "kind", "absolute-path prefix", "(none)", "(no absolute paths)")
	pair(s.TopPrograms, s.TopPackages, "program", "package", "(no programs)", "(none)")
	b.WriteString("\n")
	b.WriteString(p.Faint("an exception naming a program, package or prefix removes its findings; --hints says how to fix each"))
	_, err := io.WriteString(w, b.String())
	return err
}

// longest is the widest name a column shows, its heading included.
func longest(rows []SummaryRow, head, none string) int {
	n := max(utf8.RuneCountInString(head), utf8.RuneCountInString(none))
	for _, r := range rows {
		n = max(n, utf8.RuneCountInString(quote.Visible(r.Name)))
	}
	return n
}

// nameWidths shares total columns between two name columns that want
// left and right: each gets what it wants if both fit, else at least half,
// and what one leaves the other may use.
func nameWidths(total, left, right int) (int, int) {
	if left+right <= total {
		return left, total - left
	}
	l := min(left, max(total/2, total-right))
	return l, total - l
}

// row lays out one half-line: the name, left-aligned and shortened to
// width, then the two numbers, right-aligned.
func row(name, distinct, occurrences string, width int, nums [2]int) string {
	name = quote.Shorten(quote.Visible(name), width)
	var b strings.Builder
	b.WriteString(name)
	b.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(name)))
	for i, n := range []string{distinct, occurrences} {
		b.WriteString("  ")
		b.WriteString(strings.Repeat(" ", max(nums[i]-len(n), 0)))
		b.WriteString(n)
	}
	return b.String()
}

// thousands writes n with thousands separators: 412,337.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
