package finding

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkUnion merges two workers' sets of 50k findings each, with
// target placeholders to relabel, as the analysis of a 200k-action graph
// does.
func BenchmarkUnion(b *testing.B) {
	const perSet = 50000
	labels := make([]string, 2*perSet)
	for i := range labels {
		labels[i] = "//src/area_" + strconv.Itoa(i%37) + "/pkg_" + strconv.Itoa(i) + ":lib_" + strconv.Itoa(i*3)
	}
	label := func(t string) (string, bool) {
		rest, ok := strings.CutPrefix(t, "\x01target:")
		if !ok {
			return "", false
		}
		n, _ := strconv.Atoi(rest)
		return labels[n], true
	}
	build := func() []*Set {
		sets := []*Set{NewSet(), NewSet()}
		for i := range 2 * perSet {
			f := Finding{Kind: AbsolutePath, Action: ActionRef{Mnemonic: "CppCompile", Target: "\x01target:" + strconv.Itoa(i)},
				Path: "/opt/vendor/include", Site: Site{Location: Argument, Value: "-isystem/opt/vendor/include/" + strconv.Itoa(i%100)}}
			sets[i%2].Add(f, 1)
		}
		return sets
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		sets := build()
		b.StartTimer()
		if s := Union(sets, label); s.Len() != 2*perSet {
			b.Fatalf("%d findings, want %d", s.Len(), 2*perSet)
		}
	}
}
