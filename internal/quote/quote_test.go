package quote

import "testing"

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
