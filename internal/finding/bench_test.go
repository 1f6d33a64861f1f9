package finding

import (
	"strconv"
	"testing"
)

// BenchmarkResolveTargets resolves and sorts two workers' sets of 50k
// findings each, with a target of its own per finding, as the analysis of
// a 200k-action graph does (half its actions have a finding no other
// shares: docs/performance.md).
func BenchmarkResolveTargets(b *testing.B) {
	const perSet = 50000
	labels := make([]string, 2*perSet+1)
	for i := range labels {
		labels[i] = "//src/area_" + strconv.Itoa(i%37) + "/pkg_" + strconv.Itoa(i) + ":lib_" + strconv.Itoa(i*3)
	}
	label := func(id uint32) string { return labels[id] }
	build := func() []*Set {
		sets := []*Set{NewSet(), NewSet()}
		for i := range 2 * perSet {
			f := Finding{Kind: AbsolutePath, Action: ActionRef{Mnemonic: "CppCompile", TargetID: uint32(i + 1)},
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
		if s := ResolveTargets(sets, label); s.Ordered().Len() != 2*perSet {
			b.Fatalf("%d findings, want %d", s.Len(), 2*perSet)
		}
	}
}

// BenchmarkSetAdd adds the findings of one worker of the renumbered
// amplification (docs/performance.md): 200k findings, each of an action
// of its own target, half of them seen before by that worker.
func BenchmarkSetAdd(b *testing.B) {
	const n = 200000
	fs := make([]Finding, n)
	for i := range fs {
		fs[i] = Finding{Kind: AbsolutePath, Action: ActionRef{Mnemonic: "CppCompile", TargetID: uint32(i/2 + 1)},
			Path: "/usr/local/include", Site: Site{Location: Argument, Value: "-I/usr/local/include"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewSet()
		for i := range fs {
			s.Add(fs[i], 1)
		}
		if s.Len() != n/2 {
			b.Fatalf("%d findings, want %d", s.Len(), n/2)
		}
	}
}
