package aquery

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// Decoding on several goroutines hands over the same actions as decoding
// on one, and a broken dump fails with the same error, the first in dump
// order.
func TestParallelDecodingIsEquivalent(t *testing.T) {
	binary, _ := conformanceDumps(t)
	for _, path := range binary {
		data := readFile(t, path)
		collect := func(opts Options) ([]string, error) {
			var mu sync.Mutex
			var got []string
			g, err := Decode(bytes.NewReader(data), path, opts, func(a *Action) error {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%+v", *a))
				return nil
			})
			if err != nil {
				return nil, err
			}
			if g.Actions() != len(got) {
				t.Errorf("%s: Graph.Actions() = %d, fn saw %d", path, g.Actions(), len(got))
			}
			slices.Sort(got)
			return got, nil
		}
		want, err := collect(Options{Format: Proto})
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{{Format: Proto, Workers: 3}, {Format: Proto, Workers: 2, ReuseActions: true}} {
			got, err := collect(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s with %+v: actions differ from a sequential decode", path, opts)
			}
		}

		// Cut the dump in the middle of its last action: every mode names
		// the same entry and offset.
		cut := data[:len(data)*2/3]
		_, seqErr := Decode(bytes.NewReader(cut), "cut.pb", Options{Format: Proto}, func(*Action) error { return nil })
		_, parErr := Decode(bytes.NewReader(cut), "cut.pb", Options{Format: Proto, Workers: 3}, func(*Action) error { return nil })
		if seqErr == nil || parErr == nil || seqErr.Error() != parErr.Error() {
			t.Errorf("%s cut short: sequential error %v, parallel error %v", path, seqErr, parErr)
		}
	}
}
