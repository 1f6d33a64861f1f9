package javascript

// expr reads an expression, commas included.
func (p *parser) expr() expr {
	x := p.assignExpr()
	if !p.is(",") {
		return x
	}
	s := seq{items: []expr{x}}
	for p.is(",") {
		p.advance()
		s.items = append(s.items, p.assignExpr())
	}
	return s
}

func isAssignOp(s string) bool {
	switch s {
	case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=":
		return true
	}
	return false
}

// assignExpr reads an expression without commas: an arrow function, an
// assignment, or a conditional.
func (p *parser) assignExpr() expr {
	p.enter()
	defer p.leave()
	if f, ok := p.arrow(); ok {
		return f
	}
	if p.is("yield") {
		p.advance()
		if p.is("*") {
			p.advance()
		}
		if p.tok().nl || p.is(")") || p.is("]") || p.is("}") || p.is(",") || p.is(";") {
			return nil
		}
		return p.assignExpr()
	}
	x := p.conditional()
	if t := p.tok(); t.kind == tPunct && isAssignOp(t.text) {
		p.advance()
		return assign{op: t.text, target: x, value: p.assignExpr()}
	}
	return x
}

// arrow reads an arrow function if one starts here: x => …, (a, b) => …,
// async x => ….
func (p *parser) arrow() (expr, bool) {
	start := p.i
	if p.is("async") && !p.peek(1).nl && (p.peek(1).kind == tName || p.peek(1).text == "(") {
		p.advance()
	}
	t := p.tok()
	var params []expr
	switch {
	case t.kind == tName && p.peek(1).text == "=>" && p.peek(1).kind == tPunct:
		p.advance()
		params = []expr{ident{name: t.text, pos: t.pos, end: t.end, line: t.line}}
	case p.is("("):
		end := p.matching(p.i)
		if end < 0 || end+1 >= len(p.toks) || p.toks[end+1].kind != tPunct || p.toks[end+1].text != "=>" {
			p.i = start
			return nil, false
		}
		params = p.params()
	default:
		p.i = start
		return nil, false
	}
	p.expect("=>")
	def := &funcDef{params: params, arrow: true}
	if p.is("{") {
		def.body = p.block()
	} else {
		def.exprBody = p.assignExpr()
	}
	return funcLit{def}, true
}

// matching is the index of the token that closes the bracket at i, or -1.
func (p *parser) matching(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func (p *parser) conditional() expr {
	c := p.binaryExpr(0)
	if !p.is("?") {
		return c
	}
	p.advance()
	noIn := p.noIn
	p.noIn = false
	a := p.assignExpr()
	p.noIn = noIn
	p.expect(":")
	return condExpr{c, a, p.assignExpr()}
}

func (p *parser) binaryPower(t token) int {
	if t.kind == tName {
		switch t.text {
		case "instanceof":
			return 11
		case "in":
			if p.noIn {
				return 0
			}
			return 11
		}
		return 0
	}
	if t.kind != tPunct {
		return 0
	}
	switch t.text {
	case "??":
		return 4
	case "||":
		return 5
	case "&&":
		return 6
	case "|":
		return 7
	case "^":
		return 8
	case "&":
		return 9
	case "==", "!=", "===", "!==":
		return 10
	case "<", ">", "<=", ">=":
		return 11
	case "<<", ">>", ">>>":
		return 12
	case "+", "-":
		return 13
	case "*", "/", "%":
		return 14
	case "**":
		return 15
	}
	return 0
}

func (p *parser) binaryExpr(min int) expr {
	p.enter()
	defer p.leave()
	x := p.unaryExpr()
	for {
		t := p.tok()
		bp := p.binaryPower(t)
		if bp == 0 || bp <= min {
			return x
		}
		p.advance()
		if t.text == "**" {
			x = binary{t.text, x, p.binaryExpr(bp - 1)}
			continue
		}
		x = binary{t.text, x, p.binaryExpr(bp)}
	}
}

func (p *parser) unaryExpr() expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case t.kind == tPunct && (t.text == "!" || t.text == "~" || t.text == "+" || t.text == "-"):
		p.advance()
		return unary{t.text, p.unaryExpr()}
	case t.kind == tPunct && (t.text == "++" || t.text == "--"):
		p.advance()
		return update{p.unaryExpr()}
	case t.kind == tName && (t.text == "typeof" || t.text == "void" || t.text == "delete" || t.text == "await"):
		p.advance()
		return unary{t.text, p.unaryExpr()}
	}
	x := p.postfix()
	if t := p.tok(); t.kind == tPunct && (t.text == "++" || t.text == "--") && !t.nl {
		p.advance()
		return update{x}
	}
	return x
}

// postfix reads member accesses and calls after an operand.
func (p *parser) postfix() expr {
	var x expr
	if p.is("new") {
		x = p.newExpr()
	} else {
		x = p.primary()
	}
	return p.calls(x, true)
}

func (p *parser) calls(x expr, allowCall bool) expr {
	for n := 0; ; n++ {
		if n > maxDepth {
			// A chain as long is followed by recursion, as nesting is.
			p.fail("member accesses and calls chained deeper than %d", maxDepth)
		}
		t := p.tok()
		switch {
		case p.is(".") || p.is("?."):
			p.advance()
			if p.is("(") && t.text == "?." {
				x = p.callArgs(x, t)
				continue
			}
			if p.is("[") && t.text == "?." {
				continue
			}
			if p.is("#") {
				p.advance()
			}
			n := p.advance()
			if n.kind != tName {
				p.i--
				p.fail("expected a property name")
			}
			x = member{obj: x, name: n.text, pos: exprPos(x, t.pos), end: n.end, line: n.line}
		case p.is("["):
			p.advance()
			k := p.expr()
			end := p.expect("]")
			x = member{obj: x, computed: k, pos: exprPos(x, t.pos), end: end.end, line: t.line}
		case p.is("(") && allowCall:
			x = p.callArgs(x, t)
		case t.kind == tTemplate:
			// A tagged template calls its tag.
			p.advance()
			x = call{fn: x, args: []expr{p.template(t)}, pos: exprPos(x, t.pos), end: t.end, line: t.line}
		default:
			return x
		}
	}
}

func (p *parser) callArgs(fn expr, t token) expr {
	p.advance()
	var args []expr
	for !p.is(")") {
		if p.is("...") {
			p.advance()
			args = append(args, spread{p.assignExpr()})
		} else {
			args = append(args, p.assignExpr())
		}
		if p.is(",") {
			p.advance()
		} else if !p.is(")") {
			p.fail("expected , or )")
		}
	}
	end := p.advance()
	return call{fn: fn, args: args, pos: exprPos(fn, t.pos), end: end.end, line: t.line}
}

// exprPos is where an expression starts, for the text a finding quotes.
func exprPos(x expr, def int) int {
	switch x := x.(type) {
	case ident:
		return x.pos
	case member:
		return x.pos
	case call:
		return x.pos
	}
	return def
}

func (p *parser) newExpr() expr {
	t := p.advance()
	if p.is(".") {
		// new.target
		p.advance()
		p.advance()
		return nil
	}
	var callee expr
	if p.is("new") {
		callee = p.newExpr()
	} else {
		callee = p.calls(p.primary(), false)
	}
	c := call{fn: callee, isNew: true, pos: t.pos, end: p.toks[p.i-1].end, line: t.line}
	if p.is("(") {
		args := p.callArgs(callee, t).(call)
		c.args, c.end = args.args, args.end
	}
	return c
}

func (p *parser) primary() expr {
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
	case tTemplate:
		p.advance()
		return p.template(t)
	case tRegex:
		p.advance()
		return regexLit{}
	case tName:
		return p.name(t)
	}
	switch {
	case p.is("("):
		p.advance()
		x := p.expr()
		p.expect(")")
		return x
	case p.is("["):
		p.advance()
		var a arrayLit
		for !p.is("]") {
			switch {
			case p.is(","):
				p.advance()
				a.items = append(a.items, nil)
				continue
			case p.is("..."):
				p.advance()
				a.items = append(a.items, spread{p.assignExpr()})
			default:
				a.items = append(a.items, p.assignExpr())
			}
			if p.is(",") {
				p.advance()
			} else if !p.is("]") {
				p.fail("expected , or ]")
			}
		}
		p.advance()
		return a
	case p.is("{"):
		return p.object()
	case p.is("#"):
		p.advance()
		return p.primary()
	}
	p.fail("expected an expression")
	return nil
}

func (p *parser) name(t token) expr {
	switch t.text {
	case "function":
		p.advance()
		return funcLit{p.function(true)}
	case "async":
		if n := p.peek(1); n.kind == tName && n.text == "function" {
			p.advance()
			p.advance()
			return funcLit{p.function(true)}
		}
	case "class":
		p.advance()
		return classLit{p.class()}
	case "this", "super":
		p.advance()
		return thisExpr{}
	}
	p.advance()
	return ident{name: t.text, pos: t.pos, end: t.end, line: t.line}
}

func (p *parser) object() expr {
	p.expect("{")
	var o objectLit
	for !p.is("}") {
		if p.tok().kind == tEOF {
			p.fail("expected }")
		}
		if p.is("...") {
			p.advance()
			o.props = append(o.props, prop{spread: true, value: p.assignExpr()})
		} else {
			for (p.is("async") || p.is("get") || p.is("set") || p.is("*")) && !(p.peek(1).kind == tPunct && (p.peek(1).text == ":" || p.peek(1).text == "(" || p.peek(1).text == "," || p.peek(1).text == "}")) {
				p.advance()
			}
			t := p.tok()
			pr := p.propKey()
			switch {
			case p.is(":"):
				p.advance()
				pr.value = p.assignExpr()
			case p.is("("):
				m := &funcDef{name: pr.key, params: p.params()}
				m.body = p.block()
				pr.value = funcLit{m}
			case p.is("="):
				// A default in a pattern: { a = 1 }.
				p.advance()
				pr.value = assign{op: "=", target: ident{name: t.text, pos: t.pos, end: t.end, line: t.line}, value: p.assignExpr()}
			default:
				pr.value = ident{name: t.text, pos: t.pos, end: t.end, line: t.line}
			}
			o.props = append(o.props, pr)
		}
		if p.is(",") {
			p.advance()
		} else if !p.is("}") {
			p.fail("expected , or }")
		}
	}
	p.advance()
	return o
}

// template reads a template literal's expressions.
func (p *parser) template(t token) expr {
	var tl tmplLit
	for i, part := range t.parts {
		if i%2 == 0 {
			tl.parts = append(tl.parts, strLit{part})
			continue
		}
		toks, err := lex(part, t.partLines[i], p.depth+1)
		if err != nil {
			panic(err)
		}
		for k := range toks {
			toks[k].pos, toks[k].end = -1, -1
		}
		sub := &parser{toks: toks, src: part, depth: p.depth + 1}
		x := sub.expr()
		if sub.tok().kind != tEOF {
			sub.fail("expected the end of ${…}")
		}
		tl.parts = append(tl.parts, x)
	}
	return tl
}
