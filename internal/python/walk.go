package python

// walk calls f for every node of the tree under n, parents first; f
// returns false to skip a node's children.
func walk(n node, f func(node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, c := range children(n) {
		walk(c, f)
	}
}

func walkStmts(body []stmt, f func(node) bool) {
	for _, s := range body {
		walk(s, f)
	}
}

// children lists the nodes directly under n, in the order written.
func children(n node) []node {
	var out []node
	add := func(xs ...node) {
		for _, x := range xs {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	addExprs := func(xs []expr) {
		for _, x := range xs {
			add(x)
		}
	}
	addStmts := func(xs []stmt) {
		for _, x := range xs {
			add(x)
		}
	}
	var addParts func([]fpart)
	addParts = func(ps []fpart) {
		for _, p := range ps {
			if p.x != nil {
				add(p.x)
			}
			addParts(p.spec)
		}
	}
	switch n := n.(type) {
	case *fstringExpr:
		addParts(n.parts)
	case *attrExpr:
		add(n.x)
	case *subscriptExpr:
		add(n.x, n.index)
	case *sliceExpr:
		add(n.lo, n.hi, n.step)
	case *callExpr:
		add(n.fn)
		addExprs(n.args)
		for _, k := range n.kw {
			add(k.x)
		}
	case *binExpr:
		add(n.l, n.r)
	case *unaryExpr:
		add(n.x)
	case *boolExpr:
		addExprs(n.xs)
	case *compareExpr:
		add(n.l)
		addExprs(n.rs)
	case *ifExpr:
		add(n.body, n.test, n.orelse)
	case *lambdaExpr:
		for _, p := range n.params {
			add(p.def)
		}
		add(n.body)
	case *seqExpr:
		addExprs(n.xs)
	case *dictExpr:
		for i := range n.vals {
			add(n.keys[i], n.vals[i])
		}
	case *compExpr:
		for _, g := range n.gens {
			add(g.target, g.iter)
			addExprs(g.ifs)
		}
		add(n.key, n.elt)
	case *starredExpr:
		add(n.x)
	case *namedExpr:
		add(n.x)
	case *yieldExpr:
		add(n.x)
	case *awaitExpr:
		add(n.x)
	case *exprStmt:
		add(n.x)
	case *assignStmt:
		addExprs(n.targets)
		add(n.x)
	case *augAssignStmt:
		add(n.target, n.x)
	case *annAssignStmt:
		add(n.target, n.x)
	case *delStmt:
		addExprs(n.targets)
	case *returnStmt:
		add(n.x)
	case *raiseStmt:
		add(n.x, n.cause)
	case *ifStmt:
		add(n.test)
		addStmts(n.body)
		addStmts(n.orelse)
	case *whileStmt:
		add(n.test)
		addStmts(n.body)
		addStmts(n.orelse)
	case *forStmt:
		add(n.target, n.iter)
		addStmts(n.body)
		addStmts(n.orelse)
	case *tryStmt:
		addStmts(n.body)
		for _, h := range n.handlers {
			add(h.typ)
			addStmts(h.body)
		}
		addStmts(n.orelse)
		addStmts(n.finally)
	case *withStmt:
		for _, it := range n.items {
			add(it.ctx, it.vars)
		}
		addStmts(n.body)
	case *funcDef:
		addExprs(n.decorators)
		for _, p := range n.params {
			add(p.def)
		}
		addStmts(n.body)
	case *classDef:
		addExprs(n.decorators)
		addExprs(n.bases)
		for _, k := range n.kw {
			add(k.x)
		}
		addStmts(n.body)
	case *assertStmt:
		add(n.test, n.msg)
	case *matchStmt:
		add(n.subject)
		for _, c := range n.cases {
			add(c.pattern, c.guard)
			addStmts(c.body)
		}
	}
	return out
}
