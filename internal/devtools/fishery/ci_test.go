package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

// TestLocalTargets runs `fishery ci` on the targets that need no network:
// real Bazel analyses whose findings must still match what is on record.
// It runs where slow tests run (internal/testenv).
func TestLocalTargets(t *testing.T) {
	testenv.Slow(t, "analyses the fishery's local targets with the real Bazel", "bazel")
	// Bazel's output user root (every target's output base, the install
	// base and the repository cache) goes here rather than into the
	// user's cache, and goes away with the test. ci expunges each output
	// base; should that fail, Bazel's read-only directories would stop
	// TempDir's own cleanup, so they are made writable first.
	cache := t.TempDir()
	t.Cleanup(func() {
		if err := removeAll(cache); err != nil {
			t.Errorf("removing the output user root: %v", err)
		}
	})
	var stdout, stderr bytes.Buffer
	code := Main([]string{"ci"}, &stdout, &stderr, cache)
	out := stdout.String() + stderr.String()
	if code != 0 {
		t.Fatalf("fishery ci exited %d:\n%s", code, out)
	}
	if !strings.Contains(out, "=== fishery: 3/3 passed") {
		t.Errorf("fishery ci did not pass the three local targets:\n%s", out)
	}
}
