package aquery

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ahab-go/ahab/internal/gengraph"
)

// BenchmarkDecodeGenerated decodes a 10k-action Bazel 8 shaped dump from
// gengraph (the same kind bench/run.sh measures) and resolves every
// action's target and status inputs, as the analysis does: on one
// goroutine, keeping the actions, and on two workers, with and without
// ReuseActions (the analysis reuses them, see analyze.Dump).
func BenchmarkDecodeGenerated(b *testing.B) {
	for _, f := range []gengraph.Format{gengraph.Proto, gengraph.StreamedProto} {
		var buf bytes.Buffer
		if _, err := gengraph.Write(&buf, gengraph.Options{Actions: 10000, Seed: 1, Format: f}); err != nil {
			b.Fatal(err)
		}
		dump := buf.Bytes()
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(dump)))
			b.ReportAllocs()
			for b.Loop() {
				var pending []*Action
				g, err := Decode(bytes.NewReader(dump), "bench.pb", Options{}, func(_ int, a *Action) error {
					if len(a.InputDepSets) > 0 {
						pending = append(pending, a)
					}
					return nil
				})
				if err != nil || g.Actions() != 10000 {
					b.Fatalf("%v, %d actions", err, g.Actions())
				}
				for _, a := range pending {
					a.ResolveInputs(g)
				}
			}
			b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
		})
		for _, reuse := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/workers=2/reuse=%v", f, reuse), func(b *testing.B) {
				b.SetBytes(int64(len(dump)))
				b.ReportAllocs()
				for b.Loop() {
					g, err := Decode(bytes.NewReader(dump), "bench.pb", Options{Workers: 2, ReuseActions: reuse}, func(_ int, a *Action) error {
						return nil
					})
					if err != nil || g.Actions() != 10000 {
						b.Fatalf("%v, %d actions", err, g.Actions())
					}
				}
				b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
			})
		}
	}
}

// BenchmarkDecodeJSONProto decodes the same dump as jsonproto, the way
// Bazel's --output=jsonproto prints it, on one goroutine: encoding/json
// cuts out each element and protojson decodes it.
func BenchmarkDecodeJSONProto(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gengraph.Write(&buf, gengraph.Options{Actions: 10000, Seed: 1, Format: gengraph.JSONProto}); err != nil {
		b.Fatal(err)
	}
	dump := buf.Bytes()
	b.SetBytes(int64(len(dump)))
	b.ReportAllocs()
	for b.Loop() {
		g, err := Decode(bytes.NewReader(dump), "bench.json", Options{}, func(_ int, a *Action) error { return nil })
		if err != nil || g.Actions() != 10000 {
			b.Fatalf("%v, %d actions", err, g.Actions())
		}
	}
	b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}
