package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTraceCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a_label_is_required", []string{"trace"}, ExitUsage, "ahab trace needs a LABEL to build"},
		{"one_label_only", []string{"trace", "//a", "//b"}, ExitUsage, `unexpected argument "//b": ahab trace builds one LABEL`},
		{"write_json_once", []string{"trace", "--write-json", "a", "--write-json", "b", "//a"}, ExitUsage, "already given as"},
		{"an_unknown_flag", []string{"trace", "--aquery-file", "x", "//a"}, ExitUsage, "unknown flag: --aquery-file"},
		{"help", []string{"trace", "--help"}, ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, stdout, stderr := testSystem(nil)
			if code := Main(tc.args, sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			if tc.code == ExitOK && !strings.Contains(stdout.String(), "Usage: ahab trace [flags] LABEL") {
				t.Errorf("help:\n%s", stdout)
			}
		})
	}
}

func TestTraceWithoutStrace(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": t.TempDir()})
	if code := Main([]string{"trace", "//a"}, sys); code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	want := "Error: strace not found (exec: \"strace\": executable file not found in $PATH): ahab trace runs the build under strace; install it with `apt-get install strace`\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

func TestTraceOutsideAWorkspace(t *testing.T) {
	dir := t.TempDir()
	// A fake strace: found on PATH, never run.
	if err := os.WriteFile(filepath.Join(dir, "strace"), []byte("#!/bin/sh\nexit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": dir})
	if code := Main([]string{"trace", "//a"}, sys); code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	if !strings.Contains(stderr.String(), ": not in a Bazel workspace, expected a WORKSPACE, WORKSPACE.bazel or MODULE.bazel file here or above\n") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("disk full")
	err := writeFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return failed
	})
	if !errors.Is(err, failed) || !strings.Contains(err.Error(), "cannot write "+path) {
		t.Errorf("error %v, want the writer's, naming the file", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old content", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the file alone (no temporary left)", len(entries))
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Errorf("the file holds %q, want new", data)
	}
	if err := writeFileAtomic(filepath.Join(dir, "missing", "r.json"), func(io.Writer) error { return nil }); err == nil {
		t.Error("no error writing into a missing directory")
	}
}
