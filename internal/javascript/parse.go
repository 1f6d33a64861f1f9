package javascript

import (
	"fmt"
)

// Bounds on what is parsed.
const (
	maxText   = 1 << 20
	maxTokens = 300_000
	maxDepth  = 200
)

type (
	expr any
	stmt any
)

// Expressions.
type (
	ident struct {
		name     string
		pos, end int
		line     int
	}
	numLit    struct{ v string }
	strLit    struct{ v string }
	regexLit  struct{}
	tmplLit   struct{ parts []expr }
	arrayLit  struct{ items []expr }
	objectLit struct {
		props []prop
	}
	prop struct {
		key      string
		computed expr
		value    expr
		spread   bool
	}
	funcLit  struct{ def *funcDef }
	classLit struct{ def *classDef }
	member   struct {
		obj      expr
		name     string
		computed expr
		pos, end int
		line     int
	}
	call struct {
		fn       expr
		args     []expr
		isNew    bool
		pos, end int
		line     int
	}
	unary struct {
		op string
		x  expr
	}
	update struct{ x expr }
	binary struct {
		op   string
		x, y expr
	}
	assign struct {
		op            string
		target, value expr
	}
	condExpr struct{ c, a, b expr }
	seq      struct{ items []expr }
	spread   struct{ x expr }
	thisExpr struct{}
)

// Statements.
type (
	varDecl struct {
		decls []declarator
	}
	declarator struct {
		target expr
		init   expr
	}
	funcDecl  struct{ def *funcDef }
	classDecl struct{ def *classDef }
	exprStmt  struct{ x expr }
	ifStmt    struct {
		cond      expr
		then, els stmt
	}
	loopStmt struct {
		init       stmt
		cond, step expr
		body       stmt
		// for (TARGET of/in ITER)
		target expr
		iter   expr
		in     bool
	}
	blockStmt  struct{ body []stmt }
	returnStmt struct{ x expr }
	tryStmt    struct {
		body, catch, finally []stmt
		param                expr
	}
	switchStmt struct {
		disc  expr
		cases [][]stmt
		tests []expr
	}
	importDecl struct {
		module    string
		def, ns   string
		named     map[string]string // local name → exported name
		namedKeys []string
		line      int
	}
)

type funcDef struct {
	name     string
	params   []expr
	body     []stmt
	exprBody expr
	arrow    bool
	// src is the text the function is written in.
	src *source
}

type classDef struct {
	name    string
	super   expr
	methods map[string]*funcDef
	fields  []prop
}

type parser struct {
	toks  []token
	i     int
	depth int
	src   string
	noIn  bool
}

func parse(src string, line, depth int) (prog []stmt, err error) {
	toks, err := lex(src, line, depth)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: src, depth: depth}
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

func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.kind == tPunct || t.kind == tName) && t.text == text
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

func (p *parser) expect(text string) token {
	if !p.is(text) {
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

// semicolon ends a statement: a ;, or a line's end, a } or the end
// before the next token (automatic semicolon insertion).
func (p *parser) semicolon() {
	switch {
	case p.is(";"):
		p.advance()
	case p.tok().nl || p.is("}") || p.tok().kind == tEOF:
	default:
		p.fail("expected ;")
	}
}

func (p *parser) block() []stmt {
	p.enter()
	defer p.leave()
	p.expect("{")
	var body []stmt
	for !p.is("}") {
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
	if t.kind == tPunct {
		switch t.text {
		case ";":
			p.advance()
			return nil
		case "{":
			return blockStmt{p.block()}
		}
	}
	if t.kind == tName {
		if n := p.peek(1); n.kind == tPunct && n.text == ":" && !isKeyword(t.text) {
			p.advance()
			p.advance()
			return p.stmt()
		}
		if s, ok := p.keywordStmt(t); ok {
			return s
		}
	}
	x := p.expr()
	p.semicolon()
	return exprStmt{x}
}

func isKeyword(s string) bool {
	switch s {
	case "var", "let", "const", "function", "class", "if", "else", "for", "while", "do", "return",
		"throw", "try", "catch", "finally", "switch", "case", "default", "break", "continue", "new",
		"delete", "typeof", "void", "in", "of", "instanceof", "import", "export", "this", "async",
		"await", "yield", "static", "get", "set", "extends", "super":
		return true
	}
	return false
}

func (p *parser) keywordStmt(t token) (stmt, bool) {
	switch t.text {
	case "var", "let", "const":
		if t.text == "let" && !(p.peek(1).kind == tName || p.peek(1).text == "[" || p.peek(1).text == "{") {
			return nil, false
		}
		p.advance()
		d := p.declarations()
		p.semicolon()
		return d, true
	case "function":
		p.advance()
		return funcDecl{p.function(false)}, true
	case "async":
		if n := p.peek(1); n.kind == tName && n.text == "function" && !n.nl {
			p.advance()
			p.advance()
			return funcDecl{p.function(false)}, true
		}
	case "class":
		p.advance()
		return classDecl{p.class()}, true
	case "if", "for", "while", "do", "switch", "try":
		return p.control(t), true
	case "return", "throw", "break", "continue":
		return p.jump(t), true
	case "import":
		if n := p.peek(1); n.kind == tPunct && (n.text == "(" || n.text == ".") {
			return nil, false
		}
		p.advance()
		return p.importDecl(t.line), true
	case "export":
		p.advance()
		return p.export(), true
	}
	return nil, false
}

// control reads if, for, while, do, switch and try.
func (p *parser) control(t token) stmt {
	p.advance()
	switch t.text {
	case "if":
		p.expect("(")
		c := p.expr()
		p.expect(")")
		s := ifStmt{cond: c, then: p.stmt()}
		if p.is("else") {
			p.advance()
			s.els = p.stmt()
		}
		return s
	case "for":
		return p.forStmt()
	case "while":
		p.expect("(")
		c := p.expr()
		p.expect(")")
		return loopStmt{cond: c, body: p.stmt()}
	case "do":
		body := p.stmt()
		p.expect("while")
		p.expect("(")
		c := p.expr()
		p.expect(")")
		if p.is(";") {
			p.advance()
		}
		return loopStmt{cond: c, body: body}
	case "switch":
		return p.switchStmt()
	}
	return p.tryStmt()
}

func (p *parser) tryStmt() stmt {
	s := tryStmt{body: p.block()}
	if p.is("catch") {
		p.advance()
		if p.is("(") {
			p.advance()
			s.param = p.binding()
			p.expect(")")
		}
		s.catch = p.block()
	}
	if p.is("finally") {
		p.advance()
		s.finally = p.block()
	}
	return s
}

// jump reads return and throw with their value, break and continue with
// their label.
func (p *parser) jump(t token) stmt {
	p.advance()
	if t.text == "break" || t.text == "continue" {
		if p.tok().kind == tName && !p.tok().nl {
			p.advance()
		}
		p.semicolon()
		return nil
	}
	var x expr
	if !p.tok().nl && !p.is(";") && !p.is("}") && p.tok().kind != tEOF {
		x = p.expr()
	}
	p.semicolon()
	if t.text == "throw" {
		return exprStmt{x}
	}
	return returnStmt{x}
}

// export reads what export declares; a list it exports is nothing to
// run.
func (p *parser) export() stmt {
	if p.is("default") {
		p.advance()
	}
	if !p.is("{") && !p.is("*") {
		return p.stmt()
	}
	// export { a, b } [from 'm']; export * [as ns] from 'm'
	if p.is("{") {
		end := p.matching(p.i)
		if end < 0 {
			p.fail("expected }")
		}
		p.i = end + 1
	}
	for !p.is(";") && !p.tok().nl && p.tok().kind != tEOF && p.tok().kind != tStr {
		p.advance()
	}
	if p.tok().kind == tStr {
		p.advance()
	}
	p.semicolon()
	return nil
}

func (p *parser) declarations() varDecl {
	var d varDecl
	for {
		dc := declarator{target: p.binding()}
		if p.is("=") {
			p.advance()
			dc.init = p.assignExpr()
		}
		d.decls = append(d.decls, dc)
		if !p.is(",") {
			return d
		}
		p.advance()
	}
}

// binding reads what a declaration binds: a name, or an object or array
// pattern.
func (p *parser) binding() expr {
	t := p.tok()
	switch {
	case t.kind == tName:
		p.advance()
		return ident{name: t.text, pos: t.pos, end: t.end, line: t.line}
	case p.is("{") || p.is("["):
		return p.primary()
	}
	p.fail("expected a name or a pattern")
	return nil
}

func (p *parser) forStmt() stmt {
	if p.is("await") {
		p.advance()
	}
	p.expect("(")
	var s loopStmt
	var init stmt
	p.noIn = true
	switch {
	case p.is(";"):
	case p.is("var") || p.is("let") || p.is("const"):
		p.advance()
		init = p.declarations()
	default:
		init = exprStmt{p.expr()}
	}
	p.noIn = false
	if p.is("of") || p.is("in") {
		s.in = p.advance().text == "in"
		switch d := init.(type) {
		case varDecl:
			if len(d.decls) > 0 {
				s.target = d.decls[0].target
			}
		case exprStmt:
			s.target = d.x
		}
		s.iter = p.expr()
		p.expect(")")
		s.body = p.stmt()
		return s
	}
	s.init = init
	p.expect(";")
	if !p.is(";") {
		s.cond = p.expr()
	}
	p.expect(";")
	if !p.is(")") {
		s.step = p.expr()
	}
	p.expect(")")
	s.body = p.stmt()
	return s
}

func (p *parser) switchStmt() stmt {
	p.expect("(")
	s := switchStmt{disc: p.expr()}
	p.expect(")")
	p.expect("{")
	for !p.is("}") {
		var test expr
		switch {
		case p.is("case"):
			p.advance()
			test = p.expr()
		case p.is("default"):
			p.advance()
		default:
			p.fail("expected case or default")
		}
		p.expect(":")
		var body []stmt
		for !p.is("case") && !p.is("default") && !p.is("}") {
			if p.tok().kind == tEOF {
				p.fail("expected }")
			}
			body = append(body, p.stmt())
		}
		s.tests = append(s.tests, test)
		s.cases = append(s.cases, body)
	}
	p.advance()
	return s
}

func (p *parser) importDecl(line int) stmt {
	d := importDecl{named: map[string]string{}, line: line}
	if p.tok().kind == tStr {
		d.module = p.advance().text
		p.semicolon()
		return d
	}
	for !p.is("from") {
		switch t := p.tok(); {
		case t.kind == tName:
			p.advance()
			d.def = t.text
		case p.is("*"):
			p.advance()
			p.expect("as")
			d.ns = p.advance().text
		case p.is("{"):
			p.advance()
			for !p.is("}") {
				name := p.advance().text
				local := name
				if p.is("as") {
					p.advance()
					local = p.advance().text
				}
				d.named[local] = name
				d.namedKeys = append(d.namedKeys, local)
				if p.is(",") {
					p.advance()
				} else if !p.is("}") {
					p.fail("expected , or }")
				}
			}
			p.advance()
		case p.is(","):
			p.advance()
		default:
			p.fail("expected what to import")
		}
	}
	p.advance()
	if p.tok().kind != tStr {
		p.fail("expected the module's name")
	}
	d.module = p.advance().text
	p.semicolon()
	return d
}

// function reads a function's name, parameters and body.
func (p *parser) function(expression bool) *funcDef {
	if p.is("*") {
		p.advance()
	}
	def := &funcDef{}
	if t := p.tok(); t.kind == tName {
		p.advance()
		def.name = t.text
	} else if !expression {
		p.fail("expected the function's name")
	}
	def.params = p.params()
	def.body = p.block()
	return def
}

func (p *parser) params() []expr {
	p.expect("(")
	var params []expr
	for !p.is(")") {
		if p.is("...") {
			p.advance()
			params = append(params, spread{p.assignExpr()})
		} else {
			params = append(params, p.assignExpr())
		}
		if p.is(",") {
			p.advance()
		} else if !p.is(")") {
			p.fail("expected , or )")
		}
	}
	p.advance()
	return params
}

func (p *parser) class() *classDef {
	def := &classDef{methods: map[string]*funcDef{}}
	if t := p.tok(); t.kind == tName && t.text != "extends" {
		p.advance()
		def.name = t.text
	}
	if p.is("extends") {
		p.advance()
		def.super = p.unaryExpr()
	}
	p.expect("{")
	for !p.is("}") {
		if p.tok().kind == tEOF {
			p.fail("expected }")
		}
		if p.is(";") {
			p.advance()
			continue
		}
		for (p.is("static") || p.is("async") || p.is("get") || p.is("set") || p.is("*") || p.is("#")) && !endsKey(p.peek(1)) {
			p.advance()
		}
		key := p.propKey()
		if p.is("(") {
			m := &funcDef{name: key.key, params: p.params()}
			m.body = p.block()
			def.methods[key.key] = m
			continue
		}
		if p.is("=") {
			p.advance()
			key.value = p.assignExpr()
		}
		def.fields = append(def.fields, key)
		p.semicolon()
	}
	p.advance()
	return def
}

// endsKey says a token ends a class member's name, so that static, get
// or set before it is the name itself.
func endsKey(t token) bool {
	if t.kind != tPunct {
		return false
	}
	switch t.text {
	case "(", "=", ";", "}":
		return true
	}
	return false
}

// propKey reads a property's name: a word, a string, a number or [expr].
func (p *parser) propKey() prop {
	t := p.tok()
	switch {
	case t.kind == tName || t.kind == tStr || t.kind == tNum:
		p.advance()
		return prop{key: t.text}
	case p.is("["):
		p.advance()
		k := p.assignExpr()
		p.expect("]")
		return prop{computed: k}
	}
	p.fail("expected a property name")
	return prop{}
}
