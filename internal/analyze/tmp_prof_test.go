package analyze

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/spec"
)

func TestTmpProfile(t *testing.T) {
	f, err := os.Open(os.Getenv("PROF_DUMP"))
	if err != nil {
		t.Skip()
	}
	cpu, _ := os.Create("/tmp/bench/cpu.prof")
	pprof.StartCPUProfile(cpu)
	res, err := Dump(f, "x", check.All(spec.Builtin()), Options{})
	pprof.StopCPUProfile()
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("distinct %d, heapinuse %d MB, total alloc %d MB, numgc %d", res.Findings.Len(), ms.HeapInuse>>20, ms.TotalAlloc>>20, ms.NumGC)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("after GC heapinuse %d MB", ms.HeapInuse>>20)
	h, _ := os.Create("/tmp/bench/heap.prof")
	pprof.WriteHeapProfile(h)
	h.Close()
	runtime.KeepAlive(res)
}
