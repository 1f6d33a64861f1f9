package python

import (
	"slices"
	"strconv"

	"github.com/ahab-go/ahab/internal/effect"
)

// call is one call as the interpreter makes it.
type call struct {
	fr *frame
	x  *callExpr // the call as written; nil for one Python makes (__str__, __enter__)
	// name is the qualified name of the library function called.
	name string
	// recv is the object whose method is called.
	recv *value
	args []value
	kw   []kwArg
	// stmt says the result is dropped.
	stmt bool
	// sorted says the result goes straight into a sorting function.
	sorted bool
	// varargs says a *args of unknown length was given: the arguments
	// past args are not known.
	varargs bool
	// eff are the effects of the call's entry that apply; a handler
	// that puts them where they go itself sets placed.
	eff    taints
	placed bool
}

type kwArg struct {
	name string // "" for a **mapping the reader cannot list
	v    value
}

// arg is the argument at position pos, or the keyword name, when given.
func (c *call) arg(pos int, name string) (value, bool) {
	if name != "" {
		for _, k := range c.kw {
			if k.name == name {
				return k.v, true
			}
		}
	}
	if pos >= 0 && pos < len(c.args) {
		return c.args[pos], true
	}
	return value{}, false
}

func (c *call) kwarg(name string) (value, bool) { return c.arg(-1, name) }

// node is where the call is written, for reaches: the call, or the
// expression that made Python call (str(x) of an object).
func (c *call) node() node {
	if c.x != nil {
		return c.x
	}
	return &constExpr{}
}

// evalCall evaluates a call as written: the callee, then the arguments.
func (r *run) evalCall(fr *frame, x *callExpr, stmt, sorted bool) value {
	if a, ok := x.fn.(*attrExpr); ok {
		recv := r.eval(fr, a.x)
		c := r.evalArgs(fr, x, "")
		c.stmt, c.sorted = stmt, sorted
		return r.callMethod(fr, recv, a.name, c)
	}
	fn := r.eval(fr, x.fn)
	c := r.evalArgs(fr, x, sortingName(fn))
	c.stmt, c.sorted = stmt, sorted
	return r.callValue(fr, fn, c)
}

// sortingName is the name of a library function the callee is, when it
// is one that puts what it is given in order.
func sortingName(fn value) string {
	if fn.kind == kLib {
		return fn.name
	}
	return ""
}

func (r *run) evalArgs(fr *frame, x *callExpr, callee string) *call {
	c := &call{fr: fr, x: x}
	sorts := false
	if callee != "" {
		if f, ok := r.lib.Function(Language, callee); ok {
			sorts = slices.Contains(f.Removes, effect.Order) || slices.Contains(f.Removes, effect.HashSeed)
		}
	}
	for _, a := range x.args {
		if s, ok := a.(*starredExpr); ok {
			v := r.eval(fr, s.x)
			items, exact := r.iterate(fr, v, s)
			c.args = append(c.args, items...)
			if !exact {
				c.varargs = true
			}
			continue
		}
		if inner, ok := a.(*callExpr); ok && sorts {
			c.args = append(c.args, r.evalCall(fr, inner, false, true))
			continue
		}
		c.args = append(c.args, r.eval(fr, a))
	}
	for _, k := range x.kw {
		v := r.eval(fr, k.x)
		if k.name != "" {
			c.kw = append(c.kw, kwArg{name: k.name, v: v})
			continue
		}
		each(v, func(m value) {
			if m.kind == kDict && m.obj.more == nil {
				for i, key := range m.obj.keys {
					if name, ok := key.text(); ok {
						c.kw = append(c.kw, kwArg{name: name, v: withTaints(m.obj.items[i], m.obj.whole)})
					}
				}
				return
			}
			c.kw = append(c.kw, kwArg{v: withTaints(unknown, r.deep(m, true))})
		})
	}
	return c
}

// callValue calls whatever a value is.
func (r *run) callValue(fr *frame, fn value, c *call) value {
	if fn.kind == kUnion {
		var out value
		for i, a := range fn.alts {
			// Each alternative is a call of its own: what one sets of
			// the call (its receiver, its effects) is not another's.
			ac := *c
			v := r.callValue(fr, a, &ac)
			if i == 0 {
				out = v
			} else {
				out = join(out, v)
			}
		}
		return out
	}
	switch fn.kind {
	case kFunc:
		return r.callUser(fr, fn.fn, nil, c)
	case kBound:
		if fn.fn != nil {
			return r.callUser(fr, fn.fn, fn.recv, c)
		}
		return r.callMethod(fr, *fn.recv, methodName(fn.name), c)
	case kClass:
		return r.instantiate(fr, fn.cls, c)
	case kLib:
		return r.callLib(fr, fn.name, c)
	case kInstance:
		if m, _, ok := lookupClass(fn.obj.cls, "__call__"); ok && m.kind == kFunc {
			self := fn
			return r.callUser(fr, m.fn, &self, c)
		}
	}
	return r.opaque(fr, fn, c)
}

// methodName is the last part of a qualified name.
func methodName(q string) string {
	for i := len(q) - 1; i >= 0; i-- {
		if q[i] == '.' {
			return q[i+1:]
		}
	}
	return q
}

// opaque is a call of something the reader cannot see into: its result
// is made of what it is given.
func (r *run) opaque(fr *frame, fn value, c *call) value {
	t := r.deep(fn, true)
	for _, a := range c.args {
		t = t.union(r.dataOf(fr, a, c.node()))
	}
	for _, k := range c.kw {
		t = t.union(r.dataOf(fr, k.v, c.node()))
	}
	return value{kind: kUnknown, taints: t, sym: r.newSym()}
}

// callMethod calls recv.name(...).
func (r *run) callMethod(fr *frame, recv value, name string, c *call) value {
	if recv.kind == kUnion {
		var out value
		for i, a := range recv.alts {
			ac := *c
			v := r.callMethod(fr, a, name, &ac)
			if i == 0 {
				out = v
			} else {
				out = join(out, v)
			}
		}
		return out
	}
	switch recv.kind {
	case kModule, kClass:
		return r.callValue(fr, r.getattr(fr, recv, name, c.node()), c)
	case kLib:
		return r.callLib(fr, recv.name+"."+name, c)
	case kInstance:
		return r.callValue(fr, r.instanceAttr(fr, recv, name), c)
	case kUnknown, kBound, kFunc:
		if name == "write" || name == "writelines" {
			// Writing to a file object the reader lost track of, which
			// may be an output.
			var t taints
			for _, a := range c.args {
				t = t.union(r.dataOf(fr, a, c.node()))
			}
			r.write(recv, t)
			return none
		}
		return r.opaque(fr, recv, c)
	}
	c.recv = &recv
	return r.callLib(fr, typeName(recv)+"."+name, c)
}

// callUser calls a function of the program: its body is followed with
// the arguments bound, to a bounded depth. A function already running
// (recursion) gives its summary.
func (r *run) callUser(fr *frame, fn *function, self *value, c *call) value {
	args := c.args
	if self != nil && fn.kind != staticFunc {
		args = append([]value{*self}, args...)
	}
	if len(r.stack) >= maxCallDepth {
		r.note(fn.mod.lineText(c.node()) + ": python: calls nest more than " + strconv.Itoa(maxCallDepth) + " deep; the deeper ones were not followed")
		return r.opaque(fr, value{kind: kFunc, fn: fn}, &call{args: args, kw: c.kw})
	}
	if slices.Contains(r.stack, fn) {
		return r.summary(fr, fn, self, args, c)
	}
	return r.invoke(fn, self, args, c)
}

// summary is what a function gives whatever its arguments: its body
// followed once with every parameter unknown but for what the arguments
// carry, in which a call of it again gives what its arguments carry. It
// stands for the calls recursion makes, which a known argument would
// otherwise cut short (f(n - 1) down to f(0)).
func (r *run) summary(fr *frame, fn *function, self *value, args []value, c *call) value {
	t := r.extraTaints(args, c.kw)
	if s, ok := r.summaries[fn]; ok {
		return withTaints(s, t)
	}
	if r.summarizing[fn] {
		return r.opaque(fr, value{kind: kFunc, fn: fn}, &call{args: args, kw: c.kw})
	}
	r.summarizing[fn] = true
	defer delete(r.summarizing, fn)
	anyArgs := make([]value, len(args))
	for i := range args {
		if i == 0 && self != nil {
			anyArgs[i] = args[0]
			continue
		}
		anyArgs[i] = value{kind: kUnknown, taints: t, sym: r.newSym()}
	}
	var kw []kwArg
	for _, k := range c.kw {
		kw = append(kw, kwArg{name: k.name, v: value{kind: kUnknown, taints: t, sym: r.newSym()}})
	}
	s := r.invoke(fn, self, anyArgs, &call{fr: fr, x: c.x, kw: kw, varargs: c.varargs})
	r.summaries[fn] = s
	return withTaints(s, t)
}

// invoke runs a function's body with its arguments.
func (r *run) invoke(fn *function, self *value, args []value, c *call) value {
	r.stack = append(r.stack, fn)
	defer func() { r.stack = r.stack[:len(r.stack)-1] }()
	local := &scope{vars: map[string]value{}}
	callee := &frame{mod: fn.mod, local: local, outer: fn.outer, globals: fn.mod.globals, fn: fn}
	if self != nil {
		callee.self = self
	}
	r.bind(fn, local, args, c)
	if fn.lambda != nil {
		return r.eval(callee, fn.lambda)
	}
	f := r.block(callee, fn.body)
	if fn.generator {
		out := newList(kList, nil)
		if callee.yielded != nil {
			out.obj.addMore(*callee.yielded)
		}
		return out
	}
	ret := none
	if callee.ret != nil {
		ret = *callee.ret
		if f == normal {
			ret = join(ret, none)
		}
	}
	return ret
}

// bind gives a function's parameters their arguments.
func (r *run) bind(fn *function, s *scope, args []value, c *call) {
	used := map[string]bool{}
	i := 0
	for _, p := range fn.params {
		switch p.kind {
		case starParam:
			rest := newList(kTuple, nil)
			for ; i < len(args); i++ {
				rest.obj.push(args[i])
			}
			if c.varargs {
				rest.obj.addMore(unknown)
			}
			s.vars[p.name] = rest
			continue
		case kwParam:
			d := value{kind: kDict, obj: &object{}}
			for _, k := range c.kw {
				if !used[k.name] {
					if k.name == "" {
						d.obj.addMore(k.v)
						continue
					}
					d.obj.keys = append(d.obj.keys, str(k.name))
					d.obj.items = append(d.obj.items, k.v)
				}
			}
			s.vars[p.name] = d
			continue
		}
		if v, ok := kwNamed(c.kw, p.name); ok {
			s.vars[p.name] = v
			used[p.name] = true
			continue
		}
		if i < len(args) {
			s.vars[p.name] = args[i]
			i++
			continue
		}
		switch v, ok := fn.defaults[p.name]; {
		case c.varargs || hasUnnamedKw(c.kw):
			// A *args or **kwargs the reader cannot list may give it.
			s.vars[p.name] = join(v, withTaints(unknown, r.extraTaints(args, c.kw)))
		case ok:
			s.vars[p.name] = v
		default:
			s.vars[p.name] = unknown
		}
	}
}

func kwNamed(kw []kwArg, name string) (value, bool) {
	for _, k := range kw {
		if k.name == name {
			return k.v, true
		}
	}
	return value{}, false
}

func hasUnnamedKw(kw []kwArg) bool {
	return slices.ContainsFunc(kw, func(k kwArg) bool { return k.name == "" })
}

func (r *run) extraTaints(args []value, kw []kwArg) taints {
	var t taints
	for _, a := range args {
		t = t.union(r.deep(a, true))
	}
	for _, k := range kw {
		t = t.union(r.deep(k.v, true))
	}
	return t
}

// instantiate makes an instance of a class of the program and runs its
// __init__.
func (r *run) instantiate(fr *frame, cls *class, c *call) value {
	self := value{kind: kInstance, obj: &object{cls: cls, attrs: map[string]value{}}}
	if init, _, ok := lookupClass(cls, "__init__"); ok && init.kind == kFunc {
		r.callUser(fr, init.fn, &self, c)
	} else if lib := libBase(cls); lib != "" {
		// A subclass of a library class: what its constructor carries.
		self.obj.whole = r.opaque(fr, unknown, c).taints
	}
	return self
}

// enter is what `with ctx as x` binds.
func (r *run) enter(fr *frame, ctx value, at node) value {
	var out value
	first := true
	each(ctx, func(v value) {
		var got value
		switch v.kind {
		case kInstance:
			if m, _, ok := lookupClass(v.obj.cls, "__enter__"); ok && m.kind == kFunc {
				self := v
				got = r.callUser(fr, m.fn, &self, &call{fr: fr})
			} else {
				got = v
			}
		case kObject:
			if v.obj.redirect != nil {
				saved := r.stdoutV
				v.obj.saved = &saved
				r.stdoutV = *v.obj.redirect
				got = *v.obj.redirect
			} else if _, ok := r.lib.Function(Language, v.obj.class+".__enter__"); ok {
				c := &call{fr: fr, recv: &v}
				if x, ok := at.(*callExpr); ok {
					c.x = x
				}
				got = r.callLib(fr, v.obj.class+".__enter__", c)
			} else {
				got = v
			}
		case kList:
			// A generator function used as a context manager
			// (contextlib.contextmanager): what it yields.
			got = withTaints(v.obj.element(), v.obj.whole)
		default:
			got = v
		}
		if first {
			out, first = got, false
		} else {
			out = join(out, got)
		}
	})
	return out
}

func (r *run) exit(fr *frame, ctx value, at node) {
	each(ctx, func(v value) {
		if v.kind == kObject && v.obj.saved != nil {
			r.stdoutV = *v.obj.saved
		}
		if v.kind == kInstance {
			if m, _, ok := lookupClass(v.obj.cls, "__exit__"); ok && m.kind == kFunc {
				self := v
				r.callUser(fr, m.fn, &self, &call{fr: fr, args: []value{none, none, none}})
			}
		}
	})
}
