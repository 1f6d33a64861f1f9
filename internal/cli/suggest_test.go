package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/exception"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/gengraph"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

func TestSuggestSet(t *testing.T) {
	gcc := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	compile := func(target string) finding.Finding {
		return finding.Finding{Kind: finding.SystemProgram, Action: finding.ActionRef{Mnemonic: "CppCompile", Target: target}, Program: gcc}
	}
	leak := func(target string) finding.Finding {
		return finding.Finding{Kind: finding.BadPath, Action: finding.ActionRef{Mnemonic: "Genrule", Target: target}, Actual: "/usr/bin"}
	}
	set := func(fs ...finding.Finding) report.Findings {
		s := finding.NewSet()
		for _, f := range fs {
			s.Add(f, 3)
		}
		return s.Ordered()
	}
	hostCC, err := exception.LoadSet("host-cc", mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		findings report.Findings
		using    []exception.Exception
		want     string
	}{
		{"most_findings_are_the_host_toolchains", set(compile("//a:a"), compile("//a:b"), compile("//a:c"), leak("//a:d")), nil,
			`75% of the findings (3 of 4) are excused by --exceptions-json ahab:host-cc (exception_sets = ["host-cc"] in the macros)`},
		{"half_is_not_most", set(compile("//a:a"), leak("//a:d")), nil, ""},
		{"a_set_in_use_is_not_suggested", set(compile("//a:a"), compile("//a:b")), hostCC, ""},
		{"no_findings", set(), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := suggestSet(tc.findings, tc.using, mode.Default)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkSuggestSet tries the ready-made sets on what the checks find in
// a generated 20k-action dump, the input of report's BenchmarkWriteText:
// less than half the time the text report of the same findings takes
// (1 December 2026, 2 cores, shared: 2.0 ms against 4.6 ms, medians of 5),
// which a run that suggests a set writes too.
func BenchmarkSuggestSet(b *testing.B) {
	o := generatedFindings(b)
	b.ReportAllocs()
	for b.Loop() {
		suggestSet(o, nil, mode.Default)
	}
}

func generatedFindings(b *testing.B) *finding.Ordered {
	var buf bytes.Buffer
	if _, err := gengraph.Write(&buf, gengraph.Options{Actions: 20000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	res, err := analyze.Dump(&buf, "bench.pb", check.All(spec.Builtin()), analyze.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return res.Findings.Ordered()
}
