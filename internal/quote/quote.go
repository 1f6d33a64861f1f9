// Package quote quotes user values in messages and reports the way the
// original Ahab did (Rust's Debug form for strings), so users recognise its
// output: printable text stays literal, including non-ASCII, and only
// control and invisible characters are escaped.
package quote

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote wraps s in double quotes, escaping \ and " and writing control,
// invisible and combining characters as \u{hex}.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	Write(&b, s)
	return b.String()
}

// Writer is what Write writes to: a strings.Builder or a bufio.Writer.
type Writer interface {
	io.ByteWriter
	io.StringWriter
	WriteRune(rune) (int, error)
}

// Write writes Quote(s) to b without building the string first: reports
// quote a value on every line.
func Write(b Writer, s string) {
	b.WriteByte('"')
	start := 0 // s[start:i] is plain text not yet written
	for i, r := range s {
		if r >= ' ' && r < 0x7f && r != '\\' && r != '"' {
			continue // plain ASCII: written in runs, not rune by rune
		}
		b.WriteString(s[start:i])
		start = i + utf8.RuneLen(r)
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == 0:
			b.WriteString(`\0`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == unicode.ReplacementChar && !validAt(s, i):
			// An invalid byte: show it rather than pretend it was U+FFFD.
			b.WriteString(`\x` + hex2(s[i]))
			start = i + 1
		case escaped(r):
			b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
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
