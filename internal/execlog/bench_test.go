package execlog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/genlog"
	"github.com/ahab-go/ahab/internal/spawn"
)

// The benchmarks read logs that internal/genlog writes (seed 1, about 24
// inputs and 3.9 KB of binary log per spawn), generated once per run into
// a temporary directory that TestMain removes. The 1M sizes need about
// 4 GB (binary), 8 GB (JSON) and 0.2 GB (compact) of temporary space and a
// few minutes to generate; run the 100k ones alone with
//
//	go test ./internal/execlog -run '^$' -bench '/100k'
//
// ReadBinary and ReadCompact are the bar to beat: a plain sequential
// protobuf reader (protolog), proto.Unmarshal into the generated types,
// and for the compact format Bazel's own reconstruction of each spawn.

var sizes = []struct {
	name   string
	spawns int
}{{"100k", 100_000}, {"1M", 1_000_000}}

var formats = []execlog.Format{execlog.JSON, execlog.Binary, execlog.Compact}

func BenchmarkRead(b *testing.B) {
	for _, f := range formats {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%v", size.name, f), func(b *testing.B) {
				path := generated(b, f, size.spawns)
				measure(b, path, size.spawns, func(r *os.File) error {
					_, err := execlog.Read(r, path, execlog.Options{ReuseSpawns: true}, func(*spawn.Spawn) error { return nil })
					return err
				})
			})
		}
	}
}

func BenchmarkReadPlain(b *testing.B) {
	for _, f := range []execlog.Format{execlog.Binary, execlog.Compact} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%v", size.name, f), func(b *testing.B) {
				path := generated(b, f, size.spawns)
				read := protolog.ReadBinary
				if f == execlog.Compact {
					read = protolog.ReadCompact
				}
				measure(b, path, size.spawns, func(r *os.File) error {
					return read(r, func(*spawnpb.SpawnExec) error { return nil })
				})
			})
		}
	}
}

// measure reads path b.N times, reporting spawns/s, MB/s of log and the
// CPU time per read (user and system, the garbage collector's included),
// which a shared machine disturbs less than wall time.
func measure(b *testing.B, path string, spawns int, read func(*os.File) error) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		err = read(f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spawns)*float64(b.N)/b.Elapsed().Seconds(), "spawns/s")
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the CPU time the process has used.
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

// generated returns the path of a generated log, writing it the first
// time.
func generated(b *testing.B, f execlog.Format, spawns int) string {
	b.Helper()
	genMu.Lock()
	defer genMu.Unlock()
	if genDir == "" {
		var err error
		if genDir, err = os.MkdirTemp("", "ahab-execlog-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(genDir, fmt.Sprintf("%d.%v", spawns, f))
	if genned[path] {
		return path
	}
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	_, err = genlog.Write(out, genlog.Options{Spawns: spawns, Seed: 1, Format: f})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	genned[path] = true
	return path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if genDir != "" {
		os.RemoveAll(genDir)
	}
	os.Exit(code)
}
