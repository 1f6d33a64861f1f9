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
	switch {
	case op == "%" && a.kind == kStr:
		return r.percent(fr, a, b, at)
	case op == "/" && a.kind == kObject && a.obj.path != nil:
		return r.pathObject(r.joinPaths([]value{*a.obj.path, b}))
	case op == "+" && (a.kind == kStr || a.kind == kBytes) && a.kind == b.kind:
		return strOf(append(append([]part(nil), a.parts...), b.parts...), a.taints.union(b.taints))
	case op == "+" && (a.kind == kList || a.kind == kTuple) && a.kind == b.kind:
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
	case op == "*" && (a.kind == kStr || a.kind == kBytes) && b.kind == kInt:
		s, ok := a.text()
		if ok && b.known && b.n >= 0 && int64(len(s))*b.n <= 1<<12 {
			out := str(strings.Repeat(s, int(b.n)))
			out.kind, out.taints = a.kind, a.taints.union(b.taints)
			return out
		}
	case op == "*" && (a.kind == kList || a.kind == kTuple) && b.kind == kInt:
		out := newList(a.kind, nil)
		out.obj.addMore(a.obj.element())
		out.obj.whole = a.obj.whole.union(b.taints)
		return out
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
		return out
	case op == "|" && a.kind == kDict && b.kind == kDict:
		out := value{kind: kDict, obj: &object{}}
		r.mergeDict(fr, out, a, at)
		r.mergeDict(fr, out, b, at)
		return out
	case a.kind == kInt && b.kind == kInt || a.kind == kBool && b.kind == kInt || a.kind == kInt && b.kind == kBool:
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
	case (a.kind == kInt || a.kind == kBool) && (b.kind == kInt || b.kind == kBool) && op != "/":
		return value{kind: kInt, taints: t}
	case isNumeric(a) && isNumeric(b):
		return value{kind: kFloat, taints: t}
	}
	return value{kind: kUnknown, taints: t, sym: r.newSym()}
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
		hi, lo := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		return x * y, true
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
		if y < 0 || y > 62 {
			return 0, false
		}
		p := int64(1)
		for i := int64(0); i < y; i++ {
			hi, lo := bits.Mul64(uint64(abs(p)), uint64(abs(x)))
			if hi != 0 || lo > math.MaxInt64 {
				return 0, false
			}
			p *= x
		}
		return p, true
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
	if !ok {
		return r.fresh(f.taints.union(r.dataOf(fr, args, at)))
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
		c := s[i]
		if c != '%' {
			parts = append(parts, part{text: string(c)})
			continue
		}
		j := i + 1
		var key string
		if j < len(s) && s[j] == '(' {
			end := strings.IndexByte(s[j:], ')')
			if end < 0 {
				return r.fresh(t.union(r.dataOf(fr, args, at)))
			}
			key = s[j+1 : j+end]
			j += end + 1
		}
		plain := true
		for j < len(s) && strings.IndexByte("#0- +123456789.*hlL", s[j]) >= 0 {
			plain = false
			j++
		}
		if j >= len(s) {
			return r.fresh(t.union(r.dataOf(fr, args, at)))
		}
		conv := s[j]
		i = j
		if conv == '%' {
			parts = append(parts, part{text: "%"})
			continue
		}
		var v value
		switch {
		case key != "" && mapping:
			v = r.item(fr, args, str(key), at)
		case next < len(positional):
			v = positional[next]
			next++
		default:
			return r.fresh(t.union(r.dataOf(fr, args, at)))
		}
		var s value
		switch {
		case plain && (conv == 's' || conv == 'r' || conv == 'a'):
			s = r.toStr(fr, v, conv != 's', at)
		case plain && (conv == 'd' || conv == 'i' || conv == 'u') && v.kind == kInt && v.known:
			s = withTaints(str(strconv.FormatInt(v.n, 10)), v.taints)
		default:
			s = r.fresh(r.dataOf(fr, v, at))
		}
		parts = append(parts, s.parts...)
		t = t.union(s.taints)
	}
	return strOf(parts, t)
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
