package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/effect"
)

func (a *analyzer) newSource(fr frame, v effect.Value, text, because string, p syntax.Pos) int {
	n := a.g.add(sourceNode, len(a.sources))
	a.sources = append(a.sources, source{value: v, text: text, because: because, pos: a.pos(fr, p), site: a.site(fr, p), node: n})
	return n
}

// stmtText is the statement's text without a here-document's body.
func (a *analyzer) stmtText(fr frame, s *syntax.Stmt) string {
	start := int(s.Pos().Offset())
	end := start
	if s.Cmd != nil {
		end = int(s.Cmd.End().Offset())
	}
	for _, r := range s.Redirs {
		if r.Word != nil {
			end = max(end, int(r.Word.End().Offset()))
		}
	}
	if start < 0 || end > len(fr.text) || start > end {
		return ""
	}
	return fr.text[start:end]
}

// oneLine joins a command's lines with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// finish decides what reaches the sink.
func (a *analyzer) finish() {
	toSink := a.g.reaching(sinkID)
	toUncaptured := a.g.reaching(uncapturedID)
	for i := range a.script.Commands {
		n := a.cmdNodes[i]
		switch {
		case toSink[n]:
			a.script.Commands[i].Output = Sink
		case toUncaptured[n]:
			a.script.Commands[i].Output = Uncaptured
		default:
			a.script.Commands[i].Output = Discarded
		}
	}
	type key struct {
		value effect.Value
		off   int
		text  string
		site  effect.Site
	}
	seen := map[key]bool{}
	printed := map[key]bool{}
	for _, src := range a.sources {
		k := key{src.value, src.pos.Offset, src.text, src.site}
		out := Source{Value: src.value, Text: src.text, Because: src.because, Pos: src.pos, Site: src.site, Command: -1}
		if a.g.reachesWithout(src.node, uncapturedID, src.value) && !printed[k] {
			printed[k] = true
			a.script.Printed = append(a.script.Printed, out)
		}
		if !a.g.toSink(src.value)[src.node] || seen[k] {
			continue
		}
		seen[k] = true
		out.Command = a.g.firstCommand(src.node, src.value)
		a.script.Sources = append(a.script.Sources, out)
	}
	byOffset := func(x, y Source) int { return x.Pos.Offset - y.Pos.Offset }
	slices.SortStableFunc(a.script.Sources, byOffset)
	slices.SortStableFunc(a.script.Printed, byOffset)
}
