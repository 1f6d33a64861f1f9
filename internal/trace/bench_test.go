package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// repeatReader yields head once, then body n times, without holding more
// than one copy; every check bytes it calls check.
type repeatReader struct {
	head, body []byte
	n          int
	off        int
	read       int
	check      func()
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if len(r.head) > 0 {
		k := copy(p, r.head)
		r.head = r.head[k:]
		return k, nil
	}
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.body[r.off:])
	r.off += k
	if r.off == len(r.body) {
		r.off, r.n = 0, r.n-1
	}
	if r.read += k; r.check != nil && r.read >= 1<<20 {
		r.read = 0
		r.check()
	}
	return k, nil
}

// bazelNoise is what Bazel's JVM does between spawns, as recorded: a thread
// is made, opens and stats files, and exits. None of it is an action's.
// ROOT stands for the pid of the traced Bazel.
const bazelNoise = `ROOT clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7ff095bff990, parent_tid=0x7ff095bff990, exit_signal=0, stack=0x7ff095aff000, stack_size=0xfff80, tls=0x7ff095bff6c0} => {parent_tid=[30001]}, 88) = 30001
30001 openat(AT_FDCWD</tmp/ahab-trace-test/ws>, "/tmp/ahab-trace-scratch/output_base/external/bazel_tools/tools/cpp/BUILD", O_RDONLY) = 40</usr/share/bazel/embedded_tools/tools/cpp/BUILD>
30001 newfstatat(AT_FDCWD</tmp/ahab-trace-test/ws>, "/tmp/ahab-trace-test/ws/pkg/BUILD", {st_mode=S_IFREG|0644, st_size=1812, ...}, AT_SYMLINK_NOFOLLOW) = 0
30001 newfstatat(AT_FDCWD</tmp/ahab-trace-test/ws>, "/tmp/ahab-trace-test/ws/pkg/secret.txt", {st_mode=S_IFREG|0644, st_size=13, ...}, AT_SYMLINK_NOFOLLOW) = 0
30001 readlinkat(AT_FDCWD</tmp/ahab-trace-test/ws>, "/tmp/ahab-trace-scratch/output_base/execroot/tracews/pkg",  <unfinished ...>
30001 <... readlinkat resumed>"/tmp/ahab-trace-test/ws/pkg", 4096) = 24
30001 getdents64(41</tmp/ahab-trace-test/ws/pkg>, 0x7ff0 /* 14 entries */, 32768) = 456
30001 +++ exited with 0 +++
`

// noiseFor is bazelNoise made by the Bazel that starts the trace.
func noiseFor(trace []byte) []byte {
	root, _, _ := bytes.Cut(trace, []byte(" "))
	return bytes.ReplaceAll([]byte(bazelNoise), []byte("ROOT"), root)
}

func recorded(tb testing.TB, names ...string) []byte {
	tb.Helper()
	var all []byte
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", "recorded", name))
		if err != nil {
			tb.Fatal(err)
		}
		all = append(all, data...)
	}
	return all
}

// The trace of a build is mostly Bazel's own doings, which the analysis
// skips: the live heap must not grow with them, even when no parent claims
// the processes doing them (a clone strace printed as "= ?").
func TestMemoryDoesNotGrowWithTheTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes 2 × 64 MiB")
	}
	head := recorded(t, "genrules.strace")
	for _, tc := range []struct {
		name  string
		noise []byte
		limit uint64
	}{
		{"claimed", noiseFor(head), 4 << 20},
		// Kept for pendingWindow lines each before they are given up on.
		{"unclaimed", bytes.Replace(noiseFor(head), []byte(" = 30001\n"), []byte(" = ?\n"), 1), 4 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const total = 64 << 20
			var peak uint64
			var ms runtime.MemStats
			r := &repeatReader{head: head, body: tc.noise, n: total / len(tc.noise), check: func() {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}}
			rep, err := analyzeOn(r, "big.strace", recordedActions(t), recordedLayout, loadFakeFS(t, filepath.Join("testdata", "recorded", "fs.txt")))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Actions) != 4 {
				t.Fatalf("%d actions traced, want the excerpt's 4", len(rep.Actions))
			}
			t.Logf("peak live heap %.1f MiB for a %d MiB trace", float64(peak)/(1<<20), total>>20)
			if peak == 0 || peak > tc.limit {
				t.Errorf("live heap reached %.1f MiB while analyzing a %d MiB trace, want at most %d MiB", float64(peak)/(1<<20), total>>20, tc.limit>>20)
			}
		})
	}
}

// BenchmarkAnalyze measures the analysis of traces: the recorded excerpts
// as they are (spawns, mostly decoded), and Bazel's noise, mostly skipped.
func BenchmarkAnalyze(b *testing.B) {
	actions := recordedActions(b)
	fsys := loadFakeFS(b, filepath.Join("testdata", "recorded", "fs.txt"))
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"spawns", recorded(b, "genrules.strace", "compiles.strace", "tools.strace")},
		{"bazel_noise", append(recorded(b, "genrules.strace"), bytes.Repeat(noiseFor(recorded(b, "genrules.strace")), 4000)...)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := analyzeOn(bytes.NewReader(tc.data), "bench.strace", actions, recordedLayout, fsys); err != nil {
					b.Fatal(err)
				}
			}
			lines := bytes.Count(tc.data, []byte{'\n'})
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
