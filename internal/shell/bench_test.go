package shell

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkAnalyzeWorkspace analyses every script of the host tools
// workspace (148 genrule and run_shell commands, 60 to 500 bytes each):
// the size of script real builds have.
func BenchmarkAnalyzeWorkspace(b *testing.B) {
	var invs []Invocation
	for _, c := range hostCases(&testing.T{}, hosttoolsDir) {
		inv, ok := Recognize(c.argv)
		if !ok {
			b.Fatalf("%s: not a shell", c.name)
		}
		invs = append(invs, inv)
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
