package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, `""`},
		{`plain`, `"plain"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"tab\tnl\ncr\rnul\x00", `"tab\tnl\ncr\rnul\0"`},
		{"esc\x1b", `"esc\u{1b}"`},
		{"nbsp\u00a0", `"nbsp\u{a0}"`},
		{"zwsp\u200b", `"zwsp\u{200b}"`},
		{"ls\u2028", `"ls\u{2028}"`},
		{"e\u0301", `"e\u{301}"`},
		{"it's café", `"it's café"`},
		{"del\x7f", `"del\u{7f}"`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestQuoteInvalidUTF8(t *testing.T) {
	if got, want := Quote("a\xffb\xc3"), `"a\xffb\xc3"`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}

func TestVisible(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-I/usr/include", "-I/usr/include"},
		{`say "hi" \ café`, `say "hi" \ café`},
		{"line1\nline2", `line1\nline2`},
		{"\x1b[2Jclear", `\u{1b}[2Jclear`},
		{"cr\rforged", `cr\rforged`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"zero\u200bwidth", `zero\u{200b}width`},
	} {
		if got := Visible(tc.in); got != tc.want {
			t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIfNeeded(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"out.json", "out.json"},
		{"dir/café.json", "dir/café.json"},
		{"a\nb.json", `"a\nb.json"`},
		{"\x1b]0;title\x07", `"\u{1b}]0;title\u{7}"`},
		{"bad\xff", `"bad\xff"`},
	} {
		if got := IfNeeded(tc.in); got != tc.want {
			t.Errorf("IfNeeded(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIfNeededCutsLongNames(t *testing.T) {
	long := strings.Repeat("a", 150) + strings.Repeat("é", 100) + "\x1b"
	got := IfNeeded(long)
	want := `"` + strings.Repeat("a", 99) + "…" + strings.Repeat("é", 99) + `\u{1b}"`
	if got != want {
		t.Errorf("IfNeeded(long) = %s, want %s", got, want)
	}
	if n := utf8.RuneCountInString(Cut(long)); n != MaxEcho {
		t.Errorf("Cut kept %d characters, want %d", n, MaxEcho)
	}
	if exact := strings.Repeat("x", MaxEcho); IfNeeded(exact) != exact {
		t.Error("a name of MaxEcho characters is cut")
	}
	if got := Cut(strings.Repeat("\xff", 300)); utf8.RuneCountInString(got) != MaxEcho || !strings.Contains(got, "…") {
		t.Errorf("Cut of invalid bytes = %q", got)
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"//very/long/package:name", 11, "//ver…:name"},
		{"short", 11, "short"},
		{"ééééééééééé", 5, "éé…éé"},
		{"abcdef", 4, "a…ef"},
	} {
		if got := Shorten(tc.in, tc.n); got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestValue(t *testing.T) {
	if got := Value("0.3"); got != `"0.3"` {
		t.Errorf("Value = %s", got)
	}
	if got := Value(strings.Repeat("v", 1000)); utf8.RuneCountInString(got) != MaxEcho+2 {
		t.Errorf("Value of a long value has %d characters, want %d", utf8.RuneCountInString(got), MaxEcho+2)
	}
}

func TestDisplay(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bazel-out/k8/bin/a.txt", "bazel-out/k8/bin/a.txt"},
		{"a b", `"a b"`},
		{"", `""`},
		{" lead", `" lead"`},
		{`say"hi`, `"say\"hi"`},
		{`back\slash`, `"back\\slash"`},
		{"esc\x1b[31m", `"esc\u{1b}[31m"`},
		{"csi\u009b31m", `"csi\u{9b}31m"`},
		{strings.Repeat("long", 100), strings.Repeat("long", 100)},
	} {
		if got := Display(tc.in); got != tc.want {
			t.Errorf("Display(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"`bazel aquery` exited with exit status: 1:\nERROR: no such target", "`bazel aquery` exited with exit status: 1:\nERROR: no such target"},
		{"colour \x1b[31mred", `colour \u{1b}[31mred`},
		{"csi \u009b31m", `csi \u{9b}31m`},
		{"cr\rError: forged", `cr\rError: forged`},
		{`already "a\u{1b}b" escaped`, `already "a\u{1b}b" escaped`},
	} {
		if got := Lines(tc.in); got != tc.want {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Lines(strings.Repeat("x", 5000) + "\nshort"); !strings.HasSuffix(got, "…"+strings.Repeat("x", MaxLine/2)+"\nshort") {
		t.Errorf("Lines did not cut a long line: %d bytes", len(got))
	}
}
