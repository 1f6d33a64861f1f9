package perl

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

func (in *interp) eval(x node) val {
	if !in.step() || x == nil {
		return val{}
	}
	switch x := x.(type) {
	case numLit:
		return fixed(x.v)
	case strLit:
		return fixed(x.v)
	case bareword:
		if v, ok := in.consts[x.name]; ok {
			return v
		}
		return fixed(x.name)
	case wordsLit:
		return fixed(strings.Join(x.words, " "))
	case *interpStr:
		return in.interp(x)
	case varNode:
		return in.variable(x)
	case elemNode:
		return in.element(x)
	case castNode:
		return in.deref(x)
	case listNode:
		return in.listAll(x)
	case myNode:
		for _, v := range x.vars {
			if v, ok := v.(varNode); ok {
				in.declare(v.name)
			}
		}
		return val{}
	case assignNode:
		return in.assign(x)
	case binNode:
		return in.binary(x)
	case unNode:
		return in.unary(x)
	case condNode:
		in.eval(x.c)
		if holds, known := in.truth(x.c); known {
			if holds {
				return in.eval(x.a)
			}
			return in.eval(x.b)
		}
		return merge(in.eval(x.a), in.eval(x.b))
	}
	return in.evalMore(x)
}

// evalMore evaluates what eval does not: values made (arrays, hashes,
// subs, references), matches, input, commands and calls.
func (in *interp) evalMore(x node) val {
	switch x := x.(type) {
	case anonArray:
		c := &cell{assigned: true, elems: in.evalList(listNode(x))}
		return val{ref: c}
	case anonHash:
		return val{ref: in.hashOf(in.evalList(listNode(x)))}
	case anonSub:
		if x.def.src == nil {
			src := in.src
			x.def.src = &src
		}
		return val{code: x.def}
	case refNode:
		return in.reference(x.x)
	case matchNode:
		return in.match(x)
	case readlineNode:
		return in.readline(x)
	case filetestNode:
		return in.filetest(x)
	case cmdNode:
		cmd := in.interp(x.cmd)
		if !cmd.exact {
			in.note(in.where(x.line) + ": perl runs a command computed while it runs")
			return val{}
		}
		return in.shell(cmd.s, x.line, false)
	case doBlock:
		return in.block(x.body)
	case callNode:
		return in.call(x)
	case methodNode:
		return in.method(x)
	case callRef:
		fn := in.eval(x.fn)
		args := in.evalArgs(x.args)
		if fn.code != nil {
			return in.callSub(fn.code, args)
		}
		return derived(append(args, fn)...)
	}
	return val{}
}

func (in *interp) interp(s *interpStr) val {
	vs := make([]val, 0, len(s.parts))
	for _, p := range s.parts {
		vs = append(vs, in.eval(p))
	}
	return concat(vs...)
}

// variable is a variable's value: what the program stored, or for one it
// never set that the library describes ($$, %ENV), what that gives.
func (in *interp) variable(x varNode) val {
	name := x.name
	switch {
	case name == "$_":
		if in.isSet("$_") {
			return in.lookup("$_").v
		}
		return in.topic
	case name == "$&" || len(name) > 1 && name[0] == '$' && isDigit(name[1]) && name != "$0":
		return derived(in.matched)
	case strings.HasPrefix(name, "$#"):
		return derived(in.lookup("@" + name[2:]).all())
	case name[0] == '*' && !in.isSet(name):
		// A typeglob names a filehandle or a symbol.
		return fixed(name)
	}
	if !in.isSet(name) {
		if f, ok := in.function(name); ok && len(f.Effects) > 0 {
			return val{r: in.effects(f, in.text(x.pos, x.end, name), x.line, in.callFacts(nil))}
		}
	}
	c := in.lookup(name)
	switch name[0] {
	case '@':
		return c.all()
	case '%':
		v := c.all()
		if len(c.hash) > 0 || c.inexact {
			// A hash in list context lists in its hash order.
			v.r = effect.AppendReaches(v.r, in.libEffects("keys", in.text(x.pos, x.end, name), x.line, nil)...)
		}
		v.ref = c
		return v
	}
	return c.v
}

// libEffects are the effects of a function of the library, by name.
func (in *interp) libEffects(name, text string, line int, args []val) []effect.Reach {
	f, ok := in.env.Library.Function(Language, name)
	if !ok {
		return nil
	}
	return in.effects(f, text, line, in.callFacts(args))
}

// container finds the variable an element is of: @x for $x[0], %x for
// $x{k}, what a reference refers to for $r->[0]; nil when not known.
func (in *interp) container(base node, create bool) *cell {
	switch b := base.(type) {
	case varNode:
		if b.name[0] == '@' || b.name[0] == '%' {
			c := in.lookup(b.name)
			if create {
				c.assigned = true
				c.isHash = c.isHash || b.name[0] == '%'
			}
			return c
		}
		c := in.lookup(b.name)
		if c.v.ref == nil && create {
			c.v.ref = &cell{assigned: true}
			c.assigned = true
		}
		return c.v.ref
	case castNode:
		v := in.eval(b.x)
		if v.ref == nil && create {
			if vn, ok := b.x.(varNode); ok {
				return in.container(vn, true)
			}
		}
		return v.ref
	case elemNode:
		parent := in.container(b.base, create)
		if parent == nil {
			return nil
		}
		k := in.eval(b.index)
		e := parent.get(k, b.hash)
		if e.ref == nil && create {
			e.ref = &cell{assigned: true}
			parent.set(k, e, b.hash, in.weakFor(parent))
		}
		return e.ref
	case listNode:
		// (stat $f)[2]: a list whose items are not all counted may have any
		// of them at any index.
		c := &cell{assigned: true, elems: in.evalList(b)}
		for _, e := range c.elems {
			if e.many {
				c.addApprox(e)
			}
		}
		return c
	}
	v := in.eval(base)
	return v.ref
}

func (c *cell) get(k val, hash bool) val {
	if hash {
		if k.exact && !c.inexact {
			if e, ok := c.hash[k.s]; ok {
				return c.orApprox(e)
			}
			return c.approx
		}
		return c.all()
	}
	if i, err := strconv.Atoi(k.s); err == nil && k.exact && !c.inexact {
		if i < 0 {
			i += len(c.elems)
		}
		if i >= 0 && i < len(c.elems) {
			return c.orApprox(c.elems[i])
		}
		if !c.hasApprox {
			return undefined // past the end of a list whose length is known
		}
		return c.approx
	}
	return c.all()
}

func (c *cell) set(k, v val, hash, weak bool) {
	c.assigned = true
	if hash {
		c.isHash = true
		c.keys = merge(c.keys, val{r: k.r})
		if !k.exact {
			c.addApprox(v)
			return
		}
		if c.hash == nil {
			c.hash = map[string]val{}
		}
		if _, ok := c.hash[k.s]; !ok && len(c.hash) >= maxItems {
			c.addApprox(v)
			return
		}
		if weak {
			v = merge(c.hash[k.s], v)
		}
		c.hash[k.s] = v
		return
	}
	i, err := strconv.Atoi(k.s)
	if err != nil || !k.exact || i < 0 || i > len(c.elems)+64 || i >= maxItems {
		c.addApprox(v)
		return
	}
	for len(c.elems) <= i {
		c.elems = append(c.elems, val{})
	}
	if weak {
		v = merge(c.elems[i], v)
	}
	c.elems[i] = v
}

func (in *interp) element(x elemNode) val {
	if b, ok := x.base.(varNode); ok && b.name == "%ENV" && !in.isSet("%ENV") {
		return in.env1(x, b)
	}
	c := in.container(x.base, false)
	k := in.listAll(x.index)
	if c == nil {
		return derived(in.eval(x.base))
	}
	if _, slice := x.index.(listNode); slice {
		return c.all()
	}
	return c.get(k, x.hash)
}

// env1 is $ENV{NAME}: the value the program is given or set, when known;
// with a name not known, the whole environment.
func (in *interp) env1(x elemNode, b varNode) val {
	k := in.eval(x.index)
	if !k.exact {
		return val{r: in.libEffects("%ENV", "%ENV", b.line, nil)}
	}
	env := in.environment()
	for i := len(env) - 1; i >= 0; i-- {
		if name, v, ok := strings.Cut(env[i], "="); ok && name == k.s {
			x := fixed(v)
			x.epoch = name == "SOURCE_DATE_EPOCH"
			return x
		}
	}
	return val{}
}

func (in *interp) deref(x castNode) val {
	v := in.eval(x.x)
	if v.ref == nil {
		return derived(v)
	}
	switch x.sigil {
	case "$":
		return v.ref.v
	case "$#":
		return derived(v.ref.all())
	case "&":
		if v.code != nil {
			return in.callSub(v.code, nil)
		}
	}
	r := v.ref.all()
	r.ref = v.ref
	return r
}

func (in *interp) reference(x node) val {
	switch t := x.(type) {
	case varNode:
		if t.name[0] == '*' {
			return fixed(t.name) // \*STDOUT: the glob, which names a handle
		}
		if t.name[0] == '&' {
			if d, ok := in.sub(t.name[1:]); ok {
				return val{code: d}
			}
			return val{}
		}
		c := in.lookup(t.name)
		c.assigned = true
		c.isHash = c.isHash || t.name[0] == '%'
		return val{ref: c, r: c.all().r}
	case callNode:
		if t.amp {
			if d, ok := in.sub(t.name); ok {
				return val{code: d}
			}
		}
	case listNode:
		var v val
		for _, it := range t.items {
			v = merge(v, in.reference(it))
		}
		return v
	}
	v := in.eval(x)
	return val{r: v.r, ref: &cell{v: v, assigned: true}}
}

// hashOf is a new hash of key, value pairs.
func (in *interp) hashOf(vs []val) *cell {
	c := &cell{assigned: true, isHash: true}
	for i := 0; i < len(vs); i += 2 {
		var v val
		if i+1 < len(vs) {
			v = vs[i+1]
		}
		c.set(vs[i], v, true, false)
	}
	return c
}

// evalList is a list's items: arrays and lists flattened, as far as
// their lengths are known; what cannot be counted comes as one value.
func (in *interp) evalList(x node) []val {
	switch t := x.(type) {
	case nil:
		return nil
	case listNode:
		var out []val
		for _, it := range t.items {
			out = append(out, in.evalList(it)...)
		}
		return out
	case wordsLit:
		out := make([]val, len(t.words))
		for i, w := range t.words {
			out[i] = fixed(w)
		}
		return out
	case varNode:
		if t.name[0] == '@' && in.isSet(t.name) {
			c := in.lookup(t.name)
			if !c.inexact && !c.hasApprox {
				return append([]val(nil), c.elems...)
			}
		}
	}
	if c, ok := x.(callNode); ok {
		if vs, ok := in.fields(c); ok {
			return vs
		}
	}
	v := in.eval(x)
	switch x := x.(type) {
	case numLit, strLit, *interpStr, varNode, elemNode, binNode, assignNode:
	case callNode:
		n := x.name
		v.many = !termOps[n] && !(namedUnary[n] && !listy[n])
	default:
		v.many = true
	}
	return []val{v}
}

// fields is the list a function gives in list context when the library
// describes it field by field, as NAME[0], NAME[1]...: stat's size is
// fixed, its modification time is not.
func (in *interp) fields(c callNode) ([]val, bool) {
	if _, ok := in.function(c.name + "[0]"); !ok {
		return nil, false
	}
	args := in.evalArgs(c.args)
	base := derived(args...)
	facts := in.callFacts(args)
	text := in.text(c.pos, c.end, c.name)
	var vs []val
	for i := 0; i < maxItems; i++ {
		f, ok := in.function(c.name + "[" + strconv.Itoa(i) + "]")
		if !ok {
			break
		}
		v := base
		v.r = effect.AppendReaches(slices.Clip(base.r), in.effects(f, text, c.line, facts)...)
		vs = append(vs, v)
	}
	return vs, true
}

// listy are the named unary operators that give a list in list context.
var listy = map[string]bool{
	"localtime": true, "gmtime": true, "stat": true, "lstat": true, "caller": true, "each": true,
	"keys": true, "values": true, "getpwuid": true, "getpwnam": true, "getgrgid": true,
	"getgrnam": true, "readdir": true, "delete": true,
}

func (in *interp) listAll(x node) val {
	var v val
	vs := in.evalList(x)
	if len(vs) == 1 {
		return vs[0]
	}
	for _, e := range vs {
		v = merge(v, e)
	}
	v.exact = len(vs) == 0
	return v
}

func (in *interp) evalArgs(args []node) []val {
	var out []val
	for _, a := range args {
		out = append(out, in.evalList(a)...)
	}
	return out
}

func (in *interp) binary(x binNode) val {
	a, b := in.eval(x.x), in.eval(x.y)
	switch x.op {
	case ".":
		return concat(a, b)
	case "||", "//", "&&", "or", "and", "xor":
		return merge(a, b)
	case "+", "-", "*", "/", "%", "**", "x", "<<", ">>", "&", "|", "^", "..", "...":
		if x.op == "x" && a.exact && b.exact {
			if n, err := strconv.Atoi(b.s); err == nil && n >= 0 && n*len(a.s) <= 1<<16 {
				return fixed(strings.Repeat(a.s, n))
			}
		}
		return derived(a, b)
	}
	// Comparisons and matches: a value only compared does not reach what
	// is printed.
	return val{}
}

func (in *interp) unary(x unNode) val {
	v := in.eval(x.x)
	switch x.op {
	case "!":
		return val{}
	case "++", "--", "post++", "post--":
		in.store(x.x, derived(v))
	}
	return derived(v)
}

// assign stores the right side into the left.
func (in *interp) assign(x assignNode) val {
	if x.op != "=" {
		old := in.eval(x.lhs)
		rhs := in.eval(x.rhs)
		v := derived(old, rhs)
		switch x.op {
		case ".=":
			v = concat(old, rhs)
		case "||=", "//=", "&&=":
			v = merge(old, rhs)
		}
		in.store(x.lhs, v)
		return v
	}
	if isListTarget(x.lhs) {
		vs := in.evalList(x.rhs)
		in.storeList(x.lhs, vs)
		return derived(vs...)
	}
	if c, ok := x.rhs.(callNode); ok && c.name == "grep" {
		// grep in scalar context is how many items it keeps.
		if n, ok := in.grepCount(c); ok {
			in.store(x.lhs, n)
			return n
		}
	}
	v := in.listAll(x.rhs)
	if _, ok := x.rhs.(listNode); ok {
		// A list in scalar context is its last item.
		if vs := in.evalList(x.rhs); len(vs) > 0 {
			v = vs[len(vs)-1]
		}
	}
	in.store(x.lhs, v)
	return v
}

func isListTarget(x node) bool {
	switch t := x.(type) {
	case listNode:
		return true
	case myNode:
		return t.list || len(t.vars) == 1 && isListTarget(t.vars[0])
	case elemNode:
		return t.slice
	case varNode:
		return t.name[0] == '@' || t.name[0] == '%'
	}
	return false
}

// storeList assigns a list: to an array or hash, or item by item.
func (in *interp) storeList(lhs node, vs []val) {
	switch t := lhs.(type) {
	case elemNode:
		in.storeSlice(t, vs)
		return
	case myNode:
		in.eval(t)
		in.storeList(listNode{t.vars}, vs)
		return
	case varNode:
		c := in.target(t)
		weak := in.weakFor(c)
		if t.name[0] == '%' {
			h := in.hashOf(vs)
			if weak {
				h.addApprox(c.all())
				h.inexact = true
			}
			h.weakAt = c.weakAt
			*c = *h
			return
		}
		if weak || len(vs) > maxItems || slices.ContainsFunc(vs, func(v val) bool { return v.many }) {
			if !weak {
				c.elems, c.approx, c.hasApprox = nil, val{}, false
			}
			c.addApprox(derived(vs...))
			c.inexact = true
			c.assigned = true
			return
		}
		c.elems, c.approx, c.hasApprox, c.inexact, c.assigned = append([]val(nil), vs...), val{}, false, false, true
		return
	case listNode:
		for i, it := range t.items {
			if it == nil {
				continue
			}
			if v, ok := it.(varNode); ok && (v.name[0] == '@' || v.name[0] == '%') {
				if i < len(vs) {
					in.storeList(it, vs[i:])
				} else {
					in.storeList(it, nil)
				}
				return
			}
			in.store(it, nth(vs, i))
		}
	}
}

// storeSlice assigns a list to a slice, item by item: @h{qw(a b)} = (1, 2).
func (in *interp) storeSlice(t elemNode, vs []val) {
	if !t.slice {
		in.store(t, derived(vs...))
		return
	}
	c := in.container(t.base, true)
	if c == nil {
		return
	}
	for i, k := range in.evalList(t.index) {
		c.set(k, nth(vs, i), t.hash, in.weakFor(c) || k.many)
	}
}

// nth is the item i of a list assigned: past an item that stands for a
// list not counted, what all from there may be.
func nth(vs []val, i int) val {
	if m := slices.IndexFunc(vs, func(v val) bool { return v.many }); m >= 0 && m <= i {
		return derived(vs[m:]...)
	}
	if i < len(vs) {
		return vs[i]
	}
	return undefined
}

// target is the variable a name assigns to: a my declares it.
func (in *interp) target(v varNode) *cell {
	return in.lookup(v.name)
}

// store assigns a scalar to what can be assigned.
func (in *interp) store(lhs node, v val) {
	switch t := lhs.(type) {
	case varNode:
		if t.name[0] == '@' || t.name[0] == '%' {
			in.storeList(t, []val{v})
			return
		}
		if t.name == "$_" && !in.isSet("$_") {
			in.setTopic(v)
			return
		}
		in.assignCell(in.lookup(t.name), v)
		if strings.Contains(t.name, "::") && v.exact && len(v.r) == 0 {
			in.facts = append(in.facts, "var:"+t.name+"="+v.s)
		}
	case myNode:
		in.eval(t)
		for _, x := range t.vars {
			in.store(x, v)
		}
	case listNode:
		in.storeList(t, []val{v})
	case elemNode:
		if b, ok := t.base.(varNode); ok && b.name == "%ENV" {
			if k := in.eval(t.index); k.exact && v.exact {
				in.envSet = append(in.envSet, k.s+"="+v.s)
			}
		}
		c := in.container(t.base, true)
		if c == nil {
			return
		}
		c.set(in.listAll(t.index), v, t.hash, in.weakFor(c))
	case castNode:
		if c := in.container(t.x, true); c != nil && t.sigil == "$" {
			in.assignCell(c, v)
		}
	case condNode:
		in.store(t.a, v)
		in.store(t.b, v)
	}
}
