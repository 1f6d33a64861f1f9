package python

import (
	"math"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

// evalStmt evaluates an expression whose value is dropped: a call then
// changes what it is given, if anything.
func (r *run) evalStmt(fr *frame, x expr) {
	if c, ok := x.(*callExpr); ok {
		r.evalCall(fr, c, true, false)
		return
	}
	r.eval(fr, x)
}

func (r *run) eval(fr *frame, x expr) value {
	r.step()
	switch x := x.(type) {
	case *nameExpr:
		// A name of the library is quoted where it is used.
		v := r.lookup(fr, x.id, x)
		if v.kind == kLib || v.kind == kObject && v.obj.environ {
			v.at = x
		}
		return v
	case *constExpr:
		return constValue(x)
	case *fstringExpr:
		return r.fstring(fr, x.parts, x)
	case *attrExpr:
		return r.getattr(fr, r.eval(fr, x.x), x.name, x)
	case *subscriptExpr:
		base := r.eval(fr, x.x)
		return r.getItem(fr, base, x.index, x)
	case *sliceExpr:
		var t taints
		for _, e := range []expr{x.lo, x.hi, x.step} {
			if e != nil {
				t = t.union(r.eval(fr, e).taints)
			}
		}
		return withTaints(unknown, t)
	case *callExpr:
		return r.evalCall(fr, x, false, false)
	case *binExpr, *unaryExpr, *boolExpr, *compareExpr, *ifExpr:
		return r.operator(fr, x)
	case *lambdaExpr:
		return value{kind: kFunc, fn: r.newFunction(fr, "<lambda>", x.params, nil, x.body)}
	case *seqExpr:
		return r.display(fr, x)
	case *dictExpr:
		return r.dictDisplay(fr, x)
	case *compExpr:
		return r.comprehension(fr, x)
	case *starredExpr:
		return r.eval(fr, x.x)
	case *namedExpr:
		v := r.eval(fr, x.x)
		r.setName(fr, x.target, v)
		return v
	case *yieldExpr:
		v := none
		if x.x != nil {
			v = r.eval(fr, x.x)
			if x.from {
				items, _ := r.iterate(fr, v, x)
				v = joinAll(items)
			}
		}
		fr.yielded = joinPtr(fr.yielded, v)
		return unknown
	case *awaitExpr:
		return r.eval(fr, x.x)
	}
	return unknown
}

// operator evaluates an expression of operators.
func (r *run) operator(fr *frame, x expr) value {
	switch x := x.(type) {
	case *binExpr:
		return r.binop(fr, x.op, r.eval(fr, x.l), r.eval(fr, x.r), x)
	case *unaryExpr:
		return r.unary(fr, x)
	case *boolExpr:
		return r.boolOp(fr, x)
	case *compareExpr:
		return r.compare(fr, x)
	case *ifExpr:
		test := r.eval(fr, x.test)
		if t, ok := test.truth(); ok {
			if t {
				return r.eval(fr, x.body)
			}
			return r.eval(fr, x.orelse)
		}
		return join(r.eval(fr, x.body), r.eval(fr, x.orelse))
	}
	return unknown
}

func constValue(c *constExpr) value {
	switch c.kind {
	case cNone:
		return none
	case cBool:
		return boolValue(c.b)
	case cInt:
		return value{kind: kInt, n: c.n, known: c.intOK}
	case cStr:
		return str(c.s)
	case cBytes:
		v := str(c.s)
		v.kind = kBytes
		return v
	case cFloat, cComplex:
		return value{kind: kFloat}
	}
	return unknown
}

// at is how a node is quoted and placed in a reach.
func (fr *frame) at(n node) (string, effect.Site) {
	return fr.mod.text(n), fr.mod.site(n.at().line)
}

// lookup finds a name: the frame's own, those of the functions around it,
// the module's, then Python's builtins and the library, by name.
func (r *run) lookup(fr *frame, name string, n node) value {
	if v, ok := fr.local.vars[name]; ok {
		return v
	}
	for _, s := range fr.outer {
		if v, ok := s.vars[name]; ok {
			return v
		}
	}
	if v, ok := fr.globals.vars[name]; ok {
		return v
	}
	switch name {
	case "__name__":
		return str(fr.mod.name)
	case "__builtins__":
		return value{kind: kLib, name: "builtins"}
	}
	for _, m := range fr.mod.stars {
		q := m + "." + name
		if _, ok := r.lib.Function(Language, q); ok || handlers[q] != nil {
			return value{kind: kLib, name: q}
		}
	}
	return value{kind: kLib, name: name}
}

// fileValue is a module's __file__: its path under the execution root, as
// the library's entry for __file__ says.
func (r *run) fileValue(m *module) value {
	v := strOf([]part{{sym: cwdSym}, {text: "/" + m.file}}, nil)
	if f, ok := r.lib.Function(Language, "__file__"); ok {
		for _, e := range f.Effects {
			if applies, by := e.Apply(r.envFacts()); applies && by == "" {
				v.taints = v.taints.add(r.reach(e.Value, "__file__", e.Because, m.site(1), f.Returns == "path"))
			}
		}
	}
	return v
}

// libData is what a name of the library gives when used as a value, not
// called: its entry's effects (time.timezone the time zone).
func (r *run) libData(name string, at node, fr *frame) taints {
	f, ok := r.lib.Function(Language, name)
	if !ok {
		return nil
	}
	var t taints
	text, site := fr.at(at)
	for _, e := range f.Effects {
		if applies, by := e.Apply(r.envFacts()); applies && by == "" {
			t = t.add(r.reach(e.Value, text, e.Because, site, f.Returns == "path"))
		}
	}
	return t
}

// dataOf is every taint a value carries into what it is written to.
func (r *run) dataOf(fr *frame, v value, at node) taints {
	t := r.deep(v, true)
	each(v, func(a value) {
		where := at
		if a.at != nil {
			where = a.at
		}
		if a.kind == kLib {
			t = t.union(r.libData(a.name, where, fr))
		}
		if a.kind == kObject && a.obj.environ {
			t = t.union(r.libData("os.environ", where, fr))
		}
	})
	return t
}

func (r *run) getattr(fr *frame, base value, name string, at node) value {
	v := r.attrOf(fr, base, name, at)
	switch base.kind {
	case kInstance, kObject, kStr, kBytes, kList, kTuple, kDict, kSet:
		v = withTaints(v, base.taints)
	}
	return v
}

func (r *run) attrOf(fr *frame, base value, name string, at node) value {
	if base.kind == kUnion {
		var out value
		for i, a := range base.alts {
			v := r.getattr(fr, a, name, at)
			if i == 0 {
				out = v
			} else {
				out = join(out, v)
			}
		}
		return out
	}
	switch base.kind {
	case kModule:
		if v, ok := base.mod.globals.vars[name]; ok {
			return v
		}
		return withTaints(unknown, nil)
	case kLib:
		v := r.libAttr(fr, base.name+"."+name, at)
		if v.kind == kLib || v.kind == kObject && v.obj.environ {
			v.at = at
		}
		return v
	case kInstance:
		return r.instanceAttr(fr, base, name)
	case kClass:
		if v, _, ok := lookupClass(base.cls, name); ok {
			if v.kind == kFunc && v.fn.kind == classFunc {
				return value{kind: kBound, fn: v.fn, recv: &base}
			}
			return v
		}
		if lib := libBase(base.cls); lib != "" {
			return value{kind: kLib, name: lib + "." + name}
		}
		return unknown
	case kObject:
		return r.objectAttr(fr, base, name, at)
	case kUnknown:
		k := symAttr{sym: base.sym, attr: name}
		if base.sym == 0 {
			return value{kind: kUnknown, taints: base.taints, sym: r.newSym()}
		}
		s, ok := r.memo[k]
		if !ok {
			s = r.newSym()
			r.memo[k] = s
		}
		return value{kind: kUnknown, taints: base.taints, sym: s}
	case kNone:
		return unknown
	}
	// A method of a str, a list…, or an attribute of a function.
	return value{kind: kBound, name: typeName(base) + "." + name, recv: &base}
}

// typeName is the name of a builtin type, as the table names its methods.
func typeName(v value) string {
	switch v.kind {
	case kStr:
		return "str"
	case kBytes:
		return "bytes"
	case kList:
		return "list"
	case kTuple:
		return "tuple"
	case kDict:
		return "dict"
	case kSet:
		return "set"
	case kInt:
		return "int"
	case kFloat:
		return "float"
	case kBool:
		return "bool"
	case kObject:
		return v.obj.class
	}
	return "object"
}

// libAttr is a module attribute of the library: a few are values Python
// itself gives (sys.argv, sys.stdout, os.environ), the rest stay names,
// which a call or a use as a value resolves.
func (r *run) libAttr(fr *frame, name string, at node) value {
	switch name {
	case "sys.argv":
		return r.argv()
	case "sys.stdout", "sys.__stdout__":
		return r.stdoutV
	case "sys.stderr", "sys.__stderr__":
		return r.special(stderrFile)
	case "os.environ":
		return value{kind: kObject, obj: &object{class: "os.environ", environ: true}}
	case "os.sep", "os.path.sep":
		return str("/")
	case "os.linesep":
		return str("\n")
	case "os.curdir", "os.path.curdir":
		return str(".")
	case "os.pardir", "os.path.pardir":
		return str("..")
	case "os.devnull", "os.path.devnull":
		return str("/dev/null")
	}
	return value{kind: kLib, name: name}
}

// argv is sys.argv: the program's name, then its arguments, known or
// not; one list, which the program may change.
func (r *run) argv() value {
	if r.argvV.obj != nil {
		return r.argvV
	}
	first := "-c"
	if r.p.File != "" {
		first = r.p.File
	}
	items := []value{str(first)}
	for _, a := range r.p.Args {
		if a.Known {
			items = append(items, str(a.Text))
			continue
		}
		items = append(items, r.fresh(nil))
	}
	r.argvV = newList(kList, items)
	return r.argvV
}

// instanceAttr is an attribute of an instance of the program's classes:
// its own, then its class's (a method bound to it).
func (r *run) instanceAttr(fr *frame, base value, name string) value {
	o := base.obj
	if v, ok := o.attrs[name]; ok && base.cls == nil {
		return v
	}
	start := base.cls
	v, _, ok := lookupMRO(o.cls, name, start)
	if !ok {
		if lib := libBase(o.cls); lib != "" {
			self := base
			self.cls = nil
			return value{kind: kBound, name: lib + "." + name, recv: &self}
		}
		return withTaints(unknown, r.deep(base, false))
	}
	if v.kind != kFunc {
		return v
	}
	self := base
	self.cls = nil
	switch v.fn.kind {
	case staticFunc:
		return v
	case classFunc:
		c := value{kind: kClass, cls: o.cls}
		return value{kind: kBound, fn: v.fn, recv: &c}
	case propertyFunc:
		return r.callUser(fr, v.fn, &self, &call{fr: fr})
	}
	return value{kind: kBound, fn: v.fn, recv: &self}
}

// lookupClass finds a name in a class and its bases, depth first as
// Python's order is for the classes build tools write.
func lookupClass(c *class, name string) (value, *class, bool) {
	return lookupMRO(c, name, nil)
}

// lookupMRO finds a name in c's classes, after the class after when it is
// not nil (super()).
func lookupMRO(c *class, name string, after *class) (value, *class, bool) {
	order := mro(c, nil, 0)
	if after != nil {
		for i, k := range order {
			if k == after {
				order = order[i+1:]
				break
			}
		}
	}
	for _, k := range order {
		if v, ok := k.attrs.vars[name]; ok {
			return v, k, true
		}
	}
	return value{}, nil, false
}

func mro(c *class, out []*class, depth int) []*class {
	if c == nil || depth > 16 {
		return out
	}
	for _, k := range out {
		if k == c {
			return out
		}
	}
	out = append(out, c)
	for _, b := range c.bases {
		if b.kind == kClass {
			out = mro(b.cls, out, depth+1)
		}
	}
	return out
}

// libBase is the first class of the library among a class's bases.
func libBase(c *class) string {
	for _, k := range mro(c, nil, 0) {
		for _, b := range k.bases {
			if b.kind == kLib && b.name != "object" {
				return b.name
			}
		}
	}
	return ""
}

// objectAttr is an attribute of a library object: what Python gives for
// files and paths, what the table says of its class's attribute
// (os.stat_result.st_mtime), or the object's own taints.
func (r *run) objectAttr(fr *frame, base value, name string, at node) value {
	o := base.obj
	switch {
	case o.file != nil && (name == "buffer" || name == "raw"):
		return base
	case o.name != nil && name == "name":
		return *o.name
	case o.path != nil:
		if v, ok := r.pathAttr(base, name); ok {
			return v
		}
	}
	q := o.class + "." + name
	if f, ok := r.lib.Function(Language, q); ok {
		facts := append(r.envFacts(), o.facts...)
		// An attribute that holds one of the values the object records
		// (TarInfo.mode) gives what the object holds of it.
		t := r.only(o.whole, f.Removes)
		text, site := fr.at(at)
		for _, e := range f.Effects {
			if applies, by := e.Apply(facts); applies && by == "" {
				t = t.add(r.reach(e.Value, text, e.Because, site, f.Returns == "path"))
			}
		}
		return r.returned(f.Returns, t, nil)
	}
	if v, ok := o.attrs[name]; ok {
		return v
	}
	return value{kind: kBound, name: q, recv: &base}
}

// setAttr assigns an attribute.
func (r *run) setAttr(fr *frame, base value, name string, v value, at node) {
	each(base, func(b value) {
		switch b.kind {
		case kInstance:
			if b.obj.attrs == nil {
				b.obj.attrs = map[string]value{}
			}
			if old, ok := b.obj.attrs[name]; ok {
				v = join(old, v)
			}
			b.obj.attrs[name] = v
		case kModule:
			b.mod.globals.vars[name] = v
		case kClass:
			b.cls.attrs.vars[name] = v
		case kLib:
			if b.name == "sys" && name == "stdout" {
				r.stdoutV = v
			}
		case kObject:
			if b.obj.attrs != nil {
				// An object that holds what it is given (a namespace).
				b.obj.attrs[name] = v
				return
			}
			// Setting an attribute the table describes fixes the value
			// it holds (TarInfo.mtime = 0).
			if f, ok := r.lib.Function(Language, b.obj.class+"."+name); ok && len(f.Removes) > 0 && len(r.deep(v, true)) == 0 {
				r.takeOut(b.obj, slotWhole, f.Removes)
			}
		}
	})
}

// getItem is base[index].
func (r *run) getItem(fr *frame, base value, index expr, at node) value {
	if s, ok := index.(*sliceExpr); ok {
		var t taints
		var bounds []value
		for _, e := range []expr{s.lo, s.hi, s.step} {
			v := none
			if e != nil {
				v = r.eval(fr, e)
				t = t.union(v.taints)
			}
			bounds = append(bounds, v)
		}
		return r.slice(base, bounds, t)
	}
	idx := r.eval(fr, index)
	return r.item(fr, base, idx, at)
}

func (r *run) item(fr *frame, base, idx value, at node) value {
	var out value
	first := true
	each(base, func(b value) {
		v := r.itemOf(fr, b, idx, at)
		if first {
			out, first = v, false
			return
		}
		out = join(out, v)
	})
	return withTaints(out, idx.taints)
}

func (r *run) itemOf(fr *frame, b, idx value, at node) value {
	switch b.kind {
	case kList, kTuple, kDict:
		return withTaints(containerItem(b, idx), b.obj.whole)
	case kStr, kBytes:
		if s, ok := b.text(); ok {
			if i, ok := index(idx, len(s)); ok {
				v := str(s[i : i+1])
				v.kind = b.kind
				return withTaints(v, b.taints)
			}
		}
		return r.fresh(b.taints)
	case kObject:
		if b.obj.environ {
			if name, ok := idx.text(); ok {
				return r.getenv(name, nil)
			}
			return withTaints(r.fresh(nil), r.libData("os.environ", at, fr))
		}
		return withTaints(r.fresh(nil), b.obj.whole)
	case kInstance:
		if m, _, ok := lookupClass(b.obj.cls, "__getitem__"); ok && m.kind == kFunc {
			self := b
			return r.callUser(fr, m.fn, &self, &call{fr: fr, args: []value{idx}})
		}
		return withTaints(unknown, r.deep(b, false))
	case kLib, kClass:
		// typing.List[str], a generic alias.
		return b
	case kUnknown:
		key := "[]"
		if l, ok := idx.literal(); ok {
			key += l
		}
		return r.getattr(fr, b, key, at)
	}
	return unknown
}

// containerItem is the item of a list, tuple or dict a known index or key
// names, else the join of all.
func containerItem(b, idx value) value {
	o := b.obj
	if b.kind == kDict {
		for i, k := range o.keys {
			if same(k, idx) && (k.kind == kStr || k.kind == kInt || k.kind == kBool || k.kind == kNone) {
				return o.items[i]
			}
		}
		return o.element()
	}
	if i, ok := index(idx, len(o.items)); ok && o.more == nil {
		return o.items[i]
	}
	return o.element()
}

// index is a known int index into n items, from the end when negative.
func index(idx value, n int) (int, bool) {
	if idx.kind != kInt || !idx.known {
		return 0, false
	}
	i := idx.n
	if i < 0 {
		i += int64(n)
	}
	return int(i), i >= 0 && i < int64(n)
}

func (r *run) slice(base value, bounds []value, t taints) value {
	var out value
	first := true
	each(base, func(b value) {
		var v value
		switch b.kind {
		case kList, kTuple:
			o := b.obj
			lo, hi, ok := sliceBounds(bounds, len(o.items))
			if ok && o.more == nil {
				v = newList(b.kind, o.items[lo:hi])
			} else {
				v = newList(b.kind, nil)
				v.obj.addMore(o.element())
			}
			v.obj.whole = o.whole
		case kStr, kBytes:
			s, known := b.text()
			lo, hi, ok := sliceBounds(bounds, len(s))
			if known && ok {
				v = str(s[lo:hi])
				v.kind = b.kind
				v.taints = b.taints
			} else {
				v = r.fresh(b.taints)
				v.kind = b.kind
			}
		default:
			v = withTaints(unknown, r.deep(b, false))
		}
		if first {
			out, first = v, false
			return
		}
		out = join(out, v)
	})
	return withTaints(out, t)
}

// sliceBounds are the bounds of a slice with known int (or None) bounds
// and no step.
func sliceBounds(bounds []value, n int) (int, int, bool) {
	lo, hi := 0, n
	for i, b := range bounds[:2] {
		if b.kind == kNone {
			continue
		}
		if b.kind != kInt || !b.known {
			return 0, 0, false
		}
		x := int(max(min(b.n, math.MaxInt32), math.MinInt32))
		if x < 0 {
			x += n
		}
		x = max(0, min(x, n))
		if i == 0 {
			lo = x
		} else {
			hi = x
		}
	}
	if bounds[2].kind != kNone {
		return 0, 0, false
	}
	return lo, max(lo, hi), true
}

func (r *run) setItem(fr *frame, base, idx, v value) {
	each(base, func(b value) {
		switch b.kind {
		case kList:
			b.obj.addMore(v)
		case kDict:
			for i, k := range b.obj.keys {
				if same(k, idx) {
					b.obj.items[i] = join(b.obj.items[i], v)
					return
				}
			}
			if len(b.obj.keys) < maxItems {
				b.obj.keys = append(b.obj.keys, idx)
				b.obj.items = append(b.obj.items, v)
				return
			}
			b.obj.addMore(v)
		case kObject:
			if b.obj.environ {
				if name, ok := idx.text(); ok {
					r.setenv(name, v)
				}
			}
		case kInstance:
			if m, _, ok := lookupClass(b.obj.cls, "__setitem__"); ok && m.kind == kFunc {
				self := b
				r.callUser(fr, m.fn, &self, &call{fr: fr, args: []value{idx, v}})
			}
		}
	})
}

func (r *run) unary(fr *frame, x *unaryExpr) value {
	v := r.eval(fr, x.x)
	t := r.deep(v, false)
	switch x.op {
	case "not":
		if b, ok := v.truth(); ok {
			out := boolValue(!b)
			out.taints = t
			return out
		}
		return withTaints(unknownTF, t)
	case "-":
		if v.kind == kInt && v.known && v.n != math.MinInt64 {
			out := intValue(-v.n)
			out.taints = t
			return out
		}
	case "+":
		if v.kind == kInt || v.kind == kFloat {
			return v
		}
	case "~":
		if v.kind == kInt && v.known {
			out := intValue(^v.n)
			out.taints = t
			return out
		}
	}
	k := v.kind
	if k != kInt && k != kFloat {
		k = kUnknown
	}
	return value{kind: k, taints: t}
}

func (r *run) boolOp(fr *frame, x *boolExpr) value {
	var alts []value
	for i, e := range x.xs {
		v := r.eval(fr, e)
		if i == len(x.xs)-1 {
			alts = append(alts, v)
			break
		}
		t, known := v.truth()
		if known {
			if (x.op == "or") == t {
				// This one decides: the rest are never evaluated.
				alts = append(alts, v)
				break
			}
			continue
		}
		alts = append(alts, v)
	}
	return joinAll(alts)
}

func (r *run) compare(fr *frame, x *compareExpr) value {
	l := r.eval(fr, x.l)
	t := r.deep(l, false)
	result, known := true, true
	for i, op := range x.ops {
		rv := r.eval(fr, x.rs[i])
		t = t.union(r.deep(rv, false))
		b, ok := compareKnown(op, l, rv)
		if (op == "in" || op == "not in") && rv.kind == kObject && rv.obj.environ {
			b, ok = r.inEnviron(l)
			b = b == (op == "in")
		}
		if !ok {
			known = false
		} else if !b {
			result = false
		}
		l = rv
	}
	if known || !result {
		// a < b < c is false once one comparison is known false.
		v := boolValue(result)
		v.taints = t
		return v
	}
	return withTaints(unknownTF, t)
}

// inEnviron decides NAME in os.environ: known when the environment the
// program was given holds NAME (whatever its value), or the program set
// or deleted it.
func (r *run) inEnviron(name value) (in, known bool) {
	s, ok := name.text()
	if !ok {
		return false, false
	}
	e, ok := r.environ[s]
	if !ok {
		return false, false
	}
	return !e.unset, true
}

// compareKnown decides a comparison of values the reader knows.
func compareKnown(op string, a, b value) (bool, bool) {
	switch op {
	case "is", "is not":
		if a.kind != kNone && b.kind != kNone || maybeAnything(a) || maybeAnything(b) {
			return false, false
		}
		return (a.kind == b.kind) == (op == "is"), true
	case "==", "!=":
		eq, ok := equalKnown(a, b)
		return eq == (op == "=="), ok
	case "in", "not in":
		in, ok := containsKnown(b, a)
		return in == (op == "in"), ok
	case "<", "<=", ">", ">=":
		// len(sys.argv) > 1.
		if !isNumber(a) || !isNumber(b) || !a.known || !b.known {
			return false, false
		}
		switch op {
		case "<":
			return a.n < b.n, true
		case "<=":
			return a.n <= b.n, true
		case ">":
			return a.n > b.n, true
		}
		return a.n >= b.n, true
	}
	return false, false
}

func maybeAnything(v value) bool { return v.kind == kUnknown || v.kind == kUnion }

func equalKnown(a, b value) (bool, bool) {
	if (a.kind == kList || a.kind == kTuple) && a.kind == b.kind && a.obj != nil && b.obj != nil && a.obj.more == nil && b.obj.more == nil {
		// sys.argv[1:2] == ["--normalize"]: item by item.
		if len(a.obj.items) != len(b.obj.items) {
			return false, true
		}
		for i := range a.obj.items {
			eq, ok := equalKnown(a.obj.items[i], b.obj.items[i])
			if !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	}
	la, oka := a.literal()
	lb, okb := b.literal()
	if !oka || !okb || a.kind == kLib || b.kind == kLib {
		return false, false
	}
	if a.kind != b.kind && !(isNumber(a) && isNumber(b)) {
		// Different types compare unequal, 1 == True aside.
		return false, !maybeAnything(a) && !maybeAnything(b)
	}
	return la == lb, true
}

// containsKnown decides `x in c` for a known str x.
func containsKnown(c, x value) (bool, bool) {
	sx, ok := x.text()
	if !ok {
		return false, false
	}
	if sc, ok := c.text(); ok && c.kind == x.kind {
		return strings.Contains(sc, sx), true
	}
	if (c.kind != kList && c.kind != kTuple && c.kind != kSet) || c.obj.more != nil {
		return false, false
	}
	allKnown := true
	for _, it := range c.obj.items {
		s, ok := it.text()
		if ok && s == sx {
			return true, true
		}
		allKnown = allKnown && ok
	}
	return false, allKnown
}

func isNumber(v value) bool { return v.kind == kInt || v.kind == kBool }

// display is a tuple, list or set written out.
func (r *run) display(fr *frame, x *seqExpr) value {
	k := kTuple
	switch x.kind {
	case listSeq:
		k = kList
	case setSeq:
		k = kSet
	}
	out := newList(k, nil)
	for _, e := range x.xs {
		if s, ok := e.(*starredExpr); ok {
			v := r.eval(fr, s.x)
			items, exact := r.iterate(fr, v, s)
			if exact {
				for _, it := range items {
					r.addItem(out, it)
				}
			} else {
				out.obj.addMore(joinAll(items))
			}
			continue
		}
		r.addItem(out, r.eval(fr, e))
	}
	if k == kSet {
		r.seedOrder(fr, out, "set", x)
	}
	return out
}

// addItem adds an item to a list, a tuple, or (once) to a set.
func (r *run) addItem(c value, it value) {
	if c.kind == kSet {
		for i, x := range c.obj.items {
			if same(x, it) {
				c.obj.items[i].taints = x.taints.union(it.taints)
				return
			}
		}
	}
	c.obj.push(it)
}

// seedOrder gives a set the order it iterates in: one that follows the
// hash seed when it may hold strings, as the table's entry for the
// set's maker (set, frozenset) says.
func (r *run) seedOrder(fr *frame, s value, maker string, at node) {
	o := s.obj
	if o.maker == "" {
		o.maker = maker
	}
	if o.seedText == "" {
		o.seedText, o.seedSite = fr.at(at)
	}
	if len(o.items) < 2 && o.more == nil {
		return
	}
	seeded := false
	for _, it := range o.items {
		seeded = seeded || hashesBySeed(it)
	}
	if o.more != nil {
		seeded = seeded || hashesBySeed(*o.more)
	}
	if !seeded {
		return
	}
	f, ok := r.lib.Function(Language, o.maker)
	if !ok {
		return
	}
	for _, e := range f.Effects {
		if applies, by := e.Apply(r.envFacts()); applies && by == "" {
			o.latent = o.latent.add(r.reach(e.Value, o.seedText, e.Because, o.seedSite, false))
		}
	}
}

func (r *run) dictDisplay(fr *frame, x *dictExpr) value {
	out := value{kind: kDict, obj: &object{}}
	for i, k := range x.keys {
		if k == nil {
			r.mergeDict(fr, out, r.eval(fr, x.vals[i]), x.vals[i])
			continue
		}
		key := r.eval(fr, k)
		r.setItem(fr, out, key, r.eval(fr, x.vals[i]))
	}
	return out
}

// mergeDict adds the items of a mapping to a dict.
func (r *run) mergeDict(fr *frame, d, m value, at node) {
	each(m, func(src value) {
		if src.kind == kDict {
			for i, k := range src.obj.keys {
				r.setItem(fr, d, k, src.obj.items[i])
			}
			if src.obj.more != nil {
				d.obj.addMore(*src.obj.more)
			}
			d.obj.whole = d.obj.whole.union(src.obj.whole)
			return
		}
		d.obj.addMore(withTaints(unknown, r.dataOf(fr, src, at)))
	})
}

func (r *run) comprehension(fr *frame, x *compExpr) value {
	inner := &frame{mod: fr.mod, local: &scope{vars: map[string]value{}}, globals: fr.globals, fn: fr.fn, self: fr.self}
	inner.outer = append([]*scope{fr.local}, fr.outer...)
	var keys, vals []value
	var whole taints
	exactAll := true
	var gen func(i int)
	gen = func(i int) {
		if i == len(x.gens) {
			if x.key != nil {
				keys = append(keys, r.eval(inner, x.key))
			}
			vals = append(vals, r.eval(inner, x.elt))
			return
		}
		g := x.gens[i]
		src := inner
		if i == 0 {
			src = fr
		}
		iterable := r.eval(src, g.iter)
		whole = whole.union(r.orderOf(iterable))
		items, exact := r.iterate(src, iterable, g.iter)
		if !exact || len(items) > maxUnroll {
			items, exact = []value{joinAll(items)}, false
			exactAll = false
		}
		for _, it := range items {
			r.assign(inner, g.target, it)
			keep := true
			for _, c := range g.ifs {
				if t, ok := r.eval(inner, c).truth(); ok && !t && exact {
					keep = false
				}
			}
			if keep {
				gen(i + 1)
			}
		}
	}
	gen(0)
	k := kList
	switch x.kind {
	case setComp:
		k = kSet
	case dictComp:
		k = kDict
	}
	out := value{kind: k, obj: &object{whole: whole}}
	for i, v := range vals {
		switch {
		case k == kDict && exactAll:
			r.setItem(fr, out, keys[i], v)
		case k == kDict:
			out.obj.addMore(v)
		case exactAll:
			r.addItem(out, v)
		default:
			out.obj.addMore(v)
		}
	}
	if k == kSet {
		r.seedOrder(fr, out, "set", x)
	}
	return out
}

// orderOf is the taints of a container's order: what iterating it adds
// to each item.
func (r *run) orderOf(v value) taints {
	var t taints
	each(v, func(a value) {
		if a.obj != nil && a.isHeap() {
			t = t.union(a.obj.whole).union(a.obj.latent)
		}
	})
	return t
}

// iterTaints is what iterating a value carries into what is built from
// it.
func (r *run) iterTaints(v value) taints { return r.deep(v, true) }

// iterate lists what iterating a value gives, each item with the order of
// the container; exact says the list is all of it, in order.
func (r *run) iterate(fr *frame, v value, at node) ([]value, bool) {
	if v.kind == kUnion {
		var all []value
		for _, a := range v.alts {
			items, _ := r.iterate(fr, a, at)
			all = append(all, items...)
		}
		return []value{withTaints(joinAll(all), v.taints)}, false
	}
	switch v.kind {
	case kList, kTuple, kSet:
		o := v.obj
		order := o.whole.union(o.latent).union(v.taints)
		items := make([]value, 0, len(o.items)+1)
		for _, it := range o.items {
			items = append(items, withTaints(it, order))
		}
		if o.more != nil {
			items = append(items, withTaints(*o.more, order))
			return items, false
		}
		return items, true
	case kDict:
		o := v.obj
		items := make([]value, 0, len(o.keys)+1)
		for _, k := range o.keys {
			items = append(items, withTaints(k, o.whole))
		}
		if o.more != nil {
			return append(items, withTaints(r.fresh(nil), o.whole)), false
		}
		return items, true
	case kStr, kBytes:
		if s, ok := v.text(); ok && len(s) <= maxUnroll {
			items := make([]value, 0, len(s))
			for _, c := range s {
				it := str(string(c))
				it.kind = v.kind
				items = append(items, withTaints(it, v.taints))
			}
			return items, true
		}
		return []value{r.fresh(v.taints)}, false
	case kObject:
		o := v.obj
		switch {
		case o.environ:
			where := at
			if v.at != nil {
				where = v.at
			}
			return []value{withTaints(r.fresh(nil), r.libData("os.environ", where, fr))}, false
		case o.file != nil:
			return []value{r.fresh(r.fileContent(o.file).union(o.whole))}, false
		}
		return []value{withTaints(value{kind: kUnknown, sym: r.newSym()}, o.whole)}, false
	case kInstance:
		if m, _, ok := lookupClass(v.obj.cls, "__iter__"); ok && m.kind == kFunc {
			self := v
			it := r.callUser(fr, m.fn, &self, &call{fr: fr})
			if it.kind != kInstance || it.obj != v.obj {
				return r.iterate(fr, it, at)
			}
		}
		return []value{withTaints(unknown, r.deep(v, true))}, false
	case kUnknown:
		return []value{r.getattr(fr, v, "[]", at)}, false
	}
	return []value{withTaints(unknown, r.deep(v, true))}, false
}

// fileContent is what a file holds now.
func (r *run) fileContent(f *file) taints {
	switch f.special {
	case memoryFile:
		return f.content
	case plainFile:
		return r.contentOf(value{kind: kStr, parts: keyParts(f.key)})
	}
	// What a program reads back from its standard output or error is
	// nothing it wrote.
	return nil
}

// keyParts turns a file's key back into the parts of a path value that
// names it, for contentOf.
func keyParts(key string) []part {
	if !strings.Contains(key, "\x00") {
		return []part{{text: key}}
	}
	var parts []part
	for key != "" {
		i := strings.IndexByte(key, 0)
		if i < 0 {
			parts = append(parts, part{text: key})
			break
		}
		if i > 0 {
			parts = append(parts, part{text: key[:i]})
		}
		key = key[i+1:]
		j := strings.IndexByte(key, 0)
		if j < 0 {
			break
		}
		n, _ := strconv.Atoi(key[:j])
		parts = append(parts, part{sym: int32(n)})
		key = key[j+1:]
	}
	if len(parts) == 0 {
		return []part{{text: "."}}
	}
	return parts
}

// fstring is the value of an f-string: its literal parts known, each
// field converted as str() or repr() would.
func (r *run) fstring(fr *frame, parts []fpart, at node) value {
	var out []part
	var t taints
	for _, p := range parts {
		if p.x == nil {
			out = append(out, part{text: p.lit})
			continue
		}
		v := r.eval(fr, p.x)
		s := r.toStr(fr, v, p.conv == 'r' || p.conv == 'a', p.x)
		if len(p.spec) > 0 {
			spec := r.fstring(fr, p.spec, at)
			specText, known := spec.text()
			t = t.union(spec.taints)
			if !known || specText != "" {
				// A format spec pads, rounds or converts: the text is
				// not known, what went into it is.
				s = r.fresh(s.taints)
			}
		}
		out = append(out, s.parts...)
		t = t.union(s.taints)
	}
	return strOf(out, t)
}
