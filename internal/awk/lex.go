package awk

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tName     // a variable or keyword
	tFuncName // a name followed at once by "(": a call of a user function
	tBuiltin  // a builtin function's name
	tNumber
	tString
	tRegex
	tPunct     // an operator or punctuation, in text
	tDirective // gawk's @include, @load, @namespace, with what follows
)

type token struct {
	kind tokKind
	text string // the name, the punctuation, the string's or regex's value
	pos  int    // byte offset of its start
	end  int    // byte offset past its end
	line int
}

// keywords are awk's reserved words.
var keywords = map[string]bool{
	"BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true, "function": true, "func": true,
	"if": true, "else": true, "while": true, "for": true, "do": true, "break": true, "continue": true,
	"next": true, "nextfile": true, "switch": true, "case": true, "default": true, "exit": true, "return": true, "delete": true, "in": true,
	"getline": true, "print": true, "printf": true,
}

// builtins are the names of awk's builtin functions, which the grammar
// treats apart from user functions (a space may stand before their
// parenthesis, and length may have none).
var builtins = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true, "gsub": true,
	"match": true, "sprintf": true, "sin": true, "cos": true, "atan2": true, "exp": true, "log": true,
	"sqrt": true, "int": true, "rand": true, "srand": true, "tolower": true, "toupper": true,
	"system": true, "close": true, "fflush": true, "systime": true, "strftime": true, "mktime": true,
	"gensub": true, "asort": true, "asorti": true, "patsplit": true, "and": true, "or": true,
	"xor": true, "compl": true, "lshift": true, "rshift": true, "strtonum": true, "isarray": true,
	"typeof": true,
}

// puncts are the operators, longest first so that the first match wins.
var puncts = []string{
	"**=", "|&", "&&", "||", "==", "<=", ">=", "!=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=",
	">>", "!~", "**",
	"{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<", "|",
	"?", ":", "~", "$", "=",
}

type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// lex splits a program into tokens. Whether a slash starts a regular
// expression or divides is decided by the token before it, as awk's
// grammar does: after an operand it divides.
func lex(src string) ([]token, error) {
	l := &lexer{src: src, line: 1}
	for l.i < len(src) {
		if len(l.toks) > maxTokens {
			return nil, &syntaxError{l.line, fmt.Sprintf("more than %d tokens", maxTokens)}
		}
		if err := l.next(); err != nil {
			return nil, err
		}
	}
	l.toks = append(l.toks, token{kind: tEOF, pos: len(src), end: len(src), line: l.line})
	return l.toks, nil
}

type lexer struct {
	src  string
	i    int
	line int
	toks []token
}

func (l *lexer) emit(k tokKind, text string, n int) {
	l.toks = append(l.toks, token{kind: k, text: text, pos: l.i, end: l.i + n, line: l.line})
	l.i += n
}

// next reads what starts at l.i: a token, or space, a comment or a line
// continuation.
func (l *lexer) next() error {
	src, i := l.src, l.i
	c := src[i]
	switch {
	case c == '\n':
		l.emit(tNewline, "\n", 1)
		l.line++
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		l.i++
	case strings.HasPrefix(src[i:], "\\\n"):
		l.line++
		l.i += 2
	case strings.HasPrefix(src[i:], "\\\r\n"):
		l.line++
		l.i += 3
	case c == '#':
		for l.i < len(src) && src[l.i] != '\n' {
			l.i++
		}
	case c == '"':
		s, n, err := lexString(src[i:], l.line)
		if err != nil {
			return err
		}
		l.emit(tString, s, n)
	case c == '/' && regexAllowed(l.toks):
		s, n, err := lexRegex(src[i:], l.line)
		if err != nil {
			return err
		}
		l.emit(tRegex, s, n)
	case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
		n := lexNumber(src[i:])
		l.emit(tNumber, src[i:i+n], n)
	case isNameStart(c):
		l.name()
	case c == '@':
		return l.at()
	default:
		for _, q := range puncts {
			if strings.HasPrefix(src[i:], q) {
				l.emit(tPunct, q, len(q))
				return nil
			}
		}
		return &syntaxError{l.line, fmt.Sprintf("unexpected character %q", c)}
	}
	return nil
}

// at reads what gawk's @ starts: a directive (@include "f", @load,
// @namespace), which ends at the line's end, an indirect call @f(), or a
// typed regular expression @/re/.
func (l *lexer) at() error {
	rest := l.src[l.i+1:]
	switch {
	case strings.HasPrefix(rest, "include") || strings.HasPrefix(rest, "load") || strings.HasPrefix(rest, "namespace"):
		end := strings.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		l.emit(tDirective, strings.TrimSpace(rest[:end]), 1+end)
	case strings.HasPrefix(rest, "/"):
		l.i++
		s, n, err := lexRegex(l.src[l.i:], l.line)
		if err != nil {
			return err
		}
		l.emit(tRegex, s, n)
	case rest != "" && isNameStart(rest[0]):
		l.i++
		j := l.i
		for j < len(l.src) && isNamePart(l.src[j]) {
			j++
		}
		l.emit(tFuncName, "@"+l.src[l.i:j], j-l.i)
	default:
		return &syntaxError{l.line, "unexpected character '@'"}
	}
	return nil
}

func (l *lexer) name() {
	j := l.i
	for j < len(l.src) && isNamePart(l.src[j]) {
		j++
	}
	name := l.src[l.i:j]
	k := tName
	switch {
	case builtins[name]:
		k = tBuiltin
	case !keywords[name] && j < len(l.src) && l.src[j] == '(':
		k = tFuncName
	}
	l.emit(k, name, j-l.i)
}

// regexAllowed says whether a slash after these tokens starts a regular
// expression: not after an operand (a name, a number, a string, a closing
// bracket, or ++/-- that end one), where it divides.
func regexAllowed(toks []token) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case tNumber, tString, tRegex, tFuncName:
		return false
	case tName:
		return keywords[t.text] && t.text != "getline"
	case tBuiltin:
		return false
	case tPunct:
		switch t.text {
		case ")", "]", "$", "++", "--":
			return false
		}
	}
	return true
}

func lexString(s string, line int) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), i + 1, nil
		case '\n':
			return "", 0, &syntaxError{line, "newline in string"}
		case '\\':
			if i+1 >= len(s) {
				break
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '"', '/':
				b.WriteByte(s[i])
			case '\n':
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return "", 0, &syntaxError{line, "unterminated string"}
}

func lexRegex(s string, line int) (string, int, error) {
	inClass := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				return s[1:i], i + 1, nil
			}
		case '\n':
			return "", 0, &syntaxError{line, "newline in regular expression"}
		}
	}
	return "", 0, &syntaxError{line, "unterminated regular expression"}
}

func lexNumber(s string) int {
	i := 0
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		i = 2
		for i < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[i]) >= 0 {
			i++
		}
		return i
	}
	for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
		i++
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			i = j
			for i < len(s) && isDigit(s[i]) {
				i++
			}
		}
	}
	return i
}

func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNamePart(c byte) bool  { return isNameStart(c) || isDigit(c) }
