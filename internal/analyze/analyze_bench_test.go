package analyze

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/gengraph"
	"github.com/ahab-go/ahab/internal/mode"
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

// BenchmarkDumpAmplified runs the whole pipeline over the conformance
// set's real webapp.pb copied 500 times (gengraph.Amplify): as it is,
// every command line repeated in its own target, and renumbered, each copy
// in targets of its own. These are the graphs of docs/performance.md's
// goal against the floor, at 1/24 of its size, where check.Lines judges
// each distinct command line once.
func BenchmarkDumpAmplified(b *testing.B) {
	real, err := os.ReadFile("../../testdata/conformance/real/webapp.pb")
	if err != nil {
		b.Fatal(err)
	}
	for _, renumber := range []bool{false, true} {
		var buf bytes.Buffer
		if _, err := gengraph.Amplify(&buf, real, 500, renumber); err != nil {
			b.Fatal(err)
		}
		dump := buf.Bytes()
		for _, m := range []mode.Mode{mode.Default, mode.Ahab02} {
			checks := check.All(spec.BuiltinFor(m))
			b.Run(fmt.Sprintf("renumber=%v/mode=%s", renumber, m), func(b *testing.B) {
				b.SetBytes(int64(len(dump)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Dump(bytes.NewReader(dump), "bench.pb", checks, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
