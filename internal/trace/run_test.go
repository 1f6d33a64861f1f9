package trace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The overhead script traces what ahab trace traces.
func TestOverheadScriptTracesTheSameCalls(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "bench", "trace-overhead.sh"))
	if err != nil {
		t.Fatal(err)
	}
	want := `syscalls="` + strings.Join(Syscalls, ",") + `"`
	if !strings.Contains(string(script), want) {
		t.Errorf("bench/trace-overhead.sh does not set %s", want)
	}
}

func TestBuildArgs(t *testing.T) {
	s := &session{
		o:          Options{Label: "//pkg:all", Bazel: "/opt/bazel", Flags: []string{"--config=ci", "--spawn_strategy=sandboxed"}},
		strace:     "strace",
		userRoot:   "/s/user_root",
		outputBase: "/s/output_base",
		traceFile:  "/s/strace.txt",
		execLog:    "/s/execution_log.json",
	}
	got := s.buildArgs()
	want := []string{
		"strace", "--seccomp-bpf", "-f", "-y", "-s131072", "-o", "/s/strace.txt", "-e", "trace=" + strings.Join(Syscalls, ","),
		"/opt/bazel", "--batch", "--output_user_root=/s/user_root", "--output_base=/s/output_base", "build",
		"--config=ci", "--spawn_strategy=sandboxed",
		"--spawn_strategy=standalone", "--disk_cache=", "--remote_cache=", "--remote_executor=",
		"--execution_log_json_file=/s/execution_log.json", "--", "//pkg:all",
	}
	if !slices.Equal(got, want) {
		t.Errorf("argv:\n%q\nwant (the user's flags first, so that ours win):\n%q", got, want)
	}
}

func TestFindWorkspace(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := findWorkspace(sub); err == nil || !strings.Contains(err.Error(), "not in a Bazel workspace") {
		t.Errorf("no workspace: error %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "MODULE.bazel"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorkspace(sub); err != nil || got != filepath.Join(root, "a") {
		t.Errorf("findWorkspace = %q, %v; want %s", got, err, filepath.Join(root, "a"))
	}
}

func TestFindExecRoot(t *testing.T) {
	ob := t.TempDir()
	if _, err := findExecRoot(ob); err == nil {
		t.Error("no execroot: no error")
	}
	os.MkdirAll(filepath.Join(ob, "execroot", "ws"), 0o755)
	os.WriteFile(filepath.Join(ob, "execroot", "DO_NOT_BUILD_HERE"), nil, 0o644)
	if got, err := findExecRoot(ob); err != nil || got != filepath.Join(ob, "execroot", "ws") {
		t.Errorf("findExecRoot = %q, %v", got, err)
	}
	os.MkdirAll(filepath.Join(ob, "execroot", "other"), 0o755)
	if _, err := findExecRoot(ob); err == nil || !strings.Contains(err.Error(), "2 execution roots (other, ws), expected one") {
		t.Errorf("two execroots: error %v", err)
	}
}

func TestTailWriter(t *testing.T) {
	var w tailWriter
	for i := 0; i < 10000; i++ {
		w.Write([]byte(strings.Repeat("x", 99) + "\n"))
	}
	w.Write([]byte("the reason\n"))
	s := w.String()
	if len(s) != tailLimit || !strings.HasSuffix(s, "the reason\n") {
		t.Errorf("tail of %d bytes ending %q, want %d ending with the reason", len(s), s[len(s)-20:], tailLimit)
	}
}
