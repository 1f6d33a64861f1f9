package cli

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

func TestTmpProfileCLI(t *testing.T) {
	if _, err := os.Stat(os.Getenv("PROF_DUMP")); err != nil {
		t.Skip()
	}
	cpu, _ := os.Create("/tmp/bench/cli-cpu.prof")
	pprof.StartCPUProfile(cpu)
	sys, _, _ := testSystem(nil)
	start := time.Now()
	stamps := []time.Duration{}
	_ = stamps
	code := Main([]string{"--aquery-file", os.Getenv("PROF_DUMP"), "--no-fail", "--shut-up", "--write-json", "/tmp/bench/out2.json"}, sys)
	pprof.StopCPUProfile()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("code %d in %v, total alloc %d MB, sys %d MB, numgc %d", code, time.Since(start), ms.TotalAlloc>>20, ms.Sys>>20, ms.NumGC)
}
