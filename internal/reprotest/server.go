package reprotest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/ahab-go/ahab/internal/bazel"
)

// shutdown stops build p's server, if it started one, with `bazel
// shutdown`; then bazel.KillServer kills whatever server of p's output
// base is still there: `bazel shutdown` may fail or hang, and a server that
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
		ctx, cancel := context.WithTimeout(context.Background(), bazel.ShutdownTimeout)
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
	if err := bazel.KillServer(p.outputBase); err != nil {
		return fmt.Errorf("build %d of 2: %w, which `bazel shutdown` left\n%s", p.n, err, tail)
	}
	return nil
}
