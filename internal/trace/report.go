package trace

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/report"
)

// Report is what a traced build did beyond what its actions declared.
type Report struct {
	// Actions are the traced actions, every one, in a stable order (by
	// target, mnemonic, outputs); those that read nothing undeclared have
	// an empty Undeclared.
	Actions []ActionReport
	// Baseline is what the host toolchain read on its own, summed over all
	// actions, by path.
	Baseline []BaselineEntry
	// Untraced are the spawns of the execution log whose processes were not
	// found in the trace (a persistent worker, say), in the same order.
	Untraced []ActionRef
	// Static names the static analysis the actions' Causes come from, ""
	// when there was none.
	Static string
}

// ActionRef names an action the way a user finds it.
type ActionRef struct {
	Target   string
	Mnemonic string
	// Outputs are the exec paths the action declared it writes, sorted.
	Outputs []string
}

// ActionReport is one traced action and what it read without declaring it.
type ActionReport struct {
	ActionRef
	// Argv is the spawn's command line, as the execution log has it (not
	// written to the reports; with Target and Mnemonic, it lets a caller
	// find the action among aquery's, where a param file may be expanded).
	Argv       []string
	Undeclared []Undeclared
	// Causes are the static analysis's findings for the same action, every
	// kind, in report order: what the analysis predicted beside what the
	// trace saw.
	Causes []finding.Finding
}

// Undeclared is one path an action opened, stat'ed or listed outside what
// it declared. Path is an exec path or workspace-relative source path for a
// WorkspaceFile (and a listing in the build's tree), absolute otherwise.
type Undeclared struct {
	Path  string
	Class Class
}

// BaselineEntry is one host file of the toolchain baseline: Rule says why
// it is the toolchain's own (one of the Rule* constants), Actions how many
// actions touched it.
type BaselineEntry struct {
	Path    string
	Rule    string
	Actions int
}

// Found reports whether some action read something undeclared.
func (r *Report) Found() bool {
	for i := range r.Actions {
		if len(r.Actions[i].Undeclared) > 0 {
			return true
		}
	}
	return false
}

func compareRefs(a, b ActionRef) int {
	return cmp.Or(
		strings.Compare(a.Target, b.Target),
		strings.Compare(a.Mnemonic, b.Mnemonic),
		slices.Compare(a.Outputs, b.Outputs),
	)
}

// sort puts the report in its documented order, so that the same build
// gives the same bytes whatever order its actions ran in.
func (r *Report) sort() {
	slices.SortStableFunc(r.Actions, func(a, b ActionReport) int {
		return cmp.Or(compareRefs(a.ActionRef, b.ActionRef), slices.Compare(a.Argv, b.Argv))
	})
	slices.SortStableFunc(r.Untraced, compareRefs)
	slices.SortFunc(r.Baseline, func(a, b BaselineEntry) int { return strings.Compare(a.Path, b.Path) })
}

// The JSON report's shape (docs/trace.md). Slices are never null.
type jsonReport struct {
	Actions  []jsonAction   `json:"actions"`
	Baseline []jsonBaseline `json:"baseline"`
	Untraced []jsonRef      `json:"untraced"`
}

type jsonRef struct {
	Target   string   `json:"target"`
	Mnemonic string   `json:"mnemonic"`
	Outputs  []string `json:"outputs"`
}

type jsonAction struct {
	jsonRef
	Undeclared []jsonUndeclared  `json:"undeclared"`
	Causes     []json.RawMessage `json:"causes"`
}

type jsonUndeclared struct {
	Path  string `json:"path"`
	Class string `json:"class"`
}

type jsonBaseline struct {
	Path    string `json:"path"`
	Rule    string `json:"rule"`
	Actions int    `json:"actions"`
}

func refJSON(r ActionRef) jsonRef {
	return jsonRef{Target: r.Target, Mnemonic: r.Mnemonic, Outputs: nonNil(r.Outputs)}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// WriteJSON writes the report as JSON (docs/trace.md), each cause as the
// findings report writes a finding. Strings that are not valid UTF-8 have
// each bad byte replaced by U+FFFD.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Actions: []jsonAction{}, Baseline: []jsonBaseline{}, Untraced: []jsonRef{}}
	for _, a := range r.Actions {
		ja := jsonAction{jsonRef: refJSON(a.ActionRef), Undeclared: []jsonUndeclared{}, Causes: []json.RawMessage{}}
		for i := range a.Causes {
			ja.Causes = append(ja.Causes, report.FindingJSON(&a.Causes[i]))
		}
		for _, u := range a.Undeclared {
			ja.Undeclared = append(ja.Undeclared, jsonUndeclared{Path: u.Path, Class: u.Class.String()})
		}
		out.Actions = append(out.Actions, ja)
	}
	for _, b := range r.Baseline {
		out.Baseline = append(out.Baseline, jsonBaseline(b))
	}
	for _, u := range r.Untraced {
		out.Untraced = append(out.Untraced, refJSON(u))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteText writes the report for a person: each action that read
// something undeclared with what it read and what the static analysis
// found in it, then a summary of the whole build and of the baseline.
// Traced paths are shown as they are when printable, quoted with escapes
// otherwise, so no path can move the cursor or forge a line; p colours the
// findings as the findings report does.
func WriteText(w io.Writer, r *Report, p report.Palette) error {
	bw := bufio.NewWriter(w)
	found := 0
	for _, a := range r.Actions {
		if len(a.Undeclared) == 0 {
			continue
		}
		found++
		fmt.Fprintf(bw, "%s %s", display(a.Target), display(a.Mnemonic))
		if len(a.Outputs) > 0 {
			fmt.Fprintf(bw, " → %s", display(a.Outputs[0]))
			if len(a.Outputs) > 1 {
				fmt.Fprintf(bw, " (+%d)", len(a.Outputs)-1)
			}
		}
		bw.WriteString("\n")
		for _, u := range a.Undeclared {
			fmt.Fprintf(bw, "  %-18s %s\n", u.Class, display(u.Path))
		}
		if r.Static == "" {
			continue
		}
		for i := range a.Causes {
			fmt.Fprintf(bw, "  %s %s\n", p.Heading("static:"), report.TaggedSentence(&a.Causes[i], p))
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
	fmt.Fprintf(bw, "%d %s traced; %d read %s not declared", len(r.Actions), plural(len(r.Actions), "action", "actions"),
		found, plural(found, "a path it had", "paths they had"))
	if paths > 0 {
		fmt.Fprintf(bw, " (%d in all)", paths)
	}
	bw.WriteString(".\n")
	if found > 0 && r.Static != "" {
		fmt.Fprintf(bw, "The static analysis (%s) also has findings for %d of them; for %d, only the trace shows a problem.\n", r.Static, alsoStatic, found-alsoStatic)
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
		fmt.Fprintf(bw, "Toolchain baseline, not reported against any action: %d host %s (", len(r.Baseline), plural(len(r.Baseline), "path", "paths"))
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
			plural(len(r.Untraced), "action", "actions"), plural(len(r.Untraced), "it", "theirs"))
		for _, u := range r.Untraced {
			fmt.Fprintf(bw, "  %s %s", display(u.Target), display(u.Mnemonic))
			if len(u.Outputs) > 0 {
				fmt.Fprintf(bw, " → %s", display(u.Outputs[0]))
			}
			bw.WriteString("\n")
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// display shows s as it is when every character is printable and it has
// no space or quote at its ends; quoted, with escapes, otherwise.
func display(s string) string {
	q := quote.Quote(s)
	if q[1:len(q)-1] == s && !strings.ContainsAny(s, " \"") && s != "" {
		return s
	}
	return q
}
