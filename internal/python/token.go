package python

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind is the class of a token, as Python's own tokenizer has them.
type tokenKind uint8

const (
	tEOF tokenKind = iota
	tName
	tNumber
	tString // a string literal of any prefix, f-strings included, quotes and all
	tOp
	tNewline
	tIndent
	tDedent
)

var tokenNames = [...]string{"end of input", "name", "number", "string", "operator", "end of line", "indent", "dedent"}

func (k tokenKind) String() string { return tokenNames[k] }

// token is one token: its text as written and where it starts and ends.
type token struct {
	kind tokenKind
	text string
	pos  int // byte offset of its first byte
	end  int // byte offset after its last byte
	line int // 1-based line of pos
}

// SyntaxError is a program the reader cannot parse: the line and what is
// wrong, in the words Python's own errors use where they fit.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid syntax at line %d: %s", e.Line, e.Msg)
}

// Bounds on what one program may cost to read. A hostile text ends with a
// SyntaxError rather than taking the time or memory it asks for.
const (
	maxText      = 1 << 20 // bytes of a program read at all
	maxTokens    = 1 << 20 // tokens of a program
	maxNesting   = 100     // brackets, blocks and expressions inside one another
	maxFStrDepth = 8       // f-strings inside the replacement fields of f-strings
)

// operators lists Python's operators and delimiters, longest first within
// each first character, so that the first match is the longest.
var operators = []string{
	"**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=",
	":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=",
	"!", "%", "&", "(", ")", "*", "+", ",", "-", ".", "/", ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~",
}

// lexer turns a program into tokens, with Python's rules for logical
// lines: INDENT and DEDENT for blocks, no NEWLINE inside brackets or
// after a backslash continuation, none for blank and comment lines.
type lexer struct {
	src    string
	i      int
	line   int
	toks   []token
	indent []int // the indentation of the enclosing blocks, 0 first
	depth  int   // open brackets
	// atLine says the next token starts a logical line, whose
	// indentation decides INDENT and DEDENT.
	atLine bool
	// inExpr says the text is one expression inside brackets the caller
	// opened: line breaks end nothing and there are no blocks.
	inExpr bool
}

// tokenize reads a whole program.
func tokenize(src string) ([]token, error) {
	if len(src) > maxText {
		return nil, &SyntaxError{Line: 1, Msg: fmt.Sprintf("the program is %d bytes, more than the %d read", len(src), maxText)}
	}
	lx := &lexer{src: src, line: 1, indent: []int{0}, atLine: true}
	lx.i = len(src) - len(strings.TrimPrefix(src, "\ufeff"))
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

// tokenizeRange reads the text src[from:to] as one expression inside
// brackets (a replacement field of an f-string): positions stay those of
// src, and line breaks end nothing.
func tokenizeRange(src string, from, to, line int) ([]token, error) {
	lx := &lexer{src: src[:to], i: from, line: line, indent: []int{0}, depth: 1, inExpr: true}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func (lx *lexer) errorf(format string, args ...any) error {
	return &SyntaxError{Line: lx.line, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) emit(kind tokenKind, start int, line int) error {
	if len(lx.toks) >= maxTokens {
		return lx.errorf("more than %d tokens", maxTokens)
	}
	lx.toks = append(lx.toks, token{kind: kind, text: lx.src[start:lx.i], pos: start, end: lx.i, line: line})
	return nil
}

func (lx *lexer) run() error {
	for {
		if lx.atLine && lx.depth == 0 {
			if done, err := lx.lineStart(); err != nil || done {
				return err
			}
		}
		if lx.i >= len(lx.src) {
			return lx.finish()
		}
		if err := lx.next(); err != nil {
			return err
		}
	}
}

// finish closes the last logical line and the blocks still open.
func (lx *lexer) finish() error {
	open := 0
	if lx.inExpr {
		open = 1
	}
	if lx.depth > open {
		return lx.errorf("a bracket is never closed")
	}
	if n := len(lx.toks); !lx.inExpr && n > 0 && lx.toks[n-1].kind != tNewline && lx.toks[n-1].kind != tDedent {
		lx.toks = append(lx.toks, token{kind: tNewline, pos: lx.i, end: lx.i, line: lx.line})
	}
	for len(lx.indent) > 1 {
		lx.indent = lx.indent[:len(lx.indent)-1]
		lx.toks = append(lx.toks, token{kind: tDedent, pos: lx.i, end: lx.i, line: lx.line})
	}
	lx.toks = append(lx.toks, token{kind: tEOF, pos: lx.i, end: lx.i, line: lx.line})
	return nil
}

// lineStart measures the indentation of a new logical line and emits its
// INDENT or DEDENTs; blank and comment lines are skipped whole. It says
// when the input ended.
func (lx *lexer) lineStart() (bool, error) {
	for {
		col, j := 0, lx.i
		for j < len(lx.src) {
			switch lx.src[j] {
			case ' ':
				col++
			case '\t':
				col = (col/8 + 1) * 8
			case '\f':
				col = 0
			default:
				goto measured
			}
			j++
		}
	measured:
		lx.i = j
		if j >= len(lx.src) {
			return true, lx.finish()
		}
		switch lx.src[j] {
		case '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
			continue
		case '\n':
			lx.i++
			lx.line++
			continue
		case '\r':
			lx.i++
			continue
		case '\\':
			// A continuation at the start of a line joins it to the next.
			if k := skipLineBreak(lx.src, j+1); k > j+1 {
				lx.i = k
				lx.line++
				continue
			}
		}
		lx.atLine = false
		top := lx.indent[len(lx.indent)-1]
		switch {
		case col > top:
			if len(lx.indent) > maxNesting {
				return false, lx.errorf("blocks nested more than %d deep", maxNesting)
			}
			lx.indent = append(lx.indent, col)
			lx.toks = append(lx.toks, token{kind: tIndent, pos: lx.i, end: lx.i, line: lx.line})
		case col < top:
			for col < lx.indent[len(lx.indent)-1] {
				lx.indent = lx.indent[:len(lx.indent)-1]
				lx.toks = append(lx.toks, token{kind: tDedent, pos: lx.i, end: lx.i, line: lx.line})
			}
			if col != lx.indent[len(lx.indent)-1] {
				return false, lx.errorf("unindent does not match any outer indentation level")
			}
		}
		return false, nil
	}
}

// skipLineBreak returns the offset after a line break at i (\n or \r\n),
// or i when there is none.
func skipLineBreak(s string, i int) int {
	if i < len(s) && s[i] == '\r' {
		i++
	}
	if i < len(s) && s[i] == '\n' {
		return i + 1
	}
	return i
}

// next reads one token, or the space, comment or line break before it.
func (lx *lexer) next() error {
	c := lx.src[lx.i]
	start, line := lx.i, lx.line
	switch {
	case c == ' ' || c == '\t' || c == '\f' || c == '\r':
		lx.i++
		return nil
	case c == '#':
		if k := strings.IndexByte(lx.src[lx.i:], '\n'); k >= 0 {
			lx.i += k
		} else {
			lx.i = len(lx.src)
		}
		return nil
	case c == '\n':
		lx.i++
		lx.line++
		if lx.depth == 0 {
			lx.atLine = true
			return lx.emit(tNewline, start, line)
		}
		return nil
	case c == '\\':
		k := skipLineBreak(lx.src, lx.i+1)
		if k == lx.i+1 {
			return lx.errorf("unexpected character after line continuation character")
		}
		lx.i = k
		lx.line++
		return nil
	case c == '"' || c == '\'':
		return lx.str(start, line, "")
	case c >= '0' && c <= '9' || c == '.' && lx.i+1 < len(lx.src) && isDigit(lx.src[lx.i+1]):
		lx.number()
		return lx.emit(tNumber, start, line)
	case isNameStart(lx.src, lx.i):
		lx.name()
		if lx.i < len(lx.src) && (lx.src[lx.i] == '"' || lx.src[lx.i] == '\'') && isStringPrefix(lx.src[start:lx.i]) {
			return lx.str(start, line, strings.ToLower(lx.src[start:lx.i]))
		}
		return lx.emit(tName, start, line)
	}
	return lx.operator(start, line)
}

// operator reads an operator or a delimiter, keeping count of brackets.
func (lx *lexer) operator(start, line int) error {
	for _, op := range operators {
		if !strings.HasPrefix(lx.src[lx.i:], op) {
			continue
		}
		lx.i += len(op)
		switch op {
		case "(", "[", "{":
			lx.depth++
			if lx.depth > maxNesting {
				return lx.errorf("brackets nested more than %d deep", maxNesting)
			}
		case ")", "]", "}":
			if lx.depth == 0 || lx.inExpr && lx.depth == 1 {
				return lx.errorf("unmatched %q", op)
			}
			lx.depth--
		}
		return lx.emit(tOp, start, line)
	}
	r, _ := utf8.DecodeRuneInString(lx.src[lx.i:])
	return lx.errorf("invalid character %q", r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNameStart(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isNameByte(s string, i int) (int, bool) {
	c := s[i]
	if c < utf8.RuneSelf {
		return 1, c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return n, r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nl, unicode.Pc))
}

func (lx *lexer) name() {
	for lx.i < len(lx.src) {
		n, ok := isNameByte(lx.src, lx.i)
		if !ok {
			return
		}
		lx.i += n
	}
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// number reads a numeric literal as Python's tokenizer does, loosely:
// what follows it must still make sense to the parser.
func (lx *lexer) number() {
	s := lx.src
	if s[lx.i] == '0' && lx.i+1 < len(s) && strings.ContainsRune("xXoObB", rune(s[lx.i+1])) {
		lx.i += 2
		for lx.i < len(s) && (isHex(s[lx.i]) || s[lx.i] == '_') {
			lx.i++
		}
		return
	}
	digits := func() {
		for lx.i < len(s) && (isDigit(s[lx.i]) || s[lx.i] == '_') {
			lx.i++
		}
	}
	digits()
	if lx.i < len(s) && s[lx.i] == '.' {
		lx.i++
		digits()
	}
	if lx.i < len(s) && (s[lx.i] == 'e' || s[lx.i] == 'E') {
		j := lx.i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			lx.i = j
			digits()
		}
	}
	if lx.i < len(s) && (s[lx.i] == 'j' || s[lx.i] == 'J') {
		lx.i++
	}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// str reads a string literal whose prefix (lower case) ends at lx.i.
func (lx *lexer) str(start, line int, prefix string) error {
	end, lines, err := scanString(lx.src, lx.i, prefix, 0)
	if err != nil {
		return &SyntaxError{Line: lx.line + lines, Msg: err.Error()}
	}
	lx.i = end
	lx.line += lines
	return lx.emit(tString, start, line)
}

// scanString finds the end of the string literal whose opening quote is
// at s[i], and counts the line breaks inside it. In an f-string the
// replacement fields are followed, strings nested in them included (which
// Python 3.12 allows to reuse the outer quote).
func scanString(s string, i int, prefix string, depth int) (end, lines int, err error) {
	q := s[i]
	triple := strings.HasPrefix(s[i:], strings.Repeat(string(q), 3))
	closing := string(q)
	if triple {
		closing = strings.Repeat(string(q), 3)
	}
	i += len(closing)
	fstr, raw := strings.Contains(prefix, "f"), strings.Contains(prefix, "r")
	for i < len(s) {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], closing):
			return i + len(closing), lines, nil
		case fstr && !raw && strings.HasPrefix(s[i:], `\N{`):
			// A character's name, whose braces are no field's.
			if j := strings.IndexByte(s[i:], '}'); j > 0 {
				i += j + 1
				continue
			}
			i++
		case c == '\\' && !(fstr && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '}')):
			// A backslash escapes the next character for the scan (a
			// quote, even in a raw string), but never an f-string's brace.
			i++
			if i < len(s) {
				if s[i] == '\n' {
					lines++
				}
				i++
			}
			continue
		case c == '\n':
			if !triple {
				return 0, lines, fmt.Errorf("unterminated string literal")
			}
			lines++
		case fstr && c == '{':
			if strings.HasPrefix(s[i:], "{{") {
				i += 2
				continue
			}
			if depth >= maxFStrDepth {
				return 0, lines, fmt.Errorf("f-strings nested more than %d deep", maxFStrDepth)
			}
			f, n, err := scanField(s, i+1, depth)
			lines += n
			if err != nil {
				return 0, lines, err
			}
			i = f.end
			continue
		}
		i++
	}
	if triple {
		return 0, lines, fmt.Errorf("unterminated triple-quoted string literal")
	}
	return 0, lines, fmt.Errorf("unterminated string literal")
}

// field is where the parts of an f-string's replacement field are: the
// expression runs from after its `{` to exprEnd, the conversion (r, s, a)
// is conv, the format spec runs from specStart (0: none) to the `}`, and
// end is the offset after that `}`.
type field struct {
	exprEnd, specStart, end int
	conv                    byte
}

// scanField finds the end of an f-string's replacement field that starts
// after its `{` at s[i]: the expression (brackets and strings followed),
// then a conversion and a format spec, which may hold fields of its own.
func scanField(s string, i, depth int) (f field, lines int, err error) {
	level := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			lines++
		case c == '#':
			// A comment, which Python 3.12 allows in a field that spans
			// lines.
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'' || isNameStart(s, i):
			j, n, err := scanWord(s, i, depth)
			lines += n
			if err != nil {
				return f, lines, err
			}
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			level++
		case c == ')' || c == ']':
			level--
		case c == '}':
			if level == 0 {
				f.exprEnd, f.end = i, i+1
				return f, lines, nil
			}
			level--
		case level == 0 && c == '!' && !strings.HasPrefix(s[i:], "!="):
			f, n, err := scanConversion(s, i, depth)
			return f, lines + n, err
		case level == 0 && c == ':':
			f.exprEnd, f.specStart = i, i+1
			j, n, err := scanSpec(s, i+1, depth)
			f.end = j
			return f, lines + n, err
		}
		i++
	}
	return f, lines, fmt.Errorf("f-string: expecting '}'")
}

// scanWord skips a name, or a string literal with its prefix, in the
// expression of a field.
func scanWord(s string, i, depth int) (end, lines int, err error) {
	j := i
	if isNameStart(s, i) {
		for j < len(s) {
			n, ok := isNameByte(s, j)
			if !ok {
				break
			}
			j += n
		}
	}
	if j < len(s) && (s[j] == '"' || s[j] == '\'') && (j == i || isStringPrefix(s[i:j])) {
		return scanString(s, j, strings.ToLower(s[i:j]), depth+1)
	}
	return j, 0, nil
}

// scanConversion reads a field's conversion at s[i] (!r, !s, !a) and
// what follows it: the spec, or the end.
func scanConversion(s string, i, depth int) (f field, lines int, err error) {
	f.exprEnd = i
	if i+1 < len(s) {
		f.conv = s[i+1]
	}
	i++
	for i < len(s) && s[i] != ':' && s[i] != '}' && s[i] != '\n' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '}':
		f.end = i + 1
		return f, 0, nil
	case i < len(s) && s[i] == ':':
		f.specStart = i + 1
		j, n, err := scanSpec(s, i+1, depth)
		f.end = j
		return f, n, err
	}
	return f, 0, fmt.Errorf("f-string: expecting '}'")
}

// scanSpec finds the end of a format spec and of the field it closes.
func scanSpec(s string, i, depth int) (end, lines int, err error) {
	for i < len(s) {
		switch s[i] {
		case '{':
			if depth+1 >= maxFStrDepth {
				return 0, lines, fmt.Errorf("f-strings nested more than %d deep", maxFStrDepth)
			}
			f, n, err := scanField(s, i+1, depth+1)
			lines += n
			if err != nil {
				return 0, lines, err
			}
			i = f.end
			continue
		case '}':
			return i + 1, lines, nil
		case '\n':
			lines++
		case '"', '\'':
			// The spec of a single-quoted f-string cannot hold its quote.
			return 0, lines, fmt.Errorf("f-string: expecting '}'")
		}
		i++
	}
	return 0, lines, fmt.Errorf("f-string: expecting '}'")
}
