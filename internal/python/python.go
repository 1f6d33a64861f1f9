// Package python reads the Python programs build actions run (a tool's
// main script, `python3 -c CODE`, a here-document given to python3, a
// module of the workspace) and says which values that vary between
// builds reach what the program produces: its standard output, and the
// files it writes that are outputs of the action.
//
// It tokenizes and parses Python 3 (up to 3.13's syntax: f-strings of
// any nesting, match, type parameters) into a small syntax tree, then
// interprets the tree over abstract values: strings with known and
// unknown parts, containers, objects, functions and classes of the
// program, modules of the workspace it imports (read through code.Files
// and followed the same way), and names of the standard library. What a
// function of the library gives (time.time the clock, os.listdir an
// order) is data: the "functions" table of the spec library, language
// "python", under the qualified name a user would write once imports are
// resolved (time.time, datetime.datetime.now, tarfile.TarFile.add for a
// method of an object whose class a "returns" gave). What Python itself
// does is here: printing, files, containers, strings, calls, scopes,
// imports, a known command line read through argparse, and handing
// subprocesses to the code.Runner.
//
// The interpretation is sound rather than precise where the two differ:
// both branches of a condition are followed and joined, loops run until
// what they carry settles (twice, or once per item of a known list), a
// file whose name cannot be known may be an output (unless it lies under
// a temporary directory), and what cannot be followed (exec of a computed
// string, an import that cannot be read, a subprocess with a computed
// command) is listed in Outcome.Unread.
//
// The conditions of the table's effects and facts see these facts of a
// call:
//
//   - argN:fixed, argN:str, argN:known and argN=VALUE, in that order, for
//     positional argument N (from 0): nothing that varies went into it
//     (random.seed of a constant or of an argument); it is, or may be, a
//     string; its value is known; and that value (a literal, or computed
//     from literals; a library name such as
//     py_compile.PycInvalidationMode.CHECKED_HASH). The order lets a
//     guard's last word be the value (random.seed(None) is no seed);
//   - args:N: the number of positional arguments, and args:? when a *args
//     of unknown length was given;
//   - argN:source (after argN:str), NAME:source for a keyword argument
//     and self:source for the pathlib.Path a method is called on: it
//     names, or may name, a file of the checkout, whose mode the
//     checkout gave it (a source input of the action, a directory above
//     one, or a path that cannot be known), not one the program made or
//     whose mode it set, one Bazel generated, or a file of the machine;
//     a copy keeps it when it keeps the mode (shutil.copy2);
//   - NAME:fixed, and NAME=VALUE or NAME=?, for a keyword argument;
//   - env:NAME=VALUE: the program's environment, as it got it (Program.Env)
//     and as it changed it (os.environ[NAME] = …);
//   - sorted: the call's result goes straight into a function whose entry
//     removes an order (sorted(os.listdir(d)));
//   - the facts earlier calls set (random.seed(0) sets seeded:random), and
//     for a method, those its object's construction and methods set; a
//     call that returns an object of a class gives it the facts it sets
//     (os.stat's result describes a source: operand:source).
//
// Effects land where the value they describe goes: into the result; into
// the file a call opens for writing (its "opens") or writes (its
// "writes", whose path may get an extension: shutil.make_archive); into
// the file of the object whose method it is, when that object writes one
// and the entry returns nothing (TarFile.add records a file's mtime in the
// archive); and, for a call whose result is dropped, into the container
// it changes (random.shuffle(names)). Attribute entries work the same way
// (os.stat_result.st_mtime), and setting an attribute whose entry removes
// a value takes it out of the object (TarInfo.mtime = 0), and reading it
// gives what the object holds of it (TarInfo.mode); what a branch whose
// condition is not known takes out of an object, so, or by sorting it in
// place, holds after it only where every branch that goes on does the
// same (journal.go). A filter= of TarFile.add is called with
// the TarInfo its effects are in, and what it returns goes into the
// archive. A module attribute's effects apply when it is used as a
// value (time.timezone printed). The order of a set of strings is the table's entries set and
// frozenset, realised when the set is iterated, printed or listed.
//
// docs/specs.md ("Functions of Python") says the same for users.
package python

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// Language is the language of the functions table this reader looks names
// up in.
const Language = code.Python

// Reader reads Python programs. It is a code.Reader.
type Reader struct{}

// Bounds on the work one program may cause.
const (
	maxWork      = 200000 // statements and expressions evaluated
	maxCallDepth = 24     // calls of the program's functions inside one another
	maxModules   = 64     // modules of the workspace read
	maxUnroll    = 64     // items of a known list a loop is followed for one by one
)

// Read follows a program and says what reaches its standard output and
// its output files.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	text := p.Text
	if text == "" && p.Stdin != "" {
		text = p.Stdin
	}
	pkg, stdlibEntry := "", false
	if text == "" && p.Module != "" && isStdlib(p.Module) && env.Library != nil {
		// A module of the standard library run as a program is what the
		// table says of its __main__, given the program's arguments.
		if _, ok := env.Library.Function(Language, p.Module+".__main__"); ok {
			text, stdlibEntry = stdlibMain(p.Module, len(p.Args)), true
		}
	}
	if text == "" && p.Module != "" {
		src, why := findMain(p.Module, env.Files)
		if why != "" {
			return code.Outcome{Unread: []string{p.Site.String() + ": python: -m " + p.Module + ": " + why}}
		}
		p.File, p.Site, text = src.Path, effect.Site{File: src.Path, Line: 1}, src.Text
		pkg = p.Module
		if !strings.HasSuffix(src.Path, "/__main__.py") {
			pkg, _, _ = cutLast(p.Module)
		}
	}
	r := newRun(p, env)
	body, err := parse(text)
	if err != nil {
		return code.Outcome{Unread: []string{r.where() + ": python: " + err.Error()}}
	}
	main := &module{name: "__main__", file: p.File, src: text, main: true, site: r.mainSite, pkg: pkg}
	main.globals = &scope{vars: map[string]value{}}
	if pkg != "" {
		// python3 -m a.b imports the package a first.
		r.findModule(&frame{mod: main, local: main.globals, globals: main.globals}, pkg, pkg)
	}
	r.runMain(main, body)
	out := r.outcome()
	if stdlibEntry {
		// What the standard module's entry gives is the module run.
		for _, list := range [][]effect.Reach{out.Stdout, out.Files} {
			for i := range list {
				list[i].Text = "-m " + p.Module
			}
		}
	}
	return out
}

// stdlibMain is a program of one line that calls a standard module's
// __main__ entry with each of the n arguments the program was given.
func stdlibMain(module string, n int) string {
	var b strings.Builder
	b.WriteString("import sys, " + module + "; " + module + ".__main__(")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("sys.argv[" + strconv.Itoa(i+1) + "]")
	}
	b.WriteString(")")
	return b.String()
}

// findMain finds the file of a module run by name, as python3 -m does
// with the working directory first on its path: NAME.py, or a package's
// __main__.py, at the execution root or, for a module of a py_binary's
// runfiles or another repository, at the end of an input's path. why
// says why it was not read.
func findMain(name string, files code.Files) (code.Source, string) {
	if isStdlib(name) {
		return code.Source{}, "a module of the standard library run as a program, which is not read"
	}
	if files == nil {
		return code.Source{}, "the workspace is not known, so the module was not read"
	}
	rel := strings.ReplaceAll(name, ".", "/")
	cands := []string{rel + ".py", rel + "/__main__.py"}
	for _, in := range files.Inputs() {
		if strings.HasSuffix(in, "/"+rel+".py") || strings.HasSuffix(in, "/"+rel+"/__main__.py") {
			cands = append(cands, in)
		}
	}
	for _, c := range cands {
		if src, err := files.Read(c); err == nil {
			if src.Path == "" {
				src.Path = c
			}
			return src, ""
		}
	}
	return code.Source{}, "not in the standard library and not found at the execution root or among the action's inputs, so it was not read"
}

// Uses lists, as facts source:NAME, the functions of the library's table a
// source calls or reads, by the names its imports give them.
func (Reader) Uses(text string, lib *spec.Library) []string {
	body, err := parse(text)
	if err != nil || lib == nil {
		return nil
	}
	aliases := map[string]string{}
	walkStmts(body, func(n node) bool {
		switch n := n.(type) {
		case *importStmt:
			for _, a := range n.names {
				if a.asName != "" {
					aliases[a.asName] = a.name
				} else {
					top, _, _ := strings.Cut(a.name, ".")
					aliases[top] = top
				}
			}
		case *importFromStmt:
			for _, a := range n.names {
				if a.name != "*" && n.level == 0 {
					aliases[orElse(a.asName, a.name)] = n.module + "." + a.name
				}
			}
		}
		return true
	})
	var uses []string
	walkStmts(body, func(n node) bool {
		x, ok := n.(expr)
		if !ok {
			return true
		}
		name, ok := qualified(x, aliases)
		if !ok {
			return true
		}
		if _, ok := lib.Function(Language, name); ok {
			uses = append(uses, "source:"+name)
		}
		return true
	})
	slices.Sort(uses)
	return slices.Compact(uses)
}

// orElse is a, or b when a is empty.
func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// qualified is the dotted name an expression names through the imports:
// dt.datetime.now after `import datetime as dt` is datetime.datetime.now.
func qualified(x expr, aliases map[string]string) (string, bool) {
	var parts []string
	for {
		switch n := x.(type) {
		case *attrExpr:
			parts = append(parts, n.name)
			x = n.x
			continue
		case *nameExpr:
			base, ok := aliases[n.id]
			if !ok {
				if len(parts) > 0 {
					return "", false
				}
				base = n.id
			}
			slices.Reverse(parts)
			return strings.Join(append([]string{base}, parts...), "."), true
		}
		return "", false
	}
}

// run is the state of one Read.
type run struct {
	p   code.Program
	env code.Env
	lib *spec.Library

	reaches []reach
	byKey   map[reachKey]int32

	stdout taints // what reaches the program's standard output
	files  map[string]*file
	// extra are what the programs it ran wrote into their outputs.
	extra  taints
	unread []string

	modules map[string]*module // by file
	nmods   int
	environ map[string]envValue
	facts   []string
	// stdoutV is what sys.stdout is: the program's standard output
	// unless the program rebinds it; argvV is sys.argv.
	stdoutV, argvV value
	work           int
	stack          []*function
	syms           int32
	temp           map[int32]bool
	// memo gives unknown values a symbol per (symbol, attribute), so
	// that args.out is the same unknown path wherever it is used.
	memo map[symAttr]int32
	// settled are orders the program fixed after the values they went
	// into were made: a walk's, by sorting its dirnames in place.
	settled map[int32]bool
	// summaries are what functions give whatever their arguments, for
	// recursive calls (see summary).
	summaries   map[*function]value
	summarizing map[*function]bool
	// srcs are the action's source inputs (see sourceInputs).
	srcs map[string]uint8
	// journal are the values taken out of objects inside branches,
	// which branches joins (journal.go).
	journal  []removal
	branched int
}

type reachKey struct {
	value effect.Value
	text  string
	site  effect.Site
	path  bool
	// part tells apart reaches of one call that the program can fix
	// apart (a walk's traversal and its listings).
	part string
}

type symAttr struct {
	sym  int32
	attr string
}

// envValue is a variable of the program's environment: known, unset, or
// set to a value the reader cannot know.
type envValue struct {
	text  string
	known bool
	unset bool
}

// cwdSym is the symbol of the working directory, the execution root: a
// path under it is the same file as the path relative to it.
const cwdSym int32 = 1

func newRun(p code.Program, env code.Env) *run {
	lib := env.Library
	if lib == nil {
		lib = spec.Builtin()
	}
	r := &run{p: p, env: env, lib: lib, byKey: map[reachKey]int32{}, files: map[string]*file{},
		modules: map[string]*module{}, environ: map[string]envValue{}, syms: cwdSym, temp: map[int32]bool{},
		memo: map[symAttr]int32{}, summaries: map[*function]value{}, summarizing: map[*function]bool{}, settled: map[int32]bool{}}
	for _, kv := range p.Env {
		if name, v, ok := strings.Cut(kv, "="); ok {
			r.environ[name] = envValue{text: v, known: true}
		}
	}
	r.stdoutV = r.special(stdoutFile)
	return r
}

// where names the program for notes.
func (r *run) where() string { return r.p.Where() }

// mainSite is where line n of the program is: in its file, or where the
// inline code is written.
func (r *run) mainSite(n int) effect.Site {
	switch {
	case r.p.File != "":
		return effect.Site{File: r.p.File, Line: n}
	case r.p.Site.Line > 0:
		return effect.Site{File: r.p.Site.File, Line: r.p.Site.Line + n - 1}
	}
	return r.p.Site
}

func (r *run) note(why string) {
	if !slices.Contains(r.unread, why) && len(r.unread) < 32 {
		r.unread = append(r.unread, why)
	}
}

// newSym is a fresh symbol for a value the reader cannot know.
func (r *run) newSym() int32 {
	r.syms++
	return r.syms
}

// fresh is a new unknown str, with the taints given.
func (r *run) fresh(t taints) value {
	return strOf([]part{{sym: r.newSym()}}, t)
}

// reach records a value that varies and returns its id.
func (r *run) reach(v effect.Value, text, because string, site effect.Site, path bool) int32 {
	k := reachKey{value: v, text: text, site: site, path: path}
	if id, ok := r.byKey[k]; ok {
		return id
	}
	id := int32(len(r.reaches))
	r.reaches = append(r.reaches, reach{Reach: effect.Reach{Value: v, Text: text, Because: because, Site: site}, path: path})
	r.byKey[k] = id
	return id
}

// reachPart is a reach like id's, for another part of what the same call
// gives.
func (r *run) reachPart(id int32, part string) int32 {
	x := r.reaches[id]
	k := reachKey{value: x.Value, text: x.Text, site: x.Site, path: x.path, part: part}
	if id, ok := r.byKey[k]; ok {
		return id
	}
	nid := int32(len(r.reaches))
	r.reaches = append(r.reaches, x)
	r.byKey[k] = nid
	return nid
}

// data is t without the paths: what flows when a value is given to a
// program or an archive as the name of a file.
func (r *run) data(t taints) taints {
	var out taints
	for _, id := range t {
		if !r.reaches[id].path {
			out = append(out, id)
		}
	}
	return out
}

// without is t without the values vs.
func (r *run) without(t taints, vs []effect.Value) taints {
	if len(vs) == 0 || len(t) == 0 {
		return t
	}
	var out taints
	for _, id := range t {
		if !slices.Contains(vs, r.reaches[id].Value) {
			out = append(out, id)
		}
	}
	return out
}

// only is t with only the values vs.
func (r *run) only(t taints, vs []effect.Value) taints {
	var out taints
	for _, id := range t {
		if slices.Contains(vs, r.reaches[id].Value) {
			out = append(out, id)
		}
	}
	return out
}

// outcome is what the run found, each reach once, in the order found.
func (r *run) outcome() code.Outcome {
	var out code.Outcome
	for _, id := range r.stdout {
		if !r.settled[id] {
			out.Stdout = effect.AppendReaches(out.Stdout, r.reaches[id].Reach)
		}
	}
	var files taints
	for _, k := range sortedFileKeys(r.files) {
		if f := r.files[k]; f.output {
			files = files.union(f.content)
		}
	}
	for _, id := range files.union(r.extra) {
		if !r.settled[id] {
			out.Files = effect.AppendReaches(out.Files, r.reaches[id].Reach)
		}
	}
	out.Unread = r.unread
	return out
}

// text is the source of a node as written, on one line and cut short.
func (m *module) text(n node) string {
	s := n.at()
	if s.pos < 0 || s.end > len(m.src) || s.pos > s.end {
		return ""
	}
	t := strings.Join(strings.Fields(m.src[s.pos:s.end]), " ")
	const max = 80
	if len(t) > max {
		cut := max
		for cut > 0 && !isRuneStart(t[cut]) {
			cut--
		}
		t = t[:cut] + "…"
	}
	return t
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// lineText is for notes: the program's place, "gen.py:3".
func (m *module) lineText(n node) string {
	s := m.site(n.at().line)
	if s.File == "" {
		return "line " + strconv.Itoa(s.Line)
	}
	return s.String()
}
