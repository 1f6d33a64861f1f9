package perl

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tEOF      tokKind = iota
	tVar              // $x, @x, %x, $#x, &x, and the punctuation variables ($$, $<, $0…)
	tCast             // a sigil before a block or a variable: @{…}, $$ref, %$ref
	tIdent            // a bareword, possibly qualified: print, POSIX::strftime, STDERR
	tNum              // a number
	tStr              // a string with no interpolation: '…', q(…), <<'EOF'
	tInterp           // a string that interpolates: "…", qq(…), <<"EOF"
	tCmd              // a command: `…`, qx(…)
	tWords            // qw(…)
	tMatch            // m/…/flags or /…/flags
	tSubst            // s/…/…/flags
	tTrans            // tr/…/…/ or y/…/…/
	tReadline         // <FH>, <$fh>, <>, or a glob <*.c>
	tFiletest         // -e, -M…, before an operand
	tOp               // an operator or punctuation
)

type token struct {
	kind  tokKind
	text  string // the name or operator; a string's body; a pattern
	repl  string // s///'s replacement
	flags string // the flags of a match, substitution or transliteration
	pos   int    // byte offset of its start
	end   int    // byte offset past its end
	line  int
	// block says a } closes a block, after which an operand is expected,
	// not a subscript or an anonymous hash, after which an operator is.
	block bool
}

// syntaxError is a program the tokenizer or parser cannot read.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// ops are the operators, longest first.
var ops = []string{
	"<<>>", "<=>", "**=", "||=", "&&=", "//=", "...", "<<=", ">>=",
	"=>", "->", "++", "--", "**", "=~", "!~", "==", "!=", "<=", ">=", "&&", "||", "//", "..", "::",
	"+=", "-=", "*=", "/=", ".=", "%=", "x=", "|=", "&=", "^=", "<<", ">>",
	",", ";", "(", ")", "[", "]", "{", "}", "?", ":", "=", "!", "~", "\\", "+", "-", "*", "/",
	"%", "<", ">", "&", "|", "^", ".",
}

// termOps are barewords that take no operand: after them a slash divides.
var termOps = map[string]bool{
	"time": true, "times": true, "wait": true, "wantarray": true, "getppid": true, "getlogin": true,
	"__FILE__": true, "__LINE__": true, "__PACKAGE__": true, "fork": true, "getpgrp": true,
}

type lexer struct {
	src  string
	i    int
	line int
	toks []token
	// braces says, for each { open, whether it opened a block.
	braces []bool
	// heredocs wait for the end of the line their operator is on.
	heredocs []pendingHeredoc
}

type pendingHeredoc struct {
	tok    int // index of the token whose text the body becomes
	tag    string
	indent bool // <<~
}

func lex(src string) ([]token, error) {
	l := &lexer{src: src, line: 1}
	for l.i < len(l.src) {
		if len(l.toks) > maxTokens {
			return nil, &syntaxError{l.line, fmt.Sprintf("more than %d tokens", maxTokens)}
		}
		stop, err := l.next()
		if err != nil {
			return nil, err
		}
		if stop {
			break
		}
	}
	if len(l.heredocs) > 0 {
		return nil, &syntaxError{l.line, fmt.Sprintf("here-document %q has no terminator", l.heredocs[0].tag)}
	}
	l.toks = append(l.toks, token{kind: tEOF, pos: len(l.src), end: len(l.src), line: l.line})
	return l.toks, nil
}

func (l *lexer) emit(t token) {
	t.line = l.line
	l.toks = append(l.toks, t)
}

// termExpected says whether what comes next is an operand (a slash is a
// pattern, < a readline, % a hash) or an operator (a slash divides), by the
// token before, as perl's tokenizer guesses.
func (l *lexer) termExpected() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tVar, tNum, tStr, tInterp, tCmd, tWords, tMatch, tSubst, tTrans, tReadline:
		return false
	case tIdent:
		if termOps[t.text] {
			return false
		}
		return true
	case tOp:
		switch t.text {
		case ")", "]":
			return false
		case "}":
			return t.block
		}
	}
	return true
}

// opensBlock says whether a { here opens a block, by the token before it,
// as perl guesses: after a variable or -> a subscript, after = , ( and
// the like an anonymous hash, else a block.
func (l *lexer) opensBlock() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tVar, tCast:
		return false
	case tOp:
		switch t.text {
		case "]", "->", "=", ",", "(", "[", "=>", "?", ":", "||", "&&", "//", "!", "\\", ".", "+", "-":
			return false
		case "}":
			return t.block
		}
	case tIdent:
		switch t.text {
		case "return", "and", "or", "not", "bless", "push", "unshift":
			return false
		}
	}
	return true
}

// next reads what starts at l.i; stop says the program ends there
// (__END__, __DATA__).
func (l *lexer) next() (stop bool, err error) {
	c := l.src[l.i]
	atLineStart := l.i == 0 || l.src[l.i-1] == '\n'
	switch {
	case c == '\n':
		l.i++
		l.line++
		return false, l.readHeredocs()
	case c == ' ' || c == '\t' || c == '\r' || c == '\f':
		l.i++
	case c == '#':
		for l.i < len(l.src) && l.src[l.i] != '\n' {
			l.i++
		}
	case c == '=' && atLineStart && l.i+1 < len(l.src) && isIdentStart(l.src[l.i+1]):
		l.pod()
	case isIdentStart(c):
		return l.word()
	case isDigit(c) || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]):
		l.number()
	default:
		return false, l.operand(c)
	}
	return false, nil
}

// operand reads what a character that is not a word or a number starts:
// a variable, a string, a pattern, a readline, a file test, or an
// operator.
func (l *lexer) operand(c byte) error {
	switch {
	case l.startsVariable(c):
		l.variable()
	case c == '\'':
		return l.quoted(tStr, l.i+1, '\'', l.i)
	case c == '"':
		return l.quoted(tInterp, l.i+1, '"', l.i)
	case c == '`':
		return l.quoted(tCmd, l.i+1, '`', l.i)
	case c == '/' && l.termExpected():
		return l.match(l.i, l.i)
	case c == '<' && l.termExpected():
		return l.angle()
	case c == '-' && l.termExpected() && l.isFiletest():
		l.emit(token{kind: tFiletest, text: l.src[l.i : l.i+2], pos: l.i, end: l.i + 2})
		l.i += 2
	default:
		for _, op := range ops {
			if strings.HasPrefix(l.src[l.i:], op) {
				t := token{kind: tOp, text: op, pos: l.i, end: l.i + len(op)}
				switch op {
				case "{":
					l.braces = append(l.braces, l.opensBlock())
				case "}":
					if n := len(l.braces); n > 0 {
						t.block, l.braces = l.braces[n-1], l.braces[:n-1]
					}
				}
				l.emit(t)
				l.i += len(op)
				return nil
			}
		}
		return &syntaxError{l.line, fmt.Sprintf("unexpected character %q", c)}
	}
	return nil
}

// startsVariable says a sigil starts a variable here: $ and @ always; %,
// & and * (a typeglob: *STDOUT, *{"name"}) where an operand is expected.
func (l *lexer) startsVariable(c byte) bool {
	switch c {
	case '$', '@':
		return true
	case '%':
		return l.termExpected()
	case '&':
		return !strings.HasPrefix(l.src[l.i:], "&&") && l.termExpected()
	case '*':
		return l.termExpected() && l.i+1 < len(l.src) && (isIdentStart(l.src[l.i+1]) || l.src[l.i+1] == '{' || l.src[l.i+1] == '$')
	}
	return false
}

// isFiletest says l.i starts a file test such as -e or -M: a dash, one of
// the letters, and then no more of a word.
func (l *lexer) isFiletest() bool {
	if l.i+1 >= len(l.src) || !strings.ContainsRune("erwxoRWXOezsfdlpSbcugktTBAMC", rune(l.src[l.i+1])) {
		return false
	}
	if l.i+2 < len(l.src) && (isIdentPart(l.src[l.i+2]) || l.src[l.i+2] == '>' || l.src[l.i+2] == '=') {
		return false
	}
	return true
}

// pod skips documentation: from a line starting with =word to the line
// starting with =cut.
func (l *lexer) pod() {
	for l.i < len(l.src) {
		end := strings.IndexByte(l.src[l.i:], '\n')
		line := l.src[l.i:]
		if end >= 0 {
			line = l.src[l.i : l.i+end]
		}
		if end < 0 {
			l.i = len(l.src)
			return
		}
		l.i += end + 1
		l.line++
		if strings.HasPrefix(line, "=cut") && (len(line) == 4 || !isIdentPart(line[4])) {
			return
		}
	}
}

func (l *lexer) number() {
	start := l.i
	s := l.src
	if strings.HasPrefix(s[l.i:], "0x") || strings.HasPrefix(s[l.i:], "0b") {
		l.i += 2
	}
	for l.i < len(s) && (isIdentPart(s[l.i]) || s[l.i] == '.' && l.i+1 < len(s) && s[l.i+1] != '.') {
		if (s[l.i] == 'e' || s[l.i] == 'E') && l.i+1 < len(s) && (s[l.i+1] == '-' || s[l.i+1] == '+') {
			l.i++
		}
		l.i++
	}
	l.emit(token{kind: tNum, text: s[start:l.i], pos: start, end: l.i})
}

// word reads a bareword, which may be a quote-like operator, a
// here-document's end, or the end of the program.
func (l *lexer) word() (bool, error) {
	start := l.i
	for l.i < len(l.src) {
		if isIdentPart(l.src[l.i]) {
			l.i++
			continue
		}
		if strings.HasPrefix(l.src[l.i:], "::") {
			l.i += 2
			continue
		}
		break
	}
	w := l.src[start:l.i]
	switch w {
	case "__END__", "__DATA__":
		return true, nil
	case "q", "qq", "qw", "qx", "qr", "m", "s", "tr", "y":
		if handled, err := l.quoteLike(w, start); handled || err != nil {
			return false, err
		}
	}
	l.emit(token{kind: tIdent, text: w, pos: start, end: l.i})
	if w == "sub" {
		l.prototype()
	}
	return false, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

// prototype reads what follows sub: a name, and a prototype or signature
// in parentheses, which is not Perl code to tokenize ($$;@, $x, $y = 1).
func (l *lexer) prototype() {
	j := l.i
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t') {
		j++
	}
	k := j
	for k < len(l.src) && (isIdentPart(l.src[k]) || strings.HasPrefix(l.src[k:], "::")) {
		if l.src[k] == ':' {
			k += 2
			continue
		}
		k++
	}
	if k > j {
		l.emit(token{kind: tIdent, text: l.src[j:k], pos: j, end: k})
		l.i = k
	}
	for k < len(l.src) && (l.src[k] == ' ' || l.src[k] == '\t') {
		k++
	}
	if k >= len(l.src) || l.src[k] != '(' {
		return
	}
	end := strings.IndexByte(l.src[k:], ')')
	if end < 0 || strings.Contains(l.src[k:k+end], "\n") && strings.Count(l.src[k:k+end], "\n") > 20 {
		return
	}
	l.emit(token{kind: tOp, text: "(proto)", repl: l.src[k+1 : k+end], pos: k, end: k + end + 1})
	l.line += strings.Count(l.src[k:k+end], "\n")
	l.i = k + end + 1
}

// closing is the delimiter that closes an opening one.
func closing(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// delimited reads from the delimiter at i to the one that closes it,
// counting nested brackets and skipping escapes; it returns the text
// between and the offset past the end.
func (l *lexer) delimited(i int) (string, int, error) {
	open := l.src[i]
	cl := closing(open)
	depth := 0
	for j := i + 1; j < len(l.src); j++ {
		c := l.src[j]
		switch {
		case c == '\\':
			j++
		case c == cl && depth == 0:
			return l.src[i+1 : j], j + 1, nil
		case c == cl:
			depth--
		case c == open && cl != open:
			depth++
		}
	}
	return "", 0, &syntaxError{l.line, fmt.Sprintf("string starting with %q has no end", open)}
}

// quoteLike reads q, qq, qw, qx, m, s, tr and y with their delimiters,
// unless the word is not used as one (a hash key, a method, a sub's name).
func (l *lexer) quoteLike(w string, start int) (bool, error) {
	j, ok := l.quoteDelimiter()
	if !ok {
		return false, nil
	}
	d := l.src[j]
	l.line += strings.Count(l.src[l.i:j], "\n")
	body, end, err := l.delimited(j)
	if err != nil {
		return true, err
	}
	t := token{text: body, pos: start, line: l.line}
	switch w {
	case "q":
		t.kind, t.text = tStr, unquoteSingle(body, d)
	case "qq":
		t.kind = tInterp
	case "qw":
		t.kind = tWords
	case "qx":
		t.kind = tCmd
	case "m", "qr":
		t.kind = tMatch
	case "s", "tr", "y":
		t.kind = tSubst
		if w != "s" {
			t.kind = tTrans
		}
		if t.repl, end, err = l.replacement(w, d, end); err != nil {
			return true, err
		}
	}
	for end < len(l.src) && isIdentPart(l.src[end]) {
		t.flags += string(l.src[end])
		end++
	}
	t.end = end
	l.toks = append(l.toks, t)
	l.line += strings.Count(l.src[j:end], "\n")
	l.i = end
	return true, nil
}

// quoteDelimiter finds the delimiter after a quote-like word, or says the
// word is not used as one: before =>, a comma or a closing bracket, after
// -> or inside {word}.
func (l *lexer) quoteDelimiter() (int, bool) {
	if n := len(l.toks); n > 0 && l.toks[n-1].kind == tOp && (l.toks[n-1].text == "->" || l.toks[n-1].text == "{" && strings.HasPrefix(l.src[l.i:], "}")) {
		return 0, false
	}
	j := l.i
	for j < len(l.src) && strings.IndexByte(" \t\n\r", l.src[j]) >= 0 {
		j++
	}
	if j >= len(l.src) {
		return 0, false
	}
	d := l.src[j]
	switch {
	case isIdentPart(d), d == ';' || d == ')' || strings.HasPrefix(l.src[j:], "=>"):
		return 0, false
	case d == ',' && (j > l.i || !strings.Contains(l.src[j+1:min(len(l.src), j+200)], ",")):
		// m,^x, and qw,a b, take a comma; q, alone is a word in a list.
		return 0, false
	case j > l.i && (d == '=' || d == '#'):
		return 0, false
	}
	return j, true
}

// replacement reads the second part of s///, tr/// and y///: after the
// same delimiter, or with bracketing delimiters its own (s{…}{…}).
func (l *lexer) replacement(w string, d byte, end int) (string, int, error) {
	if closing(d) == d {
		return l.delimited(end - 1)
	}
	k := end
	for k < len(l.src) && strings.IndexByte(" \t\r\n", l.src[k]) >= 0 {
		k++
	}
	if k >= len(l.src) {
		return "", 0, &syntaxError{l.line, w + " has no replacement"}
	}
	return l.delimited(k)
}

// quoted reads a string in quotes: '…', "…" or `…`.
func (l *lexer) quoted(kind tokKind, from int, q byte, start int) error {
	body, end, err := l.delimited(from - 1)
	if err != nil {
		return err
	}
	if kind == tStr {
		body = unquoteSingle(body, q)
	}
	l.toks = append(l.toks, token{kind: kind, text: body, pos: start, end: end, line: l.line})
	l.line += strings.Count(l.src[from:end], "\n")
	l.i = end
	return nil
}

// unquoteSingle is the value of a string that does not interpolate: only
// \\ and an escaped delimiter are escapes.
func unquoteSingle(s string, d byte) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == d || s[i+1] == closing(d)) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// match reads a pattern in slashes.
func (l *lexer) match(start, from int) error {
	body, end, err := l.delimited(from)
	if err != nil {
		return err
	}
	t := token{kind: tMatch, text: body, pos: start, line: l.line}
	for end < len(l.src) && isIdentPart(l.src[end]) {
		t.flags += string(l.src[end])
		end++
	}
	t.end = end
	l.toks = append(l.toks, t)
	l.line += strings.Count(l.src[from:end], "\n")
	l.i = end
	return nil
}

// angle reads what < starts where an operand is expected: a here-document,
// a readline <FH> or <$fh>, a glob <*.c>, or else the operator.
func (l *lexer) angle() error {
	s := l.src[l.i:]
	if strings.HasPrefix(s, "<<>>") {
		l.emit(token{kind: tReadline, text: "", pos: l.i, end: l.i + 4})
		l.i += 4
		return nil
	}
	if strings.HasPrefix(s, "<<") {
		return l.heredoc()
	}
	end := strings.IndexAny(s[1:], ">\n")
	if end >= 0 && s[1+end] == '>' && !strings.ContainsAny(s[1:1+end], " \t=<") {
		l.emit(token{kind: tReadline, text: s[1 : 1+end], pos: l.i, end: l.i + end + 2})
		l.i += end + 2
		return nil
	}
	l.emit(token{kind: tOp, text: "<", pos: l.i, end: l.i + 1})
	l.i++
	return nil
}

// heredoc reads <<"TAG", <<'TAG', <<TAG or <<~TAG; the body is read when
// the line ends.
func (l *lexer) heredoc() error {
	start := l.i
	j := l.i + 2
	indent := false
	if j < len(l.src) && l.src[j] == '~' {
		indent = true
		j++
	}
	kind := tInterp
	var tag string
	switch {
	case j < len(l.src) && (l.src[j] == '"' || l.src[j] == '\'' || l.src[j] == '`'):
		q := l.src[j]
		end := strings.IndexByte(l.src[j+1:], q)
		if end < 0 {
			return &syntaxError{l.line, "here-document tag has no closing quote"}
		}
		tag = l.src[j+1 : j+1+end]
		switch q {
		case '\'':
			kind = tStr
		case '`':
			kind = tCmd
		}
		j += end + 2
	case j < len(l.src) && isIdentStart(l.src[j]):
		k := j
		for k < len(l.src) && isIdentPart(l.src[k]) {
			k++
		}
		tag = l.src[j:k]
		j = k
	default:
		l.emit(token{kind: tOp, text: "<<", pos: l.i, end: l.i + 2})
		l.i += 2
		return nil
	}
	l.heredocs = append(l.heredocs, pendingHeredoc{tok: len(l.toks), tag: tag, indent: indent})
	l.emit(token{kind: kind, pos: start, end: j})
	l.i = j
	return nil
}

// readHeredocs reads the bodies of the here-documents of the line that
// just ended.
func (l *lexer) readHeredocs() error {
	for _, h := range l.heredocs {
		var body []string
		found := false
		for l.i < len(l.src) {
			end := strings.IndexByte(l.src[l.i:], '\n')
			line := l.src[l.i:]
			next := len(l.src)
			if end >= 0 {
				line, next = l.src[l.i:l.i+end], l.i+end+1
			}
			line = strings.TrimSuffix(line, "\r")
			l.i = next
			l.line++
			if line == h.tag || h.indent && strings.TrimLeft(line, " \t") == h.tag {
				if h.indent {
					body = dedent(body, line[:len(line)-len(h.tag)])
				}
				found = true
				break
			}
			body = append(body, line)
		}
		if !found {
			return &syntaxError{l.line, fmt.Sprintf("here-document %q has no terminator", h.tag)}
		}
		text := strings.Join(body, "\n")
		if len(body) > 0 {
			text += "\n"
		}
		l.toks[h.tok].text = text
	}
	l.heredocs = l.heredocs[:0]
	return nil
}

func dedent(lines []string, indent string) []string {
	out := make([]string, len(lines))
	for i, s := range lines {
		out[i] = strings.TrimPrefix(s, indent)
	}
	return out
}

// variable reads what a sigil starts: a variable, a cast of a block or a
// reference, or a punctuation variable.
func (l *lexer) variable() {
	start := l.i
	sigil := l.src[l.i]
	j := l.i + 1
	if sigil == '$' && j < len(l.src) && l.src[j] == '#' && l.arrayEnd(start) {
		return
	}
	if j >= len(l.src) {
		l.sigilAt(tOp, start, j)
		return
	}
	c := l.src[j]
	switch {
	case isIdentStart(c) || strings.HasPrefix(l.src[j:], "::"):
		k := l.name(j)
		l.varAt(string(sigil)+l.src[j:k], start, k)
	case c == '{' && sigil != '&':
		l.braced(sigil, start, j)
	case c == '{' || c == '$' && (sigil != '$' || l.derefFollows(j+1)):
		l.sigilAt(tCast, start, j)
	default:
		l.punctuation(sigil, start, j)
	}
}

func (l *lexer) varAt(name string, start, end int) {
	l.emit(token{kind: tVar, text: name, pos: start, end: end})
	l.i = end
}

func (l *lexer) sigilAt(kind tokKind, start, end int) {
	l.emit(token{kind: kind, text: l.src[start:end], pos: start, end: end})
	l.i = end
}

// derefFollows says what follows $$ makes it a dereference ($$ref,
// $${ref}) rather than the process id.
func (l *lexer) derefFollows(i int) bool {
	return i < len(l.src) && (isIdentStart(l.src[i]) || l.src[i] == '{' || l.src[i] == '$' || l.src[i] == ':')
}

// arrayEnd reads $#array, $#{expr} and $#$ref; it says whether it did.
func (l *lexer) arrayEnd(start int) bool {
	j := start + 2
	switch {
	case j < len(l.src) && (l.src[j] == '{' || l.src[j] == '$'):
		l.emit(token{kind: tCast, text: "$#", pos: start, end: j})
		l.i = j
		return true
	case j < len(l.src) && isIdentStart(l.src[j]):
		k := l.name(j)
		l.varAt("$#"+l.src[j:k], start, k)
		return true
	}
	return false
}

// braced reads ${name} (which is $name), ${^NAME}, or else a cast of a
// block.
func (l *lexer) braced(sigil byte, start, j int) {
	if end := strings.IndexByte(l.src[j:], '}'); end > 1 {
		inner := strings.TrimSpace(l.src[j+1 : j+end])
		if strings.HasPrefix(inner, "^") && isWord(inner[1:]) || isWord(inner) && !isDigit(inner[0]) {
			l.varAt(string(sigil)+inner, start, j+end+1)
			return
		}
	}
	l.sigilAt(tCast, start, j)
}

// punctuation reads the variables named by punctuation or digits: $$,
// $<, $0, $1, $^T, @-, %+.
func (l *lexer) punctuation(sigil byte, start, j int) {
	c := l.src[j]
	switch {
	case sigil == '$' && c == '^' && j+1 < len(l.src) && (l.src[j+1] >= 'A' && l.src[j+1] <= 'Z' || l.src[j+1] == '_'):
		l.varAt("$^"+string(l.src[j+1]), start, j+2)
	case isDigit(c):
		k := j
		for k < len(l.src) && isDigit(l.src[k]) {
			k++
		}
		l.varAt(string(sigil)+l.src[j:k], start, k)
	case sigil == '$' && strings.IndexByte("$&`'+!@/\\,;.<>[]|?\"-~=:%^*0", c) >= 0:
		l.varAt("$"+string(c), start, j+1)
	case sigil == '@' && (c == '-' || c == '+'), sigil == '%' && (c == '-' || c == '+' || c == '!'):
		l.varAt(string(sigil)+string(c), start, j+1)
	default:
		l.sigilAt(tOp, start, j)
	}
}

// name reads a variable's name from i: words joined by ::.
func (l *lexer) name(i int) int {
	for i < len(l.src) {
		switch {
		case isIdentPart(l.src[i]):
			i++
		case strings.HasPrefix(l.src[i:], "::"):
			i += 2
		default:
			return i
		}
	}
	return i
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentPart(s[i]) && s[i] != ':' {
			return false
		}
	}
	return true
}
