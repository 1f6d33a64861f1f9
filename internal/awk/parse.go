package awk

import (
	"fmt"
)

// Bounds on what is parsed: a program past them is not followed, and the
// reader says so.
const (
	maxText   = 1 << 20
	maxTokens = 200_000
	maxDepth  = 200
)

type (
	expr any
	stmt any
)

type (
	numLit   struct{ v string }
	strLit   struct{ v string }
	regexLit struct{ v string }
	varRef   struct{ name string }
	indexRef struct {
		name     string
		index    []expr
		pos, end int
		line     int
	}
	fieldRef struct{ index expr }
	assign   struct {
		target expr
		op     string
		value  expr
	}
	unary struct {
		op string
		x  expr
	}
	binary struct {
		op   string // " " concatenates
		x, y expr
	}
	cond   struct{ c, a, b expr }
	inExpr struct {
		index []expr
		array string
	}
	incr  struct{ x expr }
	group struct{ list []expr }
	call  struct {
		name     string
		builtin  bool
		args     []expr
		pos, end int
		line     int
	}
	// getline is `cmd | getline [target]` or `getline [target] [< file]`.
	getline struct {
		cmd, target, file expr
		line              int
	}
)

type (
	printStmt struct {
		printf bool
		args   []expr
		redir  string // ">", ">>", "|" or ""
		dest   expr
		line   int
	}
	exprStmt struct{ x expr }
	ifStmt   struct {
		cond      expr
		then, els []stmt
	}
	loopStmt struct {
		init, post stmt
		cond       expr
		body       []stmt
	}
	forInStmt struct {
		v     expr
		array string
		body  []stmt
	}
	blockStmt struct{ body []stmt }
	// switchStmt is gawk's switch: each case's statements may run.
	switchStmt struct {
		disc   expr
		tests  []expr
		bodies [][]stmt
	}
	returnStmt struct{ x expr }
	exitStmt   struct{ x expr }
	jumpStmt   struct{} // next, nextfile, break, continue
	deleteStmt struct {
		name  string
		index []expr
	}
)

type item struct {
	begin, end bool // BEGIN, END (BEGINFILE and ENDFILE run with the records)
	directive  string
	patterns   []expr
	body       []stmt // nil: print $0
}

type function struct {
	name   string
	params []string
	body   []stmt
}

type program struct {
	items []item
	funcs map[string]*function
}

type parser struct {
	toks  []token
	i     int
	depth int
	// noGreater and noIn are set while parsing print's arguments (where >
	// redirects) and a for's initialiser (where in starts for-in).
	noGreater, noIn bool
}

func parse(src string) (prog *program, err error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			prog, err = nil, se
		}
	}()
	return p.program(), nil
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.kind == tPunct || t.kind == tName) && t.text == text
}

func (p *parser) fail(format string, args ...any) {
	t := p.tok()
	what := t.text
	switch t.kind {
	case tEOF:
		what = "end of program"
	case tNewline:
		what = "newline"
	}
	panic(&syntaxError{t.line, fmt.Sprintf(format, args...) + ", found " + fmt.Sprintf("%q", what)})
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) expect(text string) token {
	if !p.is(text) {
		p.fail("expected %q", text)
	}
	return p.advance()
}

func (p *parser) newlines() {
	for p.tok().kind == tNewline {
		p.advance()
	}
}

func (p *parser) optNewlines() {
	for p.tok().kind == tNewline || p.is(";") {
		p.advance()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		panic(&syntaxError{p.tok().line, fmt.Sprintf("nested deeper than %d", maxDepth)})
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) program() *program {
	prog := &program{funcs: map[string]*function{}}
	p.optNewlines()
	for p.tok().kind != tEOF {
		switch {
		case p.tok().kind == tDirective:
			prog.items = append(prog.items, item{directive: p.advance().text})
		case p.is("function") || p.is("func"):
			f := p.function()
			prog.funcs[f.name] = f
		case p.is("BEGIN") || p.is("END"):
			begin := p.advance().text == "BEGIN"
			prog.items = append(prog.items, item{begin: begin, end: !begin, body: p.block()})
		case p.is("BEGINFILE") || p.is("ENDFILE"):
			p.advance()
			prog.items = append(prog.items, item{body: p.block()})
		default:
			var it item
			if !p.is("{") {
				it.patterns = append(it.patterns, p.expr())
				if p.is(",") {
					p.advance()
					p.newlines()
					it.patterns = append(it.patterns, p.expr())
				}
			}
			if p.is("{") {
				it.body = p.block()
			}
			prog.items = append(prog.items, it)
		}
		p.optNewlines()
	}
	return prog
}

func (p *parser) function() *function {
	p.advance()
	t := p.advance()
	if t.kind != tName && t.kind != tFuncName {
		p.i--
		p.fail("expected a function name")
	}
	f := &function{name: t.text}
	p.expect("(")
	for !p.is(")") {
		n := p.advance()
		if n.kind != tName {
			p.i--
			p.fail("expected a parameter name")
		}
		f.params = append(f.params, n.text)
		if p.is(",") {
			p.advance()
			p.newlines()
		} else if !p.is(")") {
			p.fail("expected , or )")
		}
	}
	p.advance()
	p.newlines()
	f.body = p.block()
	return f
}

func (p *parser) block() []stmt {
	p.enter()
	defer p.leave()
	p.expect("{")
	var body []stmt
	p.optNewlines()
	for !p.is("}") {
		if p.tok().kind == tEOF {
			p.fail("expected }")
		}
		body = append(body, p.stmt())
		p.optNewlines()
	}
	p.advance()
	return body
}

// end ends a simple statement: a ; or newline, or the } or end that follow.
func (p *parser) end() {
	switch {
	case p.is(";") || p.tok().kind == tNewline:
		p.advance()
	case p.is("}") || p.tok().kind == tEOF:
	default:
		p.fail("expected the end of the statement")
	}
}

// body is the statement a control statement governs.
func (p *parser) body() []stmt {
	p.newlines()
	if p.is(";") {
		p.advance()
		return nil
	}
	return []stmt{p.stmt()}
}

func (p *parser) stmt() stmt {
	p.enter()
	defer p.leave()
	switch {
	case p.is("{"):
		return blockStmt{p.block()}
	case p.is("if"):
		p.advance()
		p.expect("(")
		c := p.expr()
		p.expect(")")
		s := ifStmt{cond: c, then: p.body()}
		save := p.i
		p.optNewlines()
		if p.is("else") {
			p.advance()
			s.els = p.body()
		} else {
			p.i = save
		}
		return s
	case p.is("while"):
		p.advance()
		p.expect("(")
		c := p.expr()
		p.expect(")")
		if p.is(";") {
			p.advance()
			return loopStmt{cond: c}
		}
		return loopStmt{cond: c, body: p.body()}
	case p.is("do"):
		p.advance()
		body := p.body()
		p.optNewlines()
		p.expect("while")
		p.expect("(")
		c := p.expr()
		p.expect(")")
		p.end()
		return loopStmt{cond: c, body: body}
	case p.is("for"):
		return p.forStmt()
	case p.is("switch"):
		return p.switchStmt()
	}
	s := p.simple()
	p.end()
	return s
}

func (p *parser) switchStmt() stmt {
	p.advance()
	p.expect("(")
	s := switchStmt{disc: p.expr()}
	p.expect(")")
	p.newlines()
	p.expect("{")
	p.optNewlines()
	for !p.is("}") {
		var test expr
		switch {
		case p.is("case"):
			p.advance()
			test = p.primary()
		case p.is("default"):
			p.advance()
		default:
			p.fail("expected case or default")
		}
		p.expect(":")
		p.optNewlines()
		var body []stmt
		for !p.is("case") && !p.is("default") && !p.is("}") {
			if p.tok().kind == tEOF {
				p.fail("expected }")
			}
			body = append(body, p.stmt())
			p.optNewlines()
		}
		s.tests = append(s.tests, test)
		s.bodies = append(s.bodies, body)
	}
	p.advance()
	return s
}

func (p *parser) forStmt() stmt {
	p.advance()
	p.expect("(")
	// for (k in a)
	if t := p.tok(); t.kind == tName && p.toks[p.i+1].text == "in" && p.toks[p.i+1].kind == tName {
		save := p.i
		p.advance()
		p.advance()
		if a := p.tok(); a.kind == tName && p.toks[p.i+1].text == ")" {
			p.advance()
			p.advance()
			return forInStmt{v: varRef{t.text}, array: a.text, body: p.body()}
		}
		if a := p.tok(); a.kind == tName && p.toks[p.i+1].text == "[" {
			// gawk's arrays of arrays: for (k in a[i]) lists a's.
			p.advance()
			p.advance()
			p.exprList("]")
			if p.is(")") {
				p.advance()
				return forInStmt{v: varRef{t.text}, array: a.text, body: p.body()}
			}
		}
		p.i = save
	}
	var s loopStmt
	if !p.is(";") {
		s.init = p.simple()
	}
	p.expect(";")
	p.newlines()
	if !p.is(";") {
		s.cond = p.expr()
	}
	p.expect(";")
	p.newlines()
	if !p.is(")") {
		s.post = p.simple()
	}
	p.expect(")")
	if p.is(";") {
		p.advance()
		return s
	}
	s.body = p.body()
	return s
}

func (p *parser) simple() stmt {
	t := p.tok()
	switch {
	case p.is("print") || p.is("printf"):
		return p.print()
	case p.is("next") || p.is("nextfile") || p.is("break") || p.is("continue"):
		p.advance()
		return jumpStmt{}
	case p.is("exit") || p.is("return"):
		p.advance()
		var x expr
		if !p.is(";") && !p.is("}") && p.tok().kind != tNewline && p.tok().kind != tEOF {
			x = p.expr()
		}
		if t.text == "exit" {
			return exitStmt{x}
		}
		return returnStmt{x}
	case p.is("delete"):
		p.advance()
		n := p.advance()
		if n.kind != tName {
			p.i--
			p.fail("expected an array name")
		}
		d := deleteStmt{name: n.text}
		if p.is("[") {
			p.advance()
			d.index = p.exprList("]")
		}
		return d
	}
	return exprStmt{p.expr()}
}

func (p *parser) print() stmt {
	t := p.advance()
	s := printStmt{printf: t.text == "printf", line: t.line}
	if !p.endsPrint() {
		old := p.noGreater
		p.noGreater = true
		s.args = p.exprListUntil()
		p.noGreater = old
		if len(s.args) == 1 {
			if g, ok := s.args[0].(group); ok {
				s.args = g.list
			}
		}
	}
	if p.is(">") || p.is(">>") || p.is("|") || p.is("|&") {
		s.redir = p.advance().text
		if s.redir == "|&" {
			s.redir = "|" // gawk's coprocess: what it prints comes back
		}
		old := p.noGreater
		p.noGreater = true
		s.dest = p.concat()
		p.noGreater = old
	}
	return s
}

func (p *parser) endsPrint() bool {
	k := p.tok().kind
	return k == tNewline || k == tEOF || p.is(";") || p.is("}") || p.is(">") || p.is(">>") || p.is("|") || p.is("|&")
}

// exprListUntil reads expressions separated by commas up to what does not
// continue them.
func (p *parser) exprListUntil() []expr {
	list := []expr{p.expr()}
	for p.is(",") {
		p.advance()
		p.newlines()
		list = append(list, p.expr())
	}
	return list
}

func (p *parser) exprList(closing string) []expr {
	var list []expr
	p.newlines()
	for !p.is(closing) {
		list = append(list, p.expr())
		p.newlines()
		if p.is(",") {
			p.advance()
			p.newlines()
		} else if !p.is(closing) {
			p.fail("expected , or %s", closing)
		}
	}
	p.advance()
	return list
}

func (p *parser) expr() expr {
	p.enter()
	defer p.leave()
	x := p.ternary()
	if t := p.tok(); t.kind == tPunct && isAssignOp(t.text) && isLvalue(x) {
		op := p.advance().text
		p.newlines()
		return assign{target: x, op: op, value: p.expr()}
	}
	return x
}

func isAssignOp(s string) bool {
	switch s {
	case "=", "+=", "-=", "*=", "/=", "%=", "^=", "**=":
		return true
	}
	return false
}

func isLvalue(x expr) bool {
	switch x.(type) {
	case varRef, indexRef, fieldRef:
		return true
	}
	return false
}

func (p *parser) ternary() expr {
	c := p.or()
	if !p.is("?") {
		return c
	}
	p.advance()
	p.newlines()
	a := p.expr()
	p.newlines()
	p.expect(":")
	p.newlines()
	return cond{c, a, p.expr()}
}

func (p *parser) or() expr {
	x := p.and()
	for p.is("||") {
		p.advance()
		p.newlines()
		x = binary{"||", x, p.and()}
	}
	return x
}

func (p *parser) and() expr {
	x := p.in()
	for p.is("&&") {
		p.advance()
		p.newlines()
		x = binary{"&&", x, p.in()}
	}
	return x
}

func (p *parser) in() expr {
	x := p.match()
	for p.is("in") && !p.noIn {
		p.advance()
		a := p.advance()
		if a.kind != tName {
			p.i--
			p.fail("expected an array name")
		}
		x = inExpr{index: []expr{x}, array: a.text}
	}
	return x
}

func (p *parser) match() expr {
	x := p.compare()
	for p.is("~") || p.is("!~") {
		op := p.advance().text
		x = binary{op, x, p.compare()}
	}
	return x
}

func (p *parser) compare() expr {
	x := p.pipeGetline()
	t := p.tok()
	if t.kind == tPunct {
		switch t.text {
		case "<", "<=", "!=", "==", ">=":
		case ">":
			if p.noGreater {
				return x
			}
		default:
			return x
		}
		p.advance()
		return binary{t.text, x, p.pipeGetline()}
	}
	return x
}

// pipeGetline is `cmd | getline [var]`, which binds looser than
// concatenation: "date " x | getline runs the whole string.
func (p *parser) pipeGetline() expr {
	x := p.concat()
	for (p.is("|") || p.is("|&")) && p.toks[p.i+1].kind == tName && p.toks[p.i+1].text == "getline" {
		p.advance()
		t := p.advance()
		g := getline{cmd: x, line: t.line}
		if p.startsLvalue() {
			g.target = p.primary()
		}
		x = g
	}
	return x
}

func (p *parser) startsLvalue() bool {
	t := p.tok()
	return t.kind == tName && !keywords[t.text] || p.is("$")
}

func (p *parser) concat() expr {
	x := p.additive()
	for p.startsConcat() {
		x = binary{" ", x, p.additive()}
	}
	return x
}

func (p *parser) startsConcat() bool {
	t := p.tok()
	switch t.kind {
	case tNumber, tString, tRegex, tFuncName, tBuiltin:
		return true
	case tName:
		return !keywords[t.text] || t.text == "getline"
	case tPunct:
		// Not - or !, which would make a - b a concatenation.
		return t.text == "$" || t.text == "("
	}
	return false
}

func (p *parser) additive() expr {
	x := p.mul()
	for p.is("+") || p.is("-") {
		op := p.advance().text
		x = binary{op, x, p.mul()}
	}
	return x
}

func (p *parser) mul() expr {
	x := p.unary()
	for p.is("*") || p.is("/") || p.is("%") {
		op := p.advance().text
		x = binary{op, x, p.unary()}
	}
	return x
}

func (p *parser) unary() expr {
	p.enter()
	defer p.leave()
	if p.is("!") || p.is("-") || p.is("+") {
		op := p.advance().text
		return unary{op, p.unary()}
	}
	return p.pow()
}

func (p *parser) pow() expr {
	x := p.postfix()
	if p.is("^") || p.is("**") {
		p.advance()
		return binary{"^", x, p.unary()}
	}
	return x
}

func (p *parser) postfix() expr {
	x := p.primary()
	if (p.is("++") || p.is("--")) && isLvalue(x) {
		p.advance()
		return incr{x}
	}
	return x
}

func (p *parser) primary() expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.advance()
		return numLit{t.text}
	case tString:
		p.advance()
		return strLit{t.text}
	case tRegex:
		p.advance()
		return regexLit{t.text}
	case tFuncName:
		p.advance()
		p.expect("(")
		args := p.exprList(")")
		return call{name: t.text, args: args, pos: t.pos, end: p.toks[p.i-1].end, line: t.line}
	case tBuiltin:
		p.advance()
		c := call{name: t.text, builtin: true, pos: t.pos, end: t.end, line: t.line}
		if p.is("(") {
			p.advance()
			c.args = p.exprList(")")
			c.end = p.toks[p.i-1].end
		}
		return c
	case tName:
		return p.name(t)
	}
	switch {
	case p.is("("):
		p.advance()
		oldG, oldI := p.noGreater, p.noIn
		p.noGreater, p.noIn = false, false
		list := p.exprList(")")
		p.noGreater, p.noIn = oldG, oldI
		if len(list) == 0 {
			p.i--
			p.fail("expected an expression")
		}
		if len(list) > 1 {
			if p.is("in") {
				p.advance()
				a := p.advance()
				if a.kind != tName {
					p.i--
					p.fail("expected an array name")
				}
				return inExpr{index: list, array: a.text}
			}
			return group{list}
		}
		return list[0]
	case p.is("$"):
		p.advance()
		// $ binds tighter than ++: $i++ is ($i)++.
		return fieldRef{p.primary()}
	case p.is("++") || p.is("--"):
		p.advance()
		x := p.primary()
		if !isLvalue(x) {
			p.fail("expected a variable after ++ or --")
		}
		return incr{x}
	case p.is("-") || p.is("+") || p.is("!"):
		op := p.advance().text
		return unary{op, p.primary()}
	}
	p.fail("expected an expression")
	return nil
}

func (p *parser) name(t token) expr {
	if t.text == "getline" {
		p.advance()
		g := getline{line: t.line}
		if p.startsLvalue() {
			g.target = p.primary()
		}
		if p.is("<") {
			p.advance()
			g.file = p.primary()
		}
		return g
	}
	if keywords[t.text] {
		p.fail("expected an expression")
	}
	p.advance()
	if p.is("[") {
		p.advance()
		idx := p.exprList("]")
		for p.is("[") {
			// gawk's arrays of arrays, followed as one array.
			p.advance()
			idx = append(idx, p.exprList("]")...)
		}
		return indexRef{name: t.text, index: idx, pos: t.pos, end: p.toks[p.i-1].end, line: t.line}
	}
	return varRef{t.text}
}
