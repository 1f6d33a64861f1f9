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
// Without Bazel it skips, except under CI=true, where a skip would pass a
// run that checked nothing.
func TestLocalTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not running Bazel")
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no bazel on PATH: .ci/install-bazel.sh should have installed Debian's bazel-bootstrap")
		}
		t.Skip("no bazel on PATH; install Debian's bazel-bootstrap (see .ci/install-bazel.sh) to run the fishery")
	}
	var stdout, stderr bytes.Buffer
	code := Main([]string{"ci"}, &stdout, &stderr)
	out := stdout.String() + stderr.String()
	if code != 0 {
		t.Fatalf("fishery ci exited %d:\n%s", code, out)
	}
	if !strings.Contains(out, "=== fishery: 3/3 passed") {
		t.Errorf("fishery ci did not pass the three local targets:\n%s", out)
	}
}
