package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLocalTargets runs `fishery ci` on the targets that need no network:
// real Bazel analyses whose findings must still match what is on record.
// Without Bazel, or with -short, it skips, except under CI=true, where a
// skip would pass a run that checked nothing.
func TestLocalTargets(t *testing.T) {
	ci := os.Getenv("CI") == "true"
	if testing.Short() && !ci {
		t.Skip("-short: not running Bazel")
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		if ci {
			t.Fatal("CI=true but no bazel on PATH: .ci/install-bazel.sh should have installed Debian's bazel-bootstrap")
		}
		t.Skip("no bazel on PATH; install Debian's bazel-bootstrap (see .ci/install-bazel.sh) to run the fishery")
	}
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
