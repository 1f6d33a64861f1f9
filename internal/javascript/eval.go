package javascript

import (
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// streams are the runtime's standard streams: what these are given is
// printed to standard output, or to standard error, which does not count.
var streams = map[string]streamKind{
	"console.log": toStdout, "console.info": toStdout, "console.debug": toStdout,
	"console.table": toStdout, "console.dir": toStdout, "process.stdout.write": toStdout,
	"console.error": toNothing, "console.warn": toNothing, "console.trace": toNothing,
	"process.stderr.write": toNothing,
}

// eval is an expression's value; a name or property the library
// describes (process.pid, __dirname) gives what it says.
func (in *interp) eval(x expr) val {
	v := in.ref(x)
	if v.path == "" || v.obj != nil {
		return v
	}
	switch x.(type) {
	case ident, member:
		if f, ok := in.env.Library.Function(Language, v.path); ok {
			v.lazy = effect.AppendReaches(v.lazy, in.effects(f, in.text(x), line(x), in.callFacts(nil, nil))...)
		}
	}
	return v
}

func line(x expr) int {
	switch t := x.(type) {
	case ident:
		return t.line
	case member:
		return t.line
	case call:
		return t.line
	}
	return 0
}

// ref is an expression's value where it is called or its property read:
// what the library says of a name applies when it is used.
func (in *interp) ref(x expr) val {
	if !in.step() || x == nil {
		return val{}
	}
	switch x := x.(type) {
	case numLit:
		return fixed(x.v)
	case strLit:
		return fixed(x.v)
	case regexLit:
		return val{}
	case tmplLit:
		vs := make([]val, len(x.parts))
		for i, p := range x.parts {
			vs[i] = in.eval(p)
		}
		return concat(vs...)
	case ident:
		return in.name(x)
	case member:
		obj := in.ref(x.obj)
		return in.member(obj, in.key(x))
	case call:
		return in.call(x)
	case arrayLit:
		o := &object{}
		for i, it := range x.items {
			if sp, ok := it.(spread); ok {
				o.addAny(derived(in.eval(sp.x)))
				continue
			}
			o.set(fixed(strconv.Itoa(i)), in.eval(it), false)
		}
		return val{obj: o}
	case objectLit:
		return in.object(x)
	case funcLit:
		if x.def.src == nil {
			src := in.src
			x.def.src = &src
		}
		return val{fn: x.def, env: in.scope}
	case classLit:
		return val{cls: x.def}
	case thisExpr:
		if n := len(in.frames); n > 0 {
			return in.frames[n-1].this
		}
		return val{}
	}
	return in.operation(x)
}

// operation evaluates operators: unary, update, binary, assignment,
// conditional, sequence, spread.
func (in *interp) operation(x expr) val {
	switch x := x.(type) {
	case unary:
		v := in.eval(x.x)
		switch x.op {
		case "!", "typeof", "void", "delete":
			return val{}
		case "await":
			return v
		}
		return derived(v)
	case update:
		v := derived(in.eval(x.x))
		in.bind(x.x, v, false)
		return v
	case binary:
		return in.binary(x)
	case assign:
		return in.assign(x)
	case condExpr:
		in.eval(x.c)
		return merge(in.eval(x.a), in.eval(x.b))
	case seq:
		var v val
		for _, it := range x.items {
			v = in.eval(it)
		}
		return v
	case spread:
		return derived(in.eval(x.x))
	}
	return val{}
}

// name is a variable, or a global of the runtime, which the library names.
func (in *interp) name(x ident) val {
	if c, ok := in.scope.find(x.name); ok {
		return c.v
	}
	switch x.name {
	case "undefined", "NaN", "Infinity":
		return val{}
	}
	return val{path: x.name}
}

// member is a property of a value: of an object, of the environment
// (process.env.NAME), of the arguments (process.argv), or a function of
// a module or global by its name (fs.readdirSync).
func (in *interp) member(obj val, k val) val {
	switch {
	case obj.obj != nil:
		if obj.obj.class != nil && k.exact {
			if m, ok := obj.obj.class.methods[k.s]; ok {
				return val{fn: m}
			}
		}
		return obj.obj.get(k)
	case obj.path == "process.env":
		if !k.exact {
			return in.eval(member{obj: ident{name: "process"}, name: "env", pos: -1, end: -1})
		}
		for i := len(in.p.Env) - 1; i >= 0; i-- {
			if name, v, ok := strings.Cut(in.p.Env[i], "="); ok && name == k.s {
				return fixed(v)
			}
		}
		return val{}
	case obj.path == "process.argv":
		args := &object{}
		// node FILE ARGS: [node, FILE, ARGS...]; node -e CODE ARGS:
		// [node, ARGS...].
		args.set(fixed("0"), fixed("node"), false)
		first := 1
		if in.p.File != "" {
			args.set(fixed("1"), fixed(in.p.File), false)
			first = 2
		}
		for i, a := range in.p.Args {
			args.set(fixed(strconv.Itoa(i+first)), val{s: a.Text, exact: a.Known}, false)
		}
		return args.get(k)
	case obj.path != "" && k.exact:
		return val{path: obj.path + "." + k.s}
	}
	return derived(obj)
}

func (in *interp) object(x objectLit) val {
	o := &object{}
	for _, pr := range x.props {
		switch {
		case pr.spread:
			v := in.eval(pr.value)
			if v.obj != nil {
				for _, k := range v.obj.keys {
					o.set(fixed(k), v.obj.props[k], false)
				}
				if v.obj.hasAny {
					o.addAny(v.obj.any)
				}
				continue
			}
			o.addAny(derived(v))
		case pr.computed != nil:
			o.set(in.eval(pr.computed), in.eval(pr.value), false)
		default:
			o.set(fixed(pr.key), in.eval(pr.value), false)
		}
	}
	return val{obj: o}
}

func (in *interp) binary(x binary) val {
	a, b := in.eval(x.x), in.eval(x.y)
	switch x.op {
	case "+":
		if isNumber(a) && isNumber(b) {
			return derived(a, b)
		}
		return concat(a, b)
	case "&&", "||", "??":
		return merge(a, b)
	case "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^":
		return derived(a, b)
	}
	// Comparisons: a value only compared does not reach what is printed.
	return val{}
}

func isNumber(v val) bool {
	if !v.exact {
		return v.s == ""
	}
	_, err := strconv.ParseFloat(v.s, 64)
	return err == nil
}

func (in *interp) assign(x assign) val {
	v := in.eval(x.value)
	switch x.op {
	case "=":
	case "+=":
		v = concat(in.eval(x.target), v)
	case "&&=", "||=", "??=":
		v = merge(in.eval(x.target), v)
	default:
		v = derived(in.eval(x.target), v)
	}
	in.bind(x.target, v, false)
	return v
}

func (in *interp) evalArgs(args []expr) []val {
	out := make([]val, len(args))
	for i, a := range args {
		out[i] = in.eval(a)
	}
	return out
}

// call calls a function: the program's, a method of an object or class
// of it, a stream, or one the library describes.
func (in *interp) call(c call) val {
	if c.isNew {
		return in.construct(c)
	}
	if id, ok := c.fn.(ident); ok && (id.name == "require" || id.name == "import") {
		if _, shadowed := in.scope.find(id.name); !shadowed {
			args := in.evalArgs(c.args)
			if len(args) == 0 || !args[0].exact {
				in.note(in.where(c.line) + ": javascript requires a module named while it runs")
				return val{}
			}
			return in.require(args[0].s, c.line)
		}
	}
	if m, ok := c.fn.(member); ok {
		return in.callMethod(c, m)
	}
	f := in.ref(c.fn)
	return in.apply(f, val{}, c, nil)
}

// apply calls a value with a call's arguments.
func (in *interp) apply(f, this val, c call, args []val) val {
	if args == nil {
		args = in.evalArgs(c.args)
	}
	switch {
	case f.fn != nil:
		return in.callFunc(f, this, args)
	case f.path != "":
		return in.libCall(f.path, c, args, this)
	}
	v := derived(append(args, f)...)
	in.callbacks(args, v)
	return v
}

func (in *interp) callMethod(c call, m member) val {
	name := m.name
	if m.computed != nil {
		k := in.eval(m.computed)
		name = k.s
		if !k.exact {
			name = ""
		}
	}
	generic, genericKnown := in.env.Library.Function(Language, "Array.prototype."+name)
	var obj val
	if genericKnown && removesOrder(generic) {
		// What it orders is given as sorted.
		old := in.extra
		in.extra = append(in.extra[:len(in.extra):len(in.extra)], "sorted")
		obj = in.ref(m.obj)
		in.extra = old
	} else {
		obj = in.ref(m.obj)
	}
	if obj.path != "" {
		if kind, ok := streams[obj.path+"."+name]; ok {
			in.write(kind, derived(in.evalArgs(c.args)...).r)
			return val{}
		}
	}
	if obj.stream != noStream {
		// What a stream's method is given is written into it.
		in.write(obj.stream, derived(in.evalArgs(c.args)...).r)
		return val{}
	}
	if name != "" {
		if f := in.member(obj, fixed(name)); f.fn != nil || f.path != "" {
			return in.apply(f, obj, c, nil)
		}
		if obj.class != "" {
			if _, ok := in.env.Library.Function(Language, obj.class+"."+name); ok {
				return in.libCall(obj.class+"."+name, c, in.evalArgs(c.args), obj)
			}
		}
	}
	args := in.evalArgs(c.args)
	v := derived(append(args, obj)...)
	if obj.obj != nil {
		// A method of an object may store what it is given in it (push,
		// set, add).
		if len(args) > 0 {
			obj.obj.addAny(derived(args...))
		}
	}
	if genericKnown {
		facts := in.callFacts(args, c.args)
		v = without(v, generic.Removes)
		v.r = effect.AppendReaches(v.r, in.effects(generic, in.text(c), c.line, facts)...)
	}
	// What a callback returns may be what the method returns (map,
	// filter, reduce, sort).
	return derived(v, in.callbacks(args, derived(obj)))
}

func removesOrder(f spec.Function) bool {
	for _, v := range f.Removes {
		if v == effect.Order || v == effect.HashSeed {
			return true
		}
	}
	return false
}

func without(v val, removes []effect.Value) val {
	if len(removes) == 0 {
		return v
	}
	var kept []effect.Reach
	for _, r := range v.r {
		drop := false
		for _, x := range removes {
			drop = drop || r.Value == x
		}
		if !drop {
			kept = append(kept, r)
		}
	}
	v.r = kept
	return v
}

// callbacks calls the functions given to a function with what it gives,
// and returns what they return.
func (in *interp) callbacks(args []val, result val) val {
	var returned []val
	for _, a := range args {
		if a.fn != nil {
			params := make([]val, len(a.fn.params))
			for i := range params {
				params[i] = result
			}
			returned = append(returned, in.callFunc(a, val{}, params))
		}
	}
	return derived(returned...)
}

func (in *interp) write(kind streamKind, rs []effect.Reach) {
	switch kind {
	case toStdout:
		in.stdout = effect.AppendReaches(in.stdout, rs...)
	case toFile:
		in.files = effect.AppendReaches(in.files, rs...)
	}
}

// construct is new: of a class of the program, or one the library
// describes as "new NAME".
func (in *interp) construct(c call) val {
	f := in.ref(c.fn)
	args := in.evalArgs(c.args)
	switch {
	case f.cls != nil:
		o := &object{class: f.cls}
		this := val{obj: o}
		for _, fl := range f.cls.fields {
			if fl.value != nil {
				o.set(fixed(fl.key), in.eval(fl.value), false)
			}
		}
		if ctor, ok := f.cls.methods["constructor"]; ok {
			in.callFunc(val{fn: ctor}, this, args)
		}
		return this
	case f.fn != nil:
		this := val{obj: &object{}}
		in.callFunc(f, this, args)
		return this
	case f.path != "":
		v := in.libCall("new "+f.path, c, args, val{})
		if v.class == "" {
			v.class = f.path
		}
		return v
	}
	return derived(args...)
}

// libCall calls a function the library may describe: its result varies
// where its arguments do, less what it removes, plus what it gives; it
// may write a file, open a stream or run a command.
func (in *interp) libCall(name string, c call, args []val, this val) val {
	f, known := in.env.Library.Function(Language, name)
	result := derived(args...)
	if !known {
		in.callbacks(args, result)
		return result
	}
	facts := in.callFacts(args, c.args)
	result = without(result, f.Removes)
	result.r = effect.AppendReaches(result.r, in.effects(f, in.text(c), c.line, facts)...)
	for _, s := range f.Sets {
		if s.When.Holds(facts) {
			in.facts = append(in.facts, s.Name)
		}
	}
	if f.Returns != "" && f.Returns != "path" {
		result.class = f.Returns
	}
	if f.Writes != "" {
		if i, ok := spec.Position(f.Writes); ok && i < len(args) {
			data := derived(append(append([]val(nil), args[:i]...), args[i+1:]...)...)
			in.write(in.fileKind(args[i]), data.r)
		}
	}
	if f.Opens != "" {
		if i, ok := spec.Position(f.Opens); ok && i < len(args) {
			result.stream = in.fileKind(args[i])
		}
	}
	if f.Runs != "" {
		result = in.runs(f.Runs, args, c.line, hasFact(facts, "stdio=inherit"))
	}
	in.callbacks(args, result)
	return result
}

func hasFact(facts []string, f string) bool {
	for _, x := range facts {
		if x == f {
			return true
		}
	}
	return false
}

// fileKind is where writing to a file named by a value goes.
func (in *interp) fileKind(name val) streamKind {
	if !name.exact {
		return toFile
	}
	switch name.s {
	case "/dev/stdout":
		return toStdout
	case "/dev/stderr", "/dev/null":
		return toNothing
	}
	if code.IsOutput(in.p.Outputs, name.s) {
		return toFile
	}
	return toNothing
}

// runs runs a command: a shell string (exec) or a program and its
// arguments (spawn, execFile). Its output is the call's value, or the
// program's when it inherits its standard output.
func (in *interp) runs(lang string, args []val, line int, inherit bool) val {
	if len(args) == 0 {
		return val{}
	}
	var cmd string
	switch lang {
	case code.Shell:
		if !args[0].exact {
			in.note(in.where(line) + ": javascript runs a command computed while it runs")
			return val{}
		}
		cmd = args[0].s
	case "argv":
		argv := []code.Arg{{Text: args[0].s, Known: args[0].exact}}
		if len(args) > 1 && args[1].obj != nil {
			for i := 0; ; i++ {
				e, ok := args[1].obj.props[strconv.Itoa(i)]
				if !ok {
					break
				}
				argv = append(argv, code.Arg{Text: e.s, Known: e.exact})
			}
		}
		if !argv[0].Known {
			in.note(in.where(line) + ": javascript runs a program named while it runs")
			return val{}
		}
		cmd = code.CommandLine(argv)
	default:
		in.note(in.where(line) + ": javascript runs " + lang + " code, which is not read")
		return val{}
	}
	if in.env.Runner == nil {
		in.note(in.where(line) + ": javascript runs a command, which is not read here")
		return val{}
	}
	o := in.env.Runner.Run(code.Program{
		Language: code.Shell, Text: cmd, Site: in.site(line),
		Env: in.p.Env, Outputs: in.p.Outputs, Depth: in.p.Depth + 1,
	})
	in.files = effect.AppendReaches(in.files, o.Files...)
	for _, u := range o.Unread {
		in.note(u)
	}
	if inherit {
		in.stdout = effect.AppendReaches(in.stdout, o.Stdout...)
		return val{}
	}
	return val{r: o.Stdout}
}

// callFunc runs a function of the program.
func (in *interp) callFunc(f, this val, args []val) val {
	def := f.fn
	if in.active[def] || len(in.frames) >= maxCalls {
		return derived(args...)
	}
	in.active[def] = true
	defer delete(in.active, def)
	parent := f.env
	if parent == nil {
		parent = in.scope
		for parent.parent != nil {
			parent = parent.parent
		}
	}
	old, oldSrc := in.scope, in.src
	in.scope = &scope{vars: map[string]*cell{}, parent: parent}
	if def.src != nil {
		in.src = *def.src
	}
	fr := &frame{this: this}
	in.frames = append(in.frames, fr)
	weak := in.weak
	in.weak = 0
	argsObj := &object{}
	for i, a := range args {
		argsObj.set(fixed(strconv.Itoa(i)), a, false)
	}
	in.declare("arguments", val{obj: argsObj})
	for i, p := range def.params {
		if sp, ok := p.(spread); ok {
			rest := &object{}
			for j := i; j < len(args); j++ {
				rest.set(fixed(strconv.Itoa(j-i)), args[j], false)
			}
			in.bind(sp.x, val{obj: rest}, true)
			continue
		}
		var a val
		if i < len(args) {
			a = args[i]
		}
		in.bind(p, a, true)
	}
	if def.exprBody != nil {
		fr.ret = in.eval(def.exprBody)
	} else {
		in.hoist(def.body)
		in.stmts(def.body)
	}
	in.weak = weak
	in.frames = in.frames[:len(in.frames)-1]
	in.scope, in.src = old, oldSrc
	return fr.ret
}
