package perl

import (
	"fmt"
	"strings"
)

// Bounds on what is parsed.
const (
	maxText   = 1 << 20
	maxTokens = 300_000
	maxDepth  = 200
)

type (
	node any
	stmt any
)

// Expressions.
type (
	numLit   struct{ v string }
	strLit   struct{ v string }
	wordsLit struct{ words []string }
	// interpStr is a string that interpolates: literal parts and the
	// expressions written in it.
	interpStr struct {
		parts []node
		line  int
	}
	varNode struct {
		name     string // with its sigil: $x, @x, %x, $#x
		pos, end int
		line     int
	}
	// elemNode is an element or a slice: $x[0] (base @x), $x{k} (base
	// %x), $r->[0] (base $r), @x[1,2].
	elemNode struct {
		base  node
		index node
		hash  bool
		slice bool // @x[…], @x{…}, @$r{…}: several elements
		line  int
	}
	castNode struct {
		sigil string
		x     node
	}
	// myNode declares variables: my $x, my ($a, @rest).
	myNode struct {
		vars []node
		list bool
	}
	callNode struct {
		name     string
		args     []node
		block    []stmt // sort, map and grep's block
		fh       node   // print's filehandle
		amp      bool   // &name: called with the caller's @_ when it has no arguments
		pos, end int
		line     int
	}
	methodNode struct {
		inv      node   // the object, or nil for a class method
		class    string // the class of a class method: File::Temp->new
		name     string
		args     []node
		pos, end int
		line     int
	}
	callRef struct {
		fn   node
		args []node
		line int
	}
	binNode struct {
		op   string
		x, y node
	}
	unNode struct {
		op string
		x  node
	}
	assignNode struct {
		op       string
		lhs, rhs node
	}
	condNode  struct{ c, a, b node }
	listNode  struct{ items []node }
	anonArray struct{ items []node }
	anonHash  struct{ items []node }
	anonSub   struct{ def *subDef }
	refNode   struct{ x node }
	matchNode struct {
		pattern *interpStr
		target  node // nil: $_
		subst   bool
		repl    node // s///'s replacement: a string, or code under /e
		trans   bool
		line    int
	}
	readlineNode struct {
		fh   node // a bareword's name as strLit, or an expression
		glob string
		pos  int
		end  int
		line int
	}
	filetestNode struct {
		op       string
		x        node
		pos, end int
		line     int
	}
	cmdNode struct {
		cmd      *interpStr
		pos, end int
		line     int
	}
	doBlock struct{ body []stmt }
	// bareword is a word that is not a function: a filehandle or a class.
	bareword struct{ name string }
)

// Statements.
type (
	exprStmt struct{ x node }
	ifStmt   struct {
		conds  []node
		bodies [][]stmt
		els    []stmt
	}
	loopStmt struct {
		init, cond, step node
		loopVar          node // foreach's variable; nil: $_
		list             node // foreach's list
		foreach          bool
		body             []stmt
	}
	blockStmt   struct{ body []stmt }
	subStmt     struct{ def *subDef }
	packageStmt struct {
		name  string
		body  []stmt
		block bool
	}
	useStmt struct {
		module  string // Foo::Bar, or "" for require of a file
		file    node   // require EXPR
		args    node
		require bool
		line    int
	}
	returnStmt struct{ x node }
)

type subDef struct {
	name   string // qualified; "" for an anonymous sub
	params []string
	body   []stmt
	// src is the text the sub is written in, which its sites are of: a
	// module's sub runs when the program calls it.
	src *source
}

type parser struct {
	toks  []token
	i     int
	depth int
	src   string
}

func parse(src string) (prog []stmt, err error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: src}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			prog, err = nil, se
		}
	}()
	for p.tok().kind != tEOF {
		prog = append(prog, p.stmt())
	}
	return prog, nil
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) isOp(text string) bool {
	t := p.tok()
	return t.kind == tOp && t.text == text
}

func (p *parser) isWord(text string) bool {
	t := p.tok()
	return t.kind == tIdent && t.text == text
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(format string, args ...any) {
	t := p.tok()
	what := fmt.Sprintf("%q", t.text)
	if t.kind == tEOF {
		what = "the end of the program"
	}
	panic(&syntaxError{t.line, fmt.Sprintf(format, args...) + ", found " + what})
}

func (p *parser) expectOp(text string) token {
	if !p.isOp(text) {
		p.fail("expected %q", text)
	}
	return p.advance()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		panic(&syntaxError{p.tok().line, fmt.Sprintf("nested deeper than %d", maxDepth)})
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) block() []stmt {
	p.enter()
	defer p.leave()
	p.expectOp("{")
	var body []stmt
	for !p.isOp("}") {
		if p.tok().kind == tEOF {
			p.fail("expected }")
		}
		body = append(body, p.stmt())
	}
	p.advance()
	return body
}

func (p *parser) stmt() stmt {
	p.enter()
	defer p.leave()
	t := p.tok()
	if t.kind == tOp {
		switch t.text {
		case ";":
			p.advance()
			return nil
		case "{":
			return blockStmt{p.block()}
		}
	}
	if t.kind == tIdent {
		// A label: LOOP: while (…)
		if n := p.peek(1); n.kind == tOp && n.text == ":" && !p.isKnownWord(t.text) {
			p.advance()
			p.advance()
			return nil
		}
		if s, ok := p.keywordStmt(t); ok {
			return s
		}
	}
	x := p.expr(0)
	s := p.modifiers(exprStmt{x})
	p.endStmt()
	return s
}

func (p *parser) isKnownWord(w string) bool {
	switch w {
	case "STDIN", "STDOUT", "STDERR", "BEGIN", "END":
		return true
	}
	return false
}

func (p *parser) endStmt() {
	switch {
	case p.isOp(";"):
		p.advance()
	case p.isOp("}") || p.tok().kind == tEOF:
	default:
		p.fail("expected ; at the end of the statement")
	}
}

// modifiers reads a statement's modifier: EXPR if COND, EXPR for LIST.
func (p *parser) modifiers(s stmt) stmt {
	t := p.tok()
	if t.kind != tIdent {
		return s
	}
	switch t.text {
	case "if", "unless":
		p.advance()
		c := p.expr(0)
		if t.text == "unless" {
			c = unNode{"!", c}
		}
		return ifStmt{conds: []node{c}, bodies: [][]stmt{{s}}}
	case "while", "until":
		p.advance()
		return loopStmt{cond: p.expr(0), body: []stmt{s}}
	case "for", "foreach":
		p.advance()
		return loopStmt{foreach: true, list: p.expr(0), body: []stmt{s}}
	}
	return s
}

func (p *parser) keywordStmt(t token) (stmt, bool) {
	switch t.text {
	case "sub":
		if n := p.peek(1); n.kind == tIdent {
			return p.subStmt(n), true
		}
	case "if", "unless":
		p.advance()
		return p.ifStmt(t.text == "unless"), true
	case "while", "until":
		p.advance()
		return p.whileStmt(), true
	case "for", "foreach":
		p.advance()
		return p.forStmt(), true
	case "package":
		p.advance()
		return p.packageStmt(), true
	case "use", "no", "require":
		return p.useStmt(), true
	case "AUTOLOAD", "DESTROY":
		if n := p.peek(1); n.kind == tOp && n.text == "{" {
			// A sub declared without sub.
			p.advance()
			return subStmt{&subDef{name: t.text, body: p.block()}}, true
		}
	case "BEGIN", "END", "INIT", "CHECK", "UNITCHECK":
		if n := p.peek(1); n.kind == tOp && n.text == "{" {
			p.advance()
			return blockStmt{p.block()}, true
		}
	case "do":
		if n := p.peek(1); n.kind == tOp && n.text == "{" {
			p.advance()
			body := p.block()
			s := p.modifiers(exprStmt{doBlock{body}})
			p.endStmt()
			return s, true
		}
	case "return", "last", "next", "redo":
		return p.jumpStmt(t), true
	case "format":
		// A format is a picture, written to a filehandle by write: not read.
		for p.tok().kind != tEOF && !(p.isOp(".") && p.peek(1).line > p.tok().line) {
			p.advance()
		}
		p.advance()
		return nil, true
	}
	return nil, false
}

func (p *parser) subStmt(name token) stmt {
	p.advance()
	p.advance()
	def := &subDef{name: name.text, params: p.signature()}
	if p.isOp(";") {
		p.advance()
		return nil
	}
	def.body = p.block()
	return subStmt{def}
}

func (p *parser) whileStmt() stmt {
	p.expectOp("(")
	var c node
	if !p.isOp(")") {
		c = p.expr(0)
	}
	p.expectOp(")")
	body := p.block()
	if p.isWord("continue") {
		p.advance()
		body = append(body, blockStmt{p.block()})
	}
	return loopStmt{cond: c, body: body}
}

func (p *parser) packageStmt() stmt {
	name := p.advance()
	s := packageStmt{name: name.text}
	if p.tok().kind == tNum {
		p.advance()
	}
	if p.isOp("{") {
		s.body, s.block = p.block(), true
		return s
	}
	p.endStmt()
	return s
}

// jumpStmt reads return EXPR, and last, next and redo with their label.
func (p *parser) jumpStmt(t token) stmt {
	p.advance()
	var s stmt
	if t.text == "return" {
		var x node
		if !p.endsExpr() {
			x = p.expr(3)
		}
		s = returnStmt{x}
	} else if p.tok().kind == tIdent && !p.isWord("if") && !p.isWord("unless") {
		p.advance()
	}
	s = p.modifiers(s)
	p.endStmt()
	return s
}

// signature reads a sub's prototype or signature: the names of the
// parameters a signature binds.
func (p *parser) signature() []string {
	if !p.isOp("(proto)") {
		return nil
	}
	proto := p.advance().repl
	var names []string
	for _, part := range strings.Split(proto, ",") {
		part = strings.TrimSpace(part)
		if name, _, _ := strings.Cut(part, "="); len(name) > 1 && (name[0] == '$' || name[0] == '@' || name[0] == '%') && isIdentStart(strings.TrimSpace(name)[1]) {
			names = append(names, strings.TrimSpace(name))
		}
	}
	return names
}

func (p *parser) ifStmt(unless bool) stmt {
	var s ifStmt
	p.expectOp("(")
	c := p.expr(0)
	p.expectOp(")")
	if unless {
		c = unNode{"!", c}
	}
	s.conds = append(s.conds, c)
	s.bodies = append(s.bodies, p.block())
	for p.isWord("elsif") {
		p.advance()
		p.expectOp("(")
		s.conds = append(s.conds, p.expr(0))
		p.expectOp(")")
		s.bodies = append(s.bodies, p.block())
	}
	if p.isWord("else") {
		p.advance()
		s.els = p.block()
	}
	return s
}

func (p *parser) forStmt() stmt {
	var s loopStmt
	switch {
	case p.isWord("my") || p.isWord("our") || p.isWord("state"):
		p.advance()
		s.loopVar = p.primary()
		s.foreach = true
	case p.tok().kind == tVar:
		s.loopVar = p.primary()
		s.foreach = true
	}
	p.expectOp("(")
	if !s.foreach {
		var init node
		if !p.isOp(";") {
			init = p.expr(0)
		}
		if p.isOp(";") {
			p.advance()
			s.init = init
			if !p.isOp(";") {
				s.cond = p.expr(0)
			}
			p.expectOp(";")
			if !p.isOp(")") {
				s.step = p.expr(0)
			}
			p.expectOp(")")
			s.body = p.block()
			return s
		}
		s.foreach, s.list = true, init
	} else if !p.isOp(")") {
		s.list = p.expr(0)
	}
	p.expectOp(")")
	s.body = p.block()
	return s
}

func (p *parser) useStmt() stmt {
	t := p.advance()
	s := useStmt{require: t.text == "require", line: t.line}
	switch n := p.tok(); {
	case n.kind == tIdent:
		p.advance()
		s.module = n.text
	case n.kind == tNum:
		// use 5.010;
		p.advance()
		p.endStmt()
		return nil
	default:
		s.file = p.expr(3)
		st := p.modifiers(s)
		p.endStmt()
		return st
	}
	if p.tok().kind == tNum {
		p.advance()
	}
	if !p.endsExpr() {
		s.args = p.expr(0)
	}
	var st stmt = s
	if t.text == "no" {
		st = nil
	}
	st = p.modifiers(st)
	p.endStmt()
	return st
}

// endsExpr says no operand follows.
func (p *parser) endsExpr() bool {
	t := p.tok()
	if t.kind == tEOF {
		return true
	}
	if t.kind == tOp {
		switch t.text {
		case ";", ")", "}", "]", ":", ",", "=>", "=", "?", "==", "!=", "<=>", ".", "..", "||", "&&", "//", "*", "x", "=~", "!~", "|", "^", ">", ">=", "<=", "+=", "-=", ".=", "||=", "//=", "&&=":
			return true
		}
	}
	if t.kind == tIdent {
		switch t.text {
		case "if", "unless", "while", "until", "for", "foreach", "and", "or", "xor", "x", "eq", "ne", "lt", "gt", "le", "ge", "cmp":
			return true
		}
	}
	return false
}

// Binding powers, loosest first, as perlop lists the operators.
func infixPower(t token) (int, bool) {
	switch t.kind {
	case tIdent:
		switch t.text {
		case "or", "xor":
			return 1, true
		case "and":
			return 2, true
		case "eq", "ne", "cmp":
			return 13, true
		case "lt", "gt", "le", "ge":
			return 14, true
		case "x":
			return 18, true
		}
		return 0, false
	case tOp:
	default:
		return 0, false
	}
	switch t.text {
	case ",", "=>":
		return 5, true
	case "=", "+=", "-=", "*=", "/=", ".=", "%=", "x=", "**=", "||=", "&&=", "//=", "|=", "&=", "^=", "<<=", ">>=":
		return 6, true
	case "?":
		return 7, true
	case "..", "...":
		return 8, true
	case "||", "//":
		return 9, true
	case "&&":
		return 10, true
	case "|", "^":
		return 11, true
	case "&":
		return 12, true
	case "==", "!=", "<=>":
		return 13, true
	case "<", ">", "<=", ">=":
		return 14, true
	case "<<", ">>":
		return 16, true
	case "+", "-", ".":
		return 17, true
	case "*", "/", "%":
		return 18, true
	case "=~", "!~":
		return 19, true
	case "**":
		return 21, true
	case "++", "--":
		return 22, true
	case "->":
		return 23, true
	}
	return 0, false
}

func (p *parser) expr(min int) node {
	p.enter()
	defer p.leave()
	x := p.prefix()
	for {
		t := p.tok()
		bp, ok := infixPower(t)
		if !ok || bp <= min {
			return x
		}
		x = p.infix(x, t, bp)
	}
}

func (p *parser) infix(x node, t token, bp int) node {
	p.advance()
	switch {
	case t.text == "," || t.text == "=>":
		items := flatten(x)
		if p.endsList() {
			return listNode{items}
		}
		return listNode{append(items, flatten(p.expr(bp))...)}
	case bp == 6:
		return assignNode{t.text, x, p.expr(bp - 1)}
	case t.text == "?":
		a := p.expr(5)
		p.expectOp(":")
		return condNode{x, a, p.expr(6)}
	case t.text == "**":
		return binNode{t.text, x, p.expr(bp - 1)}
	case t.text == "++" || t.text == "--":
		return unNode{"post" + t.text, x}
	case t.text == "->":
		return p.arrow(x)
	case t.text == "=~" || t.text == "!~":
		y := p.expr(bp)
		if m, ok := y.(matchNode); ok {
			m.target = x
			return m
		}
		return binNode{t.text, x, y}
	}
	return binNode{t.text, x, p.expr(bp)}
}

// endsList says a list ends after a trailing comma.
func (p *parser) endsList() bool {
	t := p.tok()
	return t.kind == tEOF || t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}" || t.text == ";")
}

func flatten(x node) []node {
	if l, ok := x.(listNode); ok {
		return l.items
	}
	return []node{x}
}

// arrow reads what follows ->: a subscript, a call of a code reference,
// or a method.
func (p *parser) arrow(x node) node {
	t := p.tok()
	switch {
	case t.kind == tOp && t.text == "[":
		p.advance()
		idx := p.expr(0)
		p.expectOp("]")
		return p.subscripts(elemNode{base: x, index: idx, line: t.line})
	case t.kind == tOp && t.text == "{":
		return p.subscripts(elemNode{base: x, index: p.hashKey(), hash: true, line: t.line})
	case t.kind == tOp && t.text == "(":
		p.advance()
		return p.subscripts(callRef{fn: x, args: p.args(), line: t.line})
	case t.kind == tCast && t.text == "@" || t.kind == tOp && t.text == "@":
		// ->@*
		p.advance()
		if p.isOp("*") {
			p.advance()
		}
		return castNode{"@", x}
	case t.kind == tIdent || t.kind == tVar:
		p.advance()
		m := methodNode{inv: x, name: t.text, pos: t.pos, line: t.line}
		if b, ok := x.(bareword); ok {
			m.inv, m.class = nil, b.name
		}
		if p.isOp("(") {
			p.advance()
			m.args = p.args()
		}
		m.end = p.toks[p.i-1].end
		return p.subscripts(m)
	}
	p.fail("expected a subscript, a method or arguments after ->")
	return nil
}

// args reads arguments up to the closing parenthesis, which it consumes.
func (p *parser) args() []node {
	if p.isOp(")") {
		p.advance()
		return nil
	}
	x := p.expr(0)
	p.expectOp(")")
	return flatten(x)
}

// hashKey reads {KEY}: a bareword is a string.
func (p *parser) hashKey() node {
	p.expectOp("{")
	var k node
	if t := p.tok(); (t.kind == tIdent || t.kind == tNum) && p.peek(1).kind == tOp && p.peek(1).text == "}" {
		p.advance()
		k = strLit{t.text}
	} else if t.kind == tOp && t.text == "-" && p.peek(1).kind == tIdent && p.peek(2).text == "}" {
		p.advance()
		k = strLit{"-" + p.advance().text}
	} else {
		k = p.expr(0)
	}
	p.expectOp("}")
	return k
}

// subscripts reads the subscripts that follow one without an arrow:
// $x{a}{b}[0].
func (p *parser) subscripts(x node) node {
	for {
		t := p.tok()
		switch {
		case t.kind == tOp && t.text == "[":
			p.advance()
			idx := p.expr(0)
			p.expectOp("]")
			x = elemNode{base: x, index: idx, line: t.line}
		case t.kind == tOp && t.text == "{":
			x = elemNode{base: x, index: p.hashKey(), hash: true, line: t.line}
		case t.kind == tOp && t.text == "(":
			if _, ok := x.(elemNode); !ok {
				return x
			}
			p.advance()
			x = callRef{fn: x, args: p.args(), line: t.line}
		default:
			return x
		}
	}
}

func (p *parser) prefix() node {
	t := p.tok()
	if t.kind == tOp {
		switch t.text {
		case "!", "~", "-", "+":
			p.advance()
			return unNode{t.text, p.expr(20)}
		case "\\":
			p.advance()
			return refNode{p.expr(20)}
		case "++", "--":
			p.advance()
			return unNode{t.text, p.expr(21)}
		}
	}
	if t.kind == tIdent && t.text == "not" {
		p.advance()
		return unNode{"!", p.expr(3)}
	}
	return p.primary()
}
