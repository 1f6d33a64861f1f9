package check

import (
	"os"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/spec"
)

// BenchmarkRepro is the reproducibility check over the actions of a real
// dump (testdata/conformance/real/webapp.pb, Bazel 4.2.3), read afresh
// every time (read) and through the memo a run keeps (memo), as every
// action after the first of a repeated action is: what the memo saves per
// action. docs/performance.md has what it saves a whole run of the
// amplified dump.
func BenchmarkRepro(b *testing.B) {
	f, err := os.Open("../../testdata/conformance/real/webapp.pb")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var actions []*action.Action
	if _, err := aquery.Decode(f, "webapp.pb", aquery.Options{}, func(_ int, a *aquery.Action) error {
		actions = append(actions, &a.Action)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	lib := spec.Builtin()
	discard := func(finding.Finding) {}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			for _, a := range actions {
				runRepro(lib, new(memo), a, discard)
			}
		}
		b.ReportMetric(float64(len(actions)*b.N)/b.Elapsed().Seconds(), "actions/s")
	})
	b.Run("memo", func(b *testing.B) {
		m := new(memo)
		for b.Loop() {
			for _, a := range actions {
				runRepro(lib, m, a, discard)
			}
		}
		b.ReportMetric(float64(len(actions)*b.N)/b.Elapsed().Seconds(), "actions/s")
	})
}
