// Package perl reads Perl programs (perl -e CODE, perl -ne/-pe/-lane, perl
// FILE, here-documents given to perl, and the workspace modules they use
// or require) for the values that vary from run to run and reach what they
// print or write: a tokenizer of Perl (quote-like operators with any
// delimiters, here-documents, POD, sigils, and a slash told apart as a
// pattern or a division by the token before it, as perl's tokenizer
// does), a parser of its statements and expressions, and an interpreter
// that follows each value through variables, arrays, hashes, references,
// subs, methods and filehandles to standard output or a file.
//
// The reader knows the language's own operators for input and output
// (print, printf, say, open, close, select, <FH>, qx//), data (arrays,
// hashes, keys, sort, map, grep) and control; what the builtins and
// modules give that varies is data, the library's functions of language
// "perl" (internal/spec/library/lang/perl.json, and any --repro-specs
// file): time, localtime, rand, $$, %ENV, keys, readdir, stat, -M,
// POSIX::strftime, Sys::Hostname::hostname, Cwd::cwd, File::Temp::new…
// A builtin is named as written (time, keys); a module's function by its
// package (POSIX::strftime), found for a call of strftime after use
// POSIX; a method by its class (File::Temp::filename for an object a
// function the library says "returns" File::Temp gave); a variable with
// its sigil ($$, %ENV, $FindBin::Bin); a file test as written (-M). The
// facts their conditions see are:
//
//   - args:N, the number of arguments;
//   - argN:known, for an argument (from 0) whose value does not vary;
//   - argN:str, for an argument whose text is known when the program is
//     read;
//   - argN:hash, for an argument that is a hash or a reference to one;
//   - sorted, for a call whose result is given straight to a function
//     that orders it (sort keys %h);
//   - env:NAME=VALUE, for the environment the program is given and what
//     it sets in %ENV;
//   - var:$NAME=VALUE, for a package variable the program set to a
//     constant ($Data::Dumper::Sortkeys = 1);
//   - and the facts earlier calls set (srand(42) sets seeded:random).
//
// A value counts only where it can reach an output: standard output
// (Outcome.Stdout), a file opened for writing that is one of the
// program's outputs or whose name cannot be known, or a command it writes
// into, whose output is the program's. STDERR, a file that is not an
// output, and a value only compared or tested do not count. Commands
// (system, exec, qx//, backticks, open with -| or |-) are handed to the
// shell's reader through the runner. Both ways of a branch are followed,
// and loops twice, so that what a branch or a loop may assign adds to what
// a variable held.
package perl

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
const Language = "perl"

// Bounds on the work of following one program and the modules it reads.
const (
	maxSteps = 300_000
	// maxString bounds the text of a value followed, maxItems the items
	// of an array or hash followed one by one.
	maxString  = 1 << 16
	maxItems   = 1000
	maxCalls   = 32
	maxModules = 32
)

// Reader reads Perl programs. It is a code.Reader.
type Reader struct{}

// Uses lists nothing: a Perl program is run, not compiled into another
// program's output.
func (Reader) Uses(string, *spec.Library) []string { return nil }

// Read follows a Perl program and says what reaches its outputs.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	if out, long := p.TooLong("Perl", maxText); long {
		return out
	}
	where := p.Where()
	prog, err := parse(p.Text)
	if err != nil {
		return code.Outcome{Unread: []string{where + ": perl: " + err.Error()}}
	}
	in := newInterp(p, env)
	in.src = source{text: p.Text, file: p.File, base: 0}
	if p.File == "" {
		in.src.file = p.Site.File
		in.src.base = max(p.Site.Line-1, 0)
	}
	// perl -MPOSIX=strftime is use POSIX qw(strftime); before the
	// program, and -M-strict is no strict, which loads nothing.
	for _, m := range p.Imports {
		name, _, _ := strings.Cut(m.Text, "=")
		if m.Known && name != "" && name[0] != '-' {
			in.use(useStmt{module: name, line: 1})
		}
	}
	in.runFile(prog)
	if in.steps > maxSteps {
		in.note(fmt.Sprintf("%s: Perl program too long to follow: stopped after %d steps", where, maxSteps))
	}
	return code.Outcome{Stdout: in.stdout, Files: in.files, Unread: in.unread}
}

// source is the text being run: the program, or a module it reads.
type source struct {
	text string
	file string
	base int // the line of the file before the text's first
}

type frame struct {
	args *cell
	ret  val
}

type interp struct {
	p      code.Program
	env    code.Env
	src    source
	scopes []map[string]*cell
	subs   map[string]*subDef
	consts map[string]val
	pkg    string
	// modules are those used, in order: an unqualified call may be a
	// function one of them exports.
	modules []string
	known   map[string]bool // modules the library has functions of
	loaded  map[string]bool
	incDirs []string
	handles map[string]*handle
	// selected is the filehandle print uses without one (select).
	selected string
	frames   []*frame
	active   map[*subDef]bool
	facts    []string
	envSet   []string
	topic    val // $_ where no variable holds it
	matched  val // what the last match matched: $1, $&
	weak     int
	steps    int
	extra    []string // facts for the call being made: sorted
	// recursive are the subs seen calling themselves: a recursive call
	// stands for the rest of the recursion, so their conditions are not
	// decided (the branch not taken at one depth is taken at another).
	recursive map[*subDef]bool
	undecided int

	stdout, files []effect.Reach
	unread        []string
}

func newInterp(p code.Program, env code.Env) *interp {
	in := &interp{
		p: p, env: env, pkg: "main",
		scopes:  []map[string]*cell{{}},
		subs:    map[string]*subDef{},
		consts:  map[string]val{},
		known:   map[string]bool{},
		loaded:  map[string]bool{},
		active:  map[*subDef]bool{},
		handles: map[string]*handle{"STDOUT": {kind: toStdout}, "STDERR": {kind: toNothing}, "STDIN": {kind: fromInput}},
	}
	for _, f := range env.Library.Functions(Language) {
		if i := strings.LastIndex(f.Name, "::"); i > 0 {
			in.known[strings.TrimLeft(f.Name[:i], "$@%&")] = true
		}
	}
	argv := &cell{assigned: true}
	for _, a := range p.Args {
		v := val{s: a.Text, exact: a.Known}
		argv.elems = append(argv.elems, v)
	}
	in.scopes[0]["@ARGV"] = argv
	in.scopes[0]["$0"] = &cell{v: fixed(p.File), assigned: true}
	return in
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

// site is where a line of the text being run is written.
func (in *interp) site(line int) effect.Site {
	if in.src.file == "" && in.src.base == 0 && in.p.Site.Line == 0 {
		return effect.Site{}
	}
	return effect.Site{File: in.src.file, Line: in.src.base + line}
}

func (in *interp) where(line int) string { return in.site(line).String() }

// text is the source between two offsets, on one line; name when the
// offsets are not known (code inside a string).
func (in *interp) text(pos, end int, name string) string {
	if pos < 0 || end > len(in.src.text) || pos >= end {
		return name
	}
	return strings.Join(strings.Fields(in.src.text[pos:end]), " ")
}

// runFile runs a file's statements: its subs are known before it runs, as
// perl compiles them first.
func (in *interp) runFile(prog []stmt) {
	in.hoist(prog, in.pkg)
	in.stmts(prog)
}

func (in *interp) hoist(prog []stmt, pkg string) {
	for _, s := range prog {
		switch s := s.(type) {
		case subStmt:
			src := in.src
			s.def.src = &src
			in.subs[qualify(pkg, s.def.name)] = s.def
		case packageStmt:
			if s.block {
				in.hoist(s.body, s.name)
			} else {
				pkg = s.name
			}
		}
	}
}

func qualify(pkg, name string) string {
	if strings.Contains(name, "::") {
		return name
	}
	return pkg + "::" + name
}

// lookup finds a variable: the innermost my, else a global, which is made.
func (in *interp) lookup(name string) *cell {
	for i := len(in.scopes) - 1; i >= 0; i-- {
		if c, ok := in.scopes[i][name]; ok {
			return c
		}
	}
	c := &cell{}
	in.scopes[0][name] = c
	return c
}

// isSet says whether the program has a variable of that name.
func (in *interp) isSet(name string) bool {
	for i := len(in.scopes) - 1; i >= 0; i-- {
		if c, ok := in.scopes[i][name]; ok && c.assigned {
			return true
		}
	}
	return false
}

func (in *interp) declare(name string) *cell {
	c := &cell{assigned: true, weakAt: in.weak}
	if name[0] == '$' {
		c.v = undefined // my $x;
	}
	in.scopes[len(in.scopes)-1][name] = c
	return c
}

func (in *interp) push() { in.scopes = append(in.scopes, map[string]*cell{}) }
func (in *interp) pop()  { in.scopes = in.scopes[:len(in.scopes)-1] }

// stmts runs statements and gives the value of the last.
func (in *interp) stmts(body []stmt) val {
	var last val
	for _, s := range body {
		if !in.step() {
			return val{}
		}
		last = in.stmt(s)
	}
	return last
}

func (in *interp) block(body []stmt) val {
	in.push()
	defer in.pop()
	return in.stmts(body)
}

func (in *interp) stmt(s stmt) val {
	switch s := s.(type) {
	case exprStmt:
		return in.eval(s.x)
	case ifStmt:
		return in.ifStmt(s)
	case loopStmt:
		in.loop(s)
	case blockStmt:
		return in.block(s.body)
	case packageStmt:
		if s.block {
			old := in.pkg
			in.pkg = s.name
			in.block(s.body)
			in.pkg = old
		} else {
			in.pkg = s.name
		}
	case useStmt:
		in.use(s)
	case returnStmt:
		var v val
		if s.x != nil {
			v = in.eval(s.x)
		}
		if n := len(in.frames); n > 0 {
			in.frames[n-1].ret = merge(in.frames[n-1].ret, v)
		}
		return v
	}
	return val{}
}

// ifStmt runs the branch the conditions pick when what they test is known
// (the program's arguments, its environment, constants); past the first
// condition that is not, any of the rest may run.
func (in *interp) ifStmt(s ifStmt) val {
	for i, c := range s.conds {
		in.eval(c)
		holds, known := in.truth(c)
		if !known {
			in.weak++
			v := in.block(s.bodies[i])
			for j, c := range s.conds[i+1:] {
				in.eval(c)
				v = merge(v, in.block(s.bodies[i+1+j]))
			}
			v = merge(v, in.block(s.els))
			in.weak--
			return v
		}
		if holds {
			return in.block(s.bodies[i])
		}
	}
	return in.block(s.els)
}

func (in *interp) loop(s loopStmt) {
	in.push()
	defer in.pop()
	if s.init != nil {
		in.eval(s.init)
	}
	var list val
	if s.foreach && s.list != nil {
		list = in.listAll(s.list)
	}
	in.weak++
	defer func() { in.weak-- }()
	for range 2 {
		if s.cond != nil {
			if r, ok := s.cond.(readlineNode); ok {
				// while (<FH>) reads into $_.
				in.setTopic(in.eval(r))
			} else {
				in.eval(s.cond)
			}
		}
		if s.foreach {
			if s.loopVar != nil {
				in.store(s.loopVar, list)
			} else {
				in.setTopic(list)
			}
		}
		in.block(s.body)
		if s.step != nil {
			in.eval(s.step)
		}
	}
}

func (in *interp) setTopic(v val) {
	if in.isSet("$_") {
		in.assignCell(in.lookup("$_"), v)
		return
	}
	in.topic = merge(in.topic, v)
	if in.weak == 0 {
		in.topic = v
	}
}

// assignCell stores a scalar into a variable, adding to what it held where
// the assignment may not happen.
func (in *interp) assignCell(c *cell, v val) {
	c.assigned = true
	if in.weakFor(c) {
		c.v = merge(c.v, v)
	} else {
		c.v = v
	}
}

// weakFor says an assignment to c here may not happen: a branch or loop
// is around it that was not around c's declaration.
func (in *interp) weakFor(c *cell) bool { return in.weak > c.weakAt }

// write sends values to a filehandle.
func (in *interp) write(h *handle, rs []effect.Reach) {
	if h == nil {
		// A handle this reader did not see opened may be any file.
		in.files = effect.AppendReaches(in.files, rs...)
		return
	}
	switch h.kind {
	case toStdout, toPipe:
		in.stdout = effect.AppendReaches(in.stdout, rs...)
	case toFile:
		in.files = effect.AppendReaches(in.files, rs...)
	case toScalar:
		in.assignCell(h.target, merge(h.target.v, val{r: rs}))
	}
}

// shell hands a command line to the shell's reader and gives what it
// prints; what it writes into outputs counts, and its output goes where
// the program's standard output goes when toStdout.
func (in *interp) shell(cmd string, line int, toStdout bool) val {
	if in.env.Runner == nil {
		in.note(in.where(line) + ": perl runs a command, which is not read here")
		return val{}
	}
	o := in.env.Runner.Run(code.Program{
		Language: code.Shell, Text: cmd, Site: in.site(line),
		Env: in.environment(), Outputs: in.p.Outputs, Depth: in.p.Depth + 1,
	})
	in.files = effect.AppendReaches(in.files, o.Files...)
	for _, u := range o.Unread {
		in.note(u)
	}
	if toStdout {
		in.write(in.handles["STDOUT"], o.Stdout)
		return val{}
	}
	return val{r: o.Stdout}
}

// environment is what a command the program runs gets: its own and what
// it set in %ENV.
func (in *interp) environment() []string {
	return append(slices.Clip(in.p.Env), in.envSet...)
}

// command is the shell command line of a command given as one string or as
// a list.
func command(args []val) (string, bool) {
	if len(args) == 1 {
		return args[0].s, args[0].exact
	}
	cl := make([]code.Arg, len(args))
	for i, a := range args {
		cl[i] = code.Arg{Text: a.s, Known: a.exact}
	}
	return code.CommandLine(cl), true
}

// use loads a module or a file: the library knows the module's functions,
// or it is read from the workspace, or the reader says it could not be.
func (in *interp) use(s useStmt) {
	if s.module == "" {
		f := in.eval(s.file)
		if !f.exact {
			in.note(in.where(s.line) + ": perl requires a file named while it runs")
			return
		}
		in.requireFile(f.s, s.line)
		return
	}
	m := s.module
	if m[0] >= 'a' && m[0] <= 'z' {
		in.pragma(m, s.args)
		return
	}
	if !slices.Contains(in.modules, m) {
		in.modules = append(in.modules, m)
	}
	if in.known[m] || in.loaded[m] {
		return
	}
	rel := strings.ReplaceAll(m, "::", "/") + ".pm"
	if err := in.load(rel, m); err != "" {
		in.note(fmt.Sprintf("%s: use %s: a module Ahab knows nothing of, and %s", in.where(s.line), m, err))
	}
}

// pragma is use of a lowercase module: lib adds where modules are found,
// constant defines constants; the others change nothing that varies.
func (in *interp) pragma(m string, args node) {
	if args == nil {
		return
	}
	switch m {
	case "lib":
		for _, v := range in.evalList(args) {
			if v.exact {
				in.incDirs = append(in.incDirs, v.s)
			}
		}
	case "constant":
		vs := in.evalList(args)
		if h, ok := args.(anonHash); ok {
			vs = in.evalList(listNode(h))
		}
		for i := 0; i+1 < len(vs); i += 2 {
			if vs[i].exact {
				in.consts[vs[i].s] = vs[i+1]
			}
		}
	}
}

// requireFile runs a file of Perl: require "x.pl", do "x.pl".
func (in *interp) requireFile(name string, line int) {
	if in.loaded[name] {
		return
	}
	if err := in.load(name, name); err != "" {
		in.note(fmt.Sprintf("%s: require %s: %s", in.where(line), name, err))
	}
}

// load reads a module or file from the workspace, beside the program, in
// its lib directory and in those use lib names, and runs it; it says why
// it could not.
func (in *interp) load(rel, key string) string {
	if in.env.Files == nil {
		return "the workspace is not known"
	}
	if len(in.loaded) >= maxModules {
		return fmt.Sprintf("more than %d modules were read", maxModules)
	}
	in.loaded[key] = true
	dirs := slices.Clone(in.incDirs)
	if in.p.File != "" {
		dir := path.Dir(in.p.File)
		dirs = append(dirs, dir, path.Join(dir, "lib"))
	}
	dirs = append(dirs, ".", "lib")
	var firstErr error
	for _, d := range dirs {
		src, err := in.env.Files.Read(path.Join(d, rel))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		prog, perr := parse(src.Text)
		if perr != nil {
			return src.Path + " does not parse: " + perr.Error()
		}
		old, oldPkg := in.src, in.pkg
		in.src, in.pkg = source{text: src.Text, file: src.Path}, "main"
		in.runFile(prog)
		in.src, in.pkg = old, oldPkg
		return ""
	}
	return "it could not be read: " + firstErr.Error()
}

// callFacts are the facts a call's conditions see.
func (in *interp) callFacts(args []val) []string {
	facts := []string{"args:" + strconv.Itoa(len(args))}
	for i, a := range args {
		n := strconv.Itoa(i)
		if len(a.r) == 0 {
			facts = append(facts, "arg"+n+":known")
		}
		if a.exact {
			facts = append(facts, "arg"+n+":str")
		}
		if a.ref != nil && a.ref.isHash {
			facts = append(facts, "arg"+n+":hash")
			// {mtime => 0}: a key given, with its value when known.
			for _, k := range sortedKeys(a.ref.hash) {
				v := a.ref.hash[k]
				if !v.exact {
					facts = append(facts, k+"=?")
					continue
				}
				facts = append(facts, k+"="+v.s)
			}
		}
	}
	for _, kv := range in.environment() {
		facts = append(facts, "env:"+kv)
	}
	facts = append(facts, in.extra...)
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

// establish adds the facts a call sets.
func (in *interp) establish(f spec.Function, facts []string) {
	for _, s := range f.Sets {
		if s.When.Holds(facts) && !slices.Contains(in.facts, s.Name) {
			in.facts = append(in.facts, s.Name)
		}
	}
}

// function finds what the library says of a function called by name: a
// builtin, or a function of a module the program uses.
func (in *interp) function(name string) (spec.Function, bool) {
	lib := in.env.Library
	if f, ok := lib.Function(Language, name); ok {
		return f, true
	}
	if strings.Contains(name, "::") {
		return spec.Function{}, false
	}
	for _, m := range in.modules {
		if f, ok := lib.Function(Language, m+"::"+name); ok {
			return f, true
		}
	}
	return spec.Function{}, false
}

// sub finds a sub the program or a module it read defines.
func (in *interp) sub(name string) (*subDef, bool) {
	if d, ok := in.subs[qualify(in.pkg, name)]; ok {
		return d, true
	}
	if d, ok := in.subs[qualify("main", name)]; ok {
		return d, true
	}
	if strings.Contains(name, "::") {
		return nil, false
	}
	for _, m := range in.modules {
		if d, ok := in.subs[m+"::"+name]; ok {
			return d, true
		}
	}
	return nil, false
}

// callSub runs a sub's body with arguments.
func (in *interp) callSub(def *subDef, args []val) val {
	if in.active[def] {
		if in.recursive == nil {
			in.recursive = map[*subDef]bool{}
		}
		in.recursive[def] = true
	}
	if in.active[def] || len(in.frames) >= maxCalls {
		return derived(args...)
	}
	if in.recursive[def] {
		in.undecided++
		defer func() { in.undecided-- }()
	}
	v := in.runSub(def, args)
	if in.recursive[def] && in.undecided == 0 {
		// It called itself while its conditions were decided: run it
		// again, deciding none.
		in.undecided++
		v = merge(v, in.runSub(def, args))
		in.undecided--
	}
	return v
}

func (in *interp) runSub(def *subDef, args []val) val {
	in.active[def] = true
	defer delete(in.active, def)
	fr := &frame{args: &cell{elems: args, assigned: true}}
	in.frames = append(in.frames, fr)
	weak := in.weak
	in.weak = 0
	in.push()
	if def.src != nil {
		old := in.src
		in.src = *def.src
		defer func() { in.src = old }()
	}
	in.scopes[len(in.scopes)-1]["@_"] = fr.args
	for i, name := range def.params {
		c := in.declare(name)
		switch {
		case name[0] != '$':
			c.elems = slices.Clone(args[min(i, len(args)):])
		case i < len(args):
			c.v = args[i]
		}
	}
	last := in.stmts(def.body)
	in.pop()
	in.weak = weak
	in.frames = in.frames[:len(in.frames)-1]
	return merge(fr.ret, last)
}
