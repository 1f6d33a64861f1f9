//go:build !linux

package bazel

import "syscall"

// killSession kills the process group of the session led by pid. Without
// /proc there is no finding the descendants that left it.
func killSession(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// killServerTree kills the server processes.
func killServerTree(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
