package aquery

import (
	"bytes"
	"sync"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// FuzzDecode checks that no input makes Decode panic or hang, in any format,
// and that what it returns is usable. Seeds are in testdata/fuzz/FuzzDecode.
//
//	go test ./internal/aquery -run '^$' -fuzz FuzzDecode -fuzztime 60s
func FuzzDecode(f *testing.F) {
	f.Add(dump(f, statusGraph()...))
	f.Add(toStreamed(f, dump(f, append(statusGraph(),
		deps(1, []uint32{1, 2}, 2), deps(2, []uint32{3}, 1), tgt(1, "//a"),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "M", Arguments: []string{"a"}, InputDepSetIds: []uint32{1}}))...)))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{Detect, Proto, StreamedProto, JSONProto, TextProto} {
			var actions []*Action
			g, err := Decode(bytes.NewReader(data), "fuzz", Options{Format: format}, func(a *Action) error {
				actions = append(actions, a)
				return nil
			})
			if err != nil {
				if g != nil {
					t.Fatalf("%v: both a graph and an error", format)
				}
				continue
			}
			if g.Actions() != len(actions) {
				t.Fatalf("%v: Actions() = %d, fn saw %d", format, g.Actions(), len(actions))
			}
			for _, a := range actions {
				a.ResolveInputs(g)
			}
		}
		// The parallel pipeline agrees with a sequential read: the same
		// error, or the same number of actions.
		for _, format := range []Format{Proto, StreamedProto} {
			_, seqErr := Decode(bytes.NewReader(data), "fuzz", Options{Format: format}, func(*Action) error { return nil })
			var mu sync.Mutex
			n := 0
			g, parErr := Decode(bytes.NewReader(data), "fuzz", Options{Format: format, Workers: 3, ReuseActions: true}, func(*Action) error {
				mu.Lock()
				n++
				mu.Unlock()
				return nil
			})
			switch {
			case (seqErr == nil) != (parErr == nil):
				t.Fatalf("%v: sequential error %v, parallel error %v", format, seqErr, parErr)
			case seqErr != nil && seqErr.Error() != parErr.Error():
				t.Fatalf("%v: sequential error %q, parallel error %q", format, seqErr, parErr)
			case parErr == nil && g.Actions() != n:
				t.Fatalf("%v: Actions() = %d, fn saw %d", format, g.Actions(), n)
			}
		}
	})
}
