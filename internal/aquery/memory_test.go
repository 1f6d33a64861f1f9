package aquery

import (
	"io"
	"runtime"
	"strings"
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
	r := &repeatReader{data: one, n: total / len(one)}
	var peak uint64
	var ms runtime.MemStats
	n := 0
	_, err := Decode(r, "big.pb", Options{Format: Proto}, func(*Action) error {
		if n++; n%2000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d actions, peak heap %.1f MiB", n, float64(peak)/(1<<20))
	if peak == 0 || peak > 16<<20 {
		t.Errorf("peak heap %d MiB while decoding a %d MiB dump", peak>>20, total>>20)
	}
}
