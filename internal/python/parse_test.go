package python

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// kinds renders tokens as KIND:text, for the tokenizer's table.
func kinds(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.kind {
		case tNewline:
			b.WriteString("NL")
		case tIndent:
			b.WriteString("IN")
		case tDedent:
			b.WriteString("DE")
		case tEOF:
			b.WriteString("EOF")
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"names and operators", "a = b ** 2 // c", "a = b ** 2 // c NL EOF"},
		{"longest operator", "x **= y; f(a) -> b; (n := 1); ...", "x **= y ; f ( a ) -> b ; ( n := 1 ) ; ... NL EOF"},
		{"numbers", "1_000 0x_ff 0o17 0b1 1.5e-3 .5 1j 1e10", "1_000 0x_ff 0o17 0b1 1.5e-3 .5 1j 1e10 NL EOF"},
		{"indent and dedent", "if a:\n    b\n    if c:\n        d\ne\n", "if a : NL IN b NL if c : NL IN d NL DE DE e NL EOF"},
		{"blank and comment lines", "a\n\n   # note\n  \nb # after\n", "a NL b NL EOF"},
		{"brackets join lines", "f(a,\n  b)\nc", "f ( a , b ) NL c NL EOF"},
		{"backslash joins lines", "a = 1 + \\\n    2\n", "a = 1 + 2 NL EOF"},
		{"tabs indent to eight", "if a:\n\tb\n        c\n", "if a : NL IN b NL c NL DE EOF"},
		{"no final newline", "a", "a NL EOF"},
		{"string prefixes", `r'\d' b"x" Rb'y' BR"z" u'u' f'{a}' rf"{b}" Fr'{c}'`, `r'\d' b"x" Rb'y' BR"z" u'u' f'{a}' rf"{b}" Fr'{c}' NL EOF`},
		{"a name that is not a prefix", `rx 'a'`, `rx 'a' NL EOF`},
		{"triple quotes over lines", "x = '''a\n'b'\nc'''\ny", "x = '''a\n'b'\nc''' NL y NL EOF"},
		{"escaped quote", `'it\'s' "a\"b"`, `'it\'s' "a\"b" NL EOF`},
		{"raw string keeps an escaped quote", `r'a\'b'`, `r'a\'b' NL EOF`},
		{"f-string reusing its quote (3.12)", `f"{x["a"]}"`, `f"{x["a"]}" NL EOF`},
		{"f-string nested in an f-string", `f'{f"{1}"}'`, `f'{f"{1}"}' NL EOF`},
		{"f-string with a field in its spec", `f'{x:{w}.{p}f}'`, `f'{x:{w}.{p}f}' NL EOF`},
		{"f-string braces doubled", `f'{{x}}'`, `f'{{x}}' NL EOF`},
		{"f-string field over lines", "f'''{\na\n}'''", "f'''{\na\n}''' NL EOF"},
		{"f-string with a character name", `f'\N{DASH}{x}'`, `f'\N{DASH}{x}' NL EOF`},
		{"byte order mark", "\ufeffa", "a NL EOF"},
		{"unicode name", "café = 1", "café = 1 NL EOF"},
		{"crlf", "a\r\nb\r\n", "a NL b NL EOF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks, err := tokenize(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := kinds(toks); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestTokenizeErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      string
	}{
		{"unterminated string", "a = 'x\nb", 1, "unterminated string literal"},
		{"unterminated triple", "a = '''x\n\nb", 3, "unterminated triple-quoted string literal"},
		{"unterminated f-string field", "f'{a'", 1, "unterminated string literal"},
		{"bad dedent", "if a:\n    b\n  c\n", 3, "unindent does not match any outer indentation level"},
		{"unmatched bracket", "a)", 1, `unmatched ")"`},
		{"bracket never closed", "f(a,\nb", 2, "a bracket is never closed"},
		{"invalid character", "a $ b", 1, "invalid character '$'"},
		{"continuation before text", "a \\ b", 1, "unexpected character after line continuation character"},
		{"brackets too deep", strings.Repeat("(", maxNesting+1), 1, "brackets nested more than"},
		{"blocks too deep", deepBlocks(maxNesting + 2), maxNesting + 2, "blocks nested more than"},
		{"f-strings too deep", strings.Repeat("f'{", maxFStrDepth+2) + "1" + strings.Repeat("}'", maxFStrDepth+2), 1, "f-strings nested more than"},
		{"too big", strings.Repeat("a\n", maxText/2+1), 1, "more than the 1048576 read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tokenize(tc.src)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SyntaxError", err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.want) {
				t.Errorf("got line %d %q, want line %d %q", se.Line, se.Msg, tc.line, tc.want)
			}
		})
	}
}

func deepBlocks(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if a:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

// dump renders a tree as a compact s-expression, for the parser's table.
func dump(n node) string {
	for _, d := range []func(node) (string, bool){dumpAtom, dumpExpr, dumpSimple, dumpCompound} {
		if s, ok := d(n); ok {
			return s
		}
	}
	return fmt.Sprintf("?%T", n)
}

func dumpAtom(n node) (string, bool) {
	switch n := n.(type) {
	case nil:
		return "_", true
	case *nameExpr:
		return n.id, true
	case *constExpr:
		switch n.kind {
		case cStr:
			return strconv.Quote(n.s), true
		case cBytes:
			return "b" + strconv.Quote(n.s), true
		case cNone:
			return "None", true
		case cBool:
			return strconv.FormatBool(n.b), true
		case cEllipsis:
			return "...", true
		}
		return n.s, true
	case *fstringExpr:
		var parts []string
		for _, p := range n.parts {
			if p.x == nil {
				parts = append(parts, strconv.Quote(p.lit))
				continue
			}
			s := "{" + dump(p.x)
			if p.conv != 0 {
				s += "!" + string(p.conv)
			}
			if p.spec != nil {
				s += ":" + dump(&fstringExpr{parts: p.spec})
			}
			parts = append(parts, s+"}")
		}
		return "(f " + strings.Join(parts, " ") + ")", true
	}
	return "", false
}

func dumpExpr(n node) (string, bool) {
	switch n := n.(type) {
	case *attrExpr:
		return "(. " + dump(n.x) + " " + n.name + ")", true
	case *subscriptExpr:
		return "([] " + dump(n.x) + " " + dump(n.index) + ")", true
	case *sliceExpr:
		return "(: " + dump(n.lo) + " " + dump(n.hi) + " " + dump(n.step) + ")", true
	case *callExpr:
		s := "(call " + dump(n.fn)
		for _, a := range n.args {
			s += " " + dump(a)
		}
		for _, k := range n.kw {
			s += " " + orElse(k.name, "**") + "=" + dump(k.x)
		}
		return s + ")", true
	case *binExpr:
		return "(" + n.op + " " + dump(n.l) + " " + dump(n.r) + ")", true
	case *unaryExpr:
		return "(" + n.op + " " + dump(n.x) + ")", true
	case *boolExpr:
		return "(" + n.op + " " + dumps(n.xs) + ")", true
	case *compareExpr:
		s := "(cmp " + dump(n.l)
		for i, op := range n.ops {
			s += " " + op + " " + dump(n.rs[i])
		}
		return s + ")", true
	case *ifExpr:
		return "(if " + dump(n.test) + " " + dump(n.body) + " " + dump(n.orelse) + ")", true
	case *lambdaExpr:
		return "(lambda " + dumpParams(n.params) + " " + dump(n.body) + ")", true
	case *seqExpr:
		return "(" + [...]string{"tuple", "list", "set"}[n.kind] + " " + dumps(n.xs) + ")", true
	case *dictExpr:
		var parts []string
		for i, v := range n.vals {
			parts = append(parts, dump(n.keys[i])+":"+dump(v))
		}
		return "(dict " + strings.Join(parts, " ") + ")", true
	case *compExpr:
		s := "(" + [...]string{"listcomp", "setcomp", "dictcomp", "genexp"}[n.kind] + " "
		if n.key != nil {
			s += dump(n.key) + ":"
		}
		s += dump(n.elt)
		for _, g := range n.gens {
			s += " for " + dump(g.target) + " in " + dump(g.iter)
			for _, c := range g.ifs {
				s += " if " + dump(c)
			}
		}
		return s + ")", true
	}
	return dumpMore(n)
}

func dumpMore(n node) (string, bool) {
	switch n := n.(type) {
	case *starredExpr:
		return "*" + dump(n.x), true
	case *namedExpr:
		return "(:= " + n.target + " " + dump(n.x) + ")", true
	case *yieldExpr:
		if n.from {
			return "(yield-from " + dump(n.x) + ")", true
		}
		return "(yield " + dump(n.x) + ")", true
	case *awaitExpr:
		return "(await " + dump(n.x) + ")", true
	}
	return "", false
}

func dumpSimple(n node) (string, bool) {
	switch n := n.(type) {
	case *exprStmt:
		return dump(n.x), true
	case *assignStmt:
		return "(= " + dumps(n.targets) + " " + dump(n.x) + ")", true
	case *augAssignStmt:
		return "(" + n.op + "= " + dump(n.target) + " " + dump(n.x) + ")", true
	case *annAssignStmt:
		return "(ann " + dump(n.target) + " " + dump(n.x) + ")", true
	case *delStmt:
		return "(del " + dumps(n.targets) + ")", true
	case *jumpStmt:
		return n.kind, true
	case *returnStmt:
		return "(return " + dump(n.x) + ")", true
	case *raiseStmt:
		return "(raise " + dump(n.x) + " " + dump(n.cause) + ")", true
	case *scopeStmt:
		kw := "nonlocal"
		if n.global {
			kw = "global"
		}
		return "(" + kw + " " + strings.Join(n.names, " ") + ")", true
	case *importStmt:
		return "(import " + dumpAliases(n.names) + ")", true
	case *importFromStmt:
		return "(from " + strings.Repeat(".", n.level) + n.module + " " + dumpAliases(n.names) + ")", true
	}
	return "", false
}

func dumpCompound(n node) (string, bool) {
	switch n := n.(type) {
	case *ifStmt:
		return "(if " + dump(n.test) + " " + block(n.body) + " " + block(n.orelse) + ")", true
	case *whileStmt:
		return "(while " + dump(n.test) + " " + block(n.body) + " " + block(n.orelse) + ")", true
	case *forStmt:
		return "(for " + dump(n.target) + " " + dump(n.iter) + " " + block(n.body) + " " + block(n.orelse) + ")", true
	case *tryStmt:
		s := "(try " + block(n.body)
		for _, h := range n.handlers {
			s += " (except " + dump(h.typ) + " " + orElse(h.name, "_") + " " + block(h.body) + ")"
		}
		return s + " " + block(n.orelse) + " " + block(n.finally) + ")", true
	case *withStmt:
		var items []string
		for _, it := range n.items {
			items = append(items, dump(it.ctx)+" as "+dump(it.vars))
		}
		return "(with " + strings.Join(items, ", ") + " " + block(n.body) + ")", true
	case *funcDef:
		s := "(def " + n.name + " " + dumpParams(n.params) + " " + block(n.body)
		if len(n.decorators) > 0 {
			s += " @" + dumps(n.decorators)
		}
		if n.generator {
			s += " generator"
		}
		return s + ")", true
	case *classDef:
		return "(class " + n.name + " " + dumps(n.bases) + " " + block(n.body) + ")", true
	case *assertStmt:
		return "(assert " + dump(n.test) + " " + dump(n.msg) + ")", true
	case *matchStmt:
		s := "(match " + dump(n.subject)
		for _, c := range n.cases {
			s += " (case " + dump(c.pattern) + " " + dump(c.guard) + " " + block(c.body) + ")"
		}
		return s + ")", true
	}
	return "", false
}

func dumps[N node](xs []N) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, dump(x))
	}
	return strings.Join(parts, " ")
}

func block(body []stmt) string { return "[" + dumps(body) + "]" }

func dumpParams(ps []param) string {
	var parts []string
	for _, p := range ps {
		s := [...]string{"", "*", "**"}[p.kind] + p.name
		if p.def != nil {
			s += "=" + dump(p.def)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func dumpAliases(as []alias) string {
	var parts []string
	for _, a := range as {
		s := a.name
		if a.asName != "" {
			s += " as " + a.asName
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"precedence", "a + b * c ** -d", "(+ a (* b (** c (- d))))"},
		{"power binds right", "a ** b ** c", "(** a (** b c))"},
		{"comparison chain", "a < b <= c != d", "(cmp a < b <= c != d)"},
		{"not in and is not", "a not in b is not c", "(cmp a not in b is not c)"},
		{"not binds looser than comparison", "not a == b", "(not (cmp a == b))"},
		{"boolean operators", "a or b and not c", "(or a (and b (not c)))"},
		{"conditional", "a if b else c if d else e", "(if b a (if d c e))"},
		{"lambda", "lambda x, y=1, *a, k, **kw: x", "(lambda (x y=1 *a k **kw) x)"},
		{"call arguments", "f(a, *b, c=1, **d)", "(call f a *b c=1 **=d)"},
		{"generator argument", "f(x for x in y if x)", "(call f (genexp x for x in y if x))"},
		{"attribute and subscript", "a.b[c].d(e)", "(call (. ([] (. a b) c) d) e)"},
		{"slices", "a[1:2, ::3, :]", "([] a (tuple (: 1 2 _) (: _ _ 3) (: _ _ _)))"},
		{"tuple without brackets", "x = 1, 2,", "(= x (tuple 1 2))"},
		{"unpacking targets", "a, *b = c = d", "(= (tuple a *b) c d)"},
		{"augmented", "a[i] += 1", "(+= ([] a i) 1)"},
		{"annotated", "x: int = 1", "(ann x 1)"},
		{"annotation only", "x: list[int]", "(ann x _)"},
		{"walrus", "if (n := len(a)) > 1: pass", "(if (cmp (:= n (call len a)) > 1) [pass] [])"},
		{"displays", "[1, *a], {1, 2}, {}, {'k': v, **d}, ()", "(tuple (list 1 *a) (set 1 2) (dict ) (dict \"k\":v _:d) (tuple ))"},
		{"comprehensions", "[x for x in a if x for y in x], {k: v for k, v in d}, {x for x in s}", "(tuple (listcomp x for x in a if x for y in x) (dictcomp k:v for (tuple k v) in d) (setcomp x for x in s))"},
		{"strings joined", "'a' \"b\" '''c'''", `"abc"`},
		{"escapes", `'\x41\u00e9\101\n\\' r'\n'`, `"Aé` + "A\\n\\\\" + `\\n"`},
		{"bytes", `b'\x00a' rb'\x'`, `b"\x00a\\x"`},
		{"f-string", "f'a{b!r:>{w}}c{{d}}'", `(f "a" {b!r:(f ">" {w})} "c{d}")`},
		{"f-string debug", "f'{x = }'", `(f "x = " {x!r})`},
		{"f-string with a string inside", `f'{"-".join(a)}'`, `(f {(call (. "-" join) a)})`},
		{"f-string joined to a string", `'a' f'{b}'`, `(f "a" {b})`},
		{"imports", "import a.b as c, d\nfrom ..e import (f as g, h,)\nfrom . import *", "(import a.b as c, d) (from ..e f as g, h) (from . *)"},
		{"if elif else", "if a:\n    b\nelif c:\n    d\nelse:\n    e", "(if a [b] [(if c [d] [e])])"},
		{"loops", "for i in a, b:\n    break\nelse:\n    pass\nwhile x: continue", "(for i (tuple a b) [break] [pass]) (while x [continue] [])"},
		{"try", "try:\n    a\nexcept (E, F) as e:\n    b\nexcept* G:\n    c\nelse:\n    d\nfinally:\n    f", "(try [a] (except (tuple E F) e [b]) (except G _ [c]) [d] [f])"},
		{"with", "with open(a) as f, b:\n    pass", "(with (call open a) as f, b as _ [pass])"},
		{"with brackets", "with (open(a) as f,\n      open(b) as g):\n    pass", "(with (call open a) as f, (call open b) as g [pass])"},
		{"with a bracketed expression", "with (a) as b: pass", "(with a as b [pass])"},
		{"def", "@dec\n@other(1)\nasync def f(a, /, b: int = 2, *, c, **k) -> None:\n    yield a", "(def f (a b=2 c **k) [(yield a)] @dec (call other 1) generator)"},
		{"class", "class C(B, metaclass=M):\n    x = 1", "(class C B [(= x 1)])"},
		{"generic def", "def f[T](x: T) -> T: return x", "(def f (x) [(return x)])"},
		{"type alias", "type X = list[int]", "(= X ([] list int))"},
		{"match", "match p:\n    case [x, *rest] if x:\n        pass\n    case Point(x=0) | {'k': v} as w:\n        pass", "(match p (case (list x *rest) x [pass]) (case (:= w (| (call Point x=0) (dict \"k\":v))) _ [pass]))"},
		{"match as a name", "match = 1\nmatch(x)", "(= match 1) (call match x)"},
		{"statements on a line", "a; b; global c, d; del e, f[0]; assert g, 'm'; raise X from y", "a b (global c d) (del e ([] f 0)) (assert g \"m\") (raise X y)"},
		{"nonlocal and return", "def f():\n    nonlocal a\n    return a, b", "(def f () [(nonlocal a) (return (tuple a b))])"},
		{"yield from and await", "async def f():\n    x = await g()\n    yield from h", "(def f () [(= x (await (call g))) (yield-from h)] generator)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, err := parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := dumps(body); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      string
	}{
		{"python 2 print", "print 'x'", 1, `unexpected "'x'"`},
		{"missing colon", "if a\n    b", 1, `expected ":"`},
		{"unexpected indent", "a\n    b", 2, "unexpected indent"},
		{"missing block", "if a:\nb", 2, "expected an indented block"},
		{"try alone", "try:\n    a\nb", 3, "expected 'except' or 'finally' block"},
		{"keyword as a name", "def class(): pass", 1, "expected a name"},
		{"mixed bytes and str", "b'a' 'b'", 1, "cannot mix bytes and nonbytes literals"},
		{"empty f-string field", "f'{}'", 1, "f-string: empty expression not allowed"},
		{"bad f-string field", "f'{a b}'", 1, `f-string: unexpected "b"`},
		{"too deep", strings.Repeat("not ", maxParseDepth+1) + "a", 1, "expressions nested more than"},
		{"too deep unary", strings.Repeat("-", maxParseDepth+1) + "a", 1, "expressions nested more than"},
		{"decorator of nothing", "@d\nx = 1", 2, "expected def or class after decorators"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(tc.src)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SyntaxError", err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.want) {
				t.Errorf("got line %d %q, want line %d %q", se.Line, se.Msg, tc.line, tc.want)
			}
		})
	}
}

func TestParseExpr(t *testing.T) {
	x, err := parseExpr("os.getpid() + 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(x); got != "(+ (call (. os getpid)) 1)" {
		t.Errorf("got %s", got)
	}
	if _, err := parseExpr("a b"); err == nil {
		t.Error("two expressions parsed as one")
	}
}

func TestSpans(t *testing.T) {
	src := "import time\nx = [n\n     for n in range(3)]\ny = {'a': f'{time.time():.0f}'}\n"
	body, err := parse(src)
	if err != nil {
		t.Fatal(err)
	}
	m := &module{src: src}
	var got []string
	walkStmts(body, func(n node) bool {
		switch n.(type) {
		case *compExpr, *callExpr, *fstringExpr, *dictExpr:
			got = append(got, fmt.Sprintf("%d %s", n.at().line, m.text(n)))
		}
		return true
	})
	want := []string{"2 [n for n in range(3)]", "3 range(3)", "4 {'a': f'{time.time():.0f}'}", "4 f'{time.time():.0f}'", "4 time.time()"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
