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
	var c kids
	if x, ok := n.(expr); ok && c.expr(x) {
		return c.nodes
	}
	c.stmt(n)
	return c.nodes
}

// kids collects a node's children.
type kids struct{ nodes []node }

func (c *kids) add(xs ...node) {
	for _, x := range xs {
		if x != nil {
			c.nodes = append(c.nodes, x)
		}
	}
}

func (c *kids) exprs(xs []expr) {
	for _, x := range xs {
		c.add(x)
	}
}

func (c *kids) stmts(xs []stmt) {
	for _, x := range xs {
		c.add(x)
	}
}

func (c *kids) parts(ps []fpart) {
	for _, p := range ps {
		c.add(p.x)
		c.parts(p.spec)
	}
}

// expr adds the children of an expression; it says whether n is one.
func (c *kids) expr(n expr) bool {
	switch n := n.(type) {
	case *fstringExpr:
		c.parts(n.parts)
	case *attrExpr:
		c.add(n.x)
	case *subscriptExpr:
		c.add(n.x, n.index)
	case *sliceExpr:
		c.add(n.lo, n.hi, n.step)
	case *callExpr:
		c.add(n.fn)
		c.exprs(n.args)
		for _, k := range n.kw {
			c.add(k.x)
		}
	case *binExpr:
		c.add(n.l, n.r)
	case *unaryExpr:
		c.add(n.x)
	case *boolExpr:
		c.exprs(n.xs)
	case *compareExpr:
		c.add(n.l)
		c.exprs(n.rs)
	case *ifExpr:
		c.add(n.body, n.test, n.orelse)
	case *lambdaExpr:
		for _, p := range n.params {
			c.add(p.def)
		}
		c.add(n.body)
	default:
		return c.moreExpr(n)
	}
	return true
}

func (c *kids) moreExpr(n expr) bool {
	switch n := n.(type) {
	case *seqExpr:
		c.exprs(n.xs)
	case *dictExpr:
		for i := range n.vals {
			c.add(n.keys[i], n.vals[i])
		}
	case *compExpr:
		for _, g := range n.gens {
			c.add(g.target, g.iter)
			c.exprs(g.ifs)
		}
		c.add(n.key, n.elt)
	case *starredExpr:
		c.add(n.x)
	case *namedExpr:
		c.add(n.x)
	case *yieldExpr:
		c.add(n.x)
	case *awaitExpr:
		c.add(n.x)
	case *nameExpr, *constExpr:
	default:
		return false
	}
	return true
}

// stmt adds the children of a statement.
func (c *kids) stmt(n node) {
	switch n := n.(type) {
	case *exprStmt:
		c.add(n.x)
	case *assignStmt:
		c.exprs(n.targets)
		c.add(n.x)
	case *augAssignStmt:
		c.add(n.target, n.x)
	case *annAssignStmt:
		c.add(n.target, n.x)
	case *delStmt:
		c.exprs(n.targets)
	case *returnStmt:
		c.add(n.x)
	case *raiseStmt:
		c.add(n.x, n.cause)
	case *assertStmt:
		c.add(n.test, n.msg)
	default:
		c.compound(n)
	}
}

func (c *kids) compound(n node) {
	switch n := n.(type) {
	case *ifStmt:
		c.add(n.test)
		c.stmts(n.body)
		c.stmts(n.orelse)
	case *whileStmt:
		c.add(n.test)
		c.stmts(n.body)
		c.stmts(n.orelse)
	case *forStmt:
		c.add(n.target, n.iter)
		c.stmts(n.body)
		c.stmts(n.orelse)
	case *tryStmt:
		c.stmts(n.body)
		for _, h := range n.handlers {
			c.add(h.typ)
			c.stmts(h.body)
		}
		c.stmts(n.orelse)
		c.stmts(n.finally)
	case *withStmt:
		for _, it := range n.items {
			c.add(it.ctx, it.vars)
		}
		c.stmts(n.body)
	case *funcDef:
		c.exprs(n.decorators)
		for _, p := range n.params {
			c.add(p.def)
		}
		c.stmts(n.body)
	case *classDef:
		c.exprs(n.decorators)
		c.exprs(n.bases)
		for _, k := range n.kw {
			c.add(k.x)
		}
		c.stmts(n.body)
	case *matchStmt:
		c.add(n.subject)
		for _, mc := range n.cases {
			c.add(mc.pattern, mc.guard)
			c.stmts(mc.body)
		}
	}
}
