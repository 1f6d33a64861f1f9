package bazel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
// own use (a scratch output base, never the user's): `bazel shutdown`
// with the startup options Runner's commands use (through Run, so that
// only a second Ctrl-C cuts it short), then KillServer for whatever is
// left. It runs whatever became of the caller's context: a server must
// not outlive the command that started it.
func (r *Runner) Shutdown(outputBase string) error {
	return r.ShutdownWith(outputBase, Invocation{})
}

// ShutdownWith is Shutdown for a server started with more startup
// options or through a wrapper: inv gives them (Args holds the startup
// options, which must be those the server was started with, or the
// client would start another; Wrap, Dir and Env as for Run).
func (r *Runner) ShutdownWith(outputBase string, inv Invocation) error {
	root, err := OutputUserRoot(outputBase)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(filepath.Join(outputBase, "server")); err == nil {
		// With no server running, `bazel shutdown` starts none and says nothing.
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		inv.Command = "bazel shutdown"
		startup := inv.Args
		if len(startup) == 0 {
			startup = []string{"--output_base=" + outputBase, "--output_user_root=" + root}
		}
		inv.Args = append(slices.Clone(startup), "shutdown")
		_ = r.Run(ctx, inv) // what is left is killed below, whatever it said
	}
	return KillServer(outputBase)
}

// KillServer kills (SIGKILL) every live server process of outputBase,
// with the actions it runs, and waits for them to be gone: the one its
// pid file names, if /proc says it is still that output base's, and any
// process started with --output_base=outputBase. `bazel shutdown` may
// fail or hang, and a server still starting when its client was stopped
// does not answer it.
func KillServer(outputBase string) error {
	if pids := serverPIDs(outputBase); len(pids) > 0 {
		killServerTree(pids)
	}
	var errs []error
	for _, pid := range serverPIDs(outputBase) {
		errs = append(errs, fmt.Errorf("the Bazel server (pid %d) of %s outlived SIGKILL", pid, outputBase))
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
