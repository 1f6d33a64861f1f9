package python

// The syntax tree: a small one, of what the interpreter follows. Every
// node knows its span in the program's text, so that a finding can quote
// the expression as written and name its line.

// span is where a node is written: byte offsets and the line it starts on.
type span struct {
	pos, end, line int
}

func (s span) at() span { return s }

// node is any node of the tree.
type node interface{ at() span }

type (
	expr interface{ node }
	stmt interface{ node }
)

// constKind is the type of a literal.
type constKind uint8

const (
	cNone constKind = iota
	cBool
	cInt
	cFloat
	cComplex
	cStr
	cBytes
	cEllipsis
)

// Expressions.
type (
	nameExpr struct {
		span
		id string
	}
	// constExpr is a literal; adjacent string literals are joined.
	constExpr struct {
		span
		kind constKind
		s    string // the value of a string; the text of a number
		n    int64  // an int's value, when it fits (intOK)
		b    bool
		// intOK says n holds an int's exact value.
		intOK bool
	}
	// fstringExpr is an f-string, or string literals joined to one.
	fstringExpr struct {
		span
		parts []fpart
	}
	attrExpr struct {
		span
		x    expr
		name string
	}
	subscriptExpr struct {
		span
		x, index expr
	}
	sliceExpr struct {
		span
		lo, hi, step expr // each may be nil
	}
	callExpr struct {
		span
		fn   expr
		args []expr // *x as starredExpr
		kw   []keyword
	}
	binExpr struct {
		span
		op   string
		l, r expr
	}
	unaryExpr struct {
		span
		op string // "-", "+", "~", "not"
		x  expr
	}
	boolExpr struct {
		span
		op string // "and", "or"
		xs []expr
	}
	compareExpr struct {
		span
		l   expr
		ops []string // "<", "==", "in", "not in", "is", "is not"…
		rs  []expr
	}
	ifExpr struct {
		span
		test, body, orelse expr
	}
	lambdaExpr struct {
		span
		params []param
		body   expr
	}
	// seqExpr is a tuple, a list or a set display.
	seqExpr struct {
		span
		kind seqKind
		xs   []expr
	}
	dictExpr struct {
		span
		keys []expr // nil for **x
		vals []expr
	}
	// compExpr is a comprehension or a generator expression.
	compExpr struct {
		span
		kind compKind
		key  expr // a dict comprehension's key
		elt  expr
		gens []comprehension
	}
	starredExpr struct {
		span
		x expr
	}
	namedExpr struct {
		span
		target string
		x      expr
	}
	yieldExpr struct {
		span
		x    expr // may be nil
		from bool
	}
	awaitExpr struct {
		span
		x expr
	}
)

type seqKind uint8

const (
	tupleSeq seqKind = iota
	listSeq
	setSeq
)

type compKind uint8

const (
	listComp compKind = iota
	setComp
	dictComp
	genComp
)

// fpart is a literal piece of an f-string, or a replacement field.
type fpart struct {
	lit  string
	x    expr // nil for a literal
	conv byte // 'r', 's', 'a' or 0
	spec []fpart
	// text is the field's expression as written, for `=` fields.
	text string
}

type keyword struct {
	name string // "" for **x
	x    expr
}

type comprehension struct {
	target expr
	iter   expr
	ifs    []expr
}

// param is a parameter of a function: kind says whether it collects the
// rest (*args, **kwargs).
type param struct {
	name string
	def  expr // default value, or nil
	kind paramKind
}

type paramKind uint8

const (
	plainParam paramKind = iota
	starParam            // *args
	kwParam              // **kwargs
)

// Statements.
type (
	exprStmt struct {
		span
		x expr
	}
	assignStmt struct {
		span
		targets []expr // a = b = value: both
		x       expr
	}
	augAssignStmt struct {
		span
		target expr
		op     string // "+", "-"… without the "="
		x      expr
	}
	annAssignStmt struct {
		span
		target expr
		x      expr // may be nil
	}
	delStmt struct {
		span
		targets []expr
	}
	// jumpStmt is pass, break or continue.
	jumpStmt struct {
		span
		kind string
	}
	returnStmt struct {
		span
		x expr // may be nil
	}
	raiseStmt struct {
		span
		x, cause expr
	}
	// scopeStmt is global or nonlocal.
	scopeStmt struct {
		span
		global bool
		names  []string
	}
	importStmt struct {
		span
		names []alias
	}
	importFromStmt struct {
		span
		module string // dotted, without the leading dots
		level  int    // the leading dots
		names  []alias
	}
	ifStmt struct {
		span
		test         expr
		body, orelse []stmt
	}
	whileStmt struct {
		span
		test         expr
		body, orelse []stmt
	}
	forStmt struct {
		span
		target, iter expr
		body, orelse []stmt
	}
	tryStmt struct {
		span
		body     []stmt
		handlers []excHandler
		orelse   []stmt
		finally  []stmt
	}
	withStmt struct {
		span
		items []withItem
		body  []stmt
	}
	funcDef struct {
		span
		name       string
		params     []param
		body       []stmt
		decorators []expr
		// generator says the body yields.
		generator bool
	}
	classDef struct {
		span
		name       string
		bases      []expr
		kw         []keyword
		body       []stmt
		decorators []expr
	}
	assertStmt struct {
		span
		test, msg expr
	}
	matchStmt struct {
		span
		subject expr
		cases   []matchCase
	}
)

// alias is one name an import binds: `name as asName`; "*" for every
// public name.
type alias struct {
	name, asName string
}

type excHandler struct {
	typ  expr // may be nil
	name string
	body []stmt
}

type withItem struct {
	ctx  expr
	vars expr // may be nil
}

// matchCase is one case of a match: its pattern is read as an
// expression whose plain names, and those after `as`, are captures.
type matchCase struct {
	pattern expr
	guard   expr
	body    []stmt
}
