package bazel

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// KillServer kills what runs with the output base in its command line and
// what its pid file names, and nothing else.
func TestKillServer(t *testing.T) {
	ob := filepath.Join(t.TempDir(), "output_base")
	other := filepath.Join(t.TempDir(), "other")
	start := func(outputBase string) *exec.Cmd {
		// sh stays the parent of sleep, so its command line keeps the flag.
		cmd := exec.Command("/bin/sh", "-c", "sleep 60; :", "server", "--output_base="+outputBase)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	byFlag, bystander := start(ob), start(other)
	// The pid file names a process that does not carry the flag but is the
	// output base's (its command line names it).
	byPid := exec.Command("/bin/sh", "-c", "sleep 60; :", ob)
	if err := byPid.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { byPid.Process.Kill(); byPid.Wait() })
	os.MkdirAll(filepath.Join(ob, "server"), 0o755)
	os.WriteFile(filepath.Join(ob, "server", "server.pid.txt"), []byte(strconv.Itoa(byPid.Process.Pid)+"\n"), 0o644)

	// A real server has run for a while; these must have exec'd first.
	for _, cmd := range []*exec.Cmd{byFlag, bystander, byPid} {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if b, _ := os.ReadFile(procCmdline(cmd.Process.Pid)); strings.HasPrefix(string(b), "/bin/sh\x00") {
				break
			}
		}
	}
	if err := KillServer(ob); err != nil {
		t.Fatal(err)
	}
	for name, cmd := range map[string]*exec.Cmd{"the process with --output_base": byFlag, "the process of the pid file": byPid} {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s exited by itself, want it killed", name)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s is still running", name)
		}
	}
	if !alive(bystander.Process.Pid) {
		t.Errorf("the server of another output base was killed")
	}
}
