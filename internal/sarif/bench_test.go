package sarif

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
)

// BenchmarkWrite writes the log of 10k distinct findings of mixed kinds,
// each with its sentence, remedy and fingerprint; bytes/s is the log's
// size.
func BenchmarkWrite(b *testing.B) {
	fs := sorted(generated(10_000, 7))
	var size bytes.Buffer
	if err := Write(&size, fs, Options{ToolVersion: "bench", Locations: Locations{NoLines: "bench"}}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, fs, Options{ToolVersion: "bench", Locations: Locations{NoLines: "bench"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fs.Len())*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
}

// BenchmarkWriteCollapsed writes the log of 100k distinct findings,
// past GitHub's 25,000 results, so collapsed per target and kind.
func BenchmarkWriteCollapsed(b *testing.B) {
	set := finding.NewSet()
	for i := range 100_000 {
		set.Add(finding.Finding{Kind: finding.AbsolutePath,
			Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//src/area_" + strconv.Itoa(i%37) + "/pkg_" + strconv.Itoa(i/8) + ":lib"},
			Path:   "/opt/vendor/include/" + strconv.Itoa(i%8), Site: finding.Site{Location: finding.Argument, Value: "-isystem/opt/vendor/include"}}, 1+i%3)
	}
	o := set.Ordered()
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, o, Options{Locations: Locations{NoLines: "bench"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(o.Len())*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
}
