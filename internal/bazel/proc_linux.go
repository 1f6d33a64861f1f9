//go:build linux

package bazel

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// proc is what /proc/PID/stat says of a process.
type proc struct {
	pid, ppid, session int
	// start is when the process started, in clock ticks after boot: with
	// the pid it names one process, whatever reuses the number later.
	start uint64
}

// readProc reads /proc/PID/stat. ok is false for a process that is gone
// or a zombie, which has nothing left to kill.
func readProc(pid int) (p proc, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// The command name, in parentheses, may hold spaces and parentheses
	// itself: the fields that follow start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	// state ppid pgrp session … starttime is the 20th field after ')'.
	if len(f) < 20 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	session, err2 := strconv.Atoi(string(f[3]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, session: session, start: start}, true
}

// procs lists the live processes.
func procs() []proc {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var ps []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// tree is the processes for which ours says yes, and their descendants.
func tree(ps []proc, ours func(proc) bool) []proc {
	children := map[int][]proc{}
	var todo []proc
	for _, p := range ps {
		children[p.ppid] = append(children[p.ppid], p)
		if ours(p) {
			todo = append(todo, p)
		}
	}
	seen := map[int]bool{}
	var out []proc
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[p.pid] {
			continue
		}
		seen[p.pid] = true
		out = append(out, p)
		todo = append(todo, children[p.pid]...)
	}
	return out
}

// killGrace bounds how long killTree waits for what it killed to be gone.
const killGrace = 5 * time.Second

// killTree kills (SIGKILL) every process for which ours says yes and
// every descendant of one, and waits for them to be gone. Bazel's actions
// run in sessions of their own under its process-wrapper, so a session
// alone is not the tree; and a process killed before its children would
// leave them to init, out of reach: so the tree is first frozen (SIGSTOP,
// round after round until no new process appears, since a process may fork
// until it is stopped), then killed whole. Each process is held by a pidfd
// from the moment it is found, so that a number the kernel gives to
// another process meanwhile is never signalled.
func killTree(ours func(proc) bool) {
	self, parent := os.Getpid(), os.Getppid()
	held := map[int]int{} // pid → pidfd
	defer func() {
		for _, fd := range held {
			unix.Close(fd)
		}
	}()
	for range 100 {
		fresh := 0
		for _, p := range tree(procs(), ours) {
			if _, ok := held[p.pid]; ok || p.pid == self || p.pid == parent {
				continue
			}
			fd, err := unix.PidfdOpen(p.pid, 0)
			if err != nil {
				continue // gone already
			}
			if q, ok := readProc(p.pid); !ok || q.start != p.start {
				unix.Close(fd) // gone, and the number taken by another
				continue
			}
			_ = unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0)
			held[p.pid] = fd
			fresh++
		}
		if fresh == 0 {
			break
		}
	}
	if len(held) == 0 {
		return
	}
	fds := make([]unix.PollFd, 0, len(held))
	for _, fd := range held {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	// A pidfd becomes readable when its process has exited.
	deadline := time.Now().Add(killGrace)
	for len(fds) > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return
		}
		live := fds[:0]
		for _, fd := range fds {
			if fd.Revents == 0 {
				fd.Revents = 0
				live = append(live, fd)
			}
		}
		fds = live
	}
}

// killSession kills the session led by pid (a command started with
// Setsid) and every descendant of its processes.
func killSession(pid int) {
	killTree(func(p proc) bool { return p.session == pid || p.pid == pid })
}

// killServerTree kills the processes of a Bazel server: pids, the
// sessions they lead (a server makes one of its own when it starts) and
// every descendant, such as the actions it runs. A pid that leads no
// session stands for itself alone: its session is someone else's.
func killServerTree(pids []int) {
	leads := map[int]bool{}
	for _, pid := range pids {
		if p, ok := readProc(pid); ok && p.session == pid {
			leads[pid] = true
		}
	}
	killTree(func(p proc) bool { return slices.Contains(pids, p.pid) || leads[p.session] })
}
