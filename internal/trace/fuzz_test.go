package trace

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// fuzzSeeds are short real lines (testdata/recorded) and the shapes around
// them; the committed corpus in testdata/fuzz holds more.
var fuzzSeeds = []string{
	"24512 openat(AT_FDCWD</tmp/tx/ws>, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 24</etc/ld.so.cache>\n",
	"24514 newfstatat(AT_FDCWD</x>, \"/\",  <unfinished ...>\n24514 <... newfstatat resumed>{st_mode=S_IFDIR|0755, ...}, 0) = 0\n",
	"1 chdir(\"/ob/execroot/ws\") = 0\n1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"cat pkg/a\"], 0x1 /* 1 var */) = 0\n1 openat(AT_FDCWD</ob/execroot/ws>, \"pkg/a\\n\\33\", O_RDONLY) = 3</src/ws/pkg/a\\76>\n",
	"1 clone(child_stack=NULL, flags=SIGCHLD) = 2\n2 getdents64(3</src/ws/pkg/data>, 0x55 /* 4 entries */, 32768) = 112\n2 +++ exited with 0 +++\n",
	"[pid  7] clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, exit_signal=0} => {parent_tid=[8]}, 88) = 8\n8 --- SIGCHLD {si_signo=SIGCHLD} ---\n",
	"9 wait4(-1,  <unfinished ...>\n9 <... wait4 resumed> <unfinished ...>\n9 <... wait4 resumed>NULL) = ? ERESTARTSYS\n",
}

// FuzzScanner feeds arbitrary text to the Scanner and every decoder the
// attribution uses on what it returns: none may panic, and errors name the
// file and a line.
func FuzzScanner(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := NewScanner(bytes.NewReader(data), "strace.txt")
		last := 0
		for sc.Scan() {
			r := sc.Record()
			if r.Line < last || r.PID <= 0 {
				t.Fatalf("record at line %d after %d, pid %d", r.Line, last, r.PID)
			}
			last = r.Line
			if r.Kind != Syscall {
				continue
			}
			result(r.Result)
			args, err := splitArgs(r.Args)
			if err != nil {
				continue
			}
			for _, a := range args {
				unquote(a)
				fdPath(a)
				stringArray(a)
				openOp(a)
				statMode(a)
			}
		}
		var pe *ParseError
		if err := sc.Err(); err != nil && (!errors.As(err, &pe) || pe.Line < 1 || !strings.HasPrefix(err.Error(), "strace.txt: line ")) {
			t.Fatalf("error %q, want a *ParseError naming the file and line", err)
		}
	})
}

// FuzzAnalyze runs the whole analysis on arbitrary traces against a fixed
// build, laid out as the tests' machine and as `ahab trace` lays out its
// scratch directory (where the directories above the execution root are
// Bazel's): attribution and classification must not panic whatever the
// process tree, and a failure is a ParseError.
func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	fsys := testFS()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, layout := range []Layout{testLayout, scratchLayout} {
			actions := []Action{*genrule, *compile, {Mnemonic: "Genrule", Argv: []string{"/bin/bash", "-c", "cat pkg/a"}}}
			r, err := analyzeOn(bytes.NewReader(data), "strace.txt", actions, layout, fsys)
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %q, want a *ParseError", err)
				}
				return
			}
			if len(r.Actions)+len(r.Untraced) != len(actions) {
				t.Fatalf("%d traced and %d untraced of %d actions", len(r.Actions), len(r.Untraced), len(actions))
			}
			var b bytes.Buffer
			if err := WriteText(&b, r, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if bytes.ContainsAny(b.Bytes(), "\x1b\r") {
				t.Fatalf("raw control characters in the text report:\n%q", b.Bytes())
			}
			if err := WriteJSON(&b, r); err != nil {
				t.Fatal(err)
			}
		}
	})
}
