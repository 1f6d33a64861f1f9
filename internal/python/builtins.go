package python

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/ahab-go/ahab/internal/effect"
)

// The builtins of Python and the methods of its types, as far as the
// values they compute matter to what reaches an output: the text of a
// string, the items of a container, what a print writes. What varies
// among them (hash() of a str, a set's order) is the table's.

func init() {
	for name, h := range map[string]handler{
		"print": hPrint, "str": hStr, "repr": hRepr, "ascii": hRepr, "format": hFormat,
		"int": hInt, "bool": hBool, "list": hContainer(kList, ""), "tuple": hContainer(kTuple, ""),
		"set": hContainer(kSet, "set"), "frozenset": hContainer(kSet, "frozenset"), "dict": hDict,
		"sorted": hContainer(kList, ""), "reversed": hContainer(kList, ""), "iter": hContainer(kList, ""),
		"enumerate": hEnumerate, "zip": hZip, "map": hMap, "filter": hFilter, "range": hRange,
		"len": hLen, "next": hNext, "getattr": hGetattr, "setattr": hSetattr, "super": hSuper,
		"exec": hExec, "eval": hEval,

		"str.join": hJoin, "bytes.join": hJoin, "str.format": hStrFormat,
		"str.replace": hReplace, "bytes.replace": hReplace,
		"str.strip": hStrip, "str.lstrip": hStrip, "str.rstrip": hStrip,
		"bytes.strip": hStrip, "bytes.lstrip": hStrip, "bytes.rstrip": hStrip,
		"str.upper": hCase, "str.lower": hCase, "str.title": hCase, "str.capitalize": hCase,
		"str.casefold": hCase, "str.swapcase": hCase, "bytes.upper": hCase, "bytes.lower": hCase,
		"str.split": hSplit, "str.rsplit": hSplit, "str.splitlines": hSplit,
		"bytes.split": hSplit, "bytes.rsplit": hSplit, "bytes.splitlines": hSplit,
		"str.encode": hRekind(kBytes), "bytes.decode": hRekind(kStr),
		"str.startswith": hAffix, "str.endswith": hAffix, "bytes.startswith": hAffix, "bytes.endswith": hAffix,
		"str.removeprefix": hRemoveAffix, "str.removesuffix": hRemoveAffix,
		"str.partition": hPartition, "str.rpartition": hPartition,
		"str.__str__": hSame, "str.__format__": hSame,

		"list.append": hAppend, "list.extend": hExtend, "list.insert": hInsert,
		"list.pop": hPop, "list.copy": hCopy, "list.reverse": hReverse, "list.remove": hNone, "list.clear": hNone,
		"dict.get": hDictGet, "dict.pop": hDictGet, "dict.setdefault": hSetdefault,
		"dict.items": hDictView, "dict.keys": hDictView, "dict.values": hDictView,
		"dict.update": hUpdate, "dict.copy": hCopy,
		"set.add": hSetAdd, "set.update": hSetUpdate, "set.copy": hCopy, "set.pop": hPop,
		"set.union": hSetOp, "set.intersection": hSetOp, "set.difference": hSetOp, "set.symmetric_difference": hSetOp,
		"set.discard": hNone, "set.remove": hNone,
	} {
		handlers[name] = h
	}
}

func hNone(*run, *frame, *call) (value, bool) { return none, true }

func hSame(r *run, fr *frame, c *call) (value, bool) { return *c.recv, true }

func hPrint(r *run, fr *frame, c *call) (value, bool) {
	var t taints
	for _, a := range c.args {
		t = t.union(r.toStr(fr, a, false, c.node()).taints)
	}
	for _, name := range []string{"sep", "end"} {
		if v, ok := c.kwarg(name); ok {
			t = t.union(r.dataOf(fr, v, c.node()))
		}
	}
	dst := r.stdoutV
	if f, ok := c.kwarg("file"); ok && f.kind != kNone {
		dst = f
	}
	r.write(dst, t)
	return none, true
}

// toStr is str(v), or repr(v): the text when known, else a str carrying
// what v does; an object of the program's classes is asked its __str__.
func (r *run) toStr(fr *frame, v value, repr bool, at node) value {
	switch v.kind {
	case kUnion:
		var out value
		for i, a := range v.alts {
			s := r.toStr(fr, a, repr, at)
			if i == 0 {
				out = s
			} else {
				out = join(out, s)
			}
		}
		return out
	case kStr:
		if repr {
			return strOf(append(append([]part{{text: "'"}}, v.parts...), part{text: "'"}), v.taints)
		}
		return v
	case kBytes:
		return strOf(append(append([]part{{text: "b'"}}, v.parts...), part{text: "'"}), v.taints)
	case kInt, kBool, kNone:
		if l, ok := v.literal(); ok {
			s := str(l)
			s.taints = v.taints
			return s
		}
	case kInstance:
		names := []string{"__str__", "__repr__"}
		if repr {
			names = names[1:]
		}
		for _, n := range names {
			if m, _, ok := lookupClass(v.obj.cls, n); ok && m.kind == kFunc {
				self := v
				s := r.callUser(fr, m.fn, &self, &call{fr: fr})
				if s.kind == kStr {
					return s
				}
				return r.fresh(r.deep(s, true))
			}
		}
	case kObject:
		if v.obj.path != nil {
			return withTaints(r.toStr(fr, *v.obj.path, repr, at), v.taints.union(v.obj.whole))
		}
	}
	return r.fresh(r.dataOf(fr, v, at))
}

func hStr(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return str(""), true
	}
	if c.args[0].kind == kBytes && len(c.args) > 1 {
		v := c.args[0]
		v.kind = kStr
		return v, true
	}
	return r.toStr(fr, c.args[0], false, c.node()), true
}

func hRepr(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	return r.toStr(fr, c.args[0], true, c.node()), true
}

func hFormat(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	if len(c.args) == 1 {
		return r.toStr(fr, c.args[0], false, c.node()), true
	}
	return r.fresh(r.callData(fr, c)), true
}

func hInt(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return intValue(0), true
	}
	a := c.args[0]
	switch {
	case a.kind == kInt:
		return a, true
	case a.kind == kBool && a.known:
		return value{kind: kInt, n: a.n, known: true, taints: a.taints}, true
	case a.kind == kStr && len(c.args) == 1:
		if s, ok := a.text(); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(strings.ReplaceAll(s, "_", "")), 10, 64); err == nil {
				return value{kind: kInt, n: n, known: true, taints: a.taints}, true
			}
		}
	}
	return value{kind: kInt, taints: r.callData(fr, c)}, true
}

func hBool(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return boolValue(false), true
	}
	t := r.deep(c.args[0], false)
	if b, ok := c.args[0].truth(); ok {
		v := boolValue(b)
		v.taints = t
		return v, true
	}
	return withTaints(unknownTF, t), true
}

// hContainer makes a container of what an iterable gives: list(),
// tuple(), set(), sorted(), reversed(), iter(). A set's order is its
// maker's (set, frozenset), as the table says.
func hContainer(k kind, maker string) handler {
	return func(r *run, fr *frame, c *call) (value, bool) {
		out := newList(k, nil)
		if len(c.args) == 0 {
			return out, true
		}
		items, exact := r.iterate(fr, c.args[0], c.node())
		if exact {
			for _, it := range items {
				r.addItem(out, it)
			}
		} else {
			out.obj.addMore(joinAll(items))
		}
		if k == kSet {
			out.obj.maker = maker
			r.seedOrder(fr, out, maker, c.node())
		} else {
			out.obj.whole = r.orderOf(c.args[0])
		}
		return out, true
	}
}

func hDict(r *run, fr *frame, c *call) (value, bool) {
	out := value{kind: kDict, obj: &object{}}
	if len(c.args) > 0 {
		a := c.args[0]
		if a.kind == kDict || a.kind == kUnion || a.kind == kObject {
			r.mergeDict(fr, out, a, c.node())
		} else {
			items, _ := r.iterate(fr, a, c.node())
			for _, pair := range items {
				kv, exact := r.iterate(fr, pair, c.node())
				if exact && len(kv) == 2 {
					r.setItem(fr, out, kv[0], kv[1])
					continue
				}
				out.obj.addMore(joinAll(kv))
			}
		}
	}
	for _, k := range c.kw {
		if k.name != "" {
			r.setItem(fr, out, str(k.name), k.v)
		} else {
			out.obj.addMore(k.v)
		}
	}
	return out, true
}

func hEnumerate(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	items, exact := r.iterate(fr, c.args[0], c.node())
	out := newList(kList, nil)
	if exact {
		for i, it := range items {
			out.obj.push(newList(kTuple, []value{intValue(int64(i)), it}))
		}
	} else {
		out.obj.addMore(newList(kTuple, []value{{kind: kInt}, joinAll(items)}))
	}
	out.obj.whole = r.orderOf(c.args[0])
	return out, true
}

func hZip(r *run, fr *frame, c *call) (value, bool) {
	out := newList(kList, nil)
	var cols [][]value
	exactAll := true
	n := -1
	for _, a := range c.args {
		items, exact := r.iterate(fr, a, c.node())
		exactAll = exactAll && exact
		cols = append(cols, items)
		if n < 0 || len(items) < n {
			n = len(items)
		}
		out.obj.whole = out.obj.whole.union(r.orderOf(a))
	}
	if exactAll {
		for i := 0; i < n; i++ {
			var row []value
			for _, col := range cols {
				row = append(row, col[i])
			}
			out.obj.push(newList(kTuple, row))
		}
		return out, true
	}
	var row []value
	for _, col := range cols {
		row = append(row, joinAll(col))
	}
	out.obj.addMore(newList(kTuple, row))
	return out, true
}

func hMap(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) < 2 {
		return value{}, false
	}
	items, exact := r.iterate(fr, c.args[1], c.node())
	out := newList(kList, nil)
	if exact && len(items) <= maxUnroll {
		for _, it := range items {
			out.obj.push(r.callValue(fr, c.args[0], &call{fr: fr, x: c.x, args: []value{it}}))
		}
	} else {
		out.obj.addMore(r.callValue(fr, c.args[0], &call{fr: fr, x: c.x, args: []value{joinAll(items)}}))
	}
	out.obj.whole = r.orderOf(c.args[1])
	return out, true
}

func hFilter(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) < 2 {
		return value{}, false
	}
	items, _ := r.iterate(fr, c.args[1], c.node())
	elem := joinAll(items)
	if c.args[0].kind != kNone {
		r.callValue(fr, c.args[0], &call{fr: fr, x: c.x, args: []value{elem}})
	}
	out := newList(kList, nil)
	out.obj.addMore(elem)
	out.obj.whole = r.orderOf(c.args[1])
	return out, true
}

func hRange(r *run, fr *frame, c *call) (value, bool) {
	var bounds []int64
	known := true
	for _, a := range c.args {
		if a.kind != kInt || !a.known {
			known = false
			break
		}
		bounds = append(bounds, a.n)
	}
	t := r.callData(fr, c)
	out := newList(kList, nil)
	if known && len(bounds) > 0 {
		lo, hi, step := int64(0), bounds[0], int64(1)
		if len(bounds) > 1 {
			lo, hi = bounds[0], bounds[1]
		}
		if len(bounds) > 2 {
			step = bounds[2]
		}
		if step != 0 && (hi-lo)/step <= maxUnroll {
			for i := lo; step > 0 && i < hi || step < 0 && i > hi; i += step {
				out.obj.push(intValue(i))
			}
			return out, true
		}
	}
	out.obj.addMore(value{kind: kInt, taints: t})
	return out, true
}

func hLen(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	a := c.args[0]
	t := r.dataOf(fr, a, c.node())
	switch {
	case a.isHeap() && a.kind != kObject && a.kind != kInstance && a.obj.more == nil:
		n := len(a.obj.items)
		if a.kind == kDict {
			n = len(a.obj.keys)
		}
		v := intValue(int64(n))
		v.taints = t
		return v, true
	case a.kind == kStr || a.kind == kBytes:
		if s, ok := a.text(); ok {
			v := intValue(int64(len(s)))
			if a.kind == kStr {
				v.n = int64(len([]rune(s)))
			}
			v.taints = t
			return v, true
		}
	}
	return value{kind: kInt, taints: t}, true
}

func hNext(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	items, _ := r.iterate(fr, c.args[0], c.node())
	v := joinAll(items)
	if len(c.args) > 1 {
		v = join(v, c.args[1])
	}
	return v, true
}

func hGetattr(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) < 2 {
		return value{}, false
	}
	name, ok := c.args[1].text()
	if !ok {
		return r.opaque(fr, unknown, c), true
	}
	v := r.getattr(fr, c.args[0], name, c.node())
	if len(c.args) > 2 {
		v = join(v, c.args[2])
	}
	return v, true
}

func hSetattr(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) < 3 {
		return value{}, false
	}
	if name, ok := c.args[1].text(); ok {
		r.setAttr(fr, c.args[0], name, c.args[2], c.node())
	}
	return none, true
}

// hSuper is super(): the method's object, whose methods are then looked
// up after the class that defines the method.
func hSuper(r *run, fr *frame, c *call) (value, bool) {
	if fr.self == nil || fr.fn == nil || fr.fn.cls == nil || fr.self.kind != kInstance {
		return unknown, true
	}
	v := *fr.self
	v.cls = fr.fn.cls
	return v, true
}

// hExec runs code given as a str: known, it is read and followed in the
// frame; computed, it is said so.
func hExec(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return none, true
	}
	text, ok := c.args[0].text()
	if !ok {
		r.note(fr.mod.lineText(c.node()) + ": python: exec of code computed while the program runs is not followed")
		return none, true
	}
	body, err := parse(text)
	if err != nil {
		r.note(fr.mod.lineText(c.node()) + ": python: the code given to exec: " + err.Error())
		return none, true
	}
	site := fr.mod.site(c.node().at().line)
	m := &module{name: fr.mod.name, file: fr.mod.file, src: text, globals: fr.globals, pkg: fr.mod.pkg, stars: fr.mod.stars}
	m.site = func(int) effect.Site { return site }
	r.block(&frame{mod: m, local: fr.local, outer: fr.outer, globals: fr.globals, fn: fr.fn, self: fr.self}, body)
	return none, true
}

func hEval(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	text, ok := c.args[0].text()
	if !ok {
		r.note(fr.mod.lineText(c.node()) + ": python: eval of code computed while the program runs is not followed")
		return r.opaque(fr, unknown, c), true
	}
	x, err := parseExpr(text)
	if err != nil {
		return r.opaque(fr, unknown, c), true
	}
	site := fr.mod.site(c.node().at().line)
	m := &module{name: fr.mod.name, file: fr.mod.file, src: text, globals: fr.globals, pkg: fr.mod.pkg, stars: fr.mod.stars}
	m.site = func(int) effect.Site { return site }
	return r.eval(&frame{mod: m, local: fr.local, outer: fr.outer, globals: fr.globals, fn: fr.fn, self: fr.self}, x), true
}

// The methods of str and bytes.

func (c *call) recvText() (string, bool) {
	if c.recv == nil {
		return "", false
	}
	return c.recv.text()
}

func hJoin(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || len(c.args) != 1 {
		return value{}, false
	}
	sep := *c.recv
	items, exact := r.iterate(fr, c.args[0], c.node())
	t := sep.taints
	if !exact {
		for _, it := range items {
			t = t.union(r.dataOf(fr, it, c.node()))
		}
		v := r.fresh(t)
		v.kind = sep.kind
		return v, true
	}
	var parts []part
	for i, it := range items {
		if i > 0 {
			parts = append(parts, sep.parts...)
		}
		if it.kind == kStr || it.kind == kBytes {
			parts = append(parts, it.parts...)
			t = t.union(it.taints)
			continue
		}
		s := r.fresh(r.dataOf(fr, it, c.node()))
		parts = append(parts, s.parts...)
		t = t.union(s.taints)
	}
	v := strOf(parts, t)
	v.kind = sep.kind
	return v, true
}

func hReplace(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	old, ok1 := argText(c, 0)
	nw, ok2 := argText(c, 1)
	if !ok || !ok1 || !ok2 || len(c.args) > 2 {
		return r.freshOf(c, r.callData(fr, c)), true
	}
	return r.sameKind(c, strings.ReplaceAll(s, old, nw), r.callData(fr, c)), true
}

func argText(c *call, i int) (string, bool) {
	if i >= len(c.args) {
		return "", false
	}
	return c.args[i].text()
}

// freshOf is an unknown string of the receiver's kind.
func (r *run) freshOf(c *call, t taints) value {
	v := r.fresh(t)
	if c.recv != nil && c.recv.kind == kBytes {
		v.kind = kBytes
	}
	return v
}

func (r *run) sameKind(c *call, s string, t taints) value {
	v := str(s)
	v.taints = t
	if c.recv != nil && c.recv.kind == kBytes {
		v.kind = kBytes
	}
	return v
}

func hStrip(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	if !ok {
		return r.freshOf(c, r.callData(fr, c)), true
	}
	chars := " \t\n\r\x0b\x0c"
	if len(c.args) > 0 && c.args[0].kind != kNone {
		if cs, ok := c.args[0].text(); ok {
			chars = cs
		} else {
			return r.freshOf(c, r.callData(fr, c)), true
		}
	}
	switch methodName(c.name) {
	case "lstrip":
		s = strings.TrimLeft(s, chars)
	case "rstrip":
		s = strings.TrimRight(s, chars)
	default:
		s = strings.Trim(s, chars)
	}
	return r.sameKind(c, s, r.callData(fr, c)), true
}

func hCase(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	if !ok {
		return r.freshOf(c, r.callData(fr, c)), true
	}
	switch methodName(c.name) {
	case "upper":
		s = strings.ToUpper(s)
	case "lower", "casefold":
		s = strings.ToLower(s)
	case "title":
		s = titleCase(s)
	case "capitalize":
		if s != "" {
			rs := []rune(strings.ToLower(s))
			rs[0] = unicode.ToUpper(rs[0])
			s = string(rs)
		}
	default:
		return r.freshOf(c, r.callData(fr, c)), true
	}
	return r.sameKind(c, s, r.callData(fr, c)), true
}

func titleCase(s string) string {
	var b strings.Builder
	prev := false
	for _, c := range s {
		if unicode.IsLetter(c) {
			if prev {
				b.WriteRune(unicode.ToLower(c))
			} else {
				b.WriteRune(unicode.ToUpper(c))
			}
			prev = true
			continue
		}
		prev = false
		b.WriteRune(c)
	}
	return b.String()
}

func hSplit(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	t := r.callData(fr, c)
	out := newList(kList, nil)
	if !ok || len(c.args) > 1 {
		out.obj.addMore(r.freshOf(c, t))
		return out, true
	}
	var words []string
	switch name := methodName(c.name); {
	case name == "splitlines":
		words = strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	case len(c.args) == 1 && c.args[0].kind != kNone:
		sep, ok := c.args[0].text()
		if !ok || sep == "" {
			out.obj.addMore(r.freshOf(c, t))
			return out, true
		}
		words = strings.Split(s, sep)
	default:
		words = strings.Fields(s)
	}
	for _, w := range words {
		out.obj.push(r.sameKind(c, w, t))
	}
	return out, true
}

// hRekind is str.encode and bytes.decode: the same text, of the other
// kind.
func hRekind(k kind) handler {
	return func(r *run, fr *frame, c *call) (value, bool) {
		if c.recv == nil {
			return value{}, false
		}
		v := *c.recv
		v.kind = k
		return v, true
	}
}

func hAffix(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	a, ok1 := argText(c, 0)
	t := r.callData(fr, c)
	if !ok || !ok1 || len(c.args) != 1 {
		return withTaints(unknownTF, t), true
	}
	b := strings.HasPrefix(s, a)
	if methodName(c.name) == "endswith" {
		b = strings.HasSuffix(s, a)
	}
	v := boolValue(b)
	v.taints = t
	return v, true
}

// hRemoveAffix cuts a known prefix or suffix, also off a string whose
// other parts are not known (a path's extension).
func hRemoveAffix(r *run, fr *frame, c *call) (value, bool) {
	a, ok := argText(c, 0)
	if c.recv == nil || !ok || c.recv.kind != kStr {
		return r.freshOf(c, r.callData(fr, c)), true
	}
	parts := append([]part(nil), c.recv.parts...)
	if methodName(c.name) == "removeprefix" {
		if parts[0].sym == 0 {
			parts[0].text = strings.TrimPrefix(parts[0].text, a)
		}
	} else if last := len(parts) - 1; parts[last].sym == 0 {
		parts[last].text = strings.TrimSuffix(parts[last].text, a)
	}
	return strOf(parts, c.recv.taints.union(c.args[0].taints)), true
}

func hPartition(r *run, fr *frame, c *call) (value, bool) {
	s, ok := c.recvText()
	sep, ok1 := argText(c, 0)
	t := r.callData(fr, c)
	if !ok || !ok1 || sep == "" {
		return newList(kTuple, []value{r.freshOf(c, t), r.freshOf(c, t), r.freshOf(c, t)}), true
	}
	var a, b, d string
	if methodName(c.name) == "rpartition" {
		if i := strings.LastIndex(s, sep); i >= 0 {
			a, b, d = s[:i], sep, s[i+len(sep):]
		} else {
			d = s
		}
	} else if i := strings.Index(s, sep); i >= 0 {
		a, b, d = s[:i], sep, s[i+len(sep):]
	} else {
		a = s
	}
	return newList(kTuple, []value{r.sameKind(c, a, t), r.sameKind(c, b, t), r.sameKind(c, d, t)}), true
}

// The methods of lists, dicts and sets.

func hAppend(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil || len(c.args) != 1 {
		return value{}, false
	}
	c.recv.obj.push(c.args[0])
	return none, true
}

func hExtend(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil || len(c.args) != 1 {
		return value{}, false
	}
	items, exact := r.iterate(fr, c.args[0], c.node())
	if exact {
		for _, it := range items {
			c.recv.obj.push(it)
		}
	} else {
		c.recv.obj.addMore(joinAll(items))
	}
	c.recv.obj.whole = c.recv.obj.whole.union(r.orderOf(c.args[0]))
	return none, true
}

func hInsert(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil || len(c.args) != 2 {
		return value{}, false
	}
	c.recv.obj.addMore(c.args[1])
	return none, true
}

func hPop(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil {
		return value{}, false
	}
	o := c.recv.obj
	return withTaints(o.element(), o.whole.union(o.latent)), true
}

func hCopy(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil {
		return value{}, false
	}
	o := *c.recv.obj
	o.items = append([]value(nil), o.items...)
	o.keys = append([]value(nil), o.keys...)
	v := *c.recv
	v.obj = &o
	return v, true
}

func hReverse(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil {
		return value{}, false
	}
	o := c.recv.obj
	for i, j := 0, len(o.items)-1; i < j; i, j = i+1, j-1 {
		o.items[i], o.items[j] = o.items[j], o.items[i]
	}
	return none, true
}

func hDictGet(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil || len(c.args) == 0 {
		return value{}, false
	}
	o := c.recv.obj
	dflt := none
	if len(c.args) > 1 {
		dflt = c.args[1]
	}
	key := c.args[0]
	for i, k := range o.keys {
		if same(k, key) {
			return withTaints(o.items[i], o.whole.union(key.taints)), true
		}
	}
	if _, ok := key.literal(); ok && o.more == nil {
		return withTaints(dflt, key.taints), true
	}
	return withTaints(join(o.element(), dflt), o.whole.union(key.taints)), true
}

func hSetdefault(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || len(c.args) == 0 {
		return value{}, false
	}
	v, _ := hDictGet(r, fr, c)
	if len(c.args) > 1 {
		r.setItem(fr, *c.recv, c.args[0], c.args[1])
	}
	return v, true
}

func hDictView(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj == nil {
		return value{}, false
	}
	o := c.recv.obj
	out := newList(kList, nil)
	out.obj.whole = o.whole
	for i, k := range o.keys {
		switch methodName(c.name) {
		case "keys":
			out.obj.push(k)
		case "values":
			out.obj.push(o.items[i])
		default:
			out.obj.push(newList(kTuple, []value{k, o.items[i]}))
		}
	}
	if o.more != nil {
		switch methodName(c.name) {
		case "values":
			out.obj.addMore(*o.more)
		case "keys":
			out.obj.addMore(r.fresh(nil))
		default:
			out.obj.addMore(newList(kTuple, []value{r.fresh(nil), *o.more}))
		}
	}
	return out, true
}

func hUpdate(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil {
		return value{}, false
	}
	for _, a := range c.args {
		r.mergeDict(fr, *c.recv, a, c.node())
	}
	for _, k := range c.kw {
		if k.name != "" {
			r.setItem(fr, *c.recv, str(k.name), k.v)
		}
	}
	return none, true
}

func hSetAdd(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kSet || len(c.args) != 1 {
		return value{}, false
	}
	r.addItem(*c.recv, c.args[0])
	r.seedOrder(fr, *c.recv, c.recv.obj.maker, c.node())
	return none, true
}

func hSetUpdate(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kSet {
		return value{}, false
	}
	for _, a := range c.args {
		r.addToSet(fr, *c.recv, a, c.node())
	}
	return none, true
}

// addToSet adds the items of an iterable to a set.
func (r *run) addToSet(fr *frame, s, it value, at node) {
	items, exact := r.iterate(fr, it, at)
	if exact {
		for _, x := range items {
			r.addItem(s, x)
		}
	} else {
		s.obj.addMore(joinAll(items))
	}
	r.seedOrder(fr, s, s.obj.maker, at)
}

// hSetOp is a set made of a set and others: its items are among theirs.
func hSetOp(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kSet {
		return value{}, false
	}
	out := newList(kSet, nil)
	out.obj.maker, out.obj.seedText, out.obj.seedSite = c.recv.obj.maker, c.recv.obj.seedText, c.recv.obj.seedSite
	for _, it := range c.recv.obj.items {
		r.addItem(out, it)
	}
	if c.recv.obj.more != nil {
		out.obj.addMore(*c.recv.obj.more)
	}
	if methodName(c.name) == "union" || methodName(c.name) == "symmetric_difference" {
		for _, a := range c.args {
			items, exact := r.iterate(fr, a, c.node())
			if exact {
				for _, x := range items {
					r.addItem(out, x)
				}
			} else {
				out.obj.addMore(joinAll(items))
			}
		}
	}
	r.seedOrder(fr, out, out.obj.maker, c.node())
	return out, true
}
