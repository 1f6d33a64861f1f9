// Package awk reads awk programs (awk 'PROGRAM' files, awk -f FILE, gawk,
// mawk) for the values that vary from run to run and reach what they
// print or write: a tokenizer and parser of the awk language, and an
// interpreter that follows each value through variables, arrays, fields,
// user functions and output redirections to standard output or a file.
//
// What the builtins give is data: the library's functions of language
// "awk" (internal/spec/library/lang/awk.json, and any --repro-specs file),
// looked up by name: rand, srand, systime, strftime, and the arrays
// ENVIRON and PROCINFO, as a whole (ENVIRON) or by a constant subscript
// (PROCINFO["pid"]). The facts their conditions see are:
//
//   - args:N, the number of arguments of the call;
//   - argN:known, for an argument (from 0) whose value does not vary: a
//     constant, or computed from constants and the input;
//   - argN:str, for an argument whose text is known when the program is
//     read (a string or number written in it, or made of such);
//   - env:NAME=VALUE, for the environment the program is given;
//   - and the facts earlier calls set (srand(42) sets seeded:random).
//
// A value counts only where it can reach an output: print and printf to
// standard output (Outcome.Stdout; whether that is kept is the caller's
// to know), to > FILE or >> FILE when FILE is one of the program's outputs
// or cannot be known, and to | COMMAND, whose output is the program's. A
// value only compared, used as a pattern or an array subscript, or printed
// to /dev/stderr does not count. Commands (system, print | cmd, cmd |
// getline) are handed to the shell's reader through the runner; what they
// print comes back as their value. Control flow is followed both ways: a
// branch or loop may run or not, so what it assigns adds to what a
// variable held.
package awk

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// Language is the language of the library's functions this package looks
// up.
const Language = "awk"

// maxSteps bounds the work of following one program (loops run twice,
// calls run their function's body).
const (
	maxSteps = 200_000
	// maxString bounds the text of a value followed.
	maxString = 1 << 16
	maxCalls  = 32
)

// Reader reads awk programs. It is a code.Reader.
type Reader struct{}

// Uses lists nothing: an awk program is run, not compiled into another
// program's output.
func (Reader) Uses(string, *spec.Library) []string { return nil }

// Read follows an awk program and says what reaches its outputs.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	if out, long := p.TooLong("awk", maxText); long {
		return out
	}
	where := p.Where()
	prog, err := parse(p.Text)
	if err != nil {
		return code.Outcome{Unread: []string{where + ": awk: " + err.Error()}}
	}
	in := &interp{p: p, env: env, prog: prog, globals: map[string]*cell{}, active: map[string]bool{}, where: where}
	// awk -v NAME=VALUE sets NAME before BEGIN.
	for _, a := range p.Vars {
		name, value, ok := strings.Cut(a.Text, "=")
		if !ok {
			continue
		}
		v := val{}
		if a.Known {
			v = fixed(value)
		}
		in.globals[name] = &cell{v: v, assigned: true}
	}
	in.run()
	return in.out
}

// val is what an expression may be: its text when exact, and the varying
// values that reach it.
type val struct {
	s     string
	exact bool
	r     []effect.Reach
}

func fixed(s string) val { return val{s: s, exact: true} }

// merge is a value that may be either.
func merge(a, b val) val {
	v := val{s: a.s, exact: a.exact && b.exact && a.s == b.s, r: slices.Clip(a.r)}
	for _, r := range b.r {
		v.r = effect.AppendReaches(v.r, r)
	}
	return v
}

// concat is the values side by side.
func concat(vs ...val) val {
	v := val{exact: true}
	var b strings.Builder
	for _, x := range vs {
		if b.Len()+len(x.s) <= maxString {
			b.WriteString(x.s)
		} else {
			b.WriteString(x.s[:min(len(x.s), maxString+1-b.Len())])
		}
		v.exact = v.exact && x.exact
		for _, r := range x.r {
			v.r = effect.AppendReaches(v.r, r)
		}
	}
	v.s = b.String()
	if len(v.s) > maxString {
		// A string built past this is not a name or a command anyone
		// writes: its text is not followed.
		v.s, v.exact = "", false
	}
	return v
}

// derived is a value computed from others: it varies where they do, and
// its text is not followed.
func derived(vs ...val) val {
	v := concat(vs...)
	v.s, v.exact = "", false
	return v
}

// cell holds a variable: a scalar, or an array's elements by exact
// subscript, what was stored under subscripts not known, and its
// subscripts' values.
type cell struct {
	v        val
	array    bool
	elems    map[string]val
	any      val
	keys     val
	assigned bool
}

type frame struct {
	locals map[string]*cell
	ret    val
}

type interp struct {
	p       code.Program
	env     code.Env
	prog    *program
	where   string
	globals map[string]*cell
	frames  []*frame
	// record is what the fields and $0 hold: assigning one field changes
	// $0.
	record val
	facts  []string
	// weak counts the branches and loops around: an assignment there may
	// not happen, so it adds to what the variable held.
	weak   int
	steps  int
	active map[string]bool
	// recursive are the functions seen calling themselves; while one
	// runs, undecided is above zero and no condition is decided.
	recursive map[string]bool
	undecided int
	out       code.Outcome
}

func (in *interp) run() {
	var begins, mains, ends []item
	for _, it := range in.prog.items {
		switch {
		case it.directive != "":
			in.out.Note(fmt.Sprintf("%s: gawk's @%s is not followed", in.where, it.directive))
		case it.begin:
			begins = append(begins, it)
		case it.end:
			ends = append(ends, it)
		default:
			mains = append(mains, it)
		}
	}
	for _, it := range begins {
		in.stmts(it.body)
	}
	// The main items run once per record, or never: twice, weakly, so
	// that what one record assigns reaches the next.
	in.weak++
	for range 2 {
		for _, it := range mains {
			for _, pat := range it.patterns {
				in.eval(pat)
			}
			if it.body == nil {
				in.print(printStmt{})
				continue
			}
			in.stmts(it.body)
		}
	}
	in.weak--
	for _, it := range ends {
		in.stmts(it.body)
	}
	if in.steps > maxSteps {
		in.out.Note(fmt.Sprintf("%s: awk program too long to follow: stopped after %d steps", in.where, maxSteps))
	}
}

// step counts work and says whether to go on.
func (in *interp) step() bool {
	in.steps++
	return in.steps <= maxSteps
}

// site is where a line of the program is written.
func (in *interp) site(line int) effect.Site {
	if in.p.File != "" {
		return effect.Site{File: in.p.File, Line: line}
	}
	s := in.p.Site
	if s.Line > 0 {
		s.Line += line - 1
	}
	return s
}

func (in *interp) text(pos, end int) string {
	if pos < 0 || end > len(in.p.Text) || pos >= end {
		return ""
	}
	return strings.Join(strings.Fields(in.p.Text[pos:end]), " ")
}

func (in *interp) lookup(name string) *cell {
	if n := len(in.frames); n > 0 {
		if c, ok := in.frames[n-1].locals[name]; ok {
			return c
		}
	}
	c, ok := in.globals[name]
	if !ok {
		c = &cell{}
		in.globals[name] = c
	}
	return c
}

func (in *interp) stmts(body []stmt) {
	for _, s := range body {
		if !in.step() {
			return
		}
		in.stmt(s)
	}
}

func (in *interp) stmt(s stmt) {
	switch s := s.(type) {
	case printStmt:
		in.print(s)
	case exprStmt:
		in.eval(s.x)
	case blockStmt:
		in.stmts(s.body)
	case ifStmt:
		in.eval(s.cond)
		if holds, known := in.truth(s.cond); known {
			if holds {
				in.stmts(s.then)
			} else {
				in.stmts(s.els)
			}
			return
		}
		in.weak++
		in.stmts(s.then)
		in.stmts(s.els)
		in.weak--
	case loopStmt:
		if s.init != nil {
			in.stmt(s.init)
		}
		in.weak++
		for range 2 {
			if s.cond != nil {
				in.eval(s.cond)
			}
			in.stmts(s.body)
			if s.post != nil {
				in.stmt(s.post)
			}
		}
		in.weak--
	case forInStmt:
		in.weak++
		for range 2 {
			in.store(s.v, in.keys(s.array))
			in.stmts(s.body)
		}
		in.weak--
	case returnStmt:
		if s.x != nil {
			v := in.eval(s.x)
			if n := len(in.frames); n > 0 {
				f := in.frames[n-1]
				f.ret = merge(f.ret, v)
			}
		}
	case exitStmt:
		if s.x != nil {
			in.eval(s.x)
		}
	case switchStmt:
		in.eval(s.disc)
		in.weak++
		for i, b := range s.bodies {
			if s.tests[i] != nil {
				in.eval(s.tests[i])
			}
			in.stmts(b)
		}
		in.weak--
	case deleteStmt:
		for _, x := range s.index {
			in.eval(x)
		}
	}
}

// print writes values where print sends them.
func (in *interp) print(s printStmt) {
	var vs []val
	for _, a := range s.args {
		vs = append(vs, in.eval(a))
	}
	if len(s.args) == 0 {
		vs = append(vs, in.record)
	}
	v := concat(vs...)
	switch s.redir {
	case "":
		in.out.Stdout = effect.AppendReaches(in.out.Stdout, v.r...)
	case ">", ">>":
		in.toFile(in.eval(s.dest), v.r)
	case "|":
		cmd := in.eval(s.dest)
		if !cmd.exact {
			in.out.Note(fmt.Sprintf("%s: awk prints into a command computed while it runs", in.siteText(s.line)))
			return
		}
		// What the command is given it may print.
		in.out.Stdout = effect.AppendReaches(in.out.Stdout, v.r...)
		in.shell(cmd.s, s.line)
	}
}

func (in *interp) siteText(line int) string { return in.site(line).String() }

// toFile writes reaches into a file named by a value.
func (in *interp) toFile(name val, rs []effect.Reach) {
	if !name.exact {
		in.out.Files = effect.AppendReaches(in.out.Files, rs...)
		return
	}
	switch name.s {
	case "/dev/stdout", "-":
		in.out.Stdout = effect.AppendReaches(in.out.Stdout, rs...)
	case "/dev/stderr", "/dev/null":
	default:
		if code.IsOutput(in.p.Outputs, name.s) {
			in.out.Files = effect.AppendReaches(in.out.Files, rs...)
		}
	}
}

// shell hands a command line to the shell's reader: what it prints is
// returned, what it writes into outputs counts.
func (in *interp) shell(cmd string, line int) val {
	if in.env.Runner == nil {
		in.out.Note(fmt.Sprintf("%s: awk runs a command, which is not read here", in.siteText(line)))
		return val{}
	}
	o := in.env.Runner.Run(code.Program{
		Language: code.Shell, Text: cmd, Site: in.site(line),
		Env: in.p.Env, Outputs: in.p.Outputs, Depth: in.p.Depth + 1,
	})
	in.out.Files = effect.AppendReaches(in.out.Files, o.Files...)
	for _, u := range o.Unread {
		in.out.Note(u)
	}
	return val{r: o.Stdout}
}

// store assigns to a variable, an element or a field.
func (in *interp) store(target expr, v val) {
	switch t := target.(type) {
	case varRef:
		c := in.lookup(t.name)
		c.assigned = true
		if in.weak > 0 {
			c.v = merge(c.v, v)
		} else {
			c.v = v
		}
	case indexRef:
		c := in.lookup(t.name)
		c.array, c.assigned = true, true
		k := in.subscript(t.index)
		c.keys = merge(c.keys, val{r: k.r})
		if c.elems == nil {
			c.elems = map[string]val{}
		}
		switch {
		case !k.exact:
			c.any = merge(c.any, v)
		case in.weak > 0:
			c.elems[k.s] = merge(c.elems[k.s], v)
		default:
			c.elems[k.s] = v
		}
	case fieldRef:
		in.eval(t.index)
		in.record = merge(in.record, v)
	}
}

func (in *interp) subscript(index []expr) val {
	var vs []val
	for i, x := range index {
		if i > 0 {
			vs = append(vs, fixed("\x1c")) // SUBSEP
		}
		vs = append(vs, in.eval(x))
	}
	return concat(vs...)
}

// keys is what for (k in NAME) gives k: the subscripts stored, or for an
// array the program never assigns (ENVIRON, PROCINFO), what the library
// says of the whole of it.
func (in *interp) keys(name string) val {
	c := in.lookup(name)
	if !c.assigned {
		return in.builtinArray(name, name, 0)
	}
	return c.keys
}

// builtinArray is what the library says an array awk sets itself gives,
// whole or by one subscript (text names it).
func (in *interp) builtinArray(name, text string, line int) val {
	f, ok := in.env.Library.Function(Language, name)
	if !ok {
		return val{}
	}
	return val{r: in.effects(f, text, line, in.callFacts(nil))}
}

func (in *interp) element(t indexRef) val {
	k := in.subscript(t.index)
	c := in.lookup(t.name)
	if !c.assigned {
		if k.exact {
			if v := in.builtinArray(t.name+"["+strconv.Quote(k.s)+"]", in.text(t.pos, t.end), t.line); len(v.r) > 0 {
				return v
			}
			if t.name == "ENVIRON" {
				return in.environ(k.s)
			}
			return val{}
		}
		return in.builtinArray(t.name, in.text(t.pos, t.end), t.line)
	}
	if k.exact {
		if e, ok := c.elems[k.s]; ok {
			return merge(e, c.any)
		}
		return c.any
	}
	v := c.any
	for _, key := range sortedKeys(c.elems) {
		v = merge(v, c.elems[key])
	}
	return v
}

// environ is ENVIRON[name]: the value the program is given, when known.
func (in *interp) environ(name string) val {
	for _, kv := range in.p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return fixed(v)
		}
	}
	return val{}
}

func sortedKeys(m map[string]val) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (in *interp) eval(x expr) val {
	if !in.step() {
		return val{}
	}
	switch x := x.(type) {
	case numLit:
		return fixed(x.v)
	case strLit:
		return fixed(x.v)
	case regexLit:
		return val{}
	case varRef:
		return in.lookup(x.name).v
	case indexRef:
		return in.element(x)
	case fieldRef:
		in.eval(x.index)
		return in.record
	case group:
		var vs []val
		for _, e := range x.list {
			vs = append(vs, in.eval(e))
		}
		return concat(vs...)
	case assign:
		v := in.eval(x.value)
		if x.op != "=" {
			v = derived(in.eval(x.target), v)
		}
		in.store(x.target, v)
		return v
	case incr:
		v := derived(in.eval(x.x))
		in.store(x.x, v)
		return v
	case unary:
		v := in.eval(x.x)
		if x.op == "!" {
			return val{}
		}
		return derived(v)
	case binary:
		return in.binary(x)
	case cond:
		in.eval(x.c)
		if holds, known := in.truth(x.c); known {
			if holds {
				return in.eval(x.a)
			}
			return in.eval(x.b)
		}
		return merge(in.eval(x.a), in.eval(x.b))
	case inExpr:
		for _, e := range x.index {
			in.eval(e)
		}
		return val{}
	case call:
		return in.call(x)
	case getline:
		return in.getline(x)
	}
	return val{}
}

func (in *interp) binary(x binary) val {
	a, b := in.eval(x.x), in.eval(x.y)
	switch x.op {
	case " ":
		return concat(a, b)
	case "+", "-", "*", "/", "%", "^":
		return derived(a, b)
	}
	// Comparisons, matches and logic: a value only compared does not
	// reach what is printed.
	return val{}
}

// getline reads a line into its target ($0 without one): from a command
// the shell's reader follows, or from a file of the machine whose content
// varies.
func (in *interp) getline(g getline) val {
	var v val
	switch {
	case g.cmd != nil:
		cmd := in.eval(g.cmd)
		if !cmd.exact {
			in.out.Note(fmt.Sprintf("%s: awk reads from a command computed while it runs", in.siteText(g.line)))
			return val{}
		}
		v = in.shell(cmd.s, g.line)
	case g.file != nil:
		f := in.eval(g.file)
		if f.exact {
			if e, ok := in.env.Library.File(f.s); ok {
				for _, ef := range e.Effects {
					if applies, by := ef.Apply(in.callFacts(nil)); applies && by == "" {
						v.r = effect.AppendReaches(v.r, effect.Reach{Value: ef.Value, Text: f.s, Because: ef.Because, Site: in.site(g.line)})
					}
				}
			}
		}
	}
	if g.target != nil {
		in.store(g.target, v)
	} else {
		in.record = merge(in.record, v)
	}
	return val{}
}

// call calls a function the program defines or a builtin, which the
// library describes.
func (in *interp) call(c call) val {
	if f, ok := in.prog.funcs[c.name]; ok && !c.builtin {
		return in.callUser(f, c)
	}
	args := make([]val, len(c.args))
	for i, a := range c.args {
		args[i] = in.eval(a)
	}
	result := derived(args...)
	// A builtin given variables after its first argument may store into
	// them (split's array, sub's target, match's array): what it was given
	// may go there.
	for _, a := range c.args[min(1, len(c.args)):] {
		if v, ok := a.(varRef); ok {
			// A name may be an array it fills.
			arr := in.lookup(v.name)
			arr.assigned = true
			arr.v = merge(arr.v, derived(args...))
			arr.any = merge(arr.any, derived(args...))
		} else if isLvalue(a) {
			in.store(a, derived(args...))
		}
	}
	if (c.name == "sub" || c.name == "gsub") && len(c.args) == 2 {
		// Without a target they change $0.
		in.record = merge(in.record, derived(args...))
	}
	f, ok := in.env.Library.Function(Language, c.name)
	if !ok {
		return result
	}
	facts := in.callFacts(args)
	result.r = effect.AppendReaches(result.r, in.effects(f, in.text(c.pos, c.end), c.line, facts)...)
	for _, s := range f.Sets {
		if s.When.Holds(facts) && !slices.Contains(in.facts, s.Name) {
			in.facts = append(in.facts, s.Name)
		}
	}
	if f.Runs != "" {
		result = in.runs(f, args, c.line)
	}
	return result
}

// runs runs the command of a builtin such as system: it prints to the
// program's standard output; its value is its status.
func (in *interp) runs(f spec.Function, args []val, line int) val {
	if len(args) == 0 {
		return val{}
	}
	if !args[0].exact {
		in.out.Note(fmt.Sprintf("%s: awk runs a command computed while it runs", in.siteText(line)))
		return val{}
	}
	if f.Runs != code.Shell {
		in.out.Note(fmt.Sprintf("%s: awk runs %s code, which is not read", in.siteText(line), f.Runs))
		return val{}
	}
	printed := in.shell(args[0].s, line)
	in.out.Stdout = effect.AppendReaches(in.out.Stdout, printed.r...)
	return val{}
}

func (in *interp) callUser(f *function, c call) val {
	if in.active[f.name] {
		if in.recursive == nil {
			in.recursive = map[string]bool{}
		}
		in.recursive[f.name] = true
	}
	if in.active[f.name] || len(in.frames) >= maxCalls {
		// Recursion: what the body computes comes from its arguments.
		var vs []val
		for _, a := range c.args {
			vs = append(vs, in.eval(a))
		}
		return derived(vs...)
	}
	fr := &frame{locals: map[string]*cell{}}
	for i, param := range f.params {
		if i >= len(c.args) {
			fr.locals[param] = &cell{}
			continue
		}
		// An array is passed by reference.
		if v, ok := c.args[i].(varRef); ok {
			if caller := in.lookup(v.name); caller.array || !caller.assigned {
				fr.locals[param] = caller
				continue
			}
		}
		fr.locals[param] = &cell{v: in.eval(c.args[i]), assigned: true}
	}
	in.active[f.name] = true
	in.frames = append(in.frames, fr)
	weak := in.weak
	in.weak = 0
	undecided := in.recursive[f.name]
	if undecided {
		in.undecided++
	}
	in.stmts(f.body)
	if !undecided && in.recursive[f.name] && in.undecided == 0 {
		// It called itself while its conditions were decided: a
		// recursive call stands for the rest of the recursion, so run it
		// again deciding none.
		in.undecided++
		in.stmts(f.body)
		in.undecided--
	}
	if undecided {
		in.undecided--
	}
	in.weak = weak
	in.frames = in.frames[:len(in.frames)-1]
	delete(in.active, f.name)
	return fr.ret
}

// callFacts are the facts a call's conditions see.
func (in *interp) callFacts(args []val) []string {
	facts := []string{"args:" + strconv.Itoa(len(args))}
	for i, a := range args {
		if len(a.r) == 0 {
			facts = append(facts, "arg"+strconv.Itoa(i)+":known")
		}
		if a.exact {
			facts = append(facts, "arg"+strconv.Itoa(i)+":str")
		}
	}
	for _, kv := range in.p.Env {
		facts = append(facts, "env:"+kv)
	}
	return append(facts, in.facts...)
}

// effects are the varying values a function of the library gives on
// these facts.
func (in *interp) effects(f spec.Function, text string, line int, facts []string) []effect.Reach {
	var rs []effect.Reach
	for _, e := range f.Effects {
		if applies, by := e.Apply(facts); applies && by == "" {
			rs = effect.AppendReaches(rs, effect.Reach{Value: e.Value, Text: text, Because: e.Because, Site: in.site(line)})
		}
	}
	return rs
}
