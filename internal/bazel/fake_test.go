package bazel

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeBazel is testdata/bazel copied into a temporary directory (so its
// mode bit does not depend on how the repository was checked out), with
// a record file of its invocations.
type fakeBazel struct {
	dir    string // holds the executable, named "bazel"
	path   string
	record string
}

func newFakeBazel(t *testing.T) *fakeBazel {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake bazel is a POSIX shell script")
	}
	script, err := os.ReadFile(filepath.Join("testdata", "bazel"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := &fakeBazel{dir: dir, path: filepath.Join(dir, "bazel"), record: filepath.Join(dir, "record")}
	if err := os.WriteFile(f.path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// env is a small user environment for the fake: the real PATH (the
// script needs cat, head, sed), a real-looking USER and HOSTNAME, and
// the fake's controls.
func (f *fakeBazel) env(mode string, extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"USER=mark",
		"HOSTNAME=workstation",
		"AHAB_FAKE_BAZEL_RECORD=" + f.record,
		"AHAB_FAKE_BAZEL_MODE=" + mode,
	}, extra...)
}

func (f *fakeBazel) runner(mode string, extra ...string) *Runner {
	return &Runner{Bazel: f.path, Env: f.env(mode, extra...)}
}

// call is one recorded invocation of the fake.
type call struct {
	cwd, user, hostname, sigign, stdin, probe string
	args                                      []string
}

func (f *fakeBazel) calls(t *testing.T) []call {
	t.Helper()
	file, err := os.Open(f.record)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var calls []call
	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		key, value, _ := strings.Cut(scanner.Text(), " ")
		if key == "cwd" {
			calls = append(calls, call{cwd: value})
			continue
		}
		if len(calls) == 0 {
			t.Fatalf("%s: record does not start with a cwd line", f.record)
		}
		c := &calls[len(calls)-1]
		switch key {
		case "USER":
			c.user = value
		case "HOSTNAME":
			c.hostname = value
		case "sigign":
			c.sigign = value
		case "stdin":
			c.stdin = value
		case "probe":
			c.probe = value
		case "arg":
			c.args = append(c.args, value)
		default:
			t.Fatalf("%s: unexpected record line %q", f.record, scanner.Text())
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return calls
}

// onlyCall returns the single recorded invocation.
func (f *fakeBazel) onlyCall(t *testing.T) call {
	t.Helper()
	calls := f.calls(t)
	if len(calls) != 1 {
		t.Fatalf("fake bazel ran %d times, want once", len(calls))
	}
	return calls[0]
}
