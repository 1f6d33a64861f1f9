package csource

import "strings"

type kind uint8

const (
	eof kind = iota
	ident
	directive // a # starting a line; text is the rest of its line
	literal   // a number, a string or a character literal
	other     // punctuation; text is its character
)

type token struct {
	kind kind
	text string
	pos  int // where it starts in the scanner's text
}

// scanner splits a source into the preprocessor's tokens, as far as
// finding names and calls needs: identifiers, literals, and punctuation
// one character at a time.
type scanner struct {
	src       string
	pos       int
	lineStart bool
	// splices are where, in src, a line splice was taken out, in order:
	// the lines they joined still count for line.
	splices []int
}

func newScanner(text string) *scanner {
	if len(text) > MaxText {
		text = text[:MaxText]
	}
	// Phase 2: a backslash at the end of a line joins it to the next.
	var b strings.Builder
	b.Grow(len(text))
	var splices []int
	for text != "" {
		line, rest, found := strings.Cut(text, "\n")
		text = rest
		joined := strings.TrimSuffix(line, "\r")
		if found && strings.HasSuffix(joined, "\\") {
			b.WriteString(joined[:len(joined)-1])
			splices = append(splices, b.Len())
			continue
		}
		b.WriteString(line)
		if found {
			b.WriteByte('\n')
		}
	}
	return &scanner{src: b.String(), lineStart: true, splices: splices}
}

// line is the line of the original text that position pos of the
// scanner's text is on.
func (s *scanner) line(pos int) int {
	n := 1 + strings.Count(s.src[:pos], "\n")
	for _, sp := range s.splices {
		if sp > pos {
			break
		}
		n++
	}
	return n
}

func (s *scanner) next() token {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n':
			s.pos++
			s.lineStart = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.pos++
		case c == '/' && s.peek(1) == '/':
			s.skipTo("\n", false)
		case c == '/' && s.peek(1) == '*':
			s.pos += 2
			s.skipTo("*/", true)
		case c == '#' && s.lineStart:
			s.pos++
			s.lineStart = false
			end := strings.IndexByte(s.src[s.pos:], '\n')
			if end < 0 {
				end = len(s.src) - s.pos
			}
			return token{kind: directive, text: s.src[s.pos : s.pos+end], pos: s.pos - 1}
		default:
			s.lineStart = false
			return s.token()
		}
	}
	return token{kind: eof}
}

func (s *scanner) peek(n int) byte {
	if s.pos+n < len(s.src) {
		return s.src[s.pos+n]
	}
	return 0
}

// skipTo moves past the next end (or to the end of the source); past says
// whether end itself is skipped.
func (s *scanner) skipTo(end string, past bool) {
	i := strings.Index(s.src[s.pos:], end)
	switch {
	case i < 0:
		s.pos = len(s.src)
	case past:
		s.pos += i + len(end)
	default:
		s.pos += i
	}
}

func (s *scanner) token() token {
	start := s.pos
	c := s.src[s.pos]
	switch {
	case isIdentStart(c):
		for s.pos < len(s.src) && isIdentPart(s.src[s.pos]) {
			s.pos++
		}
		word := s.src[start:s.pos]
		if s.pos < len(s.src) && (s.src[s.pos] == '"' || s.src[s.pos] == '\'') && isEncodingPrefix(word) {
			if s.src[s.pos] == '"' && strings.HasSuffix(word, "R") {
				s.rawString()
			} else {
				s.quoted(s.src[s.pos])
			}
			return token{kind: literal, pos: start}
		}
		return token{kind: ident, text: word, pos: start}
	case c >= '0' && c <= '9' || c == '.' && s.peek(1) >= '0' && s.peek(1) <= '9':
		// A preprocessing number: 0x1p-3, 1e+5, 12'345, 1_000ul.
		s.pos++
		for s.pos < len(s.src) {
			d := s.src[s.pos]
			if (d == '+' || d == '-') && strings.ContainsRune("eEpP", rune(s.src[s.pos-1])) || d == '\'' || d == '.' || isIdentPart(d) {
				s.pos++
				continue
			}
			break
		}
		return token{kind: literal, text: s.src[start:s.pos], pos: start}
	case c == '"' || c == '\'':
		s.quoted(c)
		return token{kind: literal, pos: start}
	}
	s.pos++
	return token{kind: other, text: s.src[start:s.pos], pos: start}
}

// quoted skips a string or character literal, which ends at its quote or,
// unterminated, at the end of the line.
func (s *scanner) quoted(q byte) {
	s.pos++
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case q:
			s.pos++
			return
		case '\n':
			return
		}
		s.pos++
	}
	s.pos = min(s.pos, len(s.src))
}

// rawString skips a C++ raw string, R"delim( … )delim".
func (s *scanner) rawString() {
	open := strings.IndexByte(s.src[s.pos:], '(')
	if open < 0 || open > 17 {
		s.quoted('"')
		return
	}
	delim := s.src[s.pos+1 : s.pos+open]
	s.pos += open + 1
	s.skipTo(")"+delim+"\"", true)
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

// isEncodingPrefix says a word written right before a quote is a
// literal's prefix: L"", u8"", R"()", LR"()".
func isEncodingPrefix(w string) bool {
	switch w {
	case "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}
