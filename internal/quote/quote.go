// Package quote quotes user values in messages and reports the way the
// original Ahab did (Rust's Debug form for strings), so users recognise its
// output: printable text stays literal, including non-ASCII, and only
// control and invisible characters are escaped.
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
// line or a terminal escape.
func IfNeeded(s string) string {
	if !utf8.ValidString(s) {
		return Quote(s)
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f || (r >= 0x80 && escaped(r)) {
			return Quote(s)
		}
	}
	return s
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
