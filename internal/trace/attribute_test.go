package trace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

const testExecRoot = "/ob/execroot/ws"

// opNames renders an op set for test expectations.
func opNames(o op) string {
	var names []string
	for _, n := range []struct {
		o    op
		name string
	}{{opRead, "read"}, {opStat, "stat"}, {opList, "list"}, {opWrite, "write"}, {opExec, "exec"}, {opDir, "dir"}, {opNotDir, "file"}} {
		if o&n.o != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, "|")
}

// describe lists what an action touched: "path ops [→ resolved]", sorted.
func describe(a *actionTrace) []string {
	var out []string
	for p, acc := range a.accesses {
		s := p + " " + opNames(acc.ops)
		if acc.resolved != "" {
			s += " → " + acc.resolved
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// jvmSpawn is how Bazel 4.2.3 starts a spawn, as recorded: a JVM thread
// vforks a child that runs jspawnhelper, which changes to the execution
// root and becomes the process-wrapper; the child's first lines come before
// the parent's clone returns. %s is the wrapper's argv after its own
// options.
const jvmSpawn = `100 execve("/usr/bin/bazel", ["bazel", "--batch", "build"], 0x7ffe /* 39 vars */) = 0
100 openat(AT_FDCWD</ws>, "/ws/WORKSPACE", O_RDONLY) = 3</ws/WORKSPACE>
100 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x7ff08ff04000, stack_size=0x9000}, 88 <unfinished ...>
101 execve("/usr/lib/jvm/java-17-openjdk-amd64/lib/jspawnhelper", ["/usr/lib/jvm/java-17-openjdk-amd64/lib/jspawnhelper", "17.0.15+6"], 0x7fff /* 38 vars */ <unfinished ...>
100 <... clone3 resumed>)             = 101
101 <... execve resumed>)             = 0
101 openat(AT_FDCWD</ws>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 24</etc/ld.so.cache>
101 chdir("/ob/execroot/ws") = 0
101 execve("/usr/share/bazel/process-wrapper", ["/usr/share/bazel/process-wrapper", "--timeout=0", "--kill_delay=15", %s], 0x5 /* 2 vars */) = 0
101 openat(AT_FDCWD</ob/execroot/ws>, "/lib/x86_64-linux-gnu/libstdc++.so.6", O_RDONLY|O_CLOEXEC) = 3</usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30>
101 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
102 execve("/bin/bash", ["/bin/bash", "-c", "cat pkg/a"], 0x7ffd /* 2 vars */) = 0
101 <... clone resumed>, child_tidptr=0x7f8837e5b590) = 102
`

func runAttribute(t *testing.T, trace string, actions ...*Action) []*actionTrace {
	t.Helper()
	traces := make([]*actionTrace, len(actions))
	for i, a := range actions {
		traces[i] = &actionTrace{action: a}
	}
	if err := attribute(strings.NewReader(trace), "strace.txt", traces, testExecRoot); err != nil {
		t.Fatal(err)
	}
	return traces
}

var catAction = &Action{Mnemonic: "Genrule", Argv: []string{"/bin/bash", "-c", "cat pkg/a"}}

func TestAttribute(t *testing.T) {
	for _, tc := range []struct {
		name   string
		trace  string
		traced bool
		want   []string // describe() of the action
	}{{
		name: "a spawn through the process-wrapper: the wrapper's own reads are Bazel's",
		trace: fmt.Sprintf(jvmSpawn, `"/bin/bash", "-c", "cat pkg/a"`) +
			"102 openat(AT_FDCWD</ob/execroot/ws>, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>\n" +
			"102 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 103\n" +
			"103 execve(\"/usr/bin/cat\", [\"cat\", \"pkg/a\"], 0x55 /* 2 vars */) = 0\n" +
			"103 openat(AT_FDCWD</ob/execroot/ws>, \"pkg/a\", O_RDONLY) = 3</ws/pkg/a>\n" +
			"103 newfstatat(3</ws/pkg/a>, \"\", {st_mode=S_IFREG|0644, st_size=2, ...}, AT_EMPTY_PATH) = 0\n" +
			"103 openat(AT_FDCWD</ob/execroot/ws>, \"pkg/missing\", O_RDONLY) = -1 ENOENT (No such file or directory)\n" +
			"103 +++ exited with 0 +++\n",
		traced: true,
		want: []string{
			"/bin/bash exec|file",
			"/etc/ld.so.cache read → /etc/ld.so.cache",
			"/ob/execroot/ws/pkg/a read → /ws/pkg/a",
			"/usr/bin/cat exec|file",
		},
	}, {
		name:   "a wrapper that ends its options with --",
		trace:  strings.Replace(fmt.Sprintf(jvmSpawn, `"--", "/bin/bash", "-c", "cat pkg/a"`), `"--kill_delay=15", "--"`, `"--kill_delay=15", "--stats=/tmp/s", "--"`, 1),
		traced: true,
		want:   []string{"/bin/bash exec|file"},
	}, {
		name: "a spawn run directly: the process is the action's from its execve on",
		trace: "1 chdir(\"/ob/execroot/ws\") = 0\n" +
			"1 openat(AT_FDCWD</ob/execroot/ws>, \"before\", O_RDONLY) = 3</ob/execroot/ws/before>\n" +
			"1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n" +
			"1 openat(AT_FDCWD</ob/execroot/ws>, \"after\", O_RDONLY) = 3</ob/execroot/ws/after>\n",
		traced: true,
		want:   []string{"/bin/bash exec|file", "/ob/execroot/ws/after read → /ob/execroot/ws/after"},
	}, {
		name: "the same command outside the execution root is not the spawn",
		trace: "1 chdir(\"/elsewhere\") = 0\n" +
			"1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n" +
			"1 openat(AT_FDCWD</elsewhere>, \"pkg/a\", O_RDONLY) = 3</elsewhere/pkg/a>\n",
	}, {
		name: "a command line strace cut short matches nothing",
		trace: "1 chdir(\"/ob/execroot/ws\") = 0\n" +
			"1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat\"...], 0x1 /* 1 var */) = 0\n",
	}, {
		name: "threads share the working directory (CLONE_FS), forks copy it",
		trace: "1 chdir(\"/ob/execroot/ws\") = 0\n" +
			"1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n" +
			"1 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD) = 2\n" +
			"2 chdir(\"pkg\") = 0\n" +
			"1 stat(\"shared\", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0\n" +
			"1 fork() = 3\n" +
			"3 chdir(\"sub\") = 0\n" +
			"1 access(\"copied\", R_OK) = 0\n" +
			"3 readlink(\"link\", \"target\", 4096) = 6\n" +
			"3 fchdir(4</ob/execroot/ws/other>) = 0\n" +
			"3 lstat(\"x\", {st_mode=S_IFLNK|0777, st_size=1, ...}) = 0\n",
		traced: true,
		want: []string{
			"/bin/bash exec|file",
			"/ob/execroot/ws/other/x stat",
			"/ob/execroot/ws/pkg/copied stat",
			"/ob/execroot/ws/pkg/shared stat|file",
			"/ob/execroot/ws/pkg/sub/link stat",
		},
	}, {
		name: "writes, listings, *at calls relative to a directory and execveat",
		trace: "1 chdir(\"/ob/execroot/ws\") = 0\n" +
			"1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n" +
			"1 openat(AT_FDCWD</ob/execroot/ws>, \"/tmp/cc1.s\", O_RDWR|O_CREAT|O_EXCL, 0600) = 3</tmp/cc1.s>\n" +
			"1 openat(AT_FDCWD</ob/execroot/ws>, \"/tmp/cc1.s\", O_RDONLY) = 3</tmp/cc1.s>\n" +
			"1 openat(AT_FDCWD</ob/execroot/ws>, \"pkg/data\", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3</ws/pkg/data>\n" +
			"1 getdents64(3</ws/pkg/data>, 0x55 /* 4 entries */, 32768) = 112\n" +
			"1 newfstatat(3</ws/pkg/data>, \"a.txt\", {st_mode=S_IFREG|0644, st_size=2, ...}, AT_SYMLINK_NOFOLLOW) = 0\n" +
			"1 statx(AT_FDCWD</ob/execroot/ws>, \"pkg\", AT_STATX_SYNC_AS_STAT, STATX_ALL, {stx_mask=STATX_ALL, stx_mode=S_IFDIR|0755, ...}) = 0\n" +
			"1 faccessat2(AT_FDCWD</ob/execroot/ws>, \"/usr/lib/gcc/\", F_OK, AT_EACCESS) = 0\n" +
			"1 creat(\"out.txt\", 0644) = 4</ob/execroot/ws/out.txt>\n" +
			"1 openat2(AT_FDCWD</ob/execroot/ws>, \"o2\", {flags=O_RDONLY|O_CLOEXEC, resolve=RESOLVE_NO_SYMLINKS}, 24) = 5</ob/execroot/ws/o2>\n" +
			"1 execveat(3</ws/pkg/data>, \"tool\", [\"tool\"], 0x1 /* 1 var */, 0) = 0\n" +
			"1 stat(\"/proc/self/cwd/pkg/through_pwd\", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0\n",
		traced: true,
		want: []string{
			"/bin/bash exec|file",
			"/ob/execroot/ws/o2 read → /ob/execroot/ws/o2",
			"/ob/execroot/ws/out.txt write → /ob/execroot/ws/out.txt",
			"/ob/execroot/ws/pkg stat|dir",
			"/ob/execroot/ws/pkg/data read|dir → /ws/pkg/data",
			"/ob/execroot/ws/pkg/through_pwd stat|file",
			"/tmp/cc1.s read|write → /tmp/cc1.s",
			"/usr/lib/gcc stat",
			"/ws/pkg/data list|dir",
			"/ws/pkg/data/a.txt stat|file",
			"/ws/pkg/data/tool exec|file",
		},
	}, {
		name: "a child that runs and exits before its parent's clone returns",
		trace: fmt.Sprintf(jvmSpawn, `"/bin/bash", "-c", "cat pkg/a"`) +
			"102 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>\n" +
			"103 execve(\"/usr/bin/cat\", [\"cat\", \"pkg/a\"], 0x55 /* 2 vars */) = 0\n" +
			"103 openat(AT_FDCWD</ob/execroot/ws>, \"pkg/a\", O_RDONLY) = 3</ws/pkg/a>\n" +
			"103 +++ exited with 0 +++\n" +
			"102 <... clone resumed>, child_tidptr=0x7f) = 103\n" +
			"102 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=103} ---\n" +
			"100 clone(child_stack=NULL, flags=SIGCHLD) = 103\n" +
			"103 openat(AT_FDCWD</ws>, \"/not/the/action\", O_RDONLY) = 3</not/the/action>\n",
		traced: true,
		want: []string{
			"/bin/bash exec|file",
			"/ob/execroot/ws/pkg/a read → /ws/pkg/a",
			"/usr/bin/cat exec|file",
		},
	}, {
		name: "a pid reused by a process that is not the action's",
		trace: fmt.Sprintf(jvmSpawn, `"/bin/bash", "-c", "cat pkg/a"`) +
			"102 +++ exited with 0 +++\n" +
			"100 clone(child_stack=NULL, flags=SIGCHLD) = 102\n" +
			"102 openat(AT_FDCWD</ws>, \"/not/the/action\", O_RDONLY) = 3</not/the/action>\n",
		traced: true,
		want:   []string{"/bin/bash exec|file"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			traces := runAttribute(t, tc.trace, catAction)
			a := traces[0]
			if a.traced != tc.traced {
				t.Fatalf("traced = %v, want %v", a.traced, tc.traced)
			}
			if got := describe(a); !slices.Equal(got, tc.want) {
				t.Errorf("the action touched:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A process no parent claims is given up on after pendingWindow lines:
// what it did is dropped and what it does next is skipped.
func TestAttributeOrphan(t *testing.T) {
	defer func(w int) { pendingWindow = w }(pendingWindow)
	pendingWindow = 32
	var b strings.Builder
	b.WriteString("1 execve(\"/usr/bin/bazel\", [\"bazel\"], 0x1 /* 1 var */) = 0\n")
	// 9's parent was killed inside clone: strace prints no pid for it.
	b.WriteString("1 clone(child_stack=NULL, flags=SIGCHLD) = ?\n")
	for i := 0; i < 100; i++ {
		b.WriteString("9 openat(AT_FDCWD</ws>, \"/noise\", O_RDONLY) = 3</noise>\n")
	}
	b.WriteString("9 chdir(\"/ob/execroot/ws\") = 0\n")
	b.WriteString("9 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n")
	traces := []*actionTrace{{action: catAction}}
	at := &attributor{execRoot: testExecRoot, spawns: map[string][]*actionTrace{argvKey(catAction.Argv): traces}, procs: map[int]*process{}, pending: map[int]*pendingProcess{}, file: "strace.txt"}
	sc := NewScanner(strings.NewReader(b.String()), "strace.txt")
	sc.Want = at.want
	most := 0
	for sc.Scan() {
		if err := at.record(sc.Record()); err != nil {
			t.Fatal(err)
		}
		if pp := at.pending[9]; pp != nil {
			most = max(most, len(pp.records))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if most > pendingWindow+pendingWindow/16+1 {
		t.Errorf("%d records kept for the unclaimed process, want at most about the window (%d lines)", most, pendingWindow)
	}
	// Given up on, it is known as no action's until it runs one: its
	// execve in the execution root still matches the spawn, and the noise
	// before is no part of it.
	if at.procs[9] == nil || at.procs[9].act != traces[0] {
		t.Errorf("the unclaimed process is %+v, want it known, and the spawn's since its execve", at.procs[9])
	}
	if got := describe(traces[0]); !slices.Equal(got, []string{"/bin/bash exec|file"}) {
		t.Errorf("the action touched %q, want only its program", got)
	}
}

func TestAttributeSameArgv(t *testing.T) {
	// Two spawns with one command line: the first run is the first
	// spawn's, the second the second's, a third (a retry) the first's.
	run := "1 clone(child_stack=NULL, flags=SIGCHLD) = %d\n" +
		"%[1]d chdir(\"/ob/execroot/ws\") = 0\n" +
		"%[1]d execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n" +
		"%[1]d openat(AT_FDCWD</ob/execroot/ws>, \"run%[1]d\", O_RDONLY) = 3</ob/execroot/ws/run%[1]d>\n"
	trace := "1 execve(\"/usr/bin/bazel\", [\"bazel\"], 0x1 /* 1 var */) = 0\n" + fmt.Sprintf(run, 2) + fmt.Sprintf(run, 3) + fmt.Sprintf(run, 4)
	first := &Action{Mnemonic: "Genrule", Argv: catAction.Argv, Outputs: []string{"one"}}
	second := &Action{Mnemonic: "Genrule", Argv: catAction.Argv, Outputs: []string{"two"}}
	traces := runAttribute(t, trace, first, second)
	has := func(a *actionTrace, p string) bool { _, ok := a.accesses[p]; return ok }
	if !has(traces[0], "/ob/execroot/ws/run2") || !has(traces[1], "/ob/execroot/ws/run3") || !has(traces[0], "/ob/execroot/ws/run4") {
		t.Errorf("first %v, second %v", describe(traces[0]), describe(traces[1]))
	}
}

func TestAttributeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, trace string
		line        int
		msg         string
	}{
		{"a bad path in an action's call", "1 chdir(\"/ob/execroot/ws\") = 0\n1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1) = 0\n1 openat(AT_FDCWD, pkg, O_RDONLY) = 3\n", 3, "is not a string"},
		{"a bad chdir", "1 chdir(/x) = 0\n", 1, "is not a string"},
		{"a bad argv", "1 chdir(\"/ob/execroot/ws\") = 0\n1 execve(\"/bin/bash\", [\"/bin/bash\", x], 0x1) = 0\n", 2, "is not a string"},
		{"a bad child's call is reported on its own line", "1 execve(\"/b\", [\"b\"], 0x1) = 0\n2 chdir(/x) = 0\n1 clone(child_stack=NULL, flags=SIGCHLD) = 2\n", 2, "is not a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			traces := []*actionTrace{{action: catAction}}
			err := attribute(strings.NewReader(tc.trace), "strace.txt", traces, testExecRoot)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want strace.txt line %d: ...%s", err, tc.line, tc.msg)
			}
		})
	}
}
