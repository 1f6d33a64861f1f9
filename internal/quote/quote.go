// Package quote quotes user values in messages and reports the way the
// original Ahab did (Rust's Debug form for strings), so users recognise its
// output: printable text stays literal, including non-ASCII, and only
// control and invisible characters are escaped. It is the one escaping
// every report and every error and warning uses, and it bounds how much of
// a name or value a message echoes.
package quote

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote wraps s in double quotes, escaping \ and " and writing control,
// invisible and combining characters as \u{hex}.
func Quote(s string) string {
	return string(Append(make([]byte, 0, len(s)+2), s))
}

// Append appends Quote(s) to b without building the string first: reports
// quote a value on every line.
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is plain text not yet appended
	for i, r := range s {
		if r >= ' ' && r < 0x7f && r != '\\' && r != '"' {
			continue // plain ASCII: appended in runs, not rune by rune
		}
		b = append(b, s[start:i]...)
		start = i + utf8.RuneLen(r)
		switch {
		case r == '\\':
			b = append(b, `\\`...)
		case r == '"':
			b = append(b, `\"`...)
		case r == 0:
			b = append(b, `\0`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == unicode.ReplacementChar && !validAt(s, i):
			// An invalid byte: show it rather than pretend it was U+FFFD.
			b = append(b, `\x`...)
			b = append(b, hex2(s[i])...)
			start = i + 1
		case escaped(r):
			b = append(b, `\u{`...)
			b = strconv.AppendInt(b, int64(r), 16)
			b = append(b, '}')
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

func validAt(s string, i int) bool {
	return strings.HasPrefix(s[i:], string(unicode.ReplacementChar))
}

// escaped reports whether r would not show as itself: a control or format
// character, a separator other than the ASCII space, or a combining mark
// that would attach itself to the opening quote or the previous character.
func escaped(r rune) bool {
	if r == ' ' {
		return false
	}
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
		return true
	}
	return !unicode.IsGraphic(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// IfNeeded returns s as it is when every character of it shows as itself
// on one line, and Quote(s) otherwise, so that a name taken from a file or
// the command line can neither break a one-line message nor forge another
// line or a terminal escape. It is for messages, errors and warnings: a
// name longer than MaxEcho characters is cut in the middle (Cut).
func IfNeeded(s string) string {
	s = Cut(s)
	if shows(s) {
		return s
	}
	return Quote(s)
}

// Value is Quote for a message: a value the user gave (a flag's, a
// field's), quoted so its ends show, and cut in the middle past MaxEcho
// characters.
func Value(s string) string { return Quote(Cut(s)) }

// Display is for a name in a report's text, where it is shown whole and
// often beside other words: as it is when it shows as itself and reads as
// one word (not empty, no space, quote or backslash in it), quoted
// otherwise.
func Display(s string) string {
	if s != "" && shows(s) && !strings.ContainsAny(s, " \"\\") {
		return s
	}
	return Quote(s)
}

// shows reports whether every character of s shows as itself on one line.
func shows(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f || (r >= 0x80 && escaped(r)) {
			return false
		}
	}
	return true
}

// MaxEcho is how many characters of a name or a value a message shows:
// enough for any path or label a person writes, and a bound on what a
// hostile argument or file can make a message print.
const MaxEcho = 200

// Cut shortens s to MaxEcho characters (Shorten).
func Cut(s string) string { return Shorten(s, MaxEcho) }

// Shorten cuts s to n characters by replacing its middle with an
// ellipsis: the start of a name says what it is, its end which one.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	headEnd, tailStart, i := 0, len(s), 0
	for off := range s {
		if i == head {
			headEnd = off
		}
		if i == total-tail {
			tailStart = off
			break
		}
		i++
	}
	return s[:headEnd] + "…" + s[tailStart:]
}

// MaxLine is the longest line Lines lets through.
const MaxLine = 1000

// Lines makes a whole message safe to print, as the last step before it
// reaches a terminal: each line is shown as AppendVisible shows text, so
// that nothing in it can drive the terminal or end the line early, and cut
// in the middle past MaxLine characters. Newlines between lines stay: a
// message may span lines (Bazel's own error output does). A message whose
// names are already escaped comes out unchanged.
func Lines(s string) string {
	var b []byte
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b = append(b, '\n')
		}
		b = AppendVisible(b, Shorten(line, MaxLine))
	}
	return string(b)
}

// AppendVisible appends s as it is, except that every character that
// would not show as itself — controls (newline and ESC among them),
// invisible and combining characters, invalid bytes — is written as Quote
// writes it. It is for text shown unquoted, such as a command-line
// argument at the end of a report line: it can neither break the line nor
// drive the terminal.
func AppendVisible(b []byte, s string) []byte {
	start := 0 // s[start:i] is visible text not yet appended
	for i, r := range s {
		size := utf8.RuneLen(r)
		invalid := r == utf8.RuneError && !validAt(s, i)
		if invalid {
			size = 1
		} else if r >= ' ' && r != 0x7f && (r < 0x80 || !escaped(r)) {
			continue
		}
		b = append(b, s[start:i]...)
		q := Append(nil, s[i:i+size])
		b = append(b, q[1:len(q)-1]...) // without Quote's quotes
		start = i + size
	}
	return append(b, s[start:]...)
}

// Visible is AppendVisible as a string.
func Visible(s string) string {
	return string(AppendVisible(make([]byte, 0, len(s)), s))
}
