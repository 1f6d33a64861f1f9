package spawndiff_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/genlog"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

// The benchmarks compare pairs of logs that internal/genlog writes (seed
// 1, its default rate of planted divergences), generated once per run
// into a temporary directory that TestMain removes. The 1M sizes need
// about 8 GB (binary) and 0.4 GB (compact) of temporary space, a few
// minutes to generate and, for Diff, both summaries in memory; run the
// 100k ones alone with
//
//	go test ./internal/spawndiff -run '^$' -bench '/100k'
//
// Summarize is reading one log into a Log; Diff is Diff alone, on two
// Logs already built; Whole is what `ahab diff` does: read both logs at
// once, diff, and write both reports. Compare them with
// internal/execlog's BenchmarkReadPlain, the plain protobuf reader.

var sizes = []struct {
	name   string
	spawns int
}{{"100k", 100_000}, {"1M", 1_000_000}}

func BenchmarkSummarize(b *testing.B) {
	for _, f := range []execlog.Format{execlog.Binary, execlog.Compact} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%v", size.name, f), func(b *testing.B) {
				old, _ := pair(b, f, size.spawns)
				setBytes(b, old)
				cpu := cpuTime()
				var l *spawndiff.Log
				for b.Loop() {
					l = summarize(b, old)
				}
				report(b, size.spawns, cpu)
				b.ReportMetric(float64(l.Bytes())/1e6, "summary-MB")
			})
		}
	}
}

func BenchmarkDiff(b *testing.B) {
	for _, size := range sizes {
		b.Run(size.name, func(b *testing.B) {
			old, new := pair(b, execlog.Compact, size.spawns)
			lo, ln := summarize(b, old), summarize(b, new)
			b.ResetTimer()
			cpu := cpuTime()
			var r *spawndiff.Result
			for b.Loop() {
				r = spawndiff.Diff(lo, ln)
			}
			report(b, size.spawns, cpu)
			b.ReportMetric(float64(len(r.Actions)), "divergent")
		})
	}
}

func BenchmarkWhole(b *testing.B) {
	for _, f := range []execlog.Format{execlog.Binary, execlog.Compact} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%v", size.name, f), func(b *testing.B) {
				old, new := pair(b, f, size.spawns)
				cpu := cpuTime()
				for b.Loop() {
					var lo, ln *spawndiff.Log
					var wg sync.WaitGroup
					wg.Go(func() { lo = summarize(b, old) })
					wg.Go(func() { ln = summarize(b, new) })
					wg.Wait()
					r := spawndiff.Diff(lo, ln)
					if err := spawndiff.WriteText(io.Discard, r, spawndiff.TextOptions{}); err != nil {
						b.Fatal(err)
					}
					if err := spawndiff.WriteJSON(io.Discard, r); err != nil {
						b.Fatal(err)
					}
				}
				report(b, size.spawns, cpu)
			})
		}
	}
}

func summarize(b *testing.B, path string) *spawndiff.Log {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	l := spawndiff.NewLog(path)
	if _, err := execlog.Summarize(f, path, execlog.Options{}, l.Tables(), l.Add); err != nil {
		b.Fatal(err)
	}
	return l
}

func setBytes(b *testing.B, path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
}

// report adds spawns/s (of one log) and CPU time per operation (user and
// system, the garbage collector's included), which a shared machine
// disturbs less than wall time.
func report(b *testing.B, spawns int, cpu time.Duration) {
	b.ReportMetric(float64(spawns)*float64(b.N)/b.Elapsed().Seconds(), "spawns/s")
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var (
	genMu  sync.Mutex
	genDir string
	genned = map[string]bool{}
)

// pair returns the paths of a generated pair of logs, writing them the
// first time.
func pair(b *testing.B, f execlog.Format, spawns int) (string, string) {
	b.Helper()
	genMu.Lock()
	defer genMu.Unlock()
	if genDir == "" {
		var err error
		if genDir, err = os.MkdirTemp("", "ahab-spawndiff-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	old := filepath.Join(genDir, fmt.Sprintf("%d-old.%v", spawns, f))
	new := filepath.Join(genDir, fmt.Sprintf("%d-new.%v", spawns, f))
	if genned[old] {
		return old, new
	}
	ow, err := os.Create(old)
	if err != nil {
		b.Fatal(err)
	}
	nw, err := os.Create(new)
	if err != nil {
		b.Fatal(err)
	}
	_, _, err = genlog.WritePair(ow, nw, nil, genlog.Options{Spawns: spawns, Seed: 1, Format: f})
	for _, c := range []io.Closer{ow, nw} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	genned[old] = true
	return old, new
}

func TestMain(m *testing.M) {
	code := m.Run()
	if genDir != "" {
		os.RemoveAll(genDir)
	}
	os.Exit(code)
}
