package python

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// parse reads a program into its statements. An error is a *SyntaxError.
func parse(src string) ([]stmt, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks, lines: lineStarts(src)}
	var out []stmt
	err = p.guard(func() {
		for !p.at(tEOF) {
			out = append(out, p.statement()...)
		}
	})
	return out, err
}

// parseExpr reads one expression, for eval() of a known string.
func parseExpr(src string) (expr, error) {
	toks, err := tokenizeRange(src, 0, len(src), 1)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks, lines: lineStarts(src)}
	var x expr
	err = p.guard(func() {
		x = p.starExprs()
		if !p.at(tEOF) {
			p.fail("unexpected %s after the expression", p.describe())
		}
	})
	return x, err
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// maxParseDepth bounds the recursion of the parser, which an expression
// can cause without a bracket (not not not …, a if b else c if …).
const maxParseDepth = 200

// parser is a recursive-descent parser of Python 3 (up to 3.12's syntax)
// over a program's tokens. It stops at the first error.
type parser struct {
	src   string
	toks  []token
	i     int
	lines []int
	depth int
	// yields says, for each function being read, whether it yields.
	yields []bool
	// inPattern says a match pattern is being read: `as NAME` may follow
	// any of its parts.
	inPattern bool
}

// bailout carries a syntax error up the parser's recursion.
type bailout struct{ err *SyntaxError }

// guard runs f and turns the error it stops with into a result.
func (p *parser) guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	f()
	return nil
}

// attempt runs f and, if it fails, puts the parser back where it was.
func (p *parser) attempt(f func()) bool {
	i, depth, pattern := p.i, p.depth, p.inPattern
	if p.guard(f) != nil {
		p.i, p.depth, p.inPattern = i, depth, pattern
		return false
	}
	return true
}

func (p *parser) fail(format string, args ...any) {
	panic(bailout{&SyntaxError{Line: p.peek().line, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxParseDepth {
		p.fail("expressions nested more than %d deep", maxParseDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) at(k tokenKind) bool { return p.peek().kind == k }

func (p *parser) atOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) atKeyword(kw string) bool {
	t := p.peek()
	return t.kind == tName && t.text == kw
}

func (p *parser) eatOp(op string) bool {
	if p.atOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) eatKeyword(kw string) bool {
	if p.atKeyword(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectOp(op string) token {
	if !p.atOp(op) {
		p.fail("expected %q, found %s", op, p.describe())
	}
	return p.advance()
}

func (p *parser) expectKeyword(kw string) {
	if !p.eatKeyword(kw) {
		p.fail("expected %q, found %s", kw, p.describe())
	}
}

func (p *parser) describe() string {
	t := p.peek()
	switch t.kind {
	case tName, tOp, tNumber, tString:
		text := t.text
		if len(text) > 20 {
			text = text[:17] + "..."
		}
		return strconv.Quote(text)
	}
	return t.kind.String()
}

// keywords are Python's reserved words, which are never names.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true,
	"del": true, "elif": true, "else": true, "except": true, "finally": true, "for": true,
	"from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true,
}

func (p *parser) name() string {
	t := p.peek()
	if t.kind != tName || keywords[t.text] {
		p.fail("expected a name, found %s", p.describe())
	}
	p.i++
	return t.text
}

// spanFrom is the span from token t to the last token read.
func (p *parser) spanFrom(t token) span {
	end := t.end
	if p.i > 0 {
		end = max(end, p.toks[p.i-1].end)
	}
	return span{pos: t.pos, end: end, line: t.line}
}

// spanOf is the span from the start of node a to the last token read.
func (p *parser) spanOf(a node) span {
	s := a.at()
	if p.i > 0 {
		s.end = max(s.end, p.toks[p.i-1].end)
	}
	return s
}

func (p *parser) lineAt(off int) int {
	return sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })
}

// Statements.

func (p *parser) statement() []stmt {
	t := p.peek()
	switch {
	case t.kind == tIndent:
		p.fail("unexpected indent")
	case t.kind == tDedent || t.kind == tNewline:
		p.fail("unexpected %s", t.kind)
	case t.kind == tOp && t.text == "@":
		return []stmt{p.decorated()}
	case t.kind == tName:
		if s := p.compound(t); s != nil {
			return []stmt{s}
		}
	}
	return p.simpleStmts()
}

func (p *parser) compound(t token) stmt {
	switch t.text {
	case "if":
		p.advance()
		return p.ifStmt(t)
	case "while":
		p.advance()
		s := &whileStmt{test: p.namedTest()}
		s.body = p.block()
		s.orelse = p.elseBlock()
		s.span = p.spanFrom(t)
		return s
	case "for":
		p.advance()
		return p.forStmt(t)
	case "try":
		p.advance()
		return p.tryStmt(t)
	case "with":
		p.advance()
		return p.withStmt(t)
	case "def":
		return p.funcDef(nil)
	case "class":
		return p.classDef(nil)
	case "async":
		switch p.peekAt(1).text {
		case "def":
			p.advance()
			return p.funcDef(nil)
		case "for":
			p.advance()
			p.advance()
			return p.forStmt(t)
		case "with":
			p.advance()
			p.advance()
			return p.withStmt(t)
		}
		p.fail("expected def, for or with after async")
	case "match":
		return p.matchStmt(t)
	}
	return nil
}

func (p *parser) block() []stmt {
	p.expectOp(":")
	if !p.at(tNewline) {
		return p.simpleStmts()
	}
	p.advance()
	if !p.at(tIndent) {
		p.fail("expected an indented block")
	}
	p.advance()
	p.enter()
	var body []stmt
	for !p.at(tDedent) && !p.at(tEOF) {
		body = append(body, p.statement()...)
	}
	p.leave()
	if p.at(tDedent) {
		p.advance()
	}
	return body
}

func (p *parser) elseBlock() []stmt {
	if p.eatKeyword("else") {
		return p.block()
	}
	return nil
}

func (p *parser) ifStmt(t token) stmt {
	s := &ifStmt{test: p.namedTest()}
	s.body = p.block()
	if e := p.peek(); e.kind == tName && e.text == "elif" {
		p.advance()
		s.orelse = []stmt{p.ifStmt(e)}
	} else {
		s.orelse = p.elseBlock()
	}
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) forStmt(t token) stmt {
	s := &forStmt{target: p.targets()}
	p.expectKeyword("in")
	s.iter = p.starExprs()
	s.body = p.block()
	s.orelse = p.elseBlock()
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) tryStmt(t token) stmt {
	s := &tryStmt{body: p.block()}
	for p.atKeyword("except") {
		p.advance()
		p.eatOp("*")
		var h excHandler
		if !p.atOp(":") {
			h.typ = p.test()
			if p.eatOp(",") {
				// except (A, B) written without the brackets.
				xs := []expr{h.typ}
				for !p.atOp(":") && !p.atKeyword("as") {
					xs = append(xs, p.test())
					if !p.eatOp(",") {
						break
					}
				}
				h.typ = &seqExpr{span: p.spanOf(h.typ), kind: tupleSeq, xs: xs}
			}
			if p.eatKeyword("as") {
				h.name = p.name()
			}
		}
		h.body = p.block()
		s.handlers = append(s.handlers, h)
	}
	s.orelse = p.elseBlock()
	if p.eatKeyword("finally") {
		s.finally = p.block()
	}
	if len(s.handlers) == 0 && s.finally == nil {
		p.fail("expected 'except' or 'finally' block")
	}
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) withStmt(t token) stmt {
	s := &withStmt{}
	// with (a as b, c as d): the brackets of Python 3.10 group items.
	if p.atOp("(") && !p.attempt(func() {
		p.advance()
		s.items = p.withItems(")")
		p.expectOp(")")
		if !p.atOp(":") {
			p.fail("expected ':'")
		}
	}) {
		s.items = nil
	}
	if s.items == nil {
		s.items = p.withItems(":")
	}
	s.body = p.block()
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) withItems(closer string) []withItem {
	var items []withItem
	for {
		it := withItem{ctx: p.test()}
		if p.eatKeyword("as") {
			it.vars = p.target()
		}
		items = append(items, it)
		if !p.eatOp(",") || p.atOp(closer) {
			return items
		}
	}
}

func (p *parser) decorated() stmt {
	var decs []expr
	for p.eatOp("@") {
		decs = append(decs, p.namedTest())
		if !p.at(tNewline) {
			p.fail("expected the end of the line after a decorator")
		}
		p.advance()
	}
	p.eatKeyword("async")
	switch {
	case p.atKeyword("def"):
		return p.funcDef(decs)
	case p.atKeyword("class"):
		return p.classDef(decs)
	}
	p.fail("expected def or class after decorators")
	return nil
}

func (p *parser) funcDef(decs []expr) stmt {
	t := p.advance() // def
	s := &funcDef{name: p.name(), decorators: decs}
	p.typeParams()
	p.expectOp("(")
	s.params = p.params(")", true)
	p.expectOp(")")
	if p.eatOp("->") {
		p.test()
	}
	p.yields = append(p.yields, false)
	s.body = p.block()
	s.generator = p.yields[len(p.yields)-1]
	p.yields = p.yields[:len(p.yields)-1]
	s.span = p.spanFrom(t)
	return s
}

// typeParams skips the type parameters of Python 3.12 (def f[T](x: T)),
// which change nothing the reader follows.
func (p *parser) typeParams() {
	if !p.atOp("[") {
		return
	}
	level := 0
	for {
		t := p.advance()
		switch {
		case t.kind == tEOF:
			p.fail("a bracket is never closed")
		case t.kind == tOp && t.text == "[":
			level++
		case t.kind == tOp && t.text == "]":
			level--
			if level == 0 {
				return
			}
		}
	}
}

// params reads the parameters of a def (annotated) or a lambda, up to
// closer.
func (p *parser) params(closer string, annotated bool) []param {
	var ps []param
	for !p.atOp(closer) {
		switch {
		case p.eatOp("/"):
		case p.eatOp("**"):
			ps = append(ps, param{name: p.name(), kind: kwParam})
			p.annotation(annotated)
		case p.eatOp("*"):
			if p.atOp(",") || p.atOp(closer) {
				break // a bare * starts the keyword-only parameters
			}
			ps = append(ps, param{name: p.name(), kind: starParam})
			p.annotation(annotated)
		default:
			pr := param{name: p.name()}
			p.annotation(annotated)
			if p.eatOp("=") {
				pr.def = p.test()
			}
			ps = append(ps, pr)
		}
		if !p.eatOp(",") {
			break
		}
	}
	return ps
}

func (p *parser) annotation(annotated bool) {
	if annotated && p.eatOp(":") {
		p.eatOp("*") // *args: *Ts
		p.test()
	}
}

func (p *parser) classDef(decs []expr) stmt {
	t := p.advance() // class
	s := &classDef{name: p.name(), decorators: decs}
	p.typeParams()
	if p.eatOp("(") {
		s.bases, s.kw = p.callArgs()
		p.expectOp(")")
	}
	p.yields = append(p.yields, false)
	s.body = p.block()
	p.yields = p.yields[:len(p.yields)-1]
	s.span = p.spanFrom(t)
	return s
}

// matchStmt reads a match statement, or returns nil when `match` starts
// an ordinary statement (match is a soft keyword: match = re.match(…)).
func (p *parser) matchStmt(t token) stmt {
	s := &matchStmt{}
	if !p.attempt(func() {
		p.advance()
		s.subject = p.starExprs()
		p.expectOp(":")
		if !p.at(tNewline) {
			p.fail("expected a new line")
		}
		p.advance()
		if !p.at(tIndent) {
			p.fail("expected an indented block")
		}
		p.advance()
		if !p.atKeyword("case") {
			p.fail("expected case")
		}
	}) {
		return nil
	}
	for p.eatKeyword("case") {
		// A pattern reads as an expression; `as NAME` after any part of
		// it binds NAME (namedExpr).
		p.inPattern = true
		c := matchCase{pattern: p.starExprs()}
		p.inPattern = false
		if p.eatKeyword("if") {
			c.guard = p.namedTest()
		}
		c.body = p.block()
		s.cases = append(s.cases, c)
	}
	if !p.at(tDedent) {
		p.fail("expected case, found %s", p.describe())
	}
	p.advance()
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) simpleStmts() []stmt {
	var out []stmt
	for {
		out = append(out, p.simpleStmt())
		if !p.eatOp(";") || p.at(tNewline) {
			break
		}
	}
	if !p.at(tNewline) {
		p.fail("unexpected %s", p.describe())
	}
	p.advance()
	return out
}

func (p *parser) simpleStmt() stmt {
	t := p.peek()
	if t.kind == tName {
		if s := p.keywordStmt(t); s != nil {
			return s
		}
	}
	return p.exprOrAssign(t)
}

func (p *parser) keywordStmt(t token) stmt {
	switch t.text {
	case "pass", "break", "continue":
		p.advance()
		return &jumpStmt{span: p.spanFrom(t), kind: t.text}
	case "return":
		p.advance()
		s := &returnStmt{}
		if !p.atEndOfSimple() {
			s.x = p.starExprs()
		}
		s.span = p.spanFrom(t)
		return s
	case "raise":
		p.advance()
		s := &raiseStmt{}
		if !p.atEndOfSimple() {
			s.x = p.test()
			if p.eatKeyword("from") {
				s.cause = p.test()
			}
		}
		s.span = p.spanFrom(t)
		return s
	case "global", "nonlocal":
		p.advance()
		s := &scopeStmt{global: t.text == "global"}
		for {
			s.names = append(s.names, p.name())
			if !p.eatOp(",") {
				break
			}
		}
		s.span = p.spanFrom(t)
		return s
	case "import":
		p.advance()
		return p.importStmt(t)
	case "from":
		p.advance()
		return p.importFrom(t)
	case "del":
		p.advance()
		s := &delStmt{}
		for {
			s.targets = append(s.targets, p.target())
			if !p.eatOp(",") || p.atEndOfSimple() {
				break
			}
		}
		s.span = p.spanFrom(t)
		return s
	case "assert":
		p.advance()
		s := &assertStmt{test: p.test()}
		if p.eatOp(",") {
			s.msg = p.test()
		}
		s.span = p.spanFrom(t)
		return s
	case "type":
		// type X = …, Python 3.12's alias: read as an assignment.
		if n := p.peekAt(1); n.kind == tName && !keywords[n.text] && (p.peekAt(2).text == "=" || p.peekAt(2).text == "[") {
			p.advance()
			target := &nameExpr{span: p.spanFrom(p.peek()), id: p.name()}
			p.typeParams()
			p.expectOp("=")
			return &assignStmt{targets: []expr{target}, x: p.test(), span: p.spanFrom(t)}
		}
	}
	return nil
}

func (p *parser) atEndOfSimple() bool { return p.at(tNewline) || p.atOp(";") || p.at(tEOF) }

func (p *parser) dotted() string {
	parts := []string{p.name()}
	for p.eatOp(".") {
		parts = append(parts, p.name())
	}
	return strings.Join(parts, ".")
}

func (p *parser) importStmt(t token) stmt {
	s := &importStmt{}
	for {
		a := alias{name: p.dotted()}
		if p.eatKeyword("as") {
			a.asName = p.name()
		}
		s.names = append(s.names, a)
		if !p.eatOp(",") {
			break
		}
	}
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) importFrom(t token) stmt {
	s := &importFromStmt{}
	for {
		switch {
		case p.eatOp("."):
			s.level++
			continue
		case p.eatOp("..."):
			s.level += 3
			continue
		}
		break
	}
	if !p.atKeyword("import") {
		s.module = p.dotted()
	}
	p.expectKeyword("import")
	if p.eatOp("*") {
		s.names = []alias{{name: "*"}}
		s.span = p.spanFrom(t)
		return s
	}
	paren := p.eatOp("(")
	for {
		a := alias{name: p.name()}
		if p.eatKeyword("as") {
			a.asName = p.name()
		}
		s.names = append(s.names, a)
		if !p.eatOp(",") || paren && p.atOp(")") {
			break
		}
	}
	if paren {
		p.expectOp(")")
	}
	s.span = p.spanFrom(t)
	return s
}

// augOps are the augmented assignments, each with its operator.
var augOps = map[string]string{
	"+=": "+", "-=": "-", "*=": "*", "/=": "/", "//=": "//", "%=": "%", "**=": "**",
	">>=": ">>", "<<=": "<<", "&=": "&", "|=": "|", "^=": "^", "@=": "@",
}

func (p *parser) exprOrAssign(t token) stmt {
	x := p.starExprsOrYield()
	switch {
	case p.atOp("="):
		s := &assignStmt{targets: []expr{x}}
		for p.eatOp("=") {
			s.targets = append(s.targets, p.starExprsOrYield())
		}
		s.x = s.targets[len(s.targets)-1]
		s.targets = s.targets[:len(s.targets)-1]
		s.span = p.spanFrom(t)
		return s
	case p.atOp(":"):
		p.advance()
		p.test()
		s := &annAssignStmt{target: x}
		if p.eatOp("=") {
			s.x = p.starExprsOrYield()
		}
		s.span = p.spanFrom(t)
		return s
	case p.at(tOp) && augOps[p.peek().text] != "":
		op := augOps[p.advance().text]
		s := &augAssignStmt{target: x, op: op, x: p.starExprsOrYield()}
		s.span = p.spanFrom(t)
		return s
	}
	return &exprStmt{span: p.spanFrom(t), x: x}
}

// Expressions.

func (p *parser) starExprsOrYield() expr {
	if p.atKeyword("yield") {
		return p.yieldExpr()
	}
	return p.starExprs()
}

func (p *parser) yieldExpr() expr {
	t := p.advance()
	if len(p.yields) > 0 {
		p.yields[len(p.yields)-1] = true
	}
	y := &yieldExpr{}
	switch {
	case p.eatKeyword("from"):
		y.from = true
		y.x = p.test()
	case !p.atEndOfSimple() && !p.atOp(")") && !p.atOp("=") && !p.atOp("]") && !p.atOp("}"):
		y.x = p.starExprs()
	}
	y.span = p.spanFrom(t)
	return y
}

// starExprs reads expressions separated by commas, a tuple when there is
// a comma: `a, *b = …`, `return x, y`.
func (p *parser) starExprs() expr {
	t := p.peek()
	x := p.starOrNamed()
	if !p.atOp(",") {
		return x
	}
	xs := []expr{x}
	for p.eatOp(",") {
		if !p.startsExpr() {
			break
		}
		xs = append(xs, p.starOrNamed())
	}
	return &seqExpr{span: p.spanFrom(t), kind: tupleSeq, xs: xs}
}

// startsExpr says the next token can start an expression.
func (p *parser) startsExpr() bool {
	t := p.peek()
	switch t.kind {
	case tName:
		switch t.text {
		case "lambda", "not", "await", "None", "True", "False":
			return true
		}
		return !keywords[t.text]
	case tNumber, tString:
		return true
	case tOp:
		switch t.text {
		case "(", "[", "{", "-", "+", "~", "*", "...":
			return true
		}
	}
	return false
}

func (p *parser) starOrNamed() expr {
	if t := p.peek(); p.eatOp("*") {
		x := p.bitOr()
		return &starredExpr{span: p.spanFrom(t), x: x}
	}
	return p.namedTest()
}

// namedTest is an expression that may be an assignment expression:
// `(n := len(x))`.
func (p *parser) namedTest() expr {
	t := p.peek()
	if t.kind == tName && !keywords[t.text] && p.peekAt(1).kind == tOp && p.peekAt(1).text == ":=" {
		p.advance()
		p.advance()
		x := p.test()
		return &namedExpr{span: p.spanFrom(t), target: t.text, x: x}
	}
	x := p.test()
	if p.inPattern && p.eatKeyword("as") {
		return &namedExpr{span: p.spanOf(x), target: p.name(), x: x}
	}
	return x
}

// test is a full expression: a conditional or a lambda.
func (p *parser) test() expr {
	p.enter()
	defer p.leave()
	t := p.peek()
	if p.eatKeyword("lambda") {
		ps := p.params(":", false)
		p.expectOp(":")
		body := p.test()
		return &lambdaExpr{span: p.spanFrom(t), params: ps, body: body}
	}
	x := p.orTest()
	if p.atKeyword("if") && !p.inPattern {
		// x if c else y; a comprehension's `if` has no else and is
		// left to the comprehension.
		save := p.i
		p.advance()
		test := p.orTest()
		if !p.eatKeyword("else") {
			p.i = save
			return x
		}
		orelse := p.test()
		return &ifExpr{span: p.spanOf(x), test: test, body: x, orelse: orelse}
	}
	return x
}

// testNoCond is an expression without a conditional, for a
// comprehension's conditions.
func (p *parser) testNoCond() expr {
	if p.atKeyword("lambda") {
		return p.test()
	}
	return p.orTest()
}

func (p *parser) orTest() expr {
	x := p.andTest()
	if !p.atKeyword("or") {
		return x
	}
	b := &boolExpr{op: "or", xs: []expr{x}}
	for p.eatKeyword("or") {
		b.xs = append(b.xs, p.andTest())
	}
	b.span = p.spanOf(x)
	return b
}

func (p *parser) andTest() expr {
	x := p.notTest()
	if !p.atKeyword("and") {
		return x
	}
	b := &boolExpr{op: "and", xs: []expr{x}}
	for p.eatKeyword("and") {
		b.xs = append(b.xs, p.notTest())
	}
	b.span = p.spanOf(x)
	return b
}

func (p *parser) notTest() expr {
	t := p.peek()
	if p.eatKeyword("not") {
		p.enter()
		defer p.leave()
		x := p.notTest()
		return &unaryExpr{span: p.spanFrom(t), op: "not", x: x}
	}
	return p.comparison()
}

func (p *parser) compOp() string {
	t := p.peek()
	switch {
	case t.kind == tOp:
		switch t.text {
		case "<", ">", "==", ">=", "<=", "!=":
			p.advance()
			return t.text
		}
	case t.kind == tName && t.text == "in":
		p.advance()
		return "in"
	case t.kind == tName && t.text == "not" && p.peekAt(1).text == "in" && p.peekAt(1).kind == tName:
		p.advance()
		p.advance()
		return "not in"
	case t.kind == tName && t.text == "is":
		p.advance()
		if p.eatKeyword("not") {
			return "is not"
		}
		return "is"
	}
	return ""
}

func (p *parser) comparison() expr {
	x := p.bitOr()
	op := p.compOp()
	if op == "" {
		return x
	}
	c := &compareExpr{l: x}
	for op != "" {
		c.ops = append(c.ops, op)
		c.rs = append(c.rs, p.bitOr())
		op = p.compOp()
	}
	c.span = p.spanOf(x)
	return c
}

// binaryLevels are the binary operators from the loosest binding to the
// tightest, below comparisons and above unary operators.
var binaryLevels = [][]string{
	{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"},
}

func (p *parser) bitOr() expr { return p.binary(0) }

func (p *parser) binary(level int) expr {
	if level == len(binaryLevels) {
		return p.factor()
	}
	x := p.binary(level + 1)
	for {
		t := p.peek()
		if t.kind != tOp || !contains(binaryLevels[level], t.text) {
			return x
		}
		p.advance()
		r := p.binary(level + 1)
		x = &binExpr{span: p.spanOf(x), op: t.text, l: x, r: r}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) factor() expr {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		p.advance()
		p.enter()
		defer p.leave()
		x := p.factor()
		return &unaryExpr{span: p.spanFrom(t), op: t.text, x: x}
	}
	return p.power()
}

func (p *parser) power() expr {
	t := p.peek()
	var x expr
	if p.eatKeyword("await") {
		inner := p.primary()
		x = &awaitExpr{span: p.spanFrom(t), x: inner}
	} else {
		x = p.primary()
	}
	if p.eatOp("**") {
		p.enter()
		defer p.leave()
		r := p.factor()
		return &binExpr{span: p.spanOf(x), op: "**", l: x, r: r}
	}
	return x
}

func (p *parser) primary() expr {
	x := p.atom()
	for {
		switch {
		case p.eatOp("."):
			name := p.name()
			x = &attrExpr{span: p.spanOf(x), x: x, name: name}
		case p.eatOp("("):
			args, kw := p.callArgs()
			p.expectOp(")")
			x = &callExpr{span: p.spanOf(x), fn: x, args: args, kw: kw}
		case p.eatOp("["):
			index := p.subscript()
			p.expectOp("]")
			x = &subscriptExpr{span: p.spanOf(x), x: x, index: index}
		default:
			return x
		}
	}
}

func (p *parser) callArgs() ([]expr, []keyword) {
	var args []expr
	var kw []keyword
	for !p.atOp(")") {
		t := p.peek()
		switch {
		case p.eatOp("**"):
			kw = append(kw, keyword{x: p.test()})
		case p.eatOp("*"):
			x := p.test()
			args = append(args, &starredExpr{span: p.spanFrom(t), x: x})
		case t.kind == tName && !keywords[t.text] && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=":
			p.advance()
			p.advance()
			kw = append(kw, keyword{name: t.text, x: p.test()})
		default:
			x := p.namedTest()
			if p.atKeyword("for") || p.atKeyword("async") {
				x = p.comprehension(genComp, nil, x, t)
			}
			args = append(args, x)
		}
		if !p.eatOp(",") {
			break
		}
	}
	return args, kw
}

func (p *parser) subscript() expr {
	t := p.peek()
	x := p.sliceItem()
	if !p.atOp(",") {
		return x
	}
	xs := []expr{x}
	for p.eatOp(",") && !p.atOp("]") {
		xs = append(xs, p.sliceItem())
	}
	return &seqExpr{span: p.spanFrom(t), kind: tupleSeq, xs: xs}
}

func (p *parser) sliceItem() expr {
	t := p.peek()
	var lo expr
	if !p.atOp(":") {
		lo = p.starOrNamed()
		if !p.atOp(":") {
			return lo
		}
	}
	s := &sliceExpr{lo: lo}
	p.expectOp(":")
	if !p.atOp(":") && !p.atOp("]") && !p.atOp(",") {
		s.hi = p.test()
	}
	if p.eatOp(":") && !p.atOp("]") && !p.atOp(",") {
		s.step = p.test()
	}
	s.span = p.spanFrom(t)
	return s
}

func (p *parser) atom() expr {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.kind {
	case tName:
		switch t.text {
		case "None":
			p.advance()
			return &constExpr{span: p.spanFrom(t), kind: cNone}
		case "True", "False":
			p.advance()
			return &constExpr{span: p.spanFrom(t), kind: cBool, b: t.text == "True"}
		}
		return &nameExpr{span: p.spanFrom(t), id: p.name()}
	case tNumber:
		p.advance()
		return number(t, p.spanFrom(t))
	case tString:
		return p.strings()
	case tOp:
		switch t.text {
		case "...":
			p.advance()
			return &constExpr{span: p.spanFrom(t), kind: cEllipsis}
		case "(":
			return p.parenthesized(t)
		case "[":
			return p.listDisplay(t)
		case "{":
			return p.braceDisplay(t)
		}
	}
	p.fail("unexpected %s", p.describe())
	return nil
}

func number(t token, s span) expr {
	text := strings.ReplaceAll(t.text, "_", "")
	c := &constExpr{span: s, kind: cInt, s: t.text}
	switch {
	case strings.HasSuffix(text, "j") || strings.HasSuffix(text, "J"):
		c.kind = cComplex
	case strings.ContainsAny(text, ".eE") && !strings.HasPrefix(text, "0x") && !strings.HasPrefix(text, "0X"):
		c.kind = cFloat
	default:
		if len(text) > 1 && text[0] == '0' && isDigit(text[1]) {
			// 00 is zero; 017 is no number of Python 3 (Go reads it
			// as octal).
			c.intOK = strings.Trim(text, "0") == ""
		} else if n, err := strconv.ParseInt(text, 0, 64); err == nil {
			c.n, c.intOK = n, true
		}
	}
	return c
}

func (p *parser) parenthesized(t token) expr {
	p.advance()
	if p.eatOp(")") {
		return &seqExpr{span: p.spanFrom(t), kind: tupleSeq}
	}
	if p.atKeyword("yield") {
		y := p.yieldExpr()
		p.expectOp(")")
		return y
	}
	x := p.starOrNamed()
	if p.atKeyword("for") || p.atKeyword("async") {
		c := p.comprehension(genComp, nil, x, t)
		p.expectOp(")")
		c.span = p.spanFrom(t)
		return c
	}
	if !p.atOp(",") {
		p.expectOp(")")
		return x
	}
	xs := []expr{x}
	for p.eatOp(",") && !p.atOp(")") {
		xs = append(xs, p.starOrNamed())
	}
	p.expectOp(")")
	return &seqExpr{span: p.spanFrom(t), kind: tupleSeq, xs: xs}
}

func (p *parser) listDisplay(t token) expr {
	p.advance()
	var xs []expr
	for !p.atOp("]") {
		x := p.starOrNamed()
		if len(xs) == 0 && (p.atKeyword("for") || p.atKeyword("async")) {
			c := p.comprehension(listComp, nil, x, t)
			p.expectOp("]")
			c.span = p.spanFrom(t)
			return c
		}
		xs = append(xs, x)
		if !p.eatOp(",") {
			break
		}
	}
	p.expectOp("]")
	return &seqExpr{span: p.spanFrom(t), kind: listSeq, xs: xs}
}

func (p *parser) braceDisplay(t token) expr {
	p.advance()
	if p.eatOp("}") {
		return &dictExpr{span: p.spanFrom(t)}
	}
	if p.eatOp("**") {
		return p.dictRest(t, nil, p.bitOr())
	}
	first := p.starOrNamed()
	if p.eatOp(":") {
		return p.dictRest(t, first, p.namedTest())
	}
	if p.atKeyword("for") || p.atKeyword("async") {
		c := p.comprehension(setComp, nil, first, t)
		p.expectOp("}")
		c.span = p.spanFrom(t)
		return c
	}
	xs := []expr{first}
	for p.eatOp(",") && !p.atOp("}") {
		xs = append(xs, p.starOrNamed())
	}
	p.expectOp("}")
	return &seqExpr{span: p.spanFrom(t), kind: setSeq, xs: xs}
}

// dictRest reads a dict display after its first entry (key nil: **x).
func (p *parser) dictRest(t token, key, val expr) expr {
	if key != nil && (p.atKeyword("for") || p.atKeyword("async")) {
		c := p.comprehension(dictComp, key, val, t)
		p.expectOp("}")
		c.span = p.spanFrom(t)
		return c
	}
	d := &dictExpr{keys: []expr{key}, vals: []expr{val}}
	for p.eatOp(",") && !p.atOp("}") {
		if p.eatOp("**") {
			d.keys = append(d.keys, nil)
			d.vals = append(d.vals, p.bitOr())
			continue
		}
		k := p.test()
		p.expectOp(":")
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, p.namedTest())
	}
	p.expectOp("}")
	d.span = p.spanFrom(t)
	return d
}

func (p *parser) comprehension(kind compKind, key, elt expr, t token) *compExpr {
	c := &compExpr{kind: kind, key: key, elt: elt}
	for p.atKeyword("for") || p.atKeyword("async") {
		p.eatKeyword("async")
		p.expectKeyword("for")
		g := comprehension{target: p.targets()}
		p.expectKeyword("in")
		g.iter = p.orTest()
		for p.eatKeyword("if") {
			g.ifs = append(g.ifs, p.testNoCond())
		}
		c.gens = append(c.gens, g)
	}
	c.span = p.spanFrom(t)
	return c
}

// targets reads the targets of a for: `k, v`, `(a, b), *c`, without
// taking its `in` for a comparison.
func (p *parser) targets() expr {
	t := p.peek()
	x := p.target()
	if !p.atOp(",") {
		return x
	}
	xs := []expr{x}
	for p.eatOp(",") && !p.atKeyword("in") && !p.atOp("=") {
		xs = append(xs, p.target())
	}
	return &seqExpr{span: p.spanFrom(t), kind: tupleSeq, xs: xs}
}

func (p *parser) target() expr {
	if t := p.peek(); p.eatOp("*") {
		x := p.bitOr()
		return &starredExpr{span: p.spanFrom(t), x: x}
	}
	return p.bitOr()
}

// Strings.

// strings reads adjacent string literals as one value.
func (p *parser) strings() expr {
	first := p.peek()
	var parts []fpart
	fstr, bytes, str := false, false, false
	for p.at(tString) {
		t := p.advance()
		prefix, body, bodyAt := splitString(t.text)
		raw := strings.Contains(prefix, "r")
		switch {
		case strings.Contains(prefix, "b"):
			bytes = true
		default:
			str = true
		}
		if strings.Contains(prefix, "f") {
			fstr = true
			parts = append(parts, p.fstring(body, t.pos+bodyAt, raw, 0)...)
			continue
		}
		parts = append(parts, fpart{lit: unescape(body, raw, strings.Contains(prefix, "b"))})
	}
	s := p.spanFrom(first)
	if bytes && str {
		p.fail("cannot mix bytes and nonbytes literals")
	}
	if !fstr {
		var b strings.Builder
		for _, pt := range parts {
			b.WriteString(pt.lit)
		}
		kind := cStr
		if bytes {
			kind = cBytes
		}
		return &constExpr{span: s, kind: kind, s: b.String()}
	}
	return &fstringExpr{span: s, parts: mergeLiterals(parts)}
}

// splitString splits a string token into its prefix (lower case), its body
// between the quotes, and the body's offset in the token.
func splitString(text string) (prefix, body string, at int) {
	i := strings.IndexAny(text, `"'`)
	prefix = strings.ToLower(text[:i])
	q := text[i : i+1]
	if strings.HasPrefix(text[i:], strings.Repeat(q, 3)) && len(text)-i >= 6 {
		q = strings.Repeat(q, 3)
	}
	return prefix, text[i+len(q) : len(text)-len(q)], i + len(q)
}

func mergeLiterals(parts []fpart) []fpart {
	out := parts[:0]
	for _, pt := range parts {
		if n := len(out); n > 0 && pt.x == nil && out[n-1].x == nil {
			out[n-1].lit += pt.lit
			continue
		}
		out = append(out, pt)
	}
	return out
}

// fstring reads the body of an f-string, which starts at offset at of the
// program: literal text and replacement fields.
func (p *parser) fstring(body string, at int, raw bool, depth int) []fpart {
	var parts []fpart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, fpart{lit: unescape(lit.String(), raw, false)})
			lit.Reset()
		}
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case !raw && strings.HasPrefix(body[i:], `\N{`) && strings.IndexByte(body[i:], '}') > 0:
			j := strings.IndexByte(body[i:], '}')
			lit.WriteString(body[i : i+j+1])
			i += j
		case c == '\\' && i+1 < len(body) && body[i+1] != '{' && body[i+1] != '}':
			lit.WriteByte(c)
			lit.WriteByte(body[i+1])
			i++
		case c == '{' && i+1 < len(body) && body[i+1] == '{', c == '}' && i+1 < len(body) && body[i+1] == '}':
			lit.WriteByte(c)
			i++
		case c == '{':
			flush()
			f, _, err := scanField(p.src[:at+len(body)], at+i+1, depth)
			if err != nil {
				p.fail("%v", err)
			}
			parts = append(parts, p.field(at+i+1, f, raw, depth)...)
			i = f.end - at - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return parts
}

// field reads one replacement field of an f-string, whose expression
// starts at offset from of the program.
func (p *parser) field(from int, f field, raw bool, depth int) []fpart {
	text := p.src[from:f.exprEnd]
	var parts []fpart
	exprText := strings.TrimRight(trailingComment(strings.TrimRight(text, " \t\r\n")), " \t\r\n")
	pt := fpart{conv: f.conv}
	if debug, ok := strings.CutSuffix(exprText, "="); ok && !strings.HasSuffix(debug, "=") && !strings.HasSuffix(debug, "!") &&
		!strings.HasSuffix(debug, "<") && !strings.HasSuffix(debug, ">") {
		// f"{x=}" prints the expression as written, then its value.
		parts = append(parts, fpart{lit: text})
		exprText = debug
		if f.conv == 0 && f.specStart == 0 {
			pt.conv = 'r'
		}
	}
	pt.text = exprText
	toks, err := tokenizeRange(p.src, from, from+len(exprText), p.lineAt(from))
	if err != nil {
		panic(bailout{err.(*SyntaxError)})
	}
	sub := &parser{src: p.src, toks: toks, lines: p.lines, depth: p.depth, yields: p.yields}
	if sub.at(tEOF) {
		p.fail("f-string: empty expression not allowed")
	}
	pt.x = sub.starExprsOrYield()
	if !sub.at(tEOF) {
		sub.fail("f-string: unexpected %s", sub.describe())
	}
	if f.specStart > 0 {
		pt.spec = p.fstring(p.src[f.specStart:f.end-1], f.specStart, raw, depth+1)
	}
	return append(parts, pt)
}

// trailingComment cuts a comment that ends the last line of a field's
// expression (f"{x = # why\n}"), so that a `=` before it is seen.
func trailingComment(text string) string {
	last := strings.LastIndexByte(text, '\n') + 1
	if i := strings.IndexByte(text[last:], '#'); i >= 0 && !strings.ContainsAny(text[last:last+i], `"'`) {
		return text[:last+i]
	}
	return text
}

// unescape decodes the escapes of a string literal's body; raw strings
// keep theirs.
func unescape(s string, raw, bytes bool) string {
	if raw || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i += escape(&b, s, i+1, bytes)
	}
	return b.String()
}

// simpleEscapes are the escapes of one character.
var simpleEscapes = map[byte]string{
	'\n': "", '\\': `\`, '\'': "'", '"': `"`, 'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v",
}

// escape writes what the escape whose letter is at s[i] stands for and
// returns how many bytes it took. \N{NAME} and unknown escapes stay as
// written.
func escape(b *strings.Builder, s string, i int, bytes bool) int {
	e := s[i]
	if out, ok := simpleEscapes[e]; ok {
		b.WriteString(out)
		return 1
	}
	var n, base int
	switch {
	case e == '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case e == 'x':
		n, base = 2, 16
	case (e == 'u' || e == 'U') && !bytes:
		n, base = map[byte]int{'u': 4, 'U': 8}[e], 16
	case e >= '0' && e <= '7':
		for n = 1; n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7'; n++ {
		}
		if v, err := strconv.ParseUint(s[i:i+n], 8, 32); err == nil {
			writeCode(b, v, bytes)
		}
		return n
	}
	digits := ""
	if base != 0 && i+1+n <= len(s) {
		digits = s[i+1 : i+1+n]
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if base == 0 || err != nil {
		b.WriteByte('\\')
		b.WriteByte(e)
		return 1
	}
	writeCode(b, v, bytes)
	return 1 + n
}

func writeCode(b *strings.Builder, v uint64, bytes bool) {
	if bytes {
		b.WriteByte(byte(v))
	} else {
		b.WriteRune(rune(v))
	}
}
