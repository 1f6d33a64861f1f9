// Package testenv decides whether the slow tests run: those that run a real
// Bazel, Bazel under strace, or cross-compile Ahab from a cold cache. They
// take minutes on two cores, so a plain `go test ./...` skips them and says
// how to run them. CI=true (what .ci/run sets) or AHAB_SLOW_TESTS=1 runs
// them; under CI a missing tool fails the test, since a skip there would
// pass a run that checked nothing.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// Slow skips t unless slow tests were asked for, or when one of tools is
// not on PATH (which fails t under CI). what says what the test does, as
// in "builds a workspace twice with the real Bazel".
func Slow(t testing.TB, what string, tools ...string) {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	switch {
	case ci:
	case testing.Short():
		t.Skipf("%s; skipped with -short", what)
	case os.Getenv("AHAB_SLOW_TESTS") != "1":
		t.Skipf("%s, which takes minutes; AHAB_SLOW_TESTS=1 runs it", what)
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if ci {
				t.Fatalf("CI=true but no `%s` is on PATH: this test must run in CI; .ci/install-bazel.sh installs Debian's bazel-bootstrap and strace", tool)
			}
			t.Skipf("no `%s` on PATH: install Debian's bazel-bootstrap and strace (bash .ci/install-bazel.sh) to run this test", tool)
		}
	}
}
