package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell's own commands that change its state (the working directory,
// variables, positional parameters, what it reads next) are the language,
// not programs: they are interpreted here. What a builtin prints (echo,
// printf, pwd) is described in the library like any program's.

// call handles a simple command: assignments, a function call, a builtin
// that changes the state, or a command.
func (a *analyzer) call(fr frame, st *state, s *syntax.Stmt, c *syntax.CallExpr) {
	if len(c.Args) == 0 {
		for _, as := range c.Assigns {
			if as.Name != nil {
				st.set(as.Name.Value, a.assignValue(fr, st, as), false)
			}
		}
		return
	}
	// Assignments before a command are its environment only.
	var env []value
	for _, as := range c.Assigns {
		if as.Name == nil {
			continue
		}
		v := a.assignValue(fr, st, as)
		env = append(env, value{parts: append([]Part{{Text: as.Name.Value + "=", Known: true}}, v.parts...), taint: v.taint})
	}
	fields := a.fields(fr, st, c.Args)
	if len(fields) == 0 {
		return
	}
	a.run(fr, st, s, env, fields)
}

// run runs one command line: fields are its words after expansion.
func (a *analyzer) run(fr frame, st *state, s *syntax.Stmt, env []value, fields []value) {
	name, known := fields[0].known()
	if known {
		if body, ok := a.funcs[name]; ok && len(env) == 0 {
			a.callFunction(fr, st, name, body, fields)
			return
		}
		if a.builtin(fr, st, s, name, fields) {
			return
		}
		if inner, ok := a.nestedShell(fields); ok {
			a.nested(fr, withEnv(st, env), s, inner, Context{Kind: InShell, Name: path.Base(inner.Shell)}, shellArgs(fields, inner))
			return
		}
	}
	a.command(fr, st, s, env, fields)
}

// builtin interprets the builtins that change the shell's state, and says
// whether it was one: such a builtin is the language, not a command to
// judge. (pushd prints the directory stack, which goes unjudged.)
func (a *analyzer) builtin(fr frame, st *state, s *syntax.Stmt, name string, fields []value) bool {
	args := fields[1:]
	switch name {
	case "cd", "pushd":
		a.cd(st, args)
	case "popd":
		st.cwd = &value{parts: []Part{{Text: "$PWD"}}}
	case "export", "readonly", "local", "declare", "typeset":
		a.declWords(st, name, args)
	case "unset":
		for _, f := range args {
			if n, ok := f.known(); ok && isName(n) {
				st.vars[n] = variable{unset: true, val: value{parts: []Part{{Known: true}}}}
			}
		}
	case "set":
		if i := slices.IndexFunc(fields, func(f value) bool { s, _ := f.known(); return s == "--" }); i > 0 {
			st.positional = append(st.positional[:1:1], fields[i+1:]...)
		}
	case "shift":
		a.shift(st, args)
	case "read", "mapfile", "readarray":
		a.read(fr, st, name, args)
	case "umask":
		if len(args) > 0 {
			a.establish("fixed:mode")
		}
	case "eval":
		return a.eval(fr, st, s, args)
	case "source", ".":
		return a.source(fr, st, s, args)
	default:
		return false
	}
	return true
}

// establish records a fact for the commands after this one; a fact
// written !NAME no longer holds after it (strip rewrites a file, which
// takes the time touch -d gave it).
func (a *analyzer) establish(facts ...string) {
	for _, f := range facts {
		if name, ok := strings.CutPrefix(f, "!"); ok {
			a.facts = slices.DeleteFunc(slices.Clone(a.facts), func(x string) bool { return x == name })
			continue
		}
		if !slices.Contains(a.facts, f) {
			a.facts = append(a.facts, f)
		}
	}
}

func (a *analyzer) shift(st *state, args []value) {
	n := 1
	if len(args) > 0 {
		if s, ok := args[0].known(); ok {
			n, _ = strconv.Atoi(s)
		}
	}
	if n >= 0 && 1+n <= len(st.positional) {
		st.positional = append(st.positional[:1:1], st.positional[1+n:]...)
	}
}

func (a *analyzer) callFunction(fr frame, st *state, name string, body *syntax.Stmt, fields []value) {
	if fr.nesting >= maxNesting {
		a.truncate("function " + name + " nests past " + strconv.Itoa(maxNesting) + " calls")
		return
	}
	fr.nesting++
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InFunction, Name: name})
	saved := st.positional
	st.positional = append([]value{st.positional[0]}, fields[1:]...)
	a.stmt(fr, st, body)
	st.positional = saved
}

// truncate marks the script as followed only in part, and says why once.
func (a *analyzer) truncate(why string) {
	a.script.Truncated = true
	a.unread(why)
}

// unread notes, once, something the analysis could not follow.
func (a *analyzer) unread(why string) {
	if !slices.Contains(a.script.Unread, why) {
		a.script.Unread = append(a.script.Unread, why)
	}
}

func (a *analyzer) cd(st *state, args []value) {
	old := st.cwd
	var to *value
	for _, f := range args {
		s, ok := f.known()
		if ok && strings.HasPrefix(s, "-") && s != "-" {
			continue
		}
		to = cdTarget(st, f, s, ok)
		break
	}
	if len(args) == 0 {
		v := value{parts: []Part{{Text: "$HOME"}}}
		to = &v
	}
	if to != nil && to.String() == "$PWD" && len(to.taint) == 0 && !to.parts[0].Known && st.cwd == nil {
		// cd into an unknown directory below the execution root: still
		// the execution root as far as a path printed goes.
		to = nil
	}
	st.oldcwd = old
	st.cwd = to
}

// belowRoot is the directory, relative to the execution root, that a cd
// to a known relative path made the working directory ($PWD/d: its name
// is known, its absolute path is the build's).
func belowRoot(cwd value) (string, bool) {
	if len(cwd.parts) != 1 || cwd.parts[0].Known || len(cwd.taint) > 0 {
		return "", false
	}
	return strings.CutPrefix(cwd.parts[0].Text, "$PWD/")
}

func cdTarget(st *state, f value, s string, ok bool) *value {
	switch {
	case ok && s == "-":
		return st.oldcwd
	case ok && strings.HasPrefix(s, "/"):
		return &value{parts: []Part{{Text: path.Clean(s), Known: true}}}
	case ok && st.cwd != nil:
		if base, bk := st.cwd.known(); bk {
			return &value{parts: []Part{{Text: path.Join(base, s), Known: true}}}
		}
		if rel, ok := belowRoot(*st.cwd); ok {
			return &value{parts: []Part{{Text: "$PWD/" + path.Join(rel, s)}}}
		}
	}
	// Relative to the execution root, or somewhere we cannot name: the
	// word itself, so that a file named under it ("$d/x") is one named
	// relative to it (x after cd "$d").
	if ok && st.cwd == nil {
		return &value{parts: []Part{{Text: "$PWD/" + s}}}
	}
	if len(f.parts) > 0 {
		return &value{parts: f.parts, taint: f.taint}
	}
	return &value{parts: []Part{{Text: "$PWD"}}, taint: f.taint}
}

// declWords handles export and friends given as plain words (POSIX sh
// parses `export A=1` as a command).
func (a *analyzer) declWords(st *state, verb string, args []value) {
	export := verb == "export"
	for _, f := range args {
		s := f.String()
		if strings.HasPrefix(s, "-") {
			if strings.Contains(s, "x") {
				export = true
			}
			continue
		}
		name, _, hasValue := strings.Cut(s, "=")
		if !isName(name) {
			continue
		}
		if !hasValue {
			if export {
				st.export(name)
			}
			continue
		}
		st.set(name, afterEquals(f, len(name)+1), export)
	}
}

// afterEquals is a word without its first n bytes (NAME=).
func afterEquals(f value, n int) value {
	v := value{taint: f.taint}
	rest := n
	for _, p := range f.parts {
		if rest >= len(p.Text) {
			rest -= len(p.Text)
			continue
		}
		v.parts = append(v.parts, Part{Text: p.Text[rest:], Known: p.Known})
		rest = 0
	}
	return v
}

// read sets the variables read names from standard input.
func (a *analyzer) read(fr frame, st *state, verb string, args []value) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].known()
		if !ok {
			continue
		}
		if strings.HasPrefix(s, "-") {
			if strings.ContainsAny(s[len(s)-1:], "adinptuCcOs") && i+1 < len(args) && s != "-r" && s != "-s" && s != "-e" {
				i++
			}
			continue
		}
		if isName(s) {
			st.set(s, value{parts: []Part{{Text: "$" + s}}, taint: stdinAsData(fr.stdin)}, false)
		}
	}
	if verb != "read" && !slices.ContainsFunc(args, func(v value) bool { s, _ := v.known(); return isName(s) }) {
		st.set("MAPFILE", value{parts: []Part{{Text: "$MAPFILE"}}, taint: stdinAsData(fr.stdin)}, false)
	}
}

func stdinAsData(in []taint) []taint {
	out := make([]taint, len(in))
	for i, t := range in {
		out[i] = taint{node: t.node, mode: asData}
	}
	return out
}

// eval parses and follows `eval WORDS` when the words are known. It
// returns false when they are not, and eval is then listed as a command,
// which the analysis says it could not follow.
func (a *analyzer) eval(fr frame, st *state, s *syntax.Stmt, args []value) bool {
	var texts []string
	for _, f := range args {
		t, ok := f.known()
		if !ok {
			a.unread("eval of a string computed while the script runs: " + oneLine(a.stmtText(fr, s)))
			return false
		}
		texts = append(texts, t)
	}
	inner := Invocation{Shell: "eval", Dialect: a.dialect, Script: strings.Join(texts, " ")}
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InEval})
	return a.nestedScript(fr, st, s, inner, nil)
}

// source follows `source FILE` (`. FILE`) when the file can be read, in
// the current shell; Bazel's own genrule prefix is skipped.
func (a *analyzer) source(fr frame, st *state, s *syntax.Stmt, args []value) bool {
	if len(args) == 0 {
		return true
	}
	p, ok := args[0].known()
	if ok && strings.HasSuffix(p, genruleSetup) {
		return true
	}
	if !ok {
		a.unread("source of a file named while the script runs: " + args[0].String())
		return true
	}
	if a.opts.Files == nil {
		a.unread("source " + p + ": the workspace is not known, so the file was not read")
		return true
	}
	key, _ := fileKey(st, args[0])
	src, err := a.opts.Files.Read(key)
	if err != nil {
		a.unread("source " + p + ": " + err.Error())
		return true
	}
	inv := Invocation{Shell: "source", Dialect: a.dialect, Script: src.Text}
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InShell, Name: "source"})
	a.fileScript(fr, st, s, inv, src.Path, false)
	return true
}

// nestedShell recognises `bash -c SCRIPT ...` with a known command line.
func (a *analyzer) nestedShell(fields []value) (Invocation, bool) {
	argv := make([]string, len(fields))
	for i, f := range fields {
		s, ok := f.known()
		if !ok {
			if i == 0 {
				return Invocation{}, false
			}
			s = f.String()
		}
		argv[i] = s
	}
	inv, ok := Recognize(argv)
	if !ok {
		return Invocation{}, false
	}
	// The script itself must be known.
	for i, f := range fields {
		if argv[i] == inv.Script && i > 0 {
			if _, ok := f.known(); !ok {
				a.unread("a shell runs a script computed while the script runs: " + f.String())
				return Invocation{}, false
			}
			break
		}
	}
	return inv, true
}

// shellArgs are the words of a command line that a shell it runs gets as
// $0, $1...: the last of the fields, as Recognize counted them.
func shellArgs(fields []value, inv Invocation) []value {
	return fields[len(fields)-len(inv.Args):]
}

// withEnv is st with the assignments a command is given (`X=1 cmd`, `env
// X=1 cmd`) exported, for a shell or a script the command starts.
func withEnv(st *state, env []value) *state {
	if len(env) == 0 {
		return st
	}
	st = st.clone()
	for _, e := range env {
		s := e.String()
		if name, _, ok := strings.Cut(s, "="); ok && isName(name) {
			st.set(name, afterEquals(e, len(name)+1), true)
		}
	}
	return st
}

// nested follows a script a new shell runs (bash -c, a here-document given
// to bash), whose $0, $1... are args.
func (a *analyzer) nested(fr frame, st *state, s *syntax.Stmt, inv Invocation, ctx Context, args []value) {
	fr.ctx = appendCtx(fr.ctx, ctx)
	if args == nil {
		args = []value{}
	}
	if !a.nestedScript(fr, st.clone(), s, inv, args) {
		// It does not parse: the shell is a command we cannot see into.
		fields := []value{{parts: []Part{{Text: inv.Shell, Known: true}}}, {parts: []Part{{Text: "-c", Known: true}}}, {parts: []Part{{Text: inv.Script, Known: true}}}}
		a.command(fr, st, s, nil, fields)
	}
}

// nestedScript parses and walks a script found inside the script; it
// returns false when that does not parse. Positions map back to the outer
// script when the inner one appears in it verbatim (a plain literal).
// args, when not nil, start a new shell with its own variables (bash -c)
// whose $0, $1... they are, rather than run in the current one (eval).
func (a *analyzer) nestedScript(fr frame, st *state, s *syntax.Stmt, inv Invocation, args []value) bool {
	if fr.nesting >= maxNesting {
		a.truncate("scripts nest past " + strconv.Itoa(maxNesting) + " levels of eval, bash -c and tools")
		return true
	}
	file, err := parse(inv.Script, inv.Dialect)
	if err != nil {
		if pe, ok := err.(*ParseError); ok && pe.TooDeep {
			a.truncate(pe.Error())
			return true
		}
		return false
	}
	inner := fr
	inner.nesting++
	inner.text = inv.Script
	inner.anchor = a.pos(fr, s.Pos()).Offset
	inner.exact = false
	inner.inFile = false
	// Map positions back when the script appears verbatim in the text.
	if fr.exact {
		if i := strings.Index(fr.text[min(int(s.Pos().Offset()), len(fr.text)):], inv.Script); i >= 0 && inv.Script != "" {
			inner.exact = true
			inner.base = fr.base + int(s.Pos().Offset()) + i
		}
	}
	if args != nil {
		st = freshShell(st, inv.Shell, args)
	}
	saved := a.dialect
	a.dialect = inv.Dialect
	a.stmts(inner, st, file.Stmts, false)
	a.dialect = saved
	return true
}

// freshShell is the state a new shell starts in: the exported variables,
// the working directory, and its own positional parameters, args ($0 is
// the shell when they are empty).
func freshShell(st *state, shell string, args []value) *state {
	nst := newState()
	for _, n := range st.exported {
		if v, ok := st.get(n); ok {
			nst.vars[n] = v
			nst.exported = append(nst.exported, n)
		}
	}
	nst.cwd = st.cwd
	nst.positional = slices.Clone(args)
	if len(nst.positional) == 0 {
		nst.positional = []value{{parts: []Part{{Text: shell, Known: true}}}}
	}
	return nst
}

// fileScript walks the script of a file of its own (a tool's script, a
// sourced file): what it finds is placed in that file. fresh runs it in a
// new shell whose positional parameters are args.
func (a *analyzer) fileScript(fr frame, st *state, s *syntax.Stmt, inv Invocation, file string, fresh bool, args ...value) {
	if fr.nesting >= maxNesting {
		a.truncate("scripts nest past " + strconv.Itoa(maxNesting) + " levels of eval, bash -c and tools")
		return
	}
	parsed, err := parse(inv.Script, inv.Dialect)
	if err != nil {
		a.unread(file + ": " + err.Error())
		return
	}
	inner := fr
	inner.nesting++
	inner.text = inv.Script
	inner.anchor = a.pos(fr, s.Pos()).Offset
	inner.exact = false
	inner.site, inner.inFile = file, true
	if fresh {
		st = freshShell(st, inv.Shell, append([]value{{parts: []Part{{Text: file, Known: true}}}}, args...))
	}
	saved := a.dialect
	a.dialect = inv.Dialect
	a.stmts(inner, st, parsed.Stmts, false)
	a.dialect = saved
}
