package python

import (
	"maps"
	"slices"
	"strconv"

	"github.com/ahab-go/ahab/internal/effect"
)

// scope holds the names of a module, a function call, a class body or a
// comprehension. Frames hold scopes by pointer, so that a function sees
// the names its module binds after it was defined.
type scope struct {
	vars map[string]value
}

// module is a program or a module of the workspace it imports.
type module struct {
	name string // __name__: __main__, or the dotted name imported
	file string // as a person opens it; empty for inline code
	src  string
	main bool
	site func(line int) effect.Site
	// globals are its names.
	globals *scope
	// pkg is the package a relative import starts from.
	pkg string
	// stars are the library modules it imported with `from M import *`,
	// where a name it does not bind may come from.
	stars []string
}

// function is a function or a lambda the program defines.
type function struct {
	name     string
	params   []param
	defaults map[string]value
	body     []stmt // nil for a lambda
	lambda   expr
	mod      *module
	outer    []*scope
	// cls is the class whose body defines it, for super().
	cls       *class
	generator bool
	kind      funcKind
}

type funcKind uint8

const (
	plainFunc funcKind = iota
	staticFunc
	classFunc
	propertyFunc
)

// class is a class the program defines.
type class struct {
	name  string
	bases []value
	attrs *scope
	mod   *module
}

// frame is one running body: a module, a call, a class body.
type frame struct {
	mod      *module
	local    *scope
	outer    []*scope
	globals  *scope
	fn       *function
	global   map[string]bool
	nonlocal map[string]bool
	ret      *value
	yielded  *value
	loop     *loopState
	try      *tryState
	// self is the first argument of a method, for super().
	self *value
	// class says the frame runs a class body, that of defining.
	class    bool
	defining *class
	// fallback counts the handlers of ImportError the frame is in,
	// whose imports are tried only when another failed.
	fallback int
}

// state is what a branch changes that the reader joins where branches
// meet: the frame's own names, the facts established, the environment,
// and where sys.stdout goes.
type state struct {
	vars   map[string]value
	facts  []string
	env    map[string]envValue
	stdout value
}

type loopState struct{ breaks, conts []state }

type tryState struct{ raised []state }

// flow says whether a body can go on to the statement after it.
type flow uint8

const (
	normal flow = iota
	jumped      // every path returned, raised, broke or continued
)

// stop unwinds the interpretation when the work bound is reached.
type stop struct{}

func (r *run) step() {
	r.work++
	if r.work > maxWork {
		panic(stop{})
	}
}

// runMain runs the program's main module, and records the note when it
// stopped early.
func (r *run) runMain(m *module, body []stmt) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(stop); !ok {
				panic(x)
			}
			r.note(r.where() + ": python: the program takes more than " + strconv.Itoa(maxWork) + " steps to follow; what comes after was not followed")
		}
	}()
	r.runModule(m, body)
}

func (r *run) runModule(m *module, body []stmt) {
	fr := &frame{mod: m, local: m.globals, globals: m.globals}
	if m.file != "" {
		m.globals.vars["__file__"] = r.fileValue(m)
	}
	r.block(fr, body)
}

func (r *run) save(fr *frame) state {
	return state{vars: maps.Clone(fr.local.vars), facts: slices.Clone(r.facts), env: maps.Clone(r.environ), stdout: r.stdoutV}
}

func (r *run) restore(fr *frame, st state) {
	fr.local.vars = maps.Clone(st.vars)
	r.facts = slices.Clone(st.facts)
	r.environ = maps.Clone(st.env)
	r.stdoutV = st.stdout
}

// joinStates is a state that may be any of sts: a name bound on one path
// only keeps what it is there, a fact holds if it holds on every path, a
// variable of the environment is known if every path agrees.
func joinStates(sts []state) state {
	out := state{vars: maps.Clone(sts[0].vars), facts: slices.Clone(sts[0].facts), env: maps.Clone(sts[0].env), stdout: sts[0].stdout}
	for _, st := range sts[1:] {
		for k, v := range st.vars {
			if old, ok := out.vars[k]; ok {
				out.vars[k] = join(old, v)
			} else {
				out.vars[k] = v
			}
		}
		out.facts = slices.DeleteFunc(out.facts, func(f string) bool { return !slices.Contains(st.facts, f) })
		for k, v := range st.env {
			if old, ok := out.env[k]; !ok || old != v {
				out.env[k] = envValue{}
			}
		}
		for k := range out.env {
			if _, ok := st.env[k]; !ok {
				out.env[k] = envValue{}
			}
		}
		out.stdout = join(out.stdout, st.stdout)
	}
	return out
}

// branches follows bodies that start from the same state and joins the
// states they end in, and what they took out of objects (journal.go).
func (r *run) branches(fr *frame, bodies ...func() flow) flow {
	start := r.save(fr)
	mark := len(r.journal)
	r.branched++
	var ends []state
	var took [][]removal
	for _, body := range bodies {
		r.restore(fr, start)
		f := body()
		done := r.undoSince(mark)
		if f == normal {
			ends = append(ends, r.save(fr))
			took = append(took, done)
		}
	}
	r.branched--
	if len(ends) == 0 {
		r.restore(fr, start)
		return jumped
	}
	r.restore(fr, joinStates(ends))
	r.takeCommon(took)
	return normal
}

func (r *run) block(fr *frame, body []stmt) flow {
	for _, s := range body {
		if r.exec(fr, s) == jumped {
			return jumped
		}
	}
	return normal
}

func (r *run) exec(fr *frame, s stmt) flow {
	r.step()
	switch s := s.(type) {
	case *exprStmt:
		r.evalStmt(fr, s.x)
	case *assignStmt:
		v := r.eval(fr, s.x)
		for _, t := range s.targets {
			r.assign(fr, t, v)
		}
	case *augAssignStmt:
		r.augAssign(fr, s)
	case *annAssignStmt:
		if s.x != nil {
			r.assign(fr, s.target, r.eval(fr, s.x))
		}
	case *delStmt:
		for _, t := range s.targets {
			r.del(fr, t)
		}
	case *jumpStmt:
		return r.jump(fr, s.kind)
	case *returnStmt:
		v := none
		if s.x != nil {
			v = r.eval(fr, s.x)
		}
		fr.ret = joinPtr(fr.ret, v)
		return jumped
	case *raiseStmt:
		if s.x != nil {
			r.eval(fr, s.x)
		}
		if fr.try != nil {
			fr.try.raised = append(fr.try.raised, r.save(fr))
		}
		return jumped
	case *scopeStmt:
		r.declare(fr, s)
	case *importStmt:
		r.importStmt(fr, s)
	case *importFromStmt:
		r.importFrom(fr, s)
	case *assertStmt:
		r.eval(fr, s.test)
		if s.msg != nil {
			r.eval(fr, s.msg)
		}
	default:
		return r.compound(fr, s)
	}
	return normal
}

// compound runs a statement with a body.
func (r *run) compound(fr *frame, s stmt) flow {
	switch s := s.(type) {
	case *ifStmt:
		return r.ifStmt(fr, s)
	case *whileStmt:
		return r.whileStmt(fr, s)
	case *forStmt:
		return r.forStmt(fr, s)
	case *tryStmt:
		return r.tryStmt(fr, s)
	case *withStmt:
		return r.withStmt(fr, s)
	case *funcDef:
		r.defineFunc(fr, s)
	case *classDef:
		r.defineClass(fr, s)
	case *matchStmt:
		return r.matchStmt(fr, s)
	}
	return normal
}

func joinPtr(p *value, v value) *value {
	if p != nil {
		v = join(*p, v)
	}
	return &v
}

func (r *run) jump(fr *frame, kind string) flow {
	if fr.loop == nil || kind == "pass" {
		return normal
	}
	st := r.save(fr)
	if kind == "break" {
		fr.loop.breaks = append(fr.loop.breaks, st)
	} else {
		fr.loop.conts = append(fr.loop.conts, st)
	}
	return jumped
}

func (r *run) declare(fr *frame, s *scopeStmt) {
	m := &fr.nonlocal
	if s.global {
		m = &fr.global
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	for _, n := range s.names {
		(*m)[n] = true
	}
}

func (r *run) ifStmt(fr *frame, s *ifStmt) flow {
	test := r.eval(fr, s.test)
	if t, ok := test.truth(); ok {
		if t {
			return r.block(fr, s.body)
		}
		return r.block(fr, s.orelse)
	}
	return r.branches(fr, func() flow { return r.block(fr, s.body) }, func() flow { return r.block(fr, s.orelse) })
}

// loop follows a loop's body over the states it can start in: once per
// item for a known list (items), else twice over the join of its items,
// which is what a taint carried from one iteration to the next needs. It
// returns the state the loop ends in without a break, and the breaks.
func (r *run) loop(fr *frame, body []stmt, bind func(value), items []value, exact bool, test func()) (ended bool, breaks []state) {
	prev := fr.loop
	ls := &loopState{}
	fr.loop = ls
	defer func() { fr.loop = prev }()
	start := r.save(fr)
	ends := []state{start}
	if exact {
		for _, it := range items {
			bind(it)
			f := r.block(fr, body)
			cur := ls.conts
			ls.conts = nil
			if f == normal {
				cur = append(cur, r.save(fr))
			}
			if len(cur) == 0 {
				return false, ls.breaks
			}
			r.restore(fr, joinStates(cur))
			if test != nil {
				test()
			}
		}
		return true, ls.breaks
	}
	elem := unknown
	if len(items) > 0 {
		elem = items[0]
	}
	for pass := 0; pass < 2; pass++ {
		r.restore(fr, joinStates(ends))
		if test != nil {
			test()
		}
		bind(elem)
		f := r.block(fr, body)
		ends = append(ends, ls.conts...)
		ls.conts = nil
		if f == normal {
			ends = append(ends, r.save(fr))
		}
	}
	r.restore(fr, joinStates(ends))
	return true, ls.breaks
}

func (r *run) forStmt(fr *frame, s *forStmt) flow {
	items, exact := r.iterate(fr, r.eval(fr, s.iter), s.iter)
	if !exact || len(items) > maxUnroll {
		items, exact = []value{joinAll(items)}, false
	}
	ended, breaks := r.loop(fr, s.body, func(v value) { r.assign(fr, s.target, v) }, items, exact, nil)
	return r.afterLoop(fr, ended, breaks, s.orelse)
}

// afterLoop runs a loop's else on the paths that did not break, and joins
// them with those that did.
func (r *run) afterLoop(fr *frame, ended bool, breaks []state, orelse []stmt) flow {
	var ends []state
	if ended && r.block(fr, orelse) == normal {
		ends = append(ends, r.save(fr))
	}
	ends = append(ends, breaks...)
	if len(ends) == 0 {
		return jumped
	}
	r.restore(fr, joinStates(ends))
	return normal
}

func (r *run) whileStmt(fr *frame, s *whileStmt) flow {
	test := r.eval(fr, s.test)
	t, known := test.truth()
	if known && !t {
		return r.block(fr, s.orelse)
	}
	// A test true every time it is evaluated (while True) ends the loop
	// only by a break.
	always := known && t
	ended, breaks := r.loop(fr, s.body, func(value) {}, nil, false, func() {
		t, known := r.eval(fr, s.test).truth()
		always = always && known && t
	})
	if always {
		ended = false
	}
	return r.afterLoop(fr, ended, breaks, s.orelse)
}

func (r *run) tryStmt(fr *frame, s *tryStmt) flow {
	prev := fr.try
	ts := &tryState{}
	fr.try = ts
	start := r.save(fr)
	f := r.block(fr, s.body)
	fr.try = prev
	var ends []state
	if f == normal {
		if r.block(fr, s.orelse) == normal {
			ends = append(ends, r.save(fr))
		}
	}
	if len(s.handlers) > 0 {
		// A handler may start anywhere the body could raise: before it,
		// after it, or where it raised.
		from := append([]state{start}, ts.raised...)
		if f == normal {
			from = append(from, r.save(fr))
		}
		hstart := joinStates(from)
		for _, h := range s.handlers {
			r.restore(fr, hstart)
			if h.typ != nil {
				r.eval(fr, h.typ)
			}
			if h.name != "" {
				r.setName(fr, h.name, unknown)
			}
			fallback := catchesImportError(h.typ)
			if fallback {
				fr.fallback++
			}
			if r.block(fr, h.body) == normal {
				ends = append(ends, r.save(fr))
			}
			if fallback {
				fr.fallback--
			}
		}
	}
	if len(ends) == 0 {
		if s.finally != nil {
			r.restore(fr, joinStates(append([]state{start}, ts.raised...)))
			r.block(fr, s.finally)
		}
		return jumped
	}
	r.restore(fr, joinStates(ends))
	if s.finally != nil {
		return r.block(fr, s.finally)
	}
	return normal
}

// catchesImportError says a handler's type is ImportError or
// ModuleNotFoundError, or a tuple holding one.
func catchesImportError(typ expr) bool {
	switch t := typ.(type) {
	case *nameExpr:
		return t.id == "ImportError" || t.id == "ModuleNotFoundError"
	case *seqExpr:
		return slices.ContainsFunc(t.xs, catchesImportError)
	}
	return false
}

func (r *run) withStmt(fr *frame, s *withStmt) flow {
	var ctxs []value
	for _, it := range s.items {
		ctx := r.eval(fr, it.ctx)
		ctxs = append(ctxs, ctx)
		entered := r.enter(fr, ctx, it.ctx)
		if it.vars != nil {
			r.assign(fr, it.vars, entered)
		}
	}
	f := r.block(fr, s.body)
	for i := len(ctxs) - 1; i >= 0; i-- {
		r.exit(fr, ctxs[i], s.items[i].ctx)
	}
	return f
}

func (r *run) matchStmt(fr *frame, s *matchStmt) flow {
	subject := r.eval(fr, s.subject)
	t := r.deep(subject, true)
	var bodies []func() flow
	for _, c := range s.cases {
		bodies = append(bodies, func() flow {
			for _, name := range captures(c.pattern) {
				r.setName(fr, name, withTaints(unknown, t))
			}
			if c.guard != nil {
				r.eval(fr, c.guard)
			}
			return r.block(fr, c.body)
		})
	}
	// No case may match.
	bodies = append(bodies, func() flow { return normal })
	return r.branches(fr, bodies...)
}

// captures are the names a pattern binds: its plain names, and those
// after `as`; not a class or a value it names (Point(x=0), Color.RED).
func captures(pattern expr) []string {
	var out []string
	var visit func(x expr)
	visit = func(x expr) {
		switch x := x.(type) {
		case *nameExpr:
			if x.id != "_" {
				out = append(out, x.id)
			}
		case *namedExpr:
			out = append(out, x.target)
			visit(x.x)
		case *callExpr:
			for _, a := range x.args {
				visit(a)
			}
			for _, k := range x.kw {
				visit(k.x)
			}
		case *seqExpr:
			for _, a := range x.xs {
				visit(a)
			}
		case *dictExpr:
			for _, v := range x.vals {
				visit(v)
			}
		case *starredExpr:
			visit(x.x)
		case *binExpr:
			visit(x.l)
			visit(x.r)
		}
	}
	visit(pattern)
	return out
}

// setName binds a name in the scope the frame's declarations say.
func (r *run) setName(fr *frame, name string, v value) {
	switch {
	case fr.global[name]:
		if fr.globals != fr.local {
			// Written from a function, outside the branches the
			// function's own state follows: the old value may remain.
			if old, ok := fr.globals.vars[name]; ok {
				v = join(old, v)
			}
		}
		fr.globals.vars[name] = v
		return
	case fr.nonlocal[name]:
		for _, s := range fr.outer {
			if old, ok := s.vars[name]; ok {
				s.vars[name] = join(old, v)
				return
			}
		}
	}
	fr.local.vars[name] = v
}

func (r *run) assign(fr *frame, target expr, v value) {
	switch t := target.(type) {
	case *nameExpr:
		r.setName(fr, t.id, v)
	case *seqExpr:
		r.unpack(fr, t.xs, v, t)
	case *starredExpr:
		r.assign(fr, t.x, v)
	case *attrExpr:
		r.setAttr(fr, r.eval(fr, t.x), t.name, v, t)
	case *subscriptExpr:
		r.setItem(fr, r.eval(fr, t.x), r.eval(fr, t.index), v)
	}
}

// unpack assigns the items of v to targets, a starred one taking the
// rest as a list.
func (r *run) unpack(fr *frame, targets []expr, v value, at node) {
	items, exact := r.iterate(fr, v, at)
	star := slices.IndexFunc(targets, func(x expr) bool { _, ok := x.(*starredExpr); return ok })
	if exact && (len(items) == len(targets) || star >= 0 && len(items) >= len(targets)-1) {
		for i, t := range targets {
			switch {
			case star < 0 || i < star:
				r.assign(fr, t, items[i])
			case i == star:
				rest := items[star : len(items)-(len(targets)-1-star)]
				r.assign(fr, t, newList(kList, rest))
			default:
				r.assign(fr, t, items[len(items)-(len(targets)-i)])
			}
		}
		return
	}
	elem := joinAll(items)
	for i, t := range targets {
		if i == star {
			l := newList(kList, nil)
			l.obj.addMore(elem)
			r.assign(fr, t, l)
			continue
		}
		r.assign(fr, t, elem)
	}
}

func joinAll(vs []value) value {
	if len(vs) == 0 {
		return unknown
	}
	v := vs[0]
	for _, x := range vs[1:] {
		v = join(v, x)
	}
	return v
}

func (r *run) augAssign(fr *frame, s *augAssignStmt) {
	old := r.eval(fr, s.target)
	x := r.eval(fr, s.x)
	if s.op == "+" && (old.kind == kList || old.kind == kDict) && old.obj != nil {
		// a += b extends the list in place, for whoever else holds it.
		items, exact := r.iterate(fr, x, s.x)
		if exact {
			for _, it := range items {
				old.obj.push(it)
			}
		} else {
			old.obj.addMore(joinAll(items))
		}
		old.obj.whole = old.obj.whole.union(r.iterTaints(x))
		r.assign(fr, s.target, old)
		return
	}
	if s.op == "|" && old.kind == kSet && old.obj != nil {
		r.addToSet(fr, old, x, s.x)
		r.assign(fr, s.target, old)
		return
	}
	r.assign(fr, s.target, r.binop(fr, s.op, old, x, s))
}

func (r *run) del(fr *frame, target expr) {
	switch t := target.(type) {
	case *nameExpr:
		delete(fr.local.vars, t.id)
	case *seqExpr:
		for _, x := range t.xs {
			r.del(fr, x)
		}
	case *subscriptExpr:
		base := r.eval(fr, t.x)
		key := r.eval(fr, t.index)
		if base.kind == kObject && base.obj.environ {
			if name, ok := key.text(); ok {
				r.environ[name] = envValue{unset: true}
			}
		}
	}
}

// defineFunc binds a def: its defaults are evaluated now, its decorators
// applied.
func (r *run) defineFunc(fr *frame, s *funcDef) {
	fn := r.newFunction(fr, s.name, s.params, s.body, nil)
	fn.generator = s.generator
	v := value{kind: kFunc, fn: fn}
	for i := len(s.decorators) - 1; i >= 0; i-- {
		v = r.decorate(fr, s.decorators[i], v)
	}
	r.setName(fr, s.name, v)
}

func (r *run) newFunction(fr *frame, name string, params []param, body []stmt, lambda expr) *function {
	fn := &function{name: name, params: params, body: body, lambda: lambda, mod: fr.mod, defaults: map[string]value{}}
	for _, p := range params {
		if p.def != nil {
			fn.defaults[p.name] = r.eval(fr, p.def)
		}
	}
	// A function sees the names of the functions around it, never those
	// of a class body around it.
	if fr.class {
		fn.outer = fr.outer
	} else if fr.local != fr.globals {
		fn.outer = append([]*scope{fr.local}, fr.outer...)
	}
	if fr.class {
		fn.cls = fr.defining
	}
	return fn
}

// decorate applies a decorator. One of the program's own is called; one
// of the library (functools.wraps, lru_cache, click.command…) is taken to
// return a function that calls the one it decorates, which is then
// followed in its place.
func (r *run) decorate(fr *frame, dec expr, v value) value {
	d := r.eval(fr, dec)
	switch d.kind {
	case kFunc, kClass:
		return r.callValue(fr, d, &call{fr: fr, args: []value{v}})
	case kLib:
		if v.kind == kFunc {
			fn := *v.fn
			switch d.name {
			case "staticmethod":
				fn.kind = staticFunc
			case "classmethod":
				fn.kind = classFunc
			case "property", "functools.cached_property":
				fn.kind = propertyFunc
			}
			v.fn = &fn
		}
	}
	return v
}

func (r *run) defineClass(fr *frame, s *classDef) {
	cls := &class{name: s.name, attrs: &scope{vars: map[string]value{}}, mod: fr.mod}
	for _, b := range s.bases {
		cls.bases = append(cls.bases, r.eval(fr, b))
	}
	for _, k := range s.kw {
		r.eval(fr, k.x)
	}
	body := &frame{mod: fr.mod, local: cls.attrs, outer: fr.outer, globals: fr.globals, class: true, defining: cls}
	if fr.local != fr.globals && !fr.class {
		body.outer = append([]*scope{fr.local}, fr.outer...)
	}
	r.block(body, s.body)
	v := value{kind: kClass, cls: cls}
	for i := len(s.decorators) - 1; i >= 0; i-- {
		d := r.eval(fr, s.decorators[i])
		if d.kind == kFunc {
			v = r.callValue(fr, d, &call{fr: fr, args: []value{v}})
		}
	}
	r.setName(fr, s.name, v)
}
