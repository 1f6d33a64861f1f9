package bazel

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

// ShutdownTimeout bounds `bazel shutdown`; after it, the server is killed.
const ShutdownTimeout = 60 * time.Second

// Shutdown stops the server of an output base that Ahab started for its
// own use (a scratch output base, never the user's): `bazel shutdown` with
// the startup options Runner's commands use, in a process group of its
// own so that a Ctrl-C meant for Ahab does not cut it short; then
// KillServer for whatever is left. It runs whatever became of the
// caller's context: a server must not outlive the command that started
// it.
func (r *Runner) Shutdown(outputBase string) error {
	root, err := OutputUserRoot(outputBase)
	if err != nil {
		return err
	}
	// With no server running, `bazel shutdown` starts none and says nothing.
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.executable(), "--output_base="+outputBase, "--output_user_root="+root, "shutdown")
	cmd.Dir = r.Dir
	cmd.Env = r.environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	_ = cmd.Run() // what is left is killed below, whatever it said
	return KillServer(outputBase)
}

// KillServer kills (SIGKILL) every live server process of outputBase and
// waits for each to be gone: the one its pid file names, if /proc says it
// is still that output base's, and any process started with
// --output_base=outputBase. `bazel shutdown` may fail or hang, and a
// server still starting when its client was stopped does not answer it.
func KillServer(outputBase string) error {
	var errs []error
	for _, pid := range serverPIDs(outputBase) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("killing the Bazel server (pid %d) of %s: %w", pid, outputBase, err))
			continue
		}
		waitGone(pid)
	}
	return errors.Join(errs...)
}

// serverPIDs lists the live processes of the server of outputBase.
func serverPIDs(outputBase string) []int {
	var pids []int
	if b, err := os.ReadFile(filepath.Join(outputBase, "server", "server.pid.txt")); err == nil {
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

// RemoveAll removes a scratch directory Bazel wrote into (an output base,
// an install base), first making writable the directories Bazel makes
// read-only, which os.RemoveAll alone cannot empty.
func RemoveAll(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if info, err := d.Info(); err == nil && info.Mode().Perm()&0o700 != 0o700 {
				_ = os.Chmod(path, info.Mode().Perm()|0o700)
			}
		}
		return nil
	})
	return os.RemoveAll(dir)
}
