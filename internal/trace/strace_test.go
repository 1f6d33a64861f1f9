package trace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// scanAll renders every record the Scanner reads, one line each.
func scanAll(t *testing.T, input string, want func(pid int, name []byte) bool) ([]string, error) {
	t.Helper()
	sc := NewScanner(strings.NewReader(input), "strace.txt")
	sc.Want = want
	var out []string
	for sc.Scan() {
		r := sc.Record()
		switch r.Kind {
		case Syscall:
			out = append(out, fmt.Sprintf("%d:%d %s(%s) = %s", r.Line, r.PID, r.Name, r.Args, r.Result))
		case Signal:
			out = append(out, fmt.Sprintf("%d:%d signal %s", r.Line, r.PID, r.Name))
		case Exit:
			out = append(out, fmt.Sprintf("%d:%d exit", r.Line, r.PID))
		}
	}
	return out, sc.Err()
}

// The lines come from real traces (testdata/recorded), some shortened.
func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		want  []string
	}{{
		name:  "complete call with a -y path in the result",
		input: `24512 openat(AT_FDCWD</tmp/tx/ws>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 24</etc/ld.so.cache>` + "\n",
		want:  []string{`1:24512 openat(AT_FDCWD</tmp/tx/ws>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 24</etc/ld.so.cache>`},
	}, {
		name: "unfinished and resumed halves are joined, with other processes between",
		input: "24514 newfstatat(AT_FDCWD</x>, \"/\",  <unfinished ...>\n" +
			"24515 access(\"/a\", R_OK) = 0\n" +
			"24514 <... newfstatat resumed>{st_mode=S_IFDIR|0755, st_size=4096, ...}, 0) = 0\n",
		want: []string{
			`2:24515 access("/a", R_OK) = 0`,
			`3:24514 newfstatat(AT_FDCWD</x>, "/", {st_mode=S_IFDIR|0755, st_size=4096, ...}, 0) = 0`,
		},
	}, {
		name: "a resumed clone gives the child's pid",
		input: "24512 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>\n" +
			"24512 <... clone resumed>, child_tidptr=0x7f8837e5b590) = 24514\n",
		want: []string{`2:24512 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f8837e5b590) = 24514`},
	}, {
		name:  "the result column is padded",
		input: "24514 access(\"/usr/bin/cat\", X_OK)      = 0\n",
		want:  []string{`1:24514 access("/usr/bin/cat", X_OK) = 0`},
	}, {
		name:  "a failure keeps its errno and text",
		input: "24212 execve(\"/usr/local/go/bin/uname\", [\"uname\", \"-m\"], 0x7ffd9de052e8 /* 38 vars */) = -1 ENOENT (No such file or directory)\n",
		want:  []string{`1:24212 execve("/usr/local/go/bin/uname", ["uname", "-m"], 0x7ffd9de052e8 /* 38 vars */) = -1 ENOENT (No such file or directory)`},
	}, {
		name:  "parentheses and quotes inside strings and fd paths do not end the arguments",
		input: `7 openat(3</a (deleted)>, "x) = 1\"", O_RDONLY) = 4</a/x) = 1">` + "\n",
		want:  []string{`1:7 openat(3</a (deleted)>, "x) = 1\"", O_RDONLY) = 4</a/x) = 1">`},
	}, {
		name:  "clone3 with an output struct",
		input: "24081 clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, exit_signal=0, stack=0x7f96de500000} => {parent_tid=[24118]}, 88) = 24118\n",
		want:  []string{`1:24081 clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, exit_signal=0, stack=0x7f96de500000} => {parent_tid=[24118]}, 88) = 24118`},
	}, {
		name: "signals and exits",
		input: "24514 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=24517} ---\n" +
			"24517 +++ exited with 0 +++\n" +
			"25862 +++ killed by SIGTERM +++\n",
		want: []string{"1:24514 signal SIGCHLD", "2:24517 exit", "3:25862 exit"},
	}, {
		name: "an unfinished call of a process that dies is dropped",
		input: "9 wait4(-1,  <unfinished ...>\n" +
			"9 +++ killed by SIGKILL +++\n" +
			"9 <... wait4 resumed>) = 0\n",
		want: []string{"2:9 exit"},
	}, {
		name: "resumed and suspended again",
		input: "9 wait4(-1,  <unfinished ...>\n" +
			"9 <... wait4 resumed> <unfinished ...>\n" +
			"9 <... wait4 resumed>NULL, 0, NULL) = 10\n",
		want: []string{"3:9 wait4(-1, NULL, 0, NULL) = 10"},
	}, {
		name:  "strace's own words about a process are skipped",
		input: "9 ???( <detached ...>\n9 [ Process PID=9 runs in 32 bit mode. ]\n[ Process PID=9 runs in 64 bit mode. ]\n\n9 getpid() = 9\n",
		want:  []string{"5:9 getpid() = 9"},
	}, {
		name:  "the [pid N] prefix of a terminal",
		input: "[pid  1234] chdir(\"/tmp\") = 0\n",
		want:  []string{`1:1234 chdir("/tmp") = 0`},
	}, {
		name:  "no newline at the end",
		input: "5 chdir(\"/\") = 0",
		want:  []string{`1:5 chdir("/") = 0`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scanAll(t, tc.input, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestScannerWant(t *testing.T) {
	input := "1 openat(AT_FDCWD</>, \"a\", O_RDONLY <unfinished ...>\n" +
		"2 openat(AT_FDCWD</>, \"b\", O_RDONLY) = 3</b>\n" +
		"1 <... openat resumed>) = 3</a>\n" +
		"1 chdir(\"/x\") = 0\n"
	var asked []string
	got, err := scanAll(t, input, func(pid int, name []byte) bool {
		asked = append(asked, fmt.Sprintf("%d %s", pid, name))
		return pid == 2 || string(name) == "chdir"
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`2:2 openat(AT_FDCWD</>, "b", O_RDONLY) = 3</b>`, `4:1 chdir("/x") = 0`}
	if !slices.Equal(got, want) {
		t.Errorf("records %q, want %q (the unwanted call's resumed half must be skipped too)", got, want)
	}
	if !slices.Equal(asked, []string{"1 openat", "2 openat", "1 chdir"}) {
		t.Errorf("Want asked about %q, expected each call once, when it starts", asked)
	}
}

func TestScannerLongLine(t *testing.T) {
	// An argv longer than the reader's buffer, as a big compile has.
	arg := strings.Repeat("x", 200<<10)
	input := fmt.Sprintf("7 execve(\"/bin/a\", [\"a\", \"%s\"], 0x1 /* 2 vars */) = 0\n7 chdir(\"/\") = 0\n", arg)
	sc := NewScanner(iotest.HalfReader(strings.NewReader(input)), "strace.txt")
	if !sc.Scan() {
		t.Fatal(sc.Err())
	}
	args, err := splitArgs(sc.Record().Args)
	if err != nil {
		t.Fatal(err)
	}
	argv, truncated, err := stringArray(args[1])
	if err != nil || truncated || len(argv) != 2 || argv[1] != arg {
		t.Fatalf("argv of %d elements (truncated %v, err %v), want the 200 KiB argument whole", len(argv), truncated, err)
	}
	if !sc.Scan() || sc.Record().Line != 2 {
		t.Fatalf("the line after a long one: %v", sc.Err())
	}
}

func TestScannerErrors(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		line        int
		msg         string
	}{
		{"no pid", "openat(AT_FDCWD, \"a\", O_RDONLY) = 3\n", 1, `does not start with a process id, expected the output of strace -f`},
		{"unterminated string", "1 chdir(\"/a) = 0\n2 chdir(\"/\") = 0\n", 1, `unterminated string, expected a closing '"'`},
		{"unterminated fd path", "1 fchdir(3</a) = 0\n", 1, `unterminated fd path, expected a closing '>'`},
		{"no result", "1 chdir(\"/a\")\n", 1, `no result after chdir(...), expected " = "`},
		{"unterminated arguments", "1 chdir(\"/a\", = 0\n", 1, `unterminated argument list, expected ")"`},
		{"bad pid", "1 chdir(\"/\") = 0\n[pid x] chdir(\"/\") = 0\n", 2, `process id "x" is not a positive number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scanAll(t, tc.input, nil)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if pe.File != "strace.txt" || pe.Line != tc.line || !strings.Contains(pe.Err.Error(), tc.msg) {
				t.Errorf("error %q, want strace.txt line %d: ...%s", err, tc.line, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("strace.txt: line %d: ", tc.line)) {
				t.Errorf("error %q does not start with the file and line", err)
			}
		})
	}
}

func TestUnquote(t *testing.T) {
	for _, tc := range []struct {
		in, want  string
		truncated bool
	}{
		{`"plain"`, "plain", false},
		// A real file name: a>b, newline, ESC [31m, a quote.
		{`"a>b\nc\33[31m\"q"`, "a>b\nc\x1b[31m\"q", false},
		{`"\0\1\177\377"`, "\x00\x01\x7f\xff", false},
		{`"\0012"`, "\x012", false}, // octal takes three digits at most
		{`"\t\v\f\r\\"`, "\t\v\f\r\\", false},
		{`"\x41\x7e"`, "A~", false},
		{`"aaaaaaaaaa"...`, "aaaaaaaaaa", true},
		{`""`, "", false},
	} {
		got, truncated, err := unquote([]byte(tc.in))
		if err != nil || got != tc.want || truncated != tc.truncated {
			t.Errorf("unquote(%s) = %q, %v, %v; want %q, %v", tc.in, got, truncated, err, tc.want, tc.truncated)
		}
	}
	for _, bad := range []string{`plain`, `"open`, `"\x4"`, `"\400"`, `"a\`} {
		if _, _, err := unquote([]byte(bad)); err == nil {
			t.Errorf("unquote(%s): no error", bad)
		}
	}
}

func TestFDPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"AT_FDCWD</tmp/tx/ws>", "/tmp/tx/ws", true},
		{`3</tmp/tx/weird/a\76b\nc\33[31m\"q>`, "/tmp/tx/weird/a>b\nc\x1b[31m\"q", true},
		{"3</tmp/gone (deleted)>", "/tmp/gone", true},
		{"20<pipe:[72401]>", "", false},
		{"AT_FDCWD", "", false},
		{"3", "", false},
	} {
		got, ok, err := fdPath([]byte(tc.in))
		if err != nil || got != tc.want || ok != tc.ok {
			t.Errorf("fdPath(%s) = %q, %v, %v; want %q, %v", tc.in, got, ok, err, tc.want, tc.ok)
		}
	}
}

func TestResult(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ret  int64
		path string
		ok   bool
	}{
		{"0", 0, "", true},
		{"24514", 24514, "", true},
		{"3</etc/ld.so.cache>", 3, "/etc/ld.so.cache", true},
		{"0x7f00", 0x7f00, "", true},
		{"-1 ENOENT (No such file or directory)", -1, "", false},
		{"? ERESTARTSYS (To be restarted if SA_RESTART is set)", 0, "", false},
		{"?", 0, "", false},
	} {
		ret, p, ok, err := result([]byte(tc.in))
		if err != nil || ret != tc.ret || p != tc.path || ok != tc.ok {
			t.Errorf("result(%q) = %d, %q, %v, %v; want %d, %q, %v", tc.in, ret, p, ok, err, tc.ret, tc.path, tc.ok)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	got, err := splitArgs([]byte(`AT_FDCWD</a, b>, "x, y", {st_mode=S_IFREG|0644, st_size=1, ...}, [1, 2] /* a, b */, 0`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"AT_FDCWD</a, b>", `"x, y"`, "{st_mode=S_IFREG|0644, st_size=1, ...}", "[1, 2] /* a, b */", "0"}
	if len(got) != len(want) {
		t.Fatalf("%d arguments %q, want %q", len(got), got, want)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("argument %d = %q, want %q", i, got[i], want[i])
		}
	}
	if got, _ := splitArgs(nil); len(got) != 0 {
		t.Errorf("no arguments: %q", got)
	}
}

func TestStringArray(t *testing.T) {
	got, truncated, err := stringArray([]byte(`["/bin/echo", "aaaaaaaaaa"..., "1", ...]`))
	if err != nil || !truncated || !slices.Equal(got, []string{"/bin/echo", "aaaaaaaaaa", "1"}) {
		t.Errorf("stringArray = %q, %v, %v; want the three strings, truncated", got, truncated, err)
	}
	got, truncated, err = stringArray([]byte(`["cat", "a>b\nc"]`))
	if err != nil || truncated || !slices.Equal(got, []string{"cat", "a>b\nc"}) {
		t.Errorf("stringArray = %q, %v, %v", got, truncated, err)
	}
	if _, _, err := stringArray([]byte(`0x7ffd`)); err == nil {
		t.Error("stringArray(0x7ffd): no error")
	}
}
