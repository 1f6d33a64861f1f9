package aquery

import (
	"bytes"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/gengraph"
)

// benchDumps returns a real dump as is, and 200 renumbered copies of it
// as one graph (gengraph.Amplify), which is closer to the size of a large
// project's graph.
func benchDumps(b *testing.B) map[string][]byte {
	data := readFile(b, filepath.Join(conformanceDir(b), "real", "webapp-opt-stamp.pb"))
	var x200 bytes.Buffer
	if _, err := gengraph.Amplify(&x200, data, 200, true); err != nil {
		b.Fatal(err)
	}
	return map[string][]byte{
		"webapp-opt-stamp":      data,
		"webapp-opt-stamp_x200": x200.Bytes(),
	}
}

func BenchmarkDecode(b *testing.B) {
	for name, data := range benchDumps(b) {
		for _, format := range []Format{Proto, StreamedProto} {
			d := data
			if format == StreamedProto {
				d = toStreamed(b, data)
			}
			b.Run(name+"/"+format.String(), func(b *testing.B) {
				b.SetBytes(int64(len(d)))
				b.ReportAllocs()
				for b.Loop() {
					g, err := Decode(bytes.NewReader(d), name, Options{Format: format}, func(int, *Action) error { return nil })
					if err != nil || g.Actions() == 0 {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUnmarshalWhole is the baseline Decode avoids: the generated code
// decoding the whole container in memory.
func BenchmarkUnmarshalWhole(b *testing.B) {
	for name, data := range benchDumps(b) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var c analysispb.ActionGraphContainer
				if err := proto.Unmarshal(data, &c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
