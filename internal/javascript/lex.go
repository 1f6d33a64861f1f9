package javascript

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tEOF      tokKind = iota
	tName             // an identifier or a keyword
	tNum              // a number
	tStr              // a string; text is its value
	tTemplate         // a template literal; parts hold its strings and expressions' texts
	tRegex            // a regular expression literal
	tPunct            // an operator or punctuation
)

type token struct {
	kind tokKind
	text string
	// parts of a template literal: strings at even indexes, the source of
	// each ${…} expression at odd ones.
	parts []string
	// partLines are the lines the parts start on.
	partLines []int
	pos, end  int
	line      int
	// nl says a line ends between the token before and this one, where
	// a statement may end without a semicolon.
	nl bool
}

type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

var puncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!",
	"~", "?", ":", "=", ".", "@", "#",
}

// regexAfter are the keywords after which a slash starts a regular
// expression.
var regexAfter = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "instanceof": true, "yield": true,
	"await": true,
}

type lexer struct {
	src   string
	i     int
	line  int
	toks  []token
	nl    bool
	depth int
}

func lex(src string, line, depth int) ([]token, error) {
	if depth > maxDepth {
		return nil, &syntaxError{line, fmt.Sprintf("nested deeper than %d", maxDepth)}
	}
	l := &lexer{src: src, line: line, depth: depth}
	if strings.HasPrefix(src, "#!") {
		for l.i < len(src) && src[l.i] != '\n' {
			l.i++
		}
	}
	for l.i < len(l.src) {
		if len(l.toks) > maxTokens {
			return nil, &syntaxError{l.line, fmt.Sprintf("more than %d tokens", maxTokens)}
		}
		if err := l.next(); err != nil {
			return nil, err
		}
	}
	l.toks = append(l.toks, token{kind: tEOF, pos: len(src), end: len(src), line: l.line, nl: true})
	return l.toks, nil
}

func (l *lexer) emit(t token) {
	t.line, t.nl = l.line, l.nl
	l.nl = false
	l.toks = append(l.toks, t)
}

// regexAllowed says a slash here starts a regular expression: not after
// an operand (a name, a literal, a closing bracket), where it divides.
func (l *lexer) regexAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tNum, tStr, tTemplate, tRegex:
		return false
	case tName:
		return regexAfter[t.text]
	case tPunct:
		switch t.text {
		case ")", "]", "}", "++", "--":
			return false
		}
	}
	return true
}

func (l *lexer) next() error {
	c := l.src[l.i]
	switch {
	case c == '\n':
		l.i++
		l.line++
		l.nl = true
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		l.i++
	case strings.HasPrefix(l.src[l.i:], "//"):
		for l.i < len(l.src) && l.src[l.i] != '\n' {
			l.i++
		}
	case strings.HasPrefix(l.src[l.i:], "/*"):
		return l.comment()
	case c == '"' || c == '\'':
		return l.str(c)
	case c == '`':
		return l.template()
	case c == '/' && l.regexAllowed():
		return l.regex()
	case isDigit(c) || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]):
		l.number()
	case isIdentStart(c):
		j := l.i
		for j < len(l.src) && isIdentPart(l.src[j]) {
			j++
		}
		l.emit(token{kind: tName, text: l.src[l.i:j], pos: l.i, end: j})
		l.i = j
	default:
		return l.punct(c)
	}
	return nil
}

func (l *lexer) comment() error {
	end := strings.Index(l.src[l.i+2:], "*/")
	if end < 0 {
		return &syntaxError{l.line, "unterminated comment"}
	}
	body := l.src[l.i : l.i+2+end+2]
	if n := strings.Count(body, "\n"); n > 0 {
		l.line += n
		l.nl = true
	}
	l.i += len(body)
	return nil
}

// number reads a number: 42, 1.5e-3, 0x1f, 1_000n.
func (l *lexer) number() {
	j := l.i
	hex := strings.HasPrefix(l.src[l.i:], "0x") || strings.HasPrefix(l.src[l.i:], "0X")
	for j < len(l.src) {
		c := l.src[j]
		if isIdentPart(c) || c == '.' || (c == '+' || c == '-') && (l.src[j-1] == 'e' || l.src[j-1] == 'E') && !hex {
			j++
			continue
		}
		break
	}
	l.emit(token{kind: tNum, text: l.src[l.i:j], pos: l.i, end: j})
	l.i = j
}

func (l *lexer) punct(c byte) error {
	for _, p := range puncts {
		if strings.HasPrefix(l.src[l.i:], p) {
			if p == "?." && l.i+2 < len(l.src) && isDigit(l.src[l.i+2]) {
				continue // a ? .5 : b
			}
			l.emit(token{kind: tPunct, text: p, pos: l.i, end: l.i + len(p)})
			l.i += len(p)
			return nil
		}
	}
	return &syntaxError{l.line, fmt.Sprintf("unexpected character %q", c)}
}

func (l *lexer) str(q byte) error {
	var b strings.Builder
	for j := l.i + 1; j < len(l.src); j++ {
		c := l.src[j]
		switch {
		case c == q:
			l.emit(token{kind: tStr, text: b.String(), pos: l.i, end: j + 1})
			l.i = j + 1
			return nil
		case c == '\n':
			return &syntaxError{l.line, "unterminated string"}
		case c == '\\' && j+1 < len(l.src):
			j++
			if l.src[j] == '\n' {
				l.line++
				continue
			}
			b.WriteString(escape(l.src[j]))
		default:
			b.WriteByte(c)
		}
	}
	return &syntaxError{l.line, "unterminated string"}
}

func escape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	}
	return string(c)
}

// template reads `…${expr}…`, whose expressions may hold templates of
// their own.
func (l *lexer) template() error {
	start, startLine := l.i, l.line
	t := token{kind: tTemplate, pos: start}
	var b strings.Builder
	lineOf := l.line
	j := l.i + 1
	for j < len(l.src) {
		c := l.src[j]
		switch {
		case c == '`':
			t.parts = append(t.parts, b.String())
			t.partLines = append(t.partLines, lineOf)
			t.end = j + 1
			l.i = j + 1
			t.line, t.nl = startLine, l.nl
			l.nl = false
			l.toks = append(l.toks, t)
			return nil
		case c == '\\' && j+1 < len(l.src):
			if l.src[j+1] == '\n' {
				l.line++
			}
			b.WriteString(escape(l.src[j+1]))
			j += 2
		case c == '$' && j+1 < len(l.src) && l.src[j+1] == '{':
			t.parts = append(t.parts, b.String())
			t.partLines = append(t.partLines, lineOf)
			b.Reset()
			end, err := l.exprEnd(j + 2)
			if err != nil {
				return err
			}
			t.parts = append(t.parts, l.src[j+2:end])
			t.partLines = append(t.partLines, l.line)
			l.line += strings.Count(l.src[j+2:end], "\n")
			lineOf = l.line
			j = end + 1
		default:
			if c == '\n' {
				l.line++
			}
			b.WriteByte(c)
			j++
		}
	}
	return &syntaxError{startLine, "unterminated template literal"}
}

// exprEnd finds the } that ends a template's ${…}, lexing what is
// between (strings, nested templates and braces).
func (l *lexer) exprEnd(i int) (int, error) {
	if l.depth+1 > maxDepth {
		return 0, &syntaxError{l.line, fmt.Sprintf("nested deeper than %d", maxDepth)}
	}
	sub := &lexer{src: l.src, i: i, line: l.line, depth: l.depth + 1}
	depth := 0
	for sub.i < len(sub.src) {
		if len(sub.toks) > maxTokens {
			return 0, &syntaxError{sub.line, fmt.Sprintf("more than %d tokens", maxTokens)}
		}
		n := len(sub.toks)
		if err := sub.next(); err != nil {
			return 0, err
		}
		if len(sub.toks) == n {
			continue
		}
		if t := sub.toks[n]; t.kind == tPunct {
			switch t.text {
			case "{":
				depth++
			case "}":
				if depth == 0 {
					return t.pos, nil
				}
				depth--
			}
		}
	}
	return 0, &syntaxError{l.line, "unterminated ${ in a template literal"}
}

func (l *lexer) regex() error {
	inClass := false
	for j := l.i + 1; j < len(l.src); j++ {
		switch l.src[j] {
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if inClass {
				continue
			}
			k := j + 1
			for k < len(l.src) && isIdentPart(l.src[k]) {
				k++
			}
			l.emit(token{kind: tRegex, text: l.src[l.i+1 : j], pos: l.i, end: k})
			l.i = k
			return nil
		case '\n':
			return &syntaxError{l.line, "unterminated regular expression"}
		}
	}
	return &syntaxError{l.line, "unterminated regular expression"}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }
