package reprotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// shutdownTimeout bounds `bazel shutdown`; after it, the server is killed.
const shutdownTimeout = 60 * time.Second

// shutdown stops build p's server, if it started one, with `bazel
// shutdown`; then it kills (SIGKILL) whatever server of p's output base
// is still there: `bazel shutdown` may fail or hang, and a server that
// was still starting when its client was stopped does not answer it (the
// real-Bazel test caught one). It runs whatever became of the caller's
// context: a server must not outlive Run.
func shutdown(p build) error {
	if _, err := os.Lstat(p.outputBase); errors.Is(err, fs.ErrNotExist) {
		return nil // Bazel did not get as far as its output base
	}
	pidFile := filepath.Join(p.outputBase, "server", "server.pid.txt")
	tail := &lineTail{max: tailLines}
	if _, err := os.Stat(pidFile); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		// The build's startup options, so that the client talks to the
		// running server instead of starting another.
		argv := p.argv("shutdown")
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = p.copyDir
		cmd.Env = p.env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Stderr = tail
		_ = cmd.Run() // what is left is killed below, whatever it said
	}
	var errs []error
	for _, pid := range serverPIDs(p.outputBase, pidFile) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("build %d of 2: killing its Bazel server (pid %d), which `bazel shutdown` left: %w\n%s", p.n, pid, err, tail))
			continue
		}
		waitGone(pid)
	}
	return errors.Join(errs...)
}

// serverPIDs lists the live processes of the server of outputBase: the
// one its pid file names, and on Linux any whose command line holds
// --output_base=outputBase (a server that had not written its pid yet).
func serverPIDs(outputBase, pidFile string) []int {
	var pids []int
	if b, err := os.ReadFile(pidFile); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 && alive(pid) {
			// Where /proc tells, only if the pid is still the server's
			// and not a process that has its number since.
			if cmdline, err := os.ReadFile(procCmdline(pid)); err != nil || bytes.Contains(cmdline, []byte(outputBase)) {
				pids = append(pids, pid)
			}
		}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return pids
	}
	flag := []byte("\x00--output_base=" + outputBase + "\x00")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if cmdline, err := os.ReadFile(procCmdline(pid)); err == nil && bytes.Contains(append(cmdline, 0), flag) && !slices.Contains(pids, pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func procCmdline(pid int) string { return "/proc/" + strconv.Itoa(pid) + "/cmdline" }

// alive says whether pid is a process that has not exited: one that
// exists and is not a zombie (a zombie's command line is empty).
func alive(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return false
	}
	cmdline, err := os.ReadFile(procCmdline(pid))
	return err != nil || len(cmdline) > 0
}

// waitGone waits a little for a killed process to be gone. The server is
// not our child: reaping it is not ours to do, so a zombie counts as gone.
func waitGone(pid int) {
	for range 500 {
		if !alive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
