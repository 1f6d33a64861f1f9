package python

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// binop is a binary operator: strings and containers built from their
// parts, known ints computed, paths joined (Path / "name"), the rest of
// the kind it must be, carrying what went into it.
func (r *run) binop(fr *frame, op string, a, b value, at node) value {
	if a.kind == kInstance {
		if v, ok := r.dunder(fr, a, b, binaryDunders[op]); ok {
			return v
		}
	}
	if v, ok := r.sequenceOp(fr, op, a, b, at); ok {
		return v
	}
	if v, ok := r.setOp(fr, op, a, b, at); ok {
		return v
	}
	if isNumber(a) && isNumber(b) {
		if n, ok := intOp(op, a, b); ok {
			v := intValue(n)
			v.taints = a.taints.union(b.taints)
			return v
		}
	}
	t := r.deep(a, false).union(r.deep(b, false))
	switch {
	case a.kind == kStr || a.kind == kBytes:
		v := r.fresh(t)
		v.kind = a.kind
		return v
	case isNumber(a) && isNumber(b) && op != "/":
		return value{kind: kInt, taints: t}
	case isNumeric(a) && isNumeric(b):
		return value{kind: kFloat, taints: t}
	}
	return value{kind: kUnknown, taints: t, sym: r.newSym()}
}

// sequenceOp is an operator on strings, lists and tuples: formatting,
// concatenation, repetition, and a path joined by /.
func (r *run) sequenceOp(fr *frame, op string, a, b value, at node) (value, bool) {
	text := a.kind == kStr || a.kind == kBytes
	seq := a.kind == kList || a.kind == kTuple
	switch {
	case op == "%" && a.kind == kStr:
		return r.percent(fr, a, b, at), true
	case op == "/" && a.kind == kObject && a.obj.path != nil:
		return r.pathObject(r.joinPaths([]value{*a.obj.path, b})), true
	case op == "+" && text && a.kind == b.kind:
		return strOf(append(append([]part(nil), a.parts...), b.parts...), a.taints.union(b.taints)), true
	case op == "+" && seq && a.kind == b.kind:
		return concat(a, b), true
	case op == "*" && text && b.kind == kInt:
		s, ok := a.text()
		if ok && b.known && b.n >= 0 && int64(len(s))*b.n <= 1<<12 {
			out := str(strings.Repeat(s, int(b.n)))
			out.kind, out.taints = a.kind, a.taints.union(b.taints)
			return out, true
		}
	case op == "*" && seq && b.kind == kInt:
		out := newList(a.kind, nil)
		out.obj.addMore(a.obj.element())
		out.obj.whole = a.obj.whole.union(b.taints)
		return out, true
	}
	return value{}, false
}

// concat is a + b of lists or tuples.
func concat(a, b value) value {
	out := newList(a.kind, nil)
	for _, src := range []value{a, b} {
		for _, it := range src.obj.items {
			out.obj.push(it)
		}
		if src.obj.more != nil {
			out.obj.addMore(*src.obj.more)
		}
		out.obj.whole = out.obj.whole.union(src.obj.whole)
	}
	return out
}

// setOp is |, &, - and ^ of sets, and | of dicts.
func (r *run) setOp(fr *frame, op string, a, b value, at node) (value, bool) {
	switch {
	case (op == "|" || op == "&" || op == "-" || op == "^") && a.kind == kSet && b.kind == kSet:
		out := newList(kSet, nil)
		out.obj.maker, out.obj.seedText, out.obj.seedSite = a.obj.maker, a.obj.seedText, a.obj.seedSite
		for _, it := range a.obj.items {
			r.addItem(out, it)
		}
		if a.obj.more != nil {
			out.obj.addMore(*a.obj.more)
		}
		if op == "|" || op == "^" {
			r.addToSet(fr, out, b, at)
		}
		r.seedOrder(fr, out, out.obj.maker, at)
		return out, true
	case op == "|" && a.kind == kDict && b.kind == kDict:
		out := value{kind: kDict, obj: &object{}}
		r.mergeDict(fr, out, a, at)
		r.mergeDict(fr, out, b, at)
		return out, true
	}
	return value{}, false
}

func isNumeric(v value) bool { return v.kind == kInt || v.kind == kFloat || v.kind == kBool }

var binaryDunders = map[string]string{
	"+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
	"%": "__mod__", "**": "__pow__", "<<": "__lshift__", ">>": "__rshift__", "&": "__and__",
	"|": "__or__", "^": "__xor__", "@": "__matmul__",
}

// dunder calls an operator's method on an instance of the program's class.
func (r *run) dunder(fr *frame, a, b value, name string) (value, bool) {
	m, _, ok := lookupClass(a.obj.cls, name)
	if !ok || m.kind != kFunc {
		return value{}, false
	}
	self := a
	return r.callUser(fr, m.fn, &self, &call{fr: fr, args: []value{b}}), true
}

// intOp computes an operator on known ints, when the result fits.
func intOp(op string, a, b value) (int64, bool) {
	if !a.known || !b.known {
		return 0, false
	}
	x, y := a.n, b.n
	switch op {
	case "+":
		s := x + y
		return s, (s > x) == (y > 0) || y == 0
	case "-":
		s := x - y
		return s, (s < x) == (y > 0) || y == 0
	case "*":
		return mul(x, y)
	case "//", "%":
		if y == 0 || x == math.MinInt64 && y == -1 {
			return 0, false
		}
		q, m := x/y, x%y
		if m != 0 && (m < 0) != (y < 0) {
			q--
			m += y
		}
		if op == "//" {
			return q, true
		}
		return m, true
	case "**":
		return power(x, y)
	}
	return bitOp(op, x, y)
}

func mul(x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return x * y, true
}

func power(x, y int64) (int64, bool) {
	if y < 0 || y > 62 {
		return 0, false
	}
	p := int64(1)
	for i := int64(0); i < y; i++ {
		var ok bool
		if p, ok = mul(p, x); !ok {
			return 0, false
		}
	}
	return p, true
}

func bitOp(op string, x, y int64) (int64, bool) {
	switch op {
	case "<<":
		if y < 0 || y > 62 || x < 0 || x > math.MaxInt64>>y {
			return 0, false
		}
		return x << y, true
	case ">>":
		if y < 0 {
			return 0, false
		}
		return x >> min(y, 63), true
	case "&":
		return x & y, true
	case "|":
		return x | y, true
	case "^":
		return x ^ y, true
	}
	return 0, false
}

func abs(x int64) int64 {
	if x < 0 {
		if x == math.MinInt64 {
			return math.MaxInt64
		}
		return -x
	}
	return x
}

// percent is printf-style formatting, format % args: %s and %r put the
// argument's text in place; a conversion with a width or of a number
// gives text that is not known, made of the argument.
func (r *run) percent(fr *frame, f, args value, at node) value {
	s, ok := f.text()
	unknownText := func() value { return r.fresh(f.taints.union(r.dataOf(fr, args, at))) }
	if !ok {
		return unknownText()
	}
	var positional []value
	mapping := args.kind == kDict
	if args.kind == kTuple && args.obj.more == nil {
		positional = args.obj.items
	} else if !mapping {
		positional = []value{args}
	}
	var parts []part
	t := f.taints
	next := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			parts = append(parts, part{text: s[i : i+1]})
			continue
		}
		spec, ok := percentSpec(s, i+1)
		if !ok {
			return unknownText()
		}
		i = spec.end
		if spec.conv == '%' {
			parts = append(parts, part{text: "%"})
			continue
		}
		var v value
		switch {
		case spec.key != "" && mapping:
			v = r.item(fr, args, str(spec.key), at)
		case next < len(positional):
			v = positional[next]
			next++
		default:
			return unknownText()
		}
		out := r.percentField(fr, spec, v, at)
		parts = append(parts, out.parts...)
		t = t.union(out.taints)
	}
	return strOf(parts, t)
}

// conversion is one %-conversion of a format: its mapping key, whether it
// has no flags, width or precision, its letter, and where it ends.
type conversion struct {
	key   string
	plain bool
	conv  byte
	end   int
}

func percentSpec(s string, j int) (conversion, bool) {
	c := conversion{plain: true}
	if j < len(s) && s[j] == '(' {
		end := strings.IndexByte(s[j:], ')')
		if end < 0 {
			return c, false
		}
		c.key = s[j+1 : j+end]
		j += end + 1
	}
	for j < len(s) && strings.IndexByte("#0- +123456789.*hlL", s[j]) >= 0 {
		c.plain = false
		j++
	}
	if j >= len(s) {
		return c, false
	}
	c.conv, c.end = s[j], j
	return c, true
}

func (r *run) percentField(fr *frame, c conversion, v value, at node) value {
	switch {
	case c.plain && (c.conv == 's' || c.conv == 'r' || c.conv == 'a'):
		return r.toStr(fr, v, c.conv != 's', at)
	case c.plain && (c.conv == 'd' || c.conv == 'i' || c.conv == 'u') && v.kind == kInt && v.known:
		return withTaints(str(strconv.FormatInt(v.n, 10)), v.taints)
	}
	return r.fresh(r.dataOf(fr, v, at))
}

// hStrFormat is str.format: fields {}, {0}, {name}, {0.attr}, {x[0]},
// with !r and a format spec.
func hStrFormat(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	if !ok {
		return r.fresh(r.callData(fr, c)), true
	}
	var parts []part
	var t taints
	auto := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case (ch == '{' || ch == '}') && i+1 < len(s) && s[i+1] == ch:
			parts = append(parts, part{text: string(ch)})
			i++
			continue
		case ch != '{':
			parts = append(parts, part{text: string(ch)})
			continue
		}
		end := matchingBrace(s, i)
		if end < 0 {
			return r.fresh(r.callData(fr, c)), true
		}
		field := s[i+1 : end]
		i = end
		name, spec, _ := strings.Cut(field, ":")
		name, conv, _ := strings.Cut(name, "!")
		v, ok := r.formatField(fr, c, name, &auto)
		if !ok {
			return r.fresh(r.callData(fr, c)), true
		}
		var sv value
		if spec == "" {
			sv = r.toStr(fr, v, conv == "r" || conv == "a", c.node())
		} else {
			sv = r.fresh(r.dataOf(fr, v, c.node()))
		}
		parts = append(parts, sv.parts...)
		t = t.union(sv.taints)
	}
	return strOf(parts, t.union(c.recv.taints)), true
}

func matchingBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// formatField is the value a field of str.format names.
func (r *run) formatField(fr *frame, c *call, name string, auto *int) (value, bool) {
	first := name
	rest := ""
	if i := strings.IndexAny(name, ".["); i >= 0 {
		first, rest = name[:i], name[i:]
	}
	var v value
	switch n, err := strconv.Atoi(first); {
	case first == "":
		if *auto >= len(c.args) {
			return value{}, false
		}
		v = c.args[*auto]
		*auto++
	case err == nil:
		if n < 0 || n >= len(c.args) {
			return value{}, false
		}
		v = c.args[n]
	default:
		kv, ok := c.kwarg(first)
		if !ok {
			return value{}, false
		}
		v = kv
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			v = r.getattr(fr, v, rest[1:1+end], c.node())
			rest = rest[1+end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return value{}, false
			}
			key := rest[1:end]
			var k value
			if n, err := strconv.Atoi(key); err == nil {
				k = intValue(int64(n))
			} else {
				k = str(key)
			}
			v = r.item(fr, v, k, c.node())
			rest = rest[end+1:]
		default:
			return value{}, false
		}
	}
	return v, true
}
