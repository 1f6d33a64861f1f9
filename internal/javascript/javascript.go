// Package javascript reads JavaScript programs run by Node (node -e CODE,
// node FILE) for the values that vary from run to run and reach what they
// print or write: a tokenizer (a slash told apart as a regular expression
// or a division by the token before it; template literals with their
// ${…} expressions), a parser of statements and expressions, and a light
// interpreter that follows each value through variables, objects, arrays,
// functions, classes and callbacks to standard output or a file.
//
// The reader knows the runtime's standard streams (console.log and the
// like, process.stdout.write, to standard output; console.error and
// process.stderr to standard error, which does not count), require and
// import, and process.env, the environment, whose variables it reads from
// what the program is given. Everything else is data, the library's
// functions of language "javascript" (internal/spec/library/lang/
// javascript.json, and any --repro-specs file), named as a program
// writes them after require or import is resolved: Date.now, new Date
// (a constructor is "new" and its name), Math.random, performance.now,
// crypto.randomUUID, process.pid, process.cwd, __dirname, os.hostname,
// fs.readdirSync, fs.writeFileSync ("writes" names the argument that is
// the file), fs.createWriteStream ("opens": what the stream is given is
// written into the file), child_process.execSync ("runs" sh: the shell's
// reader follows the command), and methods of what a function "returns"
// by its class (Date.toISOString), or Array.prototype.NAME for a method
// of another value (Array.prototype.sort "removes" order). Node
// modules are named without node: (node:fs is fs). The facts their
// conditions see are:
//
//   - args:N, the number of arguments;
//   - argN:known, for an argument (from 0) whose value does not vary;
//   - argN:str, for an argument whose text is known when the program is
//     read;
//   - NAME=VALUE, for a property of an object given as an argument, with
//     its text when known, else NAME=? ({stdio: 'inherit'} gives
//     stdio=inherit);
//   - sorted, for a call whose result is at once ordered
//     (fs.readdirSync(d).sort());
//   - env:NAME=VALUE, for the environment the program is given;
//   - and the facts earlier calls set.
//
// A value counts only where it can reach an output: standard output
// (Outcome.Stdout), a file written that is one of the program's outputs or
// whose name cannot be known, or the output of a command it runs with its
// output inherited. A value only compared or tested does not count.
// Both ways of a branch are followed, and loops twice; a callback given to
// a function of the library is called with what the function gives.
package javascript

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// Language is the language of the library's functions this package looks
// up.
const Language = "javascript"

// Bounds on the work of following one program.
const (
	maxSteps  = 300_000
	maxCalls  = 32
	maxString = 1 << 16
	maxItems  = 1000
	maxFiles  = 32
)

// Reader reads JavaScript programs. It is a code.Reader.
type Reader struct{}

// Uses lists nothing: a program is run, not compiled into another
// program's output.
func (Reader) Uses(string, *spec.Library) []string { return nil }

// Read follows a JavaScript program and says what reaches its outputs.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	if out, long := p.TooLong("JavaScript", maxText); long {
		return out
	}
	where := p.Where()
	prog, err := parse(p.Text, 1, 0)
	if err != nil {
		return code.Outcome{Unread: []string{where + ": javascript: " + err.Error()}}
	}
	in := &interp{p: p, env: env, loaded: map[string]*val{}}
	in.src = source{text: p.Text, file: p.File}
	if p.File == "" {
		in.src.file = p.Site.File
		in.src.base = max(p.Site.Line-1, 0)
	}
	in.scope = &scope{vars: map[string]*cell{}}
	in.run(prog)
	if in.steps > maxSteps {
		in.note(fmt.Sprintf("%s: JavaScript program too long to follow: stopped after %d steps", where, maxSteps))
	}
	return code.Outcome{Stdout: in.stdout, Files: in.files, Unread: in.unread}
}

// source is the text being run: the program, or a module it requires.
type source struct {
	text string
	file string
	base int
}

// val is what an expression may be: its text when exact, the varying
// values that reach it, and what it is beyond a string: an object, a
// function, a module or a function of the library (path), a stream.
type val struct {
	s     string
	exact bool
	r     []effect.Reach
	obj   *object
	fn    *funcDef
	cls   *classDef
	// path is the library's name of what the value is: a module ("fs"),
	// a global ("Date"), a function of one ("fs.readdirSync").
	path string
	// class is the class of an object a function of the library gave.
	class string
	// stream says the value is a stream writing to a file (toFile), to
	// standard output, or nowhere.
	stream streamKind
	// env is the scope a function closes over.
	env *scope
	// lazy are what the library says of the name the value was read by
	// (process.pid): they reach whatever is made of the value, but not a
	// call of it (os.hostname read, then called, gives the call's).
	lazy []effect.Reach
}

type streamKind uint8

const (
	noStream streamKind = iota
	toStdout
	toNothing
	toFile
)

// object holds properties: by name, and what was stored under a name not
// known.
type object struct {
	props  map[string]val
	keys   []string
	any    val
	hasAny bool
	class  *classDef
}

func fixed(s string) val { return val{s: s, exact: true} }

func merge(a, b val) val {
	v := a
	v.exact = a.exact && b.exact && a.s == b.s
	v.r = effect.AppendReaches(slices.Clip(a.r), b.r...)
	if v.obj == nil {
		v.obj = b.obj
	}
	if v.fn == nil {
		v.fn = b.fn
	}
	if v.cls == nil {
		v.cls = b.cls
	}
	if v.path == "" {
		v.path = b.path
	}
	if v.class == "" {
		v.class = b.class
	}
	if v.stream == noStream {
		v.stream = b.stream
	}
	if v.env == nil {
		v.env = b.env
	}
	v.lazy = effect.AppendReaches(slices.Clip(a.lazy), b.lazy...)
	return v
}

func concat(vs ...val) val {
	v := val{exact: true}
	var b strings.Builder
	for _, x := range vs {
		if b.Len()+len(x.s) <= maxString {
			b.WriteString(x.s)
		} else {
			v.exact = false
		}
		v.exact = v.exact && x.exact
		v.r = effect.AppendReaches(effect.AppendReaches(v.r, x.r...), x.lazy...)
	}
	v.s = b.String()
	return v
}

// derived is a value computed from others: it varies where they do, and
// where what they hold does.
func derived(vs ...val) val {
	v := val{}
	for _, x := range vs {
		v.r = effect.AppendReaches(effect.AppendReaches(v.r, x.r...), x.lazy...)
		if x.obj != nil {
			v.r = effect.AppendReaches(v.r, x.obj.all(0).r...)
		}
	}
	return v
}

func (o *object) get(k val) val {
	if !k.exact {
		return o.all(0)
	}
	v, ok := o.props[k.s]
	if o.hasAny {
		if ok {
			return merge(v, o.any)
		}
		return o.any
	}
	return v
}

func (o *object) set(k, v val, weak bool) {
	if !k.exact || len(o.props) >= maxItems {
		o.addAny(v)
		return
	}
	if o.props == nil {
		o.props = map[string]val{}
	}
	old, ok := o.props[k.s]
	if !ok {
		o.keys = append(o.keys, k.s)
	}
	if weak && ok {
		v = merge(old, v)
	}
	o.props[k.s] = v
}

func (o *object) addAny(v val) {
	if o.hasAny {
		v = merge(o.any, v)
	}
	o.any, o.hasAny = v, true
}

// all is everything the object holds, as one value, to a bounded depth.
func (o *object) all(depth int) val {
	var v val
	if o.hasAny {
		v = o.any
	}
	for _, k := range o.keys {
		e := o.props[k]
		v.r = effect.AppendReaches(effect.AppendReaches(v.r, e.r...), e.lazy...)
		if e.obj != nil && e.obj != o && depth < 4 {
			v.r = effect.AppendReaches(v.r, e.obj.all(depth+1).r...)
		}
	}
	return val{r: v.r}
}

type cell struct {
	v val
}

type scope struct {
	vars   map[string]*cell
	parent *scope
}

func (s *scope) find(name string) (*cell, bool) {
	for ; s != nil; s = s.parent {
		if c, ok := s.vars[name]; ok {
			return c, true
		}
	}
	return nil, false
}

type frame struct {
	ret  val
	this val
}

type interp struct {
	p      code.Program
	env    code.Env
	src    source
	scope  *scope
	frames []*frame
	active map[*funcDef]bool
	loaded map[string]*val
	facts  []string
	extra  []string
	weak   int
	steps  int
	stdout []effect.Reach
	files  []effect.Reach
	unread []string
}

func (in *interp) note(s string) {
	if !slices.Contains(in.unread, s) {
		in.unread = append(in.unread, s)
	}
}

func (in *interp) step() bool {
	in.steps++
	return in.steps <= maxSteps
}

func (in *interp) site(line int) effect.Site {
	if in.src.file == "" && in.src.base == 0 && in.p.Site.Line == 0 {
		return effect.Site{}
	}
	return effect.Site{File: in.src.file, Line: in.src.base + line}
}

func (in *interp) where(line int) string { return in.site(line).String() }

// text is the source of an expression, on one line; or, for one inside a
// template literal, the expression written out.
func (in *interp) text(x expr) string {
	pos, end := -1, -1
	switch t := x.(type) {
	case call:
		pos, end = t.pos, t.end
	case member:
		pos, end = t.pos, t.end
	case ident:
		pos, end = t.pos, t.end
	}
	if pos >= 0 && end <= len(in.src.text) && pos < end {
		return strings.Join(strings.Fields(in.src.text[pos:end]), " ")
	}
	return render(x)
}

func render(x expr) string {
	switch t := x.(type) {
	case ident:
		return t.name
	case member:
		if t.computed != nil {
			return render(t.obj) + "[…]"
		}
		return render(t.obj) + "." + t.name
	case call:
		s := render(t.fn) + "()"
		if t.isNew {
			s = "new " + s
		}
		return s
	case thisExpr:
		return "this"
	}
	return "…"
}

func (in *interp) run(prog []stmt) {
	in.active = map[*funcDef]bool{}
	in.hoist(prog)
	in.stmts(prog)
}

// hoist declares a body's functions before it runs.
func (in *interp) hoist(body []stmt) {
	for _, s := range body {
		if f, ok := s.(funcDecl); ok {
			src := in.src
			f.def.src = &src
			in.declare(f.def.name, val{fn: f.def, env: in.scope})
		}
	}
}

func (in *interp) declare(name string, v val) {
	in.scope.vars[name] = &cell{v: v}
}

func (in *interp) push() { in.scope = &scope{vars: map[string]*cell{}, parent: in.scope} }
func (in *interp) pop()  { in.scope = in.scope.parent }

func (in *interp) stmts(body []stmt) {
	for _, s := range body {
		if !in.step() {
			return
		}
		in.stmt(s)
	}
}

func (in *interp) block(body []stmt) {
	in.push()
	defer in.pop()
	in.hoist(body)
	in.stmts(body)
}

func (in *interp) stmt(s stmt) {
	switch s := s.(type) {
	case exprStmt:
		in.eval(s.x)
	case varDecl:
		for _, d := range s.decls {
			var v val
			if d.init != nil {
				v = in.eval(d.init)
			}
			in.bind(d.target, v, true)
		}
	case funcDecl:
	case classDecl:
		in.declare(s.def.name, val{cls: s.def})
	case ifStmt:
		in.eval(s.cond)
		in.weak++
		in.stmt(s.then)
		in.stmt(s.els)
		in.weak--
	case loopStmt:
		in.loop(s)
	case blockStmt:
		in.block(s.body)
	case returnStmt:
		v := in.eval(s.x)
		if n := len(in.frames); n > 0 {
			in.frames[n-1].ret = merge(in.frames[n-1].ret, v)
		}
	case tryStmt:
		in.weak++
		in.block(s.body)
		in.push()
		if s.param != nil {
			in.bind(s.param, val{}, true)
		}
		in.stmts(s.catch)
		in.pop()
		in.weak--
		in.block(s.finally)
	case switchStmt:
		in.eval(s.disc)
		in.weak++
		for i, body := range s.cases {
			in.eval(s.tests[i])
			in.block(body)
		}
		in.weak--
	case importDecl:
		in.importDecl(s)
	}
}

func (in *interp) loop(s loopStmt) {
	in.push()
	defer in.pop()
	if s.init != nil {
		in.stmt(s.init)
	}
	var item val
	if s.iter != nil {
		it := in.eval(s.iter)
		item = derived(it)
		if s.in && it.obj != nil {
			// for … in lists the keys, in the order they were made.
			item = val{}
		}
	}
	in.weak++
	defer func() { in.weak-- }()
	for range 2 {
		if s.iter != nil {
			in.bind(s.target, item, true)
		}
		if s.cond != nil {
			in.eval(s.cond)
		}
		in.stmt(s.body)
		if s.step != nil {
			in.eval(s.step)
		}
	}
}

// bind assigns a value to a name or a pattern; declare says a
// declaration makes the names.
func (in *interp) bind(target expr, v val, declare bool) {
	switch t := target.(type) {
	case ident:
		if declare {
			in.declare(t.name, v)
			return
		}
		in.assignName(t.name, v)
	case objectLit:
		for _, pr := range t.props {
			if pr.spread {
				in.bind(pr.value, derived(v), declare)
				continue
			}
			var k val
			if pr.computed != nil {
				k = in.eval(pr.computed)
			} else {
				k = fixed(pr.key)
			}
			in.bind(pr.value, in.member(v, k), declare)
		}
	case arrayLit:
		for i, it := range t.items {
			if it == nil {
				continue
			}
			if sp, ok := it.(spread); ok {
				in.bind(sp.x, derived(v), declare)
				continue
			}
			in.bind(it, in.member(v, fixed(strconv.Itoa(i))), declare)
		}
	case assign:
		// A default: what is given, or the default.
		in.bind(t.target, merge(v, in.eval(t.value)), declare)
	case spread:
		in.bind(t.x, derived(v), declare)
	case member:
		obj := in.eval(t.obj)
		if obj.obj != nil {
			obj.obj.set(in.key(t), v, in.weak > 0)
		}
	}
}

func (in *interp) assignName(name string, v val) {
	c, ok := in.scope.find(name)
	if !ok {
		// A global the program makes by assigning it.
		s := in.scope
		for s.parent != nil {
			s = s.parent
		}
		s.vars[name] = &cell{v: v}
		return
	}
	if in.weak > 0 {
		c.v = merge(c.v, v)
		return
	}
	c.v = v
}

func (in *interp) key(m member) val {
	if m.computed != nil {
		return in.eval(m.computed)
	}
	return fixed(m.name)
}

// require loads a module: one of Node's, which the library names, or a
// file of the workspace, which is read and run.
func (in *interp) require(name string, line int) val {
	name = strings.TrimPrefix(name, "node:")
	if name == "fs/promises" {
		name = "fs.promises"
	}
	if !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "/") {
		return val{path: name}
	}
	if in.env.Files == nil {
		in.note(fmt.Sprintf("%s: require of %s: the workspace is not known", in.where(line), name))
		return val{}
	}
	dir := "."
	if in.src.file != "" && in.src.file != in.p.Site.File || in.p.File != "" {
		dir = path.Dir(in.src.file)
	}
	base := path.Join(dir, name)
	if v, ok := in.loaded[base]; ok {
		return *v
	}
	if len(in.loaded) >= maxFiles {
		in.note(fmt.Sprintf("%s: require of %s: more than %d modules were read", in.where(line), name, maxFiles))
		return val{}
	}
	var firstErr error
	for _, cand := range []string{base, base + ".js", base + ".cjs", base + ".mjs", base + "/index.js"} {
		src, err := in.env.Files.Read(cand)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		return in.module(base, src)
	}
	in.note(fmt.Sprintf("%s: require of %s: it could not be read: %v", in.where(line), name, firstErr))
	return val{}
}

// module runs a module's file and gives what it exports.
func (in *interp) module(key string, src code.Source) val {
	exports := &object{}
	mod := &object{}
	mod.set(fixed("exports"), val{obj: exports}, false)
	result := val{obj: exports}
	in.loaded[key] = &result
	prog, err := parse(src.Text, 1, 0)
	if err != nil {
		in.note(src.Path + ": javascript: " + err.Error())
		return val{}
	}
	old, oldScope := in.src, in.scope
	in.src = source{text: src.Text, file: src.Path}
	root := oldScope
	for root.parent != nil {
		root = root.parent
	}
	in.scope = &scope{vars: map[string]*cell{"module": {v: val{obj: mod}}, "exports": {v: val{obj: exports}}}, parent: root}
	in.hoist(prog)
	in.stmts(prog)
	in.src, in.scope = old, oldScope
	result = mod.get(fixed("exports"))
	in.loaded[key] = &result
	return result
}

func (in *interp) importDecl(d importDecl) {
	m := in.require(d.module, d.line)
	if d.def != "" {
		def := m
		if m.obj != nil {
			if v, ok := m.obj.props["default"]; ok {
				def = v
			}
		}
		in.declare(d.def, def)
	}
	if d.ns != "" {
		in.declare(d.ns, m)
	}
	for _, local := range d.namedKeys {
		in.declare(local, in.member(m, fixed(d.named[local])))
	}
}

// callFacts are the facts a call's conditions see.
func (in *interp) callFacts(args []val, argNodes []expr) []string {
	facts := []string{"args:" + strconv.Itoa(len(args))}
	for i, a := range args {
		n := strconv.Itoa(i)
		if len(a.r) == 0 {
			facts = append(facts, "arg"+n+":known")
		}
		if a.exact {
			facts = append(facts, "arg"+n+":str")
		}
	}
	for _, a := range argNodes {
		o, ok := a.(objectLit)
		if !ok {
			continue
		}
		for _, pr := range o.props {
			if pr.spread || pr.computed != nil {
				continue
			}
			v := in.eval(pr.value)
			if v.exact {
				facts = append(facts, pr.key+"="+v.s)
			} else {
				facts = append(facts, pr.key+"=?")
			}
		}
	}
	for _, kv := range in.p.Env {
		facts = append(facts, "env:"+kv)
	}
	facts = append(facts, in.extra...)
	return append(facts, in.facts...)
}

func (in *interp) effects(f spec.Function, text string, line int, facts []string) []effect.Reach {
	var rs []effect.Reach
	for _, e := range f.Effects {
		if applies, by := e.Apply(facts); applies && by == "" {
			rs = effect.AppendReaches(rs, effect.Reach{Value: e.Value, Text: text, Because: e.Because, Site: in.site(line)})
		}
	}
	return rs
}
