package report_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/finding/findingtest"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/sarif"
	"github.com/ahab-go/ahab/internal/sarifschema"
	"github.com/ahab-go/ahab/internal/savedreport"
)

// TestEveryKindPrintsAndReadsBack holds every kind of the table, with
// every member it has set, to every printer and to the reader of saved
// reports: a new kind is a row of the table and a case of the sentence,
// and this test says which is missing. The text names each member's value,
// the JSON report reads back to the same finding (evidence included under
// Ahab's own judgement, left out under Ahab 0.2's), and the SARIF log
// validates with a result under the kind's rule.
func TestEveryKindPrintsAndReadsBack(t *testing.T) {
	for _, k := range finding.Kinds() {
		t.Run(k.String(), func(t *testing.T) {
			f := findingtest.Full(k)
			one := report.Slice{{Finding: f, Count: 2}}

			sentence := report.TaggedSentence(&f, report.Palette{})
			for _, want := range shownValues(&f) {
				if !strings.Contains(sentence, want) {
					t.Errorf("the sentence does not show %q: %s", want, sentence)
				}
			}
			if !strings.HasPrefix(sentence, k.Class().String()+" ["+k.String()+"]: ") {
				t.Errorf("the sentence does not start with its class and tag: %s", sentence)
			}
			text := report.Text(one, report.TextOptions{Hints: true})
			if !strings.Contains(text, sentence) || !strings.Contains(text, "evidence: tools/gen.py:12: time.time() reaches the output") ||
				!strings.Contains(text, "fix: "+f.Remedy()) {
				t.Errorf("the text report lacks the sentence, the evidence or the remedy:\n%s", text)
			}
			if text := report.Text(one, report.TextOptions{Mode: mode.Ahab02}); strings.Contains(text, "evidence") {
				t.Errorf("a report of Ahab 0.2's judgement shows evidence:\n%s", text)
			}

			modes := []mode.Mode{mode.Default}
			if !k.Info().New {
				modes = append(modes, mode.Ahab02)
			}
			for _, m := range modes {
				in, want := f, f
				if m == mode.Ahab02 {
					// Ahab 0.2 read no shell script, so a program
					// kind's command marks Ahab's own judgement; and
					// its reports have no evidence.
					if slices.Contains(k.Members(), finding.MemberScriptCommand) {
						in.Command, want.Command = "", ""
					}
					want.Evidence = nil
				}
				var b bytes.Buffer
				if err := report.WriteJSON(&b, report.Slice{{Finding: in, Count: 2}}, m); err != nil {
					t.Fatal(err)
				}
				if m == mode.Ahab02 && bytes.Contains(b.Bytes(), []byte("evidence")) {
					t.Errorf("a report of Ahab 0.2's judgement has evidence:\n%s", b.Bytes())
				}
				rep, err := savedreport.Read("r.json", bytes.NewReader(b.Bytes()))
				if err != nil {
					t.Fatalf("%s: the report does not read back: %v\n%s", m, err, b.Bytes())
				}
				if got := rep.Findings.Sorted(); len(got) != 1 || got[0].Count != 2 || finding.Compare(&got[0].Finding, &want) != 0 {
					t.Errorf("%s: read back %+v, want %+v", m, got, want)
				}
				if rep.Mode != m {
					t.Errorf("read back as of %s's judgement, want %s", rep.Mode, m)
				}
			}

			var b bytes.Buffer
			if err := sarif.Write(&b, one, sarif.Options{Mode: mode.Default}); err != nil {
				t.Fatal(err)
			}
			if err := sarifschema.Validate(b.Bytes()); err != nil {
				t.Fatalf("the SARIF log is not valid: %v", err)
			}
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct{ ID string }
						}
					}
					Results []struct {
						RuleID           string
						RuleIndex        int
						Message          struct{ Text string }
						RelatedLocations []json.RawMessage
					}
				}
			}
			if err := json.Unmarshal(b.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			run := log.Runs[0]
			if len(run.Results) != 1 {
				t.Fatalf("%d results, want 1", len(run.Results))
			}
			r := run.Results[0]
			if r.RuleID != k.String() || run.Tool.Driver.Rules[r.RuleIndex].ID != k.String() {
				t.Errorf("result of rule %s (index %d), want %s", r.RuleID, r.RuleIndex, k)
			}
			if r.Message.Text != report.Sentence(&f, report.Palette{}) {
				t.Errorf("SARIF message %q, want the sentence", r.Message.Text)
			}
			if len(r.RelatedLocations) != 1 {
				t.Errorf("%d related locations, want the evidence's one", len(r.RelatedLocations))
			}
		})
	}
}

// shownValues are the values of f's members that its sentence must show.
func shownValues(f *finding.Finding) []string {
	var out []string
	for _, m := range f.Kind.Members() {
		switch m {
		case finding.MemberSource:
			out = append(out, strings.ToUpper(f.Source.String()))
		case finding.MemberSite:
			out = append(out, f.Site.Value)
		case finding.MemberActual:
			out = append(out, f.Actual)
		case finding.MemberRequirement:
			out = append(out, f.Requirement)
		case finding.MemberPath:
			out = append(out, f.Path)
		case finding.MemberProgram:
			out = append(out, f.Program.String())
		case finding.MemberWrappers:
			for _, w := range f.Wrappers {
				out = append(out, w.String())
			}
		case finding.MemberSynonym:
			out = append(out, f.Synonym.String())
		case finding.MemberUnmet:
			for _, u := range f.Unmet {
				out = append(out, u.Because)
			}
		case finding.MemberVariation:
			out = append(out, f.Variation)
		case finding.MemberCommand, finding.MemberScriptCommand:
			out = append(out, f.Command)
		}
	}
	return out
}
