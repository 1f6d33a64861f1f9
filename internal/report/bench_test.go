package report_test

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/gengraph"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/spec"
)

// generatedFindings is what the checks find in a generated 20k-action
// dump: about 10k distinct findings of every kind, the mix a big report
// has.
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

// BenchmarkWriteJSON renders the JSON report of a generated dump's
// findings; bytes/s is the report's size.
func BenchmarkWriteJSON(b *testing.B) {
	benchmarkReport(b, func(w io.Writer, o *finding.Ordered) error { return report.WriteJSON(w, o, mode.Ahab02) })
}

// BenchmarkWriteText is BenchmarkWriteJSON for the text report.
func BenchmarkWriteText(b *testing.B) {
	benchmarkReport(b, func(w io.Writer, o *finding.Ordered) error {
		return report.WriteText(w, o, report.TextOptions{})
	})
}

func benchmarkReport(b *testing.B, write func(io.Writer, *finding.Ordered) error) {
	o := generatedFindings(b)
	var size countingWriter
	if err := write(&size, o); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := write(io.Discard, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(o.Len())*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// BenchmarkSummarize counts 100k distinct findings for --summary.
func BenchmarkSummarize(b *testing.B) {
	set := finding.NewSet()
	for i := range 100_000 {
		set.Add(finding.Finding{Kind: finding.AbsolutePath,
			Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//src/area_" + strconv.Itoa(i%37) + "/pkg_" + strconv.Itoa(i/8) + ":lib"},
			Path:   "/opt/vendor" + strconv.Itoa(i%50) + "/include", Site: finding.Site{Location: finding.Argument, Value: "-isystem/opt/vendor/include"}}, 1+i%3)
	}
	o := set.Ordered()
	b.ReportAllocs()
	for b.Loop() {
		report.WriteSummary(io.Discard, report.Summarize(o, report.SummaryTop), report.SummaryOptions{})
	}
	b.ReportMetric(float64(o.Len())*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
}
