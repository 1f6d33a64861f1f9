package analyze

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/gengraph"
	"github.com/ahab-go/ahab/internal/spec"
)

// BenchmarkDump runs the whole pipeline (decode, all checks, merge,
// resolve) over a generated 10k-action dump, with one worker and with
// GOMAXPROCS workers.
func BenchmarkDump(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gengraph.Write(&buf, gengraph.Options{Actions: 10000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	dump := buf.Bytes()
	checks := check.All(spec.Builtin())
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(len(dump)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := Dump(bytes.NewReader(dump), "bench.pb", checks, Options{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				if res.Actions != 10000 {
					b.Fatalf("%d actions, expected 10000", res.Actions)
				}
			}
			b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
