package report

import "io"

// TerminalJSON escapes, in JSON written to w, what JSON allows raw but a
// terminal may obey: the C1 controls U+0080 to U+009F (U+009B is the
// one-character form of ESC [) and DEL, each written as its \u escape.
// The bytes of such a character only ever stand inside a string, where
// the escape means the same character, so the document reads back the
// same. For a report written to a terminal (--write-json -); a file keeps
// the original's bytes (§8.1). Flush writes what a final Write left
// pending.
type TerminalJSON struct {
	w       io.Writer
	pending bool // the last byte written was 0xC2, the lead byte of every C1 control
	buf     []byte
}

// NewTerminalJSON escapes what is written to w.
func NewTerminalJSON(w io.Writer) *TerminalJSON { return &TerminalJSON{w: w} }

func (t *TerminalJSON) Write(p []byte) (int, error) {
	b := t.buf[:0]
	i := 0
	if t.pending && len(p) > 0 {
		t.pending = false
		if isC1(p[0]) {
			b = appendUnicodeEscape(b, p[0])
			i = 1
		} else {
			b = append(b, 0xC2)
		}
	}
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == 0x7f:
			b = appendUnicodeEscape(b, c)
		case c != 0xC2:
			b = append(b, c)
		case i+1 == len(p):
			t.pending = true
		case isC1(p[i+1]):
			b = appendUnicodeEscape(b, p[i+1])
			i++
		default:
			b = append(b, c)
		}
	}
	t.buf = b
	if _, err := t.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a lead byte the last Write held back.
func (t *TerminalJSON) Flush() error {
	if !t.pending {
		return nil
	}
	t.pending = false
	_, err := t.w.Write([]byte{0xC2})
	return err
}

// isC1 says whether c, after 0xC2, encodes a C1 control.
func isC1(c byte) bool { return 0x80 <= c && c <= 0x9f }

// appendUnicodeEscape appends \u00XX for the code point c (below 0x100).
func appendUnicodeEscape(b []byte, c byte) []byte {
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
