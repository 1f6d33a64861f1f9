package aquery

import (
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// repeatReader yields data n times without ever holding more than one copy.
type repeatReader struct {
	data []byte
	n    int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.data[r.off:])
	r.off += k
	if r.off == len(r.data) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}

// Decoding a dump much larger than the memory it may use: the heap must not
// grow with the dump when fn keeps nothing.
func TestMemoryDoesNotGrowWithTheDump(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 48 MiB")
	}
	one := dump(t, act(&analysispb.Action{
		Mnemonic:  "CppCompile",
		Arguments: []string{"gcc", "-c", strings.Repeat("src/a/very/long/path/", 200)},
	}))
	const total = 48 << 20
	for _, opts := range []Options{
		{Format: Proto},
		{Format: Proto, Workers: 2},
		{Format: Proto, Workers: 2, ReuseActions: true},
	} {
		r := &repeatReader{data: one, n: total / len(one)}
		var mu sync.Mutex
		var peak uint64
		var ms runtime.MemStats
		n := 0
		_, err := Decode(r, "big.pb", opts, func(int, *Action) error {
			mu.Lock()
			defer mu.Unlock()
			if n++; n%2000 == 0 {
				// Collect first, so what is measured is what the decoder
				// holds, not garbage the collector has yet to get to.
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v: %d actions, peak live heap %.1f MiB", opts, n, float64(peak)/(1<<20))
		if peak == 0 || peak > 8<<20 {
			t.Errorf("%+v: live heap reached %d MiB while decoding a %d MiB dump", opts, peak>>20, total>>20)
		}
	}
}
