package perl

import (
	"strings"
)

// namedUnary are the named unary operators: without parentheses they take
// one operand, which binds tighter than comparisons (length $x > 3).
var namedUnary = map[string]bool{
	"defined": true, "ref": true, "scalar": true, "lc": true, "uc": true, "lcfirst": true,
	"ucfirst": true, "length": true, "chr": true, "ord": true, "int": true, "hex": true, "oct": true,
	"abs": true, "sqrt": true, "log": true, "exp": true, "sin": true, "cos": true, "rand": true,
	"srand": true, "localtime": true, "gmtime": true, "exists": true, "delete": true, "each": true,
	"keys": true, "values": true, "shift": true, "pop": true, "chdir": true, "rmdir": true,
	"readlink": true, "umask": true, "undef": true, "quotemeta": true, "readdir": true,
	"closedir": true, "rewinddir": true, "exit": true, "sleep": true, "caller": true, "alarm": true,
	"chop": true, "chomp": true, "lock": true, "stat": true, "lstat": true, "fc": true,
	"getpwuid": true, "getpwnam": true, "getgrgid": true, "getgrnam": true, "close": true,
	"fileno": true, "chroot": true, "readline": true, "uc_first": true,
}

// startsTerm says the token can begin an operand, so that a bareword
// before it is a function given it.
func startsTerm(t token) bool {
	switch t.kind {
	case tVar, tCast, tNum, tStr, tInterp, tCmd, tWords, tMatch, tSubst, tTrans, tReadline, tFiletest:
		return true
	case tIdent:
		switch t.text {
		case "x", "eq", "ne", "lt", "gt", "le", "ge", "cmp", "and", "or", "xor", "if", "unless", "while", "until", "for", "foreach", "isa":
			return false
		}
		return true
	case tOp:
		switch t.text {
		case "(", "[", "{", "\\", "-", "!", "+", "~", "++", "--", "<<":
			return true
		}
	}
	return false
}

func (p *parser) primary() node {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch t.kind {
	case tNum:
		p.advance()
		return numLit{t.text}
	case tStr:
		p.advance()
		return strLit{t.text}
	case tInterp:
		p.advance()
		return p.interpolate(t.text, t.line, false)
	case tWords:
		p.advance()
		return p.subscripts(wordsLit{strings.Fields(t.text)})
	case tCmd:
		p.advance()
		return cmdNode{cmd: p.interpolate(t.text, t.line, false), pos: t.pos, end: t.end, line: t.line}
	case tMatch:
		p.advance()
		return matchNode{pattern: p.interpolate(t.text, t.line, true), line: t.line}
	case tSubst:
		p.advance()
		m := matchNode{pattern: p.interpolate(t.text, t.line, true), subst: true, line: t.line}
		if strings.Contains(t.flags, "e") {
			m.repl = p.code(t.repl, t.line)
		} else {
			m.repl = p.interpolate(t.repl, t.line, false)
		}
		return m
	case tTrans:
		p.advance()
		return matchNode{pattern: &interpStr{}, trans: true, line: t.line}
	case tReadline:
		p.advance()
		return p.readline(t)
	case tFiletest:
		p.advance()
		f := filetestNode{op: t.text, pos: t.pos, end: t.end, line: t.line}
		if !p.endsExpr() {
			f.x = p.expr(15)
		}
		return f
	case tVar:
		return p.variable(t)
	case tCast:
		return p.cast(t)
	case tIdent:
		return p.word(t)
	}
	if t.kind == tOp {
		if x, ok := p.bracketed(t); ok {
			return x
		}
	}
	p.fail("expected an operand")
	return nil
}

// bracketed reads a list in parentheses (or a list slice), an anonymous
// array or an anonymous hash.
func (p *parser) bracketed(t token) (node, bool) {
	switch t.text {
	case "(":
		p.advance()
		if p.isOp(")") {
			p.advance()
			return p.subscripts(listNode{}), true
		}
		x := p.expr(0)
		p.expectOp(")")
		if p.isOp("[") {
			// A list slice: (stat $f)[9].
			return p.subscripts(listNode{flatten(x)}), true
		}
		if _, ok := x.(listNode); !ok {
			x = listNode{[]node{x}}
		}
		return x, true
	case "[":
		p.advance()
		var items []node
		if !p.isOp("]") {
			items = flatten(p.expr(0))
		}
		p.expectOp("]")
		return p.subscripts(anonArray{items}), true
	case "{":
		p.advance()
		var items []node
		if !p.isOp("}") {
			items = flatten(p.expr(0))
		}
		p.expectOp("}")
		return p.subscripts(anonHash{items}), true
	}
	return nil, false
}

func (p *parser) readline(t token) node {
	r := readlineNode{pos: t.pos, end: t.end, line: t.line}
	switch {
	case t.text == "" || t.text == "STDIN":
		r.fh = strLit{"STDIN"}
	case strings.HasPrefix(t.text, "$") && isWord(t.text[1:]):
		r.fh = varNode{name: t.text, pos: t.pos + 1, end: t.end - 1, line: t.line}
	case isWord(t.text):
		r.fh = strLit{t.text}
	default:
		r.glob = t.text
	}
	return r
}

func (p *parser) variable(t token) node {
	p.advance()
	v := varNode{name: t.text, pos: t.pos, end: t.end, line: t.line}
	sigil, name := t.text[:1], t.text[1:]
	switch {
	case sigil == "&":
		c := callNode{name: name, amp: true, pos: t.pos, line: t.line}
		if p.isOp("(") {
			p.advance()
			c.args = p.args()
		}
		c.end = p.toks[p.i-1].end
		return c
	case sigil == "$" && p.isOp("[") && !strings.HasPrefix(name, "#"):
		p.advance()
		idx := p.expr(0)
		p.expectOp("]")
		return p.subscripts(elemNode{base: varNode{name: "@" + name, pos: t.pos, end: t.end, line: t.line}, index: idx, line: t.line})
	case sigil == "$" && p.isOp("{") && !strings.HasPrefix(name, "#"):
		return p.subscripts(elemNode{base: varNode{name: "%" + name, pos: t.pos, end: t.end, line: t.line}, index: p.hashKey(), hash: true, line: t.line})
	case sigil == "@" && p.isOp("["):
		p.advance()
		idx := p.expr(0)
		p.expectOp("]")
		return elemNode{base: v, index: idx, slice: true, line: t.line}
	case sigil == "*" && p.isOp("{"):
		p.hashKey() // *STDOUT{IO}: a slot of the glob
		return v
	case sigil == "@" && p.isOp("{"):
		return elemNode{base: varNode{name: "%" + name, pos: t.pos, end: t.end, line: t.line}, index: p.hashKey(), hash: true, slice: true, line: t.line}
	}
	return v
}

// cast reads a dereference: ${…}, @{…}, %$ref, $$ref[0].
func (p *parser) cast(t token) node {
	p.advance()
	var x node
	if p.isOp("{") {
		body := p.block()
		x = doBlock{body}
	} else {
		n := p.tok()
		switch n.kind {
		case tVar:
			p.advance()
			x = varNode{name: n.text, pos: n.pos, end: n.end, line: n.line}
		case tCast:
			x = p.cast(n)
		default:
			p.fail("expected a variable or a block after %s", t.text)
		}
	}
	c := castNode{t.text, x}
	if t.text == "*" && p.isOp("{") {
		p.hashKey() // *{$glob}{CODE}: a slot of the glob
		return c
	}
	if t.text == "$" && (p.isOp("[") || p.isOp("{")) {
		return p.subscripts(c)
	}
	if t.text == "@" && (p.isOp("[") || p.isOp("{")) {
		hash := p.isOp("{")
		var idx node
		if hash {
			idx = p.hashKey()
		} else {
			p.advance()
			idx = p.expr(0)
			p.expectOp("]")
		}
		return elemNode{base: x, index: idx, hash: hash, slice: true, line: t.line}
	}
	if t.text == "&" && p.isOp("(") {
		p.advance()
		return callRef{fn: x, args: p.args(), line: t.line}
	}
	return c
}

// word reads what a bareword starts: a keyword's construct, a call, a
// class, a filehandle or a string.
func (p *parser) word(t token) node {
	n := p.peek(1)
	if n.kind == tOp && n.text == "=>" {
		p.advance()
		return strLit{t.text}
	}
	switch t.text {
	case "my", "our", "local", "state":
		p.advance()
		return p.my()
	case "sub":
		p.advance()
		def := &subDef{params: p.signature()}
		def.body = p.block()
		return anonSub{def}
	case "do", "eval":
		if n.kind == tOp && n.text == "{" {
			p.advance()
			return doBlock{p.block()}
		}
	case "__FILE__", "__LINE__", "__PACKAGE__":
		p.advance()
		if p.isOp("->") {
			return bareword{"main"}
		}
		return strLit{t.text}
	case "print", "printf", "say":
		return p.print(t)
	case "sort", "map", "grep":
		return p.listWithBlock(t)
	case "qw":
	}
	if n.kind == tOp && n.text == "->" {
		p.advance()
		return bareword{t.text}
	}
	if n.kind == tOp && n.text == "::" {
		p.advance()
		p.advance()
		return bareword{t.text}
	}
	return p.call(t)
}

// call reads a call of a function by name: with parentheses, as a named
// unary operator, as a list operator, or with no arguments.
func (p *parser) call(t token) node {
	p.advance()
	c := callNode{name: t.text, pos: t.pos, end: t.end, line: t.line}
	switch {
	case p.isOp("("):
		p.advance()
		c.args = p.args()
		c.end = p.toks[p.i-1].end
		return p.subscripts(c)
	case termOps[t.text]:
		return c
	case namedUnary[t.text]:
		if startsTerm(p.tok()) && !p.isOp("{") {
			c.args = []node{p.expr(15)}
		}
	case startsTerm(p.tok()) && !(p.isOp("-") || p.isOp("<<")):
		c.args = flatten(p.expr(4))
	case strings.ToUpper(t.text) == t.text || strings.Contains(t.text, "::") && !p.isOp("("):
		// STDERR, a constant, Foo::Bar.
		return bareword{t.text}
	}
	c.end = p.toks[p.i-1].end
	return c
}

// print reads print, printf and say, whose first word may be a
// filehandle: print STDERR …, print $fh …, print {$fh} ….
func (p *parser) print(t token) node {
	p.advance()
	c := callNode{name: t.text, pos: t.pos, end: t.end, line: t.line}
	parens := p.isOp("(")
	if parens {
		p.advance()
	}
	switch n := p.tok(); {
	case n.kind == tOp && n.text == "{":
		body := p.block()
		c.fh = doBlock{body}
	case n.kind == tIdent && p.isHandleWord(n):
		p.advance()
		c.fh = strLit{n.text}
	case n.kind == tVar && n.text[0] == '$' && startsTerm(p.peek(1)) && !isOperatorLike(p.peek(1)):
		p.advance()
		c.fh = varNode{name: n.text, pos: n.pos, end: n.end, line: n.line}
	}
	if parens {
		c.args = p.args()
	} else if !p.endsExpr() {
		c.args = flatten(p.expr(4))
	}
	c.end = p.toks[p.i-1].end
	return c
}

// isHandleWord says a bareword after print is a filehandle: one in
// capitals not followed by what would make it a call or a value.
func (p *parser) isHandleWord(n token) bool {
	if strings.ToUpper(n.text) != n.text || namedUnary[n.text] {
		return false
	}
	switch n.text {
	case "STDOUT", "STDERR", "STDIN":
		return true
	}
	// print FH LIST; a word alone is more often a constant.
	next := p.peek(1)
	return startsTerm(next) && !(next.kind == tOp && (next.text == "(" || next.text == "-" || next.text == "[" || next.text == "{"))
}

// isOperatorLike says a token after $fh makes it an operand, not print's
// filehandle: print $x - 1, print $x [1] is rare; a minus or a bracket
// right after a variable is an operator.
func isOperatorLike(t token) bool {
	return t.kind == tOp && (t.text == "-" || t.text == "[" || t.text == "{" || t.text == "+" || t.text == "<<")
}

// listWithBlock reads sort, map and grep, with a block or a comparison's
// name first, or a first expression.
func (p *parser) listWithBlock(t token) node {
	p.advance()
	c := callNode{name: t.text, pos: t.pos, end: t.end, line: t.line}
	parens := p.isOp("(")
	if parens {
		p.advance()
	}
	switch n := p.tok(); {
	case n.kind == tOp && n.text == "{":
		c.block = p.block()
		if p.isOp(",") {
			p.advance()
		}
	case t.text == "sort" && n.kind == tIdent && startsTerm(p.peek(1)) && !namedUnary[n.text] && n.text != "keys" && n.text != "values" && n.text != "map" && n.text != "grep" && n.text != "reverse":
		p.advance()
		c.block = []stmt{exprStmt{callNode{name: n.text, line: n.line}}}
	case t.text == "sort" && n.kind == tVar && n.text[0] == '$' && startsTerm(p.peek(1)) && !isOperatorLike(p.peek(1)):
		p.advance()
		c.block = []stmt{exprStmt{callRef{fn: varNode{name: n.text, line: n.line}, line: n.line}}}
	}
	switch {
	case parens:
		c.args = p.args()
	case !p.endsExpr():
		c.args = flatten(p.expr(4))
	}
	c.end = p.toks[p.i-1].end
	return c
}

func (p *parser) my() node {
	var m myNode
	if p.tok().kind == tIdent && p.peek(1).kind == tVar {
		p.advance() // my Dog $spot
	}
	if p.isOp("(") {
		p.advance()
		for !p.isOp(")") {
			t := p.advance()
			switch {
			case t.kind == tVar:
				// local may name elements: local ($h{k}, $x).
				p.i--
				m.vars = append(m.vars, p.variable(t))
			case t.kind == tIdent && t.text == "undef":
				m.vars = append(m.vars, nil)
			case t.kind == tOp && t.text == ",":
			default:
				p.i--
				p.fail("expected a variable in the list")
			}
		}
		p.advance()
		m.list = true
		return m
	}
	t := p.tok()
	if t.kind != tVar {
		if t.kind == tCast || t.kind == tIdent {
			// local $_{…}, local *FH, local $x->{…}
			return p.expr(21)
		}
		p.fail("expected a variable after my")
	}
	x := p.variable(t)
	if _, ok := x.(varNode); !ok {
		return x // local $h{k}
	}
	m.vars = []node{x}
	return m
}

// code parses the text of a substitution's replacement under /e.
func (p *parser) code(text string, line int) node {
	sub, err := parseAt(text, line, p.depth)
	if err != nil {
		return strLit{text}
	}
	return doBlock{sub}
}

// parseAt parses code written inside other code (a replacement under /e,
// an expression in a string) at a line of it, as deep as it is nested.
func parseAt(text string, line, depth int) ([]stmt, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	for i := range toks {
		toks[i].line += line - 1
		toks[i].pos, toks[i].end = -1, -1
	}
	sp := &parser{toks: toks, src: text, depth: depth}
	var prog []stmt
	err = func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				se, ok := r.(*syntaxError)
				if !ok {
					panic(r)
				}
				err = se
			}
		}()
		for sp.tok().kind != tEOF {
			prog = append(prog, sp.stmt())
		}
		return nil
	}()
	return prog, err
}
