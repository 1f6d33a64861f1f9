package perl

import (
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// match is m//, s/// and tr///: a match gives what it matched (its
// captures); a substitution puts its replacement into the target.
func (in *interp) match(x matchNode) val {
	in.interp(x.pattern)
	var target val
	if x.target != nil {
		target = in.eval(x.target)
	} else {
		target = in.variable(varNode{name: "$_"})
	}
	switch {
	case x.subst:
		repl := in.eval(x.repl)
		nv := derived(target, repl)
		if x.target != nil {
			in.store(x.target, nv)
		} else {
			in.setTopic(nv)
		}
		return nv
	case x.trans:
		return derived(target)
	}
	in.matched = target
	return derived(target)
}

// readline is <FH>: what reading the handle gives; <*.c> is a glob,
// which perl sorts.
func (in *interp) readline(x readlineNode) val {
	if x.glob != "" {
		return val{r: in.libEffects("glob", in.text(x.pos, x.end, "<"+x.glob+">"), x.line, nil)}
	}
	h := in.handleOf(x.fh)
	if h == nil {
		return val{}
	}
	return val{r: h.reads}
}

// handleOf finds the filehandle an expression names: a bareword, or a
// variable holding one.
func (in *interp) handleOf(x node) *handle {
	switch t := x.(type) {
	case strLit:
		return in.handles[t.v]
	case bareword:
		return in.handles[t.name]
	}
	v := in.eval(x)
	if v.fh != nil {
		return v.fh
	}
	if v.exact {
		if h, ok := in.handles[strings.TrimPrefix(v.s, "*")]; ok {
			return h
		}
	}
	return nil
}

func (in *interp) filetest(x filetestNode) val {
	var arg val
	if x.x != nil {
		arg = in.eval(x.x)
	}
	v := derived(arg)
	v.r = effect.AppendReaches(v.r, in.libEffects(x.op, in.text(x.pos, x.end, x.op), x.line, []val{arg})...)
	return v
}

// call calls a function by name: one of the language's own operators, a
// sub of the program, or a function the library describes.
func (in *interp) call(c callNode) val {
	if v, ok := in.consts[c.name]; ok && len(c.args) == 0 {
		return v
	}
	if f, ok := operators[c.name]; ok {
		return f(in, c)
	}
	if d, ok := in.sub(c.name); ok {
		args := in.evalArgs(c.args)
		if c.amp && c.args == nil && len(in.frames) > 0 {
			args = in.frames[len(in.frames)-1].args.elems
		}
		return in.callSub(d, args)
	}
	return in.libCall(c.name, c.name, c.args, in.text(c.pos, c.end, c.name), c.line, nil)
}

// libCall calls a function the library may describe: its result varies
// where its arguments do, less what it removes, plus what it gives.
func (in *interp) libCall(name, qualified string, argNodes []node, text string, line int, self *val) val {
	f, known := in.function(qualified)
	var args []val
	if self != nil {
		args = append(args, *self)
	}
	if known && slices.ContainsFunc(f.Removes, func(v effect.Value) bool { return v == effect.Order || v == effect.HashSeed }) {
		// What it orders is given as sorted.
		old := in.extra
		in.extra = append(slices.Clip(in.extra), "sorted")
		args = append(args, in.evalArgs(argNodes)...)
		in.extra = old
	} else {
		args = append(args, in.evalArgs(argNodes)...)
	}
	result := derived(args...)
	if !known {
		return result
	}
	result = without(result, f.Removes)
	facts := in.callFacts(args)
	result.r = effect.AppendReaches(result.r, in.effects(f, text, line, facts)...)
	in.establish(f, facts)
	if i, ok := spec.Position(f.Writes); ok && i < len(args) {
		// $tar->write($out): what it is given, the object's content too.
		data := derived(append(slices.Clone(args[:i]), args[i+1:]...)...)
		in.write(in.writeFile(args[i]), append(data.r, result.r...))
	}
	if f.Runs != "" {
		return in.runs(f.Runs, args, line, false)
	}
	if f.Returns != "" && f.Returns != "path" {
		result.class = f.Returns
	}
	return result
}

// runs runs the command a function is given: a shell string, or an
// argument vector (system LIST).
func (in *interp) runs(lang string, args []val, line int, capture bool) val {
	if len(args) == 0 {
		return val{}
	}
	if lang != code.Shell && lang != "argv" {
		in.note(in.where(line) + ": perl runs " + lang + " code, which is not read")
		return val{}
	}
	cmd, ok := command(args)
	if !ok {
		in.note(in.where(line) + ": perl runs a command computed while it runs")
		return val{}
	}
	return in.shell(cmd, line, !capture)
}

// isScalar says an expression is a scalar variable ($tar).
func isScalar(x node) bool {
	v, ok := x.(varNode)
	return ok && v.name[0] == '$'
}

// method calls a method: of a class the program defines, or one the
// library describes by its class (File::Temp::filename).
func (in *interp) method(m methodNode) val {
	var self val
	class := m.class
	if m.inv != nil {
		self = in.eval(m.inv)
		class = self.class
	} else {
		self = fixed(class)
	}
	start := m.pos
	if v, ok := m.inv.(varNode); ok && v.pos >= 0 {
		start = v.pos
	}
	text := in.text(start, m.end, m.name)
	if m.inv == nil {
		text = m.class + "->" + text
	}
	if class != "" {
		if d, ok := in.subs[class+"::"+m.name]; ok {
			return in.callSub(d, append([]val{self}, in.evalArgs(m.args)...))
		}
		v := in.libCall(m.name, class+"::"+m.name, m.args, text, m.line, &self)
		if v.class == "" && m.name == "new" {
			v.class = class
		}
		// What a method records the object holds: $tar->add_files($f) puts
		// the file's time into what $tar->write writes.
		if _, known := in.function(class + "::" + m.name); known && isScalar(m.inv) {
			inv := m.inv.(varNode)
			c := in.lookup(inv.name)
			c.v.r = effect.AppendReaches(slices.Clip(c.v.r), v.r...)
		}
		return v
	}
	if self.code != nil {
		return in.callSub(self.code, in.evalArgs(m.args))
	}
	return derived(append(in.evalArgs(m.args), self)...)
}

// operators are the language's own operators for input and output, data
// and control, which the reader implements; what varies is the library's.
var operators map[string]func(*interp, callNode) val

func init() {
	operators = map[string]func(*interp, callNode) val{
		"print": (*interp).print, "printf": (*interp).print, "say": (*interp).print,
		"open": (*interp).open, "select": (*interp).selectFH, "binmode": ignore, "close": ignore,
		"keys": (*interp).hashOp, "values": (*interp).hashOp, "each": (*interp).hashOp,
		"sort": (*interp).sortOp, "map": (*interp).mapOp, "grep": (*interp).grepOp,
		"push": (*interp).pushOp, "unshift": (*interp).pushOp, "shift": (*interp).shiftOp, "pop": (*interp).shiftOp,
		"bless": (*interp).bless, "eval": (*interp).evalString, "do": (*interp).doFile, "require": (*interp).doFile,
		"readpipe": (*interp).readpipe, "die": ignore, "warn": ignore, "opendir": ignore, "syswrite": (*interp).print,
		"readline": (*interp).readlineCall, "local": ignore, "defined": cond, "exists": cond,
	}
}

func ignore(in *interp, c callNode) val {
	in.evalArgs(c.args)
	return val{}
}

// cond is a test: what it tests does not reach what is printed.
func cond(in *interp, c callNode) val {
	in.evalArgs(c.args)
	return val{}
}

// print writes to a filehandle: the one named, else the one selected.
func (in *interp) print(c callNode) val {
	var h *handle
	switch {
	case c.name == "syswrite":
		if len(c.args) > 0 {
			h = in.handleOf(c.args[0])
			c.args = c.args[1:]
		}
	case c.fh != nil:
		h = in.handleOf(c.fh)
	default:
		name := in.selected
		if name == "" {
			name = "STDOUT"
		}
		h = in.handles[name]
	}
	var v val
	if len(c.args) == 0 {
		v = in.variable(varNode{name: "$_"})
	} else {
		v = derived(in.evalArgs(c.args)...)
	}
	in.write(h, v.r)
	return val{}
}

func (in *interp) selectFH(c callNode) val {
	if len(c.args) == 1 {
		switch t := c.args[0].(type) {
		case bareword:
			in.selected = t.name
		case strLit:
			in.selected = t.v
		default:
			if h := in.handleOf(t); h != nil {
				name := "\x00select"
				in.handles[name] = h
				in.selected = name
			}
		}
	}
	return val{}
}

// open opens a filehandle: a file to write (which counts when it is an
// output or its name is not known), to read (a file of the machine may
// give a varying value), or a command.
func (in *interp) open(c callNode) val {
	if len(c.args) < 2 {
		in.evalArgs(c.args)
		return val{}
	}
	args := in.evalArgs(c.args[1:])
	mode, rest := args[0], args[1:]
	var h *handle
	if len(rest) == 0 {
		h = in.openTwo(mode, c.line)
	} else if ref, ok := c.args[len(c.args)-1].(refNode); ok && len(rest) == 1 {
		target := in.container(ref.x, true)
		if vn, ok := ref.x.(varNode); ok {
			target = in.lookup(vn.name)
		}
		h = &handle{kind: toScalar, target: target}
	} else {
		h = in.openThree(strings.TrimSpace(mode.s), mode.exact, rest, c.line)
	}
	switch t := c.args[0].(type) {
	case bareword:
		in.handles[t.name] = h
	case strLit:
		in.handles[t.v] = h
	default:
		in.store(t, val{fh: h})
	}
	return val{}
}

func (in *interp) openThree(mode string, exact bool, rest []val, line int) *handle {
	if !exact {
		return &handle{kind: toFile}
	}
	mode, _, _ = strings.Cut(mode, ":") // '<:encoding(UTF-8)'
	mode = strings.TrimSpace(mode)
	switch mode {
	case "<", "":
		return in.readFile(rest[0], line)
	case "-|":
		return &handle{kind: fromInput, reads: in.runs("argv", rest, line, true).r}
	case "|-":
		in.runs("argv", rest, line, false)
		return &handle{kind: toPipe}
	}
	return in.writeFile(rest[0])
}

// openTwo is open(FH, EXPR): the mode is written in the string.
func (in *interp) openTwo(spec val, line int) *handle {
	if !spec.exact {
		return &handle{kind: toFile}
	}
	s := strings.TrimSpace(spec.s)
	switch {
	case strings.HasSuffix(s, "|"):
		return &handle{kind: fromInput, reads: in.shell(strings.TrimSuffix(s, "|"), line, false).r}
	case strings.HasPrefix(s, "|"):
		in.shell(strings.TrimPrefix(s, "|"), line, true)
		return &handle{kind: toPipe}
	case strings.HasPrefix(s, ">>"), strings.HasPrefix(s, "+>"), strings.HasPrefix(s, "+<"):
		return in.writeFile(fixed(strings.TrimSpace(s[2:])))
	case strings.HasPrefix(s, ">"):
		return in.writeFile(fixed(strings.TrimSpace(s[1:])))
	}
	return in.readFile(fixed(strings.TrimSpace(strings.TrimPrefix(s, "<"))), line)
}

func (in *interp) writeFile(name val) *handle {
	if !name.exact {
		return &handle{kind: toFile}
	}
	switch name.s {
	case "-", "/dev/stdout":
		return in.handles["STDOUT"]
	case "/dev/stderr", "/dev/null":
		return &handle{kind: toNothing}
	}
	if code.IsOutput(in.p.Outputs, name.s) {
		return &handle{kind: toFile}
	}
	return &handle{kind: toNothing}
}

// readFile opens a file for reading: a file of the machine the library
// describes (/dev/urandom) gives what it says.
func (in *interp) readFile(name val, line int) *handle {
	h := &handle{kind: fromInput}
	if !name.exact {
		return h
	}
	if e, ok := in.env.Library.File(name.s); ok {
		facts := in.callFacts(nil)
		for _, ef := range e.Effects {
			if applies, by := ef.Apply(facts); applies && by == "" {
				h.reads = effect.AppendReaches(h.reads, effect.Reach{Value: ef.Value, Text: name.s, Because: ef.Because, Site: in.site(line)})
			}
		}
	}
	return h
}

func (in *interp) readlineCall(c callNode) val {
	if len(c.args) == 0 {
		return val{}
	}
	h := in.handleOf(c.args[0])
	if h == nil {
		return val{}
	}
	return val{r: h.reads}
}

// hashOp is keys, values and each: what the hash holds, in its hash order,
// which the library describes.
func (in *interp) hashOp(c callNode) val {
	if len(c.args) == 0 {
		return val{}
	}
	var hv val
	var cl *cell
	if vn, ok := c.args[0].(varNode); ok && vn.name[0] == '%' {
		if !in.isSet(vn.name) {
			// %ENV and the like: what the library says of the whole.
			hv = in.variable(vn)
		} else {
			cl = in.lookup(vn.name)
		}
	} else {
		hv = in.eval(c.args[0])
		cl = hv.ref
	}
	var v val
	if cl != nil {
		switch c.name {
		case "keys":
			v = val{r: cl.keys.r}
		default:
			v = cl.all()
		}
	} else {
		v = derived(hv)
	}
	v.r = effect.AppendReaches(v.r, in.libEffects(c.name, in.text(c.pos, c.end, c.name), c.line, nil)...)
	v.exact, v.ref = false, nil
	return v
}

// sortOp is sort: the comparison runs; the library says what ordering the
// list removes.
func (in *interp) sortOp(c callNode) val {
	v := in.libCall("sort", "sort", c.args, in.text(c.pos, c.end, "sort"), c.line, nil)
	if c.block != nil {
		in.push()
		in.declare("$a").v = v
		in.declare("$b").v = v
		in.stmts(c.block)
		in.pop()
	}
	return v
}

// mapOp is map: the block's value for each item.
func (in *interp) mapOp(c callNode) val {
	list, body := c.args, c.block
	if body == nil && len(list) > 0 {
		body, list = []stmt{exprStmt{list[0]}}, list[1:]
	}
	items := derived(in.evalArgs(list)...)
	old := in.topic
	in.setTopic(items)
	in.weak++
	v := in.block(body)
	in.weak--
	in.topic = old
	return derived(v)
}

// grepOp is grep: the items the block keeps.
func (in *interp) grepOp(c callNode) val {
	list, body := c.args, c.block
	if body == nil && len(list) > 0 {
		body, list = []stmt{exprStmt{list[0]}}, list[1:]
	}
	items := derived(in.evalArgs(list)...)
	old := in.topic
	in.setTopic(items)
	in.weak++
	in.block(body)
	in.weak--
	in.topic = old
	return items
}

func (in *interp) pushOp(c callNode) val {
	if len(c.args) == 0 {
		return val{}
	}
	vs := in.evalArgs(c.args[1:])
	arr := in.container(c.args[0], true)
	if vn, ok := c.args[0].(varNode); ok && vn.name[0] == '@' {
		arr = in.lookup(vn.name)
		arr.assigned = true
	}
	if arr == nil {
		return val{}
	}
	if in.weak > 0 || c.name == "unshift" || len(arr.elems)+len(vs) > maxItems {
		arr.addApprox(derived(vs...))
		arr.inexact = arr.inexact || c.name == "unshift"
		return val{}
	}
	arr.elems = append(arr.elems, vs...)
	return val{}
}

// shiftOp is shift and pop: of @_ in a sub, of @ARGV outside one.
func (in *interp) shiftOp(c callNode) val {
	var arr *cell
	switch {
	case len(c.args) > 0:
		if vn, ok := c.args[0].(varNode); ok && vn.name[0] == '@' {
			arr = in.lookup(vn.name)
		} else {
			arr = in.container(c.args[0], false)
		}
	case len(in.frames) > 0:
		arr = in.frames[len(in.frames)-1].args
	default:
		arr = in.lookup("@ARGV")
	}
	if arr == nil {
		return val{}
	}
	if arr.inexact || len(arr.elems) == 0 || in.weak > 0 {
		return arr.all()
	}
	var v val
	if c.name == "shift" {
		v, arr.elems = arr.elems[0], arr.elems[1:]
	} else {
		v, arr.elems = arr.elems[len(arr.elems)-1], arr.elems[:len(arr.elems)-1]
	}
	return arr.orApprox(v)
}

func (in *interp) bless(c callNode) val {
	args := in.evalArgs(c.args)
	if len(args) == 0 {
		return val{}
	}
	v := args[0]
	v.class = in.pkg
	if len(args) > 1 && args[1].exact {
		v.class = args[1].s
	}
	return v
}

// evalString is eval of a string: read as Perl when its text is known.
func (in *interp) evalString(c callNode) val {
	if len(c.args) == 0 {
		return val{}
	}
	v := in.eval(c.args[0])
	if !v.exact {
		in.note(in.where(c.line) + ": perl evaluates a string computed while it runs")
		return val{}
	}
	prog, err := parseAt(v.s, c.line, 0)
	if err != nil {
		in.note(in.where(c.line) + ": perl: eval of a string that does not parse: " + err.Error())
		return val{}
	}
	return in.block(prog)
}

// doFile is do FILE and require EXPR called as functions.
func (in *interp) doFile(c callNode) val {
	if len(c.args) == 0 {
		return val{}
	}
	if b, ok := c.args[0].(bareword); ok {
		in.use(useStmt{module: b.name, line: c.line})
		return val{}
	}
	in.use(useStmt{file: c.args[0], require: true, line: c.line})
	return val{}
}

// readpipe is qx// as a function.
func (in *interp) readpipe(c callNode) val {
	args := in.evalArgs(c.args)
	if len(args) == 0 {
		return val{}
	}
	if !args[0].exact {
		in.note(in.where(c.line) + ": perl runs a command computed while it runs")
		return val{}
	}
	return in.shell(args[0].s, c.line, false)
}
