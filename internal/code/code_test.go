package code

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/effect"
)

func TestLanguage(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"tools/gen.py", "", Python},
		{"tools/gen", "#!/usr/bin/env python3\nprint(1)\n", Python},
		{"tools/gen", "#!/usr/bin/env -S python3.11 -u\n", Python},
		{"tools/gen.sh", "#!/usr/bin/perl -w\n", Perl},
		{"stamp.sh", "echo hi\n", Shell},
		{"x.awk", "", Awk},
		{"a.mjs", "", JavaScript},
		{"lib/a.hpp", "", C},
		{"tools/gen", "#!/usr/bin/env FOO=1 node\n", JavaScript},
		{"tools/gen", "no shebang", ""},
		{"tools/gen", "#!", ""},
	} {
		if got := Language(tc.name, tc.text); got != tc.want {
			t.Errorf("Language(%q, %q) = %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

func TestIsOutput(t *testing.T) {
	outs := []string{"bazel-out/bin/a.txt", "bazel-out/bin/tree"}
	for p, want := range map[string]bool{
		"bazel-out/bin/a.txt":         true,
		"bazel-out/bin/./a.txt":       true,
		"bazel-out/bin/tree/x/y":      true,
		"bazel-out/bin/a.txt.tmp":     false,
		"bazel-out/bin/treehouse/x":   false,
		"/tmp/bazel-out/bin/a.txt":    false,
		"bazel-out/bin/tree/../b.txt": false,
	} {
		if got := IsOutput(outs, p); got != want {
			t.Errorf("IsOutput(%q) = %v, want %v", p, got, want)
		}
	}
	if !IsOutput(nil, "anything") {
		t.Error("with no outputs known, a file is not taken for an output")
	}
}

// A command line the shell reads back as the same words; an unknown word
// as a variable no script sets.
func TestCommandLine(t *testing.T) {
	got := CommandLine([]Arg{{Text: "echo", Known: true}, {Text: "it's $HOME", Known: true}, {Text: "$x", Known: false}})
	if want := `echo "it's \$HOME" "${__ahab_unknown_2}"`; got != want {
		t.Errorf("CommandLine = %s, want %s", got, want)
	}
}

func TestWhereAndTooLong(t *testing.T) {
	inline := Program{Text: strings.Repeat("x", 11), Site: effect.Site{Line: 3}}
	if got := inline.Where(); got != "line 3" {
		t.Errorf("Where of inline code = %q", got)
	}
	out, long := inline.TooLong("Perl", 10)
	if !long || len(out.Unread) != 1 || out.Unread[0] != "line 3: Perl program of 11 bytes, more than the 10 read" {
		t.Errorf("TooLong = %v, %v", out, long)
	}
	file := Program{Text: "x", File: "tools/a.pl"}
	if _, long := file.TooLong("Perl", 10); long || file.Where() != "tools/a.pl" {
		t.Errorf("a short program in a file: TooLong %v, Where %q", long, file.Where())
	}
}

func TestOrdered(t *testing.T) {
	for _, tc := range []struct {
		op          string
		c           int
		holds, know bool
	}{
		{"==", 0, true, true}, {"!=", 0, false, true}, {"<", -1, true, true}, {">", -1, false, true},
		{"<=", 0, true, true}, {">=", 1, true, true}, {"=~", 0, false, false},
	} {
		if h, k := Ordered(tc.op, tc.c); h != tc.holds || k != tc.know {
			t.Errorf("Ordered(%q, %d) = %v, %v", tc.op, tc.c, h, k)
		}
	}
}
