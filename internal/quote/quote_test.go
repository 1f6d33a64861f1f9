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
