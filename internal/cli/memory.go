package cli

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryFloor is the heap the garbage collector may use before it starts
// trading CPU for memory. Go's default (collect when the heap has doubled
// since the last collection) lets a run whose findings and graph indexes
// hold 250 MB reach twice that; a soft limit keeps the peak near what the
// run really holds.
const memoryFloor = 150 << 20

// tuneMemory sets a soft memory limit of memoryFloor and, as the live heap
// grows, raises it to a third above the live heap, so that a graph bigger
// than the floor never makes the collector run back to back. It does
// nothing when the user set GOGC or GOMEMLIMIT: theirs is the last word.
// The returned function stops the watcher and restores the limit.
func tuneMemory(sys System) (stop func()) {
	_, gogc := sys.LookupEnv("GOGC")
	_, limit := sys.LookupEnv("GOMEMLIMIT")
	if gogc || limit {
		return func() {}
	}
	current := int64(memoryFloor)
	previous := debug.SetMemoryLimit(current)
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			live := int64(sample[0].Value.Uint64())
			if live+live/8 > current {
				current = live + live/3
				debug.SetMemoryLimit(current)
			}
		}
	}()
	return func() {
		close(done)
		debug.SetMemoryLimit(previous)
	}
}
