// Package quote quotes user values in messages and reports the way the
// original Ahab did (Rust's Debug form for strings), so users recognise its
// output: printable text stays literal, including non-ASCII, and only
// control and invisible characters are escaped.
package quote

import (
	"fmt"
	"strings"
	"unicode"
)

// Quote wraps s in double quotes, escaping \ and " and writing control,
// invisible and combining characters as \u{hex}.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
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
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r):
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
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
