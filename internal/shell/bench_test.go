package shell

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
)

// BenchmarkAnalyzeWorkspace analyses every script of the host tools
// workspace (148 genrule and run_shell commands, 60 to 500 bytes each):
// the size of script real builds have.
func BenchmarkAnalyzeWorkspace(b *testing.B) {
	f, err := os.Open("../../testdata/hosttools/aquery.pb")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var invs []Invocation
	_, err = aquery.Decode(f, "aquery.pb", aquery.Options{}, func(_ int, a *aquery.Action) error {
		if inv, ok := Recognize(a.Arguments); ok {
			invs = append(invs, inv)
		}
		return nil
	})
	if err != nil || len(invs) == 0 {
		b.Fatalf("no scripts: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, inv := range invs {
			if _, err := Analyze(inv, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(invs)), "ns/script")
}

// BenchmarkAnalyzeLong analyses one long generated script: n steps that
// each fill a variable, pipe, substitute and redirect.
func BenchmarkAnalyzeLong(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		var sb strings.Builder
		sb.WriteString("source external/bazel_tools/tools/genrule/genrule-setup.sh; set -euo pipefail\n")
		for i := range n {
			fmt.Fprintf(&sb, "v%d=$(sed -n '%dp' data/in.txt | tr a-z A-Z)\n", i, i)
			fmt.Fprintf(&sb, "if [ -n \"$v%d\" ]; then echo \"$v%d\" >> bazel-out/k8-fastbuild/bin/out.txt; fi\n", i, i)
		}
		script := sb.String()
		b.Run(fmt.Sprintf("steps=%d/bytes=%d", n, len(script)), func(b *testing.B) {
			b.ReportAllocs()
			inv := Invocation{Shell: "/bin/bash", Script: script}
			for b.Loop() {
				if _, err := Analyze(inv, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
