// Package bazel runs Bazel for Ahab: every command any part of Ahab runs
// (`bazel info` for the output base, `bazel aquery` with USER and
// HOSTNAME replaced by sentinels and its output streamed to a consumer,
// `bazel config` for the configurations the aquery used, `bazel query`
// for where targets are declared, the builds of trace and reprotest, the
// shutdown and killing of a server) starts through Runner.Run, with one
// signal policy, one tail of Bazel's stderr, one account of its progress
// and the error texts of §1.7. It does not decode what Bazel prints.
package bazel

import (
	"io"
	"os"
	"path/filepath"
	"time"
)

// WorkingDir is where the nested Bazel runs (§1.2): BUILD_WORKING_DIRECTORY,
// else BUILD_WORKSPACE_DIRECTORY, else "" (inherit the cwd). Under `bazel
// run` the cwd is inside the runfiles tree, where Bazel refuses to run.
// A variable that is set wins even when empty (§1.2 "set (even if empty)"),
// and "" then means the inherited cwd.
func WorkingDir(getenv func(string) (string, bool)) string {
	for _, name := range []string{"BUILD_WORKING_DIRECTORY", "BUILD_WORKSPACE_DIRECTORY"} {
		if dir, ok := getenv(name); ok {
			return dir
		}
	}
	return ""
}

// Runner runs Bazel on the user's behalf.
type Runner struct {
	// Bazel is the executable, "bazel" when empty; the user may name
	// bazelisk. A name without a slash is looked up on this process's PATH.
	Bazel string
	// Dir is the working directory; "" inherits ours (see WorkingDir).
	Dir string
	// Env is the user's environment (os.Environ() in production). nil
	// means this process's environment, as in os/exec.
	Env []string
	// Progress, when not nil, is told of every line of Bazel's stderr
	// that says what Bazel is doing, as Bazel prints it. It is called
	// from one goroutine per command.
	Progress func(Progress)
	// Grace bounds how long a command has to stop once asked before its
	// process tree is killed; 0 means DefaultGrace.
	Grace time.Duration
}

func (r *Runner) executable() string {
	if r.Bazel == "" {
		return "bazel"
	}
	return r.Bazel
}

func (r *Runner) environ() []string {
	if r.Env == nil {
		return os.Environ()
	}
	return r.Env
}

// drain reads r to its end so that Bazel never blocks writing to a pipe
// nobody reads.
func drain(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

// workspaceMarkers are the files whose directory is a Bazel workspace.
var workspaceMarkers = []string{"MODULE.bazel", "REPO.bazel", "WORKSPACE.bazel", "WORKSPACE"}

// WorkspaceRoot finds the workspace dir is in: the nearest directory at or
// above it holding a MODULE.bazel, REPO.bazel, WORKSPACE.bazel or
// WORKSPACE file. ok is false outside any workspace, where Bazel would
// only start a server to say so.
func WorkspaceRoot(dir string) (root string, ok bool) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		for _, m := range workspaceMarkers {
			if info, err := os.Stat(filepath.Join(dir, m)); err == nil && !info.IsDir() {
				return dir, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
