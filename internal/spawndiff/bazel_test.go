package spawndiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

// Two fresh builds of the tiny workspace with the real Bazel diverge as
// the committed logs do: the same verdicts, from logs made now (the
// timestamps, the output bases and so the digests are new every time).
// It takes about a minute, and runs where slow tests run (internal/testenv).
func TestFreshRealBuilds(t *testing.T) {
	testenv.Slow(t, "runs the real Bazel twice", "bazel")
	dir := t.TempDir()
	cmd := exec.Command(filepath.Join("..", "execlog", "testdata", "make-logs.sh"), dir)
	// A Bazel run by a test must not see the test's own environment.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEST_") && !strings.HasPrefix(kv, "RUNFILES_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make-logs.sh: %v\n%s", err, out)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, pair := range [][2]string{{"a.json", "b.json"}, {"a.binary", "b.binary"}} {
		r := Diff(load(t, "a", read(pair[0])), load(t, "b", read(pair[1])))
		if got := strings.Join(summary(r), "\n"); got != strings.Join(realVerdicts, "\n") {
			t.Errorf("%s against %s:\n%s\nexpected\n%s", pair[0], pair[1], got, strings.Join(realVerdicts, "\n"))
		}
	}
}
