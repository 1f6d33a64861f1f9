package shell

import (
	"errors"

	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bounds on the work one script may cause, so that hostile input (deep
// nesting, recursive functions, eval bombs) ends quickly with a partial
// model marked Truncated.
const (
	maxNesting  = 16      // nested scripts (eval, bash -c) and function calls
	maxDepth    = 200     // syntax nesting walked
	maxWork     = 20000   // statements and commands visited
	maxCommands = 5000    // commands listed
	maxWordLen  = 1 << 16 // resolved text kept per word
)

// genruleSetup is the script every genrule command starts by sourcing.
const genruleSetup = "bazel_tools/tools/genrule/genrule-setup.sh"

// Analyze parses the script of inv and follows it. A script that does not
// parse is a *ParseError.
func Analyze(inv Invocation) (*Script, error) {
	lang := syntax.LangBash
	if inv.Dialect == POSIX {
		lang = syntax.LangPOSIX
	}
	file, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(inv.Script), "")
	if err != nil {
		return nil, parseError(inv.Script, err)
	}
	a := &analyzer{
		top:     inv.Script,
		dialect: inv.Dialect,
		script:  &Script{Invocation: inv},
		g:       newGraph(),
		funcs:   map[string]*syntax.Stmt{},
		lines:   lineStarts(inv.Script),
	}
	st := newState()
	for _, arg := range inv.Args {
		st.positional = append(st.positional, value{parts: []Part{{Text: arg, Known: true}}})
	}
	if len(st.positional) == 0 {
		st.positional = []value{{parts: []Part{{Text: inv.Shell, Known: true}}}}
	}
	fr := frame{text: inv.Script, exact: true, out: dest{node: uncapturedID}, err: dest{node: uncapturedID}}
	a.stmts(fr, st, file.Stmts, true)
	a.finish()
	return a.script, nil
}

func parseError(script string, err error) error {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return &ParseError{Pos: posOf(script, pe.Pos), Message: pe.Text}
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return &ParseError{Pos: posOf(script, le.Pos), Message: strings.TrimPrefix(le.Error(), le.Pos.String()+": ")}
	}
	return &ParseError{Pos: Pos{Line: 1, Column: 1}, Message: err.Error()}
}

func posOf(script string, p syntax.Pos) Pos {
	return Pos{Offset: int(p.Offset()), Line: int(p.Line()), Column: int(p.Col())}
}

type analyzer struct {
	top     string
	lines   []int
	dialect Dialect
	script  *Script
	g       graph
	funcs   map[string]*syntax.Stmt
	work    int
	depth   int

	cmdNodes []int // the graph node of each command
	sources  []source
	// writers maps a substitution's node to the programs writing into it.
	writers map[int][]string
	// timesFixed says a command before has set files' times to a given
	// date (touch -d, touch -t): archivers after it record no clock.
	timesFixed bool
}

// source is one occurrence of a source of variation.
type source struct {
	kind Kind
	text string
	pos  Pos
	node int
}

// frame is what a statement inherits from where it sits.
type frame struct {
	text    string // the text the syntax positions refer to
	base    int    // its offset in the top-level script, when exact
	exact   bool
	anchor  int // the offset to report when not exact
	out     dest
	err     dest
	stdin   []taint
	piped   bool // stdin is a pipe from another command
	ctx     []Context
	nesting int
}

// dest is where a file descriptor goes: a node of the graph, or nowhere.
type dest struct {
	node int // sinkID, uncapturedID or a pipe; -1 for /dev/null
}

var null = dest{node: -1}

// state is what the script has said so far. A subshell, a branch or a
// substitution works on a clone, which sees its parent's variables and
// keeps its own writes, so a clone copies none of the variables the
// script has.
type state struct {
	vars       map[string]variable // written in this scope
	parent     *state
	positional []value // $0, $1...
	cwd        *value  // nil: the execution root
	oldcwd     *value
	exported   []string // exported names in the order exported
}

type variable struct {
	val      value
	exported bool
	unset    bool // unset by the script: expands to nothing
}

func newState() *state { return &state{vars: map[string]variable{}} }

func (s *state) clone() *state {
	c := *s
	c.vars = map[string]variable{}
	c.parent = s
	c.positional = slices.Clip(s.positional)
	c.exported = slices.Clip(s.exported)
	return &c
}

// get finds a variable in this scope or the ones it was cloned from.
func (s *state) get(name string) (variable, bool) {
	for x := s; x != nil; x = x.parent {
		if v, ok := x.vars[name]; ok {
			return v, true
		}
	}
	return variable{}, false
}

// value is a resolved word and where its unknown parts came from.
type value struct {
	parts  []Part
	taint  []taint
	quoted bool // at least partly quoted: not split on spaces
}

// taintMode says how a tainted value enters a command that uses it.
type taintMode uint8

const (
	// asData: the value is data; it enters any command it is an
	// argument of, unless it is used as a path (`cat /tmp/x.$$`).
	asData taintMode = iota
	// asPath: the value is a path (mktemp, $PWD); it enters only commands
	// that print or store the paths they get.
	asPath
	// asContent: the value is a file's content (<(cmd)); it always enters.
	asContent
	// asTarget: the command writes into it (>(cmd)).
	asTarget
)

type taint struct {
	node int
	mode taintMode
}

func (v value) String() string {
	var b strings.Builder
	for _, p := range v.parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (v value) known() (string, bool) {
	for _, p := range v.parts {
		if !p.Known {
			return "", false
		}
	}
	return v.String(), true
}

func (v value) word() Word {
	return Word{Parts: mergeParts(v.parts)}
}

// mergeParts joins neighbouring parts that are both known or both unknown.
func mergeParts(parts []Part) []Part {
	var out []Part
	for _, p := range parts {
		if p.Text == "" && p.Known {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Known == p.Known && p.Known {
			out[n-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	if out == nil {
		out = []Part{{Known: true}}
	}
	return out
}

func (a *analyzer) budget() bool {
	a.work++
	if a.work > maxWork || len(a.script.Commands) >= maxCommands {
		a.script.Truncated = true
		return false
	}
	return true
}

// pos is the position of a syntax position of fr's text.
func (a *analyzer) pos(fr frame, p syntax.Pos) Pos {
	off := fr.anchor
	if fr.exact {
		off = fr.base + int(p.Offset())
	}
	off = min(max(off, 0), len(a.top))
	line := sortSearch(a.lines, off)
	return Pos{Offset: off, Line: line + 1, Column: off - a.lines[line] + 1}
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// sortSearch returns the index of the last start <= off.
func sortSearch(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if found {
		return i
	}
	return i - 1
}

// stmts walks a list of statements. top says they are the script's own,
// where Bazel's genrule prefix may be.
func (a *analyzer) stmts(fr frame, st *state, list []*syntax.Stmt, top bool) {
	for i, s := range list {
		if top && i == 0 && a.genrulePrefix(s) {
			a.script.Genrule = true
			continue
		}
		if a.script.Truncated {
			return
		}
		// `exec >file` with no command redirects the rest of the list.
		if call, ok := s.Cmd.(*syntax.CallExpr); ok && len(call.Args) == 1 && call.Args[0].Lit() == "exec" && len(s.Redirs) > 0 {
			fr = a.redirect(fr, st, s.Redirs)
			continue
		}
		a.stmt(fr, st, s)
	}
}

// genrulePrefix recognises `source external/bazel_tools/tools/genrule/genrule-setup.sh`.
func (a *analyzer) genrulePrefix(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(s.Redirs) > 0 || len(call.Assigns) > 0 {
		return false
	}
	verb := call.Args[0].Lit()
	return (verb == "source" || verb == ".") && strings.HasSuffix(call.Args[1].Lit(), genruleSetup)
}

func (a *analyzer) stmt(fr frame, st *state, s *syntax.Stmt) {
	if !a.budget() {
		return
	}
	if a.depth >= maxDepth {
		a.script.Truncated = true
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	if s.Background {
		fr.ctx = appendCtx(fr.ctx, Context{Kind: InBackground})
	}
	fr = a.redirect(fr, st, s.Redirs)
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		a.call(fr, st, s, c)
	case *syntax.BinaryCmd:
		a.binary(fr, st, c)
	case *syntax.Block:
		a.stmts(fr, st, c.Stmts, false)
	case *syntax.Subshell:
		fr.ctx = appendCtx(fr.ctx, Context{Kind: InSubshell})
		a.stmts(fr, st.clone(), c.Stmts, false)
	case *syntax.IfClause:
		a.ifClause(fr, st, c)
	case *syntax.WhileClause:
		cond := fr
		cond.ctx = appendCtx(fr.ctx, Context{Kind: InCondition})
		body := fr
		body.ctx = appendCtx(fr.ctx, Context{Kind: InLoop})
		inner := st.clone()
		a.stmts(cond, inner, c.Cond, false)
		a.stmts(body, inner, c.Do, false)
		merge(st, inner, st.clone())
	case *syntax.ForClause:
		body := fr
		body.ctx = appendCtx(fr.ctx, Context{Kind: InLoop})
		inner := st.clone()
		if it, ok := c.Loop.(*syntax.WordIter); ok {
			var items []value
			if it.InPos.IsValid() {
				items = a.fields(fr, inner, it.Items)
			} else {
				items = slices.Clone(st.positional[min(1, len(st.positional)):])
			}
			inner.set(it.Name.Value, loopValue(it.Name.Value, items), false)
		}
		a.stmts(body, inner, c.Do, false)
		merge(st, inner, st.clone())
	case *syntax.CaseClause:
		a.value(fr, st, c.Word, false)
		branch := fr
		branch.ctx = appendCtx(fr.ctx, Context{Kind: InBranch})
		var states []*state
		for _, item := range c.Items {
			inner := st.clone()
			a.stmts(branch, inner, item.Stmts, false)
			states = append(states, inner)
		}
		merge(st, append(states, st.clone())...)
	case *syntax.FuncDecl:
		if c.Name != nil {
			a.funcs[c.Name.Value] = c.Body
		}
	case *syntax.DeclClause:
		a.decl(fr, st, c)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			fr.ctx = appendCtx(fr.ctx, Context{Kind: InWrapper, Name: "time"})
			a.stmt(fr, st, c.Stmt)
		}
	case *syntax.CoprocClause:
		a.stmt(fr, st, c.Stmt)
	case *syntax.ArithmCmd:
		a.arithm(fr, st, c.X)
	case *syntax.TestClause:
		a.test(fr, st, c.X)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			a.arithm(fr, st, x)
		}
	}
}

func appendCtx(ctx []Context, c Context) []Context {
	return append(slices.Clip(ctx), c)
}

func loopValue(name string, items []value) value {
	if len(items) == 1 {
		return items[0]
	}
	v := value{parts: []Part{{Text: "$" + name}}}
	for _, it := range items {
		v.taint = append(v.taint, it.taint...)
	}
	return v
}

func (a *analyzer) ifClause(fr frame, st *state, c *syntax.IfClause) {
	cond := fr
	cond.ctx = appendCtx(fr.ctx, Context{Kind: InCondition})
	branch := fr
	branch.ctx = appendCtx(fr.ctx, Context{Kind: InBranch})
	var states []*state
	hasElse := false
	for ; c != nil; c = c.Else {
		a.stmts(cond, st, c.Cond, false)
		inner := st.clone()
		a.stmts(branch, inner, c.Then, false)
		states = append(states, inner)
		if !c.ThenPos.IsValid() {
			hasElse = true // a plain else
		}
	}
	if !hasElse {
		states = append(states, st.clone())
	}
	merge(st, states...)
}

// merge sets st to what the states have in common: a variable that
// differs between them keeps no value, only every state's taints.
func merge(st *state, states ...*state) {
	// Only what the states wrote themselves can differ; each is a clone
	// of st, or a clone of a clone merged back.
	names := map[string]bool{}
	for _, s := range states {
		for x := s; x != nil && x != st; x = x.parent {
			for n := range x.vars {
				names[n] = true
			}
		}
	}
	for n := range names {
		first, ok := states[0].get(n)
		same := ok
		var taints []taint
		exported := false
		for _, s := range states {
			v, ok := s.get(n)
			if !ok || v.unset != first.unset || v.val.String() != first.val.String() || !sameKnown(v.val, first.val) {
				same = false
			}
			taints = append(taints, v.val.taint...)
			exported = exported || v.exported
		}
		if same {
			v := first
			v.val.taint = dedupTaints(taints)
			v.exported = exported
			st.vars[n] = v
			continue
		}
		st.vars[n] = variable{val: value{parts: []Part{{Text: "$" + n}}, taint: dedupTaints(taints)}, exported: exported}
	}
	for _, s := range states {
		for _, n := range s.exported {
			if !slices.Contains(st.exported, n) {
				st.exported = append(st.exported, n)
			}
		}
	}
	// The working directory is the first state's when they agree.
	for _, s := range states[1:] {
		if (s.cwd == nil) != (states[0].cwd == nil) || (s.cwd != nil && s.cwd.String() != states[0].cwd.String()) {
			st.cwd = &value{parts: []Part{{Text: "$PWD"}}}
			return
		}
	}
	st.cwd = states[0].cwd
}

func sameKnown(a, b value) bool {
	_, ka := a.known()
	_, kb := b.known()
	return ka == kb
}

func dedupTaints(ts []taint) []taint {
	var out []taint
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func (a *analyzer) binary(fr frame, st *state, c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.Pipe, syntax.PipeAll:
		p := a.g.add(pipeNode, -1)
		left := fr
		left.out = dest{node: p}
		if c.Op == syntax.PipeAll {
			left.err = left.out
		}
		left.ctx = appendCtx(fr.ctx, Context{Kind: InPipeline})
		right := fr
		right.stdin = []taint{{node: p, mode: asContent}}
		right.piped = true
		right.ctx = left.ctx
		// Each side of a pipeline runs in a subshell.
		a.stmt(left, st.clone(), c.X)
		a.stmt(right, st.clone(), c.Y)
	default: // && and ||
		a.stmt(fr, st, c.X)
		a.stmt(fr, st, c.Y)
	}
}

// redirect applies a statement's redirections to its frame.
func (a *analyzer) redirect(fr frame, st *state, redirs []*syntax.Redirect) frame {
	for _, r := range redirs {
		fd := -1
		if r.N != nil {
			if n, err := strconv.Atoi(r.N.Value); err == nil {
				fd = n
			}
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			target := a.target(fr, st, r.Word)
			switch {
			case r.Op == syntax.RdrAll || r.Op == syntax.AppAll:
				fr.out, fr.err = target, target
			case fd == 2:
				fr.err = target
			case fd == -1 || fd == 1:
				fr.out = target
			}
		case syntax.DplOut:
			word := r.Word.Lit()
			var to dest
			switch word {
			case "1":
				to = fr.out
			case "2":
				to = fr.err
			case "-":
				to = null
			default:
				if _, err := strconv.Atoi(word); err == nil {
					to = dest{node: uncapturedID}
				} else {
					// `>&file` is `&>file`.
					to = a.target(fr, st, r.Word)
					fr.out, fr.err = to, to
					continue
				}
			}
			if fd == 2 {
				fr.err = to
			} else if fd == -1 || fd == 1 {
				fr.out = to
			}
		case syntax.RdrIn:
			fr.piped = false
			v := a.value(fr, st, r.Word, false)
			if name, ok := v.known(); ok {
				if kind, ok := fileSource(name); ok {
					s := a.newSource(fr, kind, name, r.Word.Pos())
					fr.stdin = []taint{{node: s, mode: asContent}}
					continue
				}
			}
			fr.stdin = nil
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			word := r.Word
			if r.Op != syntax.WordHdoc {
				word = r.Hdoc
			}
			if word == nil {
				fr.stdin = nil
				continue
			}
			fr.piped = false
			hfr := fr
			hfr.ctx = appendCtx(fr.ctx, Context{Kind: InHereDocument})
			v := a.value(hfr, st, word, true)
			var in []taint
			for _, t := range v.taint {
				if t.mode != asTarget {
					in = append(in, taint{node: t.node, mode: asContent})
				}
			}
			fr.stdin = in
		}
	}
	return fr
}

// target resolves a redirection's file.
func (a *analyzer) target(fr frame, st *state, w *syntax.Word) dest {
	v := a.value(fr, st, w, false)
	name, _ := v.known()
	switch name {
	case "/dev/null":
		return null
	case "/dev/stdout", "/dev/fd/1":
		return fr.out
	case "/dev/stderr", "/dev/fd/2":
		return fr.err
	}
	// Process substitution as a target: `> >(cmd)`.
	for _, t := range v.taint {
		if t.mode == asTarget {
			return dest{node: t.node}
		}
	}
	return dest{node: sinkID}
}

func (a *analyzer) decl(fr frame, st *state, c *syntax.DeclClause) {
	export := c.Variant.Value == "export"
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			// An option such as -x, or a name given through a variable.
			if lit := as.Value.Lit(); lit == "-x" || lit == "-gx" || lit == "-xg" {
				export = true
			}
			continue
		}
		if as.Name == nil {
			continue
		}
		name := as.Name.Value
		if as.Naked {
			if export {
				st.export(name)
			}
			if _, ok := st.get(name); !ok && c.Variant.Value != "export" {
				// `local x` declares x empty.
				st.set(name, value{parts: []Part{{Known: true}}}, false)
			}
			continue
		}
		st.set(name, a.assignValue(fr, st, as), export)
	}
}

func (a *analyzer) assignValue(fr frame, st *state, as *syntax.Assign) value {
	var v value
	switch {
	case as.Array != nil:
		v = value{parts: []Part{{Text: "(...)"}}}
		for _, e := range as.Array.Elems {
			if e.Value != nil {
				v.taint = append(v.taint, a.value(fr, st, e.Value, true).taint...)
			}
		}
	case as.Value != nil:
		v = a.value(fr, st, as.Value, true)
	default:
		v = value{parts: []Part{{Known: true}}}
	}
	if as.Append {
		if old, ok := st.get(as.Name.Value); ok {
			v = value{parts: append(slices.Clone(old.val.parts), v.parts...), taint: append(slices.Clone(old.val.taint), v.taint...)}
		} else {
			v.parts = append([]Part{{Text: "$" + as.Name.Value}}, v.parts...)
		}
	}
	if as.Index != nil {
		// An element of an array: the array's value is no longer one word.
		v = value{parts: []Part{{Text: "$" + as.Name.Value}}, taint: v.taint}
	}
	return v
}

func (s *state) set(name string, v value, export bool) {
	old, ok := s.get(name)
	exported := export || (ok && old.exported)
	s.vars[name] = variable{val: v, exported: exported}
	if exported && !slices.Contains(s.exported, name) {
		s.exported = append(s.exported, name)
	}
}

func (s *state) export(name string) {
	v, ok := s.get(name)
	if !ok {
		// Exporting an inherited variable changes nothing we can see.
		return
	}
	v.exported = true
	s.vars[name] = v
	if !slices.Contains(s.exported, name) {
		s.exported = append(s.exported, name)
	}
}

// envWords are the exported variables, as NAME=value words.
func (s *state) envWords() []value {
	var words []value
	for _, n := range s.exported {
		v, ok := s.get(n)
		if !ok || !v.exported || v.unset {
			continue
		}
		words = append(words, value{parts: append([]Part{{Text: n + "=", Known: true}}, v.val.parts...), taint: v.val.taint})
	}
	return words
}

func (a *analyzer) arithm(fr frame, st *state, x syntax.ArithmExpr) []taint {
	var taints []taint
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			if lit := n.Lit(); lit != "" && isName(lit) {
				// Arithmetic names variables without $: $((RANDOM % 6)).
				taints = append(taints, a.param(fr, st, lit, n.Pos()).taint...)
				return false
			}
			taints = append(taints, a.value(fr, st, n, true).taint...)
			return false
		}
		return true
	})
	return taints
}

func (a *analyzer) test(fr frame, st *state, x syntax.TestExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			a.value(fr, st, w, true)
			return false
		}
		return true
	})
}

func isName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// call handles a simple command: assignments, a function call, a builtin
// that changes the state, a wrapper, a nested shell, or a program.
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
		switch name {
		case "cd", "pushd":
			a.cd(st, fields[1:])
		case "popd":
			st.cwd = &value{parts: []Part{{Text: "$PWD"}}}
		case "export", "readonly", "local", "declare", "typeset":
			a.declWords(st, name, fields[1:])
			return
		case "unset":
			for _, f := range fields[1:] {
				if n, ok := f.known(); ok && isName(n) {
					st.vars[n] = variable{unset: true, val: value{parts: []Part{{Known: true}}}}
				}
			}
			return
		case "set":
			if i := slices.IndexFunc(fields, func(f value) bool { s, _ := f.known(); return s == "--" }); i > 0 {
				st.positional = append(st.positional[:1:1], fields[i+1:]...)
			}
		case "shift":
			n := 1
			if len(fields) > 1 {
				if s, ok := fields[1].known(); ok {
					n, _ = strconv.Atoi(s)
				}
			}
			if n >= 0 && 1+n <= len(st.positional) {
				st.positional = append(st.positional[:1:1], st.positional[1+n:]...)
			}
		case "read":
			a.read(fr, st, fields[1:])
		case "eval":
			if a.eval(fr, st, s, fields[1:]) {
				return
			}
		case "source", ".":
			if len(fields) > 1 {
				if p, ok := fields[1].known(); ok && strings.HasSuffix(p, genruleSetup) {
					return
				}
			}
		}
		if inner, ok := a.nestedShell(fields); ok {
			a.nested(fr, st, s, inner, Context{Kind: InShell, Name: path.Base(inner.Shell)})
			return
		}
		if inner, wrapper, wenv, ok := unwrap(fields); ok {
			fr.ctx = appendCtx(fr.ctx, Context{Kind: InWrapper, Name: wrapper})
			if wrapper == "xargs" {
				// xargs passes what it reads as arguments.
				inner = append(slices.Clone(inner), value{parts: []Part{{Text: "{xargs}"}}, taint: stdinAsData(fr.stdin)})
			}
			a.run(fr, st, s, append(env, wenv...), inner)
			return
		}
	}
	i := a.command(fr, st, s, env, fields)
	if known && path.Base(name) == "find" && i >= 0 {
		a.findExec(fr, st, s, fields, i)
	}
}

func stdinAsData(in []taint) []taint {
	out := make([]taint, len(in))
	for i, t := range in {
		out[i] = taint{node: t.node, mode: asData}
	}
	return out
}

func (a *analyzer) callFunction(fr frame, st *state, name string, body *syntax.Stmt, fields []value) {
	if fr.nesting >= maxNesting {
		a.script.Truncated = true
		return
	}
	fr.nesting++
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InFunction, Name: name})
	saved := st.positional
	st.positional = append([]value{st.positional[0]}, fields[1:]...)
	a.stmt(fr, st, body)
	st.positional = saved
}

func (a *analyzer) cd(st *state, args []value) {
	old := st.cwd
	var to *value
	for _, f := range args {
		s, ok := f.known()
		if ok && strings.HasPrefix(s, "-") && s != "-" {
			continue
		}
		switch {
		case ok && s == "-":
			to = st.oldcwd
		case ok && strings.HasPrefix(s, "/"):
			v := value{parts: []Part{{Text: path.Clean(s), Known: true}}}
			to = &v
		case ok && st.cwd != nil:
			if base, bk := st.cwd.known(); bk {
				v := value{parts: []Part{{Text: path.Join(base, s), Known: true}}}
				to = &v
				break
			}
			fallthrough
		default:
			// Relative to the execution root, or somewhere we cannot name.
			v := value{parts: []Part{{Text: "$PWD"}}, taint: f.taint}
			if ok && st.cwd == nil {
				v = value{parts: []Part{{Text: "$PWD/" + s}}}
			}
			to = &v
		}
		break
	}
	if len(args) == 0 {
		v := value{parts: []Part{{Text: "$HOME"}}}
		to = &v
	}
	if to != nil && to.String() == "$PWD" && len(to.taint) == 0 && to.parts[0].Known == false && st.cwd == nil {
		// cd into an unknown directory below the execution root: still
		// the execution root as far as a path printed goes.
		to = nil
	}
	st.oldcwd = old
	st.cwd = to
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
		// Keep the parts after the first `=`.
		v := value{taint: f.taint}
		rest := len(name) + 1
		for _, p := range f.parts {
			if rest >= len(p.Text) {
				rest -= len(p.Text)
				continue
			}
			v.parts = append(v.parts, Part{Text: p.Text[rest:], Known: p.Known})
			rest = 0
		}
		st.set(name, v, export)
	}
}

func (a *analyzer) read(fr frame, st *state, args []value) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].known()
		if !ok {
			continue
		}
		if strings.HasPrefix(s, "-") {
			if strings.ContainsAny(s[len(s)-1:], "adinptu") && i+1 < len(args) && s != "-r" && s != "-s" && s != "-e" {
				i++
			}
			continue
		}
		if isName(s) {
			st.set(s, value{parts: []Part{{Text: "$" + s}}, taint: stdinAsData(fr.stdin)}, false)
		}
	}
}

// eval parses and follows `eval WORDS` when the words are known. It
// returns false when they are not, and eval is then listed as a command.
func (a *analyzer) eval(fr frame, st *state, s *syntax.Stmt, args []value) bool {
	var texts []string
	for _, f := range args {
		t, ok := f.known()
		if !ok {
			return false
		}
		texts = append(texts, t)
	}
	inner := Invocation{Shell: "eval", Dialect: a.dialect, Script: strings.Join(texts, " ")}
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InEval})
	return a.nestedScript(fr, st, s, inner, false)
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
				return Invocation{}, false
			}
			break
		}
	}
	return inv, true
}

func (a *analyzer) nested(fr frame, st *state, s *syntax.Stmt, inv Invocation, ctx Context) {
	fr.ctx = appendCtx(fr.ctx, ctx)
	if !a.nestedScript(fr, st.clone(), s, inv, true) {
		// It does not parse: the shell is a command we cannot see into.
		fields := []value{{parts: []Part{{Text: inv.Shell, Known: true}}}, {parts: []Part{{Text: "-c", Known: true}}}, {parts: []Part{{Text: inv.Script, Known: true}}}}
		a.command(fr, st, s, nil, fields)
	}
}

// nestedScript parses and walks a script found inside the script; it
// returns false when that does not parse. Positions map back to the outer
// script when the inner one appears in it verbatim (a plain literal).
// fresh starts a new shell with its own variables (bash -c) rather than
// the current one (eval).
func (a *analyzer) nestedScript(fr frame, st *state, s *syntax.Stmt, inv Invocation, fresh bool) bool {
	if fr.nesting >= maxNesting {
		a.script.Truncated = true
		return true
	}
	lang := syntax.LangBash
	if inv.Dialect == POSIX {
		lang = syntax.LangPOSIX
	}
	file, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(inv.Script), "")
	if err != nil {
		return false
	}
	inner := fr
	inner.nesting++
	inner.text = inv.Script
	inner.anchor = a.pos(fr, s.Pos()).Offset
	inner.exact = false
	// Map positions back when the script appears verbatim in the text.
	if fr.exact {
		if i := strings.Index(fr.text[min(int(s.Pos().Offset()), len(fr.text)):], inv.Script); i >= 0 && inv.Script != "" {
			inner.exact = true
			inner.base = fr.base + int(s.Pos().Offset()) + i
		}
	}
	if fresh {
		nst := newState()
		// Exported variables are the new shell's environment.
		for _, n := range st.exported {
			if v, ok := st.get(n); ok {
				nst.vars[n] = v
				nst.exported = append(nst.exported, n)
			}
		}
		nst.cwd = st.cwd
		for _, arg := range inv.Args {
			nst.positional = append(nst.positional, value{parts: []Part{{Text: arg, Known: true}}})
		}
		if len(nst.positional) == 0 {
			nst.positional = []value{{parts: []Part{{Text: inv.Shell, Known: true}}}}
		}
		st = nst
	}
	saved := a.dialect
	a.dialect = inv.Dialect
	a.stmts(inner, st, file.Stmts, false)
	a.dialect = saved
	return true
}

// findExec lists the commands of find's -exec, -execdir, -ok and -okdir
// actions. They print where find prints, in the order find lists.
func (a *analyzer) findExec(fr frame, st *state, s *syntax.Stmt, fields []value, findCmd int) {
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InWrapper, Name: "find"})
	for i := 1; i < len(fields); i++ {
		flag, _ := fields[i].known()
		if flag != "-exec" && flag != "-execdir" && flag != "-ok" && flag != "-okdir" {
			continue
		}
		var inner []value
		j := i + 1
		for ; j < len(fields); j++ {
			t, _ := fields[j].known()
			if t == ";" || t == "+" {
				break
			}
			if t == "{}" {
				inner = append(inner, value{parts: []Part{{Text: "{}"}}})
				continue
			}
			inner = append(inner, fields[j])
		}
		i = j
		if len(inner) == 0 {
			continue
		}
		k := a.command(fr, st, s, nil, inner)
		if k >= 0 {
			// The order find lists in is the order of the commands' output.
			for _, src := range a.sources {
				if src.kind == Order && slices.Contains(a.g.nodes[src.node].edges, a.cmdNodes[findCmd]) {
					a.g.edge(src.node, a.cmdNodes[k])
				}
			}
		}
	}
}

// command lists one command and wires it into the graph. It returns the
// command's index, or -1 when the bound on commands was reached.
func (a *analyzer) command(fr frame, st *state, s *syntax.Stmt, env []value, fields []value) int {
	if !a.budget() {
		return -1
	}
	name, _ := fields[0].known()
	base := path.Base(name)
	prog, known := programOf(name)
	if !known {
		prog = unknownProgram()
	}
	args := make([]string, len(fields)-1)
	for i, f := range fields[1:] {
		args[i] = f.String()
	}

	env = append(st.envWords(), env...)
	cmd := Command{
		Text:       oneLine(a.stmtText(fr, s)),
		Pos:        a.pos(fr, s.Pos()),
		Context:    slices.Clone(fr.ctx),
		FromPipe:   fr.piped,
		TimesFixed: a.timesFixed,
	}
	if base == "touch" && setsFixedTime(args) {
		a.timesFixed = true
	}
	for _, f := range fields {
		cmd.Argv = append(cmd.Argv, f.word())
	}
	for _, e := range env {
		cmd.Env = append(cmd.Env, e.word())
	}
	index := len(a.script.Commands)
	n := a.g.add(commandNode, index)
	a.g.nodes[n].sorts = prog.sorts
	a.cmdNodes = append(a.cmdNodes, n)

	// Where its output goes.
	if fr.out.node >= 0 {
		a.g.edge(n, fr.out.node)
		if ws, ok := a.writers[fr.out.node]; ok && !prog.silent {
			a.writers[fr.out.node] = append(ws, base)
		}
	}
	if prog.writes != nil && prog.writes(args) {
		cmd.Writes = true
		a.g.edge(n, sinkID)
	}
	// What it reads.
	if !prog.noStdin {
		for _, t := range fr.stdin {
			a.g.edge(t.node, n)
		}
	}
	var text []bool
	if prog.text != nil {
		text = prog.text(args)
	}
	// A compiler told to map the directory out of what it records
	// (-ffile-prefix-map=$PWD=.) records no path of the machine's.
	recordsPaths := prog.recordsPaths && !slices.ContainsFunc(fields[1:], remapsPath)
	for i, f := range fields[1:] {
		isText := prog.printsArgs || (text != nil && text[i])
		a.flowInto(n, f, isText, recordsPaths && !unrecordedOperand(base, args, i))
	}
	// A tool we know nothing about may read any variable it is given;
	// the programs we know read none that matter here.
	if !known {
		for _, e := range env {
			a.flowInto(n, e, true, false)
		}
	}
	// What it asks the machine; the working directory is no secret once
	// the script changed to an absolute one.
	if kind, ok := sourceOf(base, args); ok && !(kind == PWD && st.cwd != nil && isKnownPath(st.cwd)) {
		src := a.newSource(fr, kind, base, s.Pos())
		a.g.edge(src, n)
	}
	// What inline code (python3 -c CODE) asks the machine.
	if calls := inlineSources(base, args, wordStrings(env)); len(calls) > 0 {
		for _, c := range calls {
			src := a.newSource(fr, c.kind, base+": "+c.text, s.Pos())
			a.g.edge(src, n)
		}
	}
	for i, arg := range args {
		if kind, ok := fileSource(arg); ok {
			if _, isKnown := fields[i+1].known(); isKnown {
				src := a.newSource(fr, kind, arg, s.Pos())
				a.g.edge(src, n)
			}
		}
	}
	a.script.Commands = append(a.script.Commands, cmd)
	return index
}

func isKnownPath(v *value) bool {
	s, ok := v.known()
	return ok && strings.HasPrefix(s, "/")
}

// flowInto wires a value used as an argument into command n. A path is
// not the command's data: `cat $tmp/x` prints the file, not its name,
// unless the command records the paths it is given (tar, find,
// sha256sum) or prints its arguments (echo).
func (a *analyzer) flowInto(n int, v value, isText, recordsPaths bool) {
	if len(v.taint) == 0 {
		return
	}
	if remapsPath(v) {
		// -ffile-prefix-map=$PWD=. names the path to take out.
		return
	}
	path := !isText && !recordsPaths && isPathWord(v)
	for _, t := range v.taint {
		switch t.mode {
		case asTarget:
			a.g.edge(n, t.node)
		case asContent:
			a.g.edge(t.node, n)
		case asPath:
			if isText || recordsPaths || !path && !pathOnly(v) {
				a.g.edge(t.node, n)
			}
		default:
			if !path {
				a.g.edge(t.node, n)
			}
		}
	}
}

// isPathWord says whether a word is used as a path: it has a slash in
// its known text, or it joins an unknown part to a dot (`x.$$`), or it is
// nothing but a path from a path-printing source ($tmp, "$PWD").
func isPathWord(v value) bool {
	for i, p := range v.parts {
		if !p.Known {
			continue
		}
		if strings.Contains(p.Text, "/") {
			return true
		}
		if (i > 0 && strings.HasPrefix(p.Text, ".")) || (i+1 < len(v.parts) && strings.HasSuffix(p.Text, ".")) {
			return true
		}
	}
	return pathOnly(v)
}

// remapsPath says a word maps a path to another, a path directly followed
// by `=` (-ffile-prefix-map=$PWD=., --remap-path-prefix=$PWD=): it names
// the path so that it is left out.
func remapsPath(v value) bool {
	for i, p := range v.parts[:max(0, len(v.parts)-1)] {
		if !p.Known && v.parts[i+1].Known && strings.HasPrefix(v.parts[i+1].Text, "=") && pathOnly(v) {
			return true
		}
	}
	return false
}

// pathOnly says every taint of the value is a path.
func pathOnly(v value) bool {
	for _, t := range v.taint {
		if t.mode != asPath {
			return false
		}
	}
	return len(v.taint) > 0
}

// unrecordedOperand says an argument of a path-recording program is one
// it does not record: tar's -C and -f values, the output of -o.
func unrecordedOperand(base string, args []string, i int) bool {
	prev := ""
	if i > 0 {
		prev = args[i-1]
	}
	a := args[i]
	switch base {
	case "tar":
		return prev == "-C" || prev == "--directory" || prev == "-f" || prev == "--file" ||
			prev == "-T" || prev == "--files-from" || prev == "-X" || prev == "--exclude-from" ||
			strings.HasPrefix(a, "--directory=") || strings.HasPrefix(a, "--file=") ||
			(isShortBundle(prev) && strings.HasSuffix(prev, "f")) || (i == 1 && !strings.HasPrefix(prev, "-") && strings.HasSuffix(prev, "f"))
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "cpp", "as", "ld":
		return prev == "-o" || strings.HasPrefix(a, "-o") || prev == "-MF" || prev == "-MT"
	case "jar":
		return prev == "-C" || prev == "-f" || prev == "--file" || strings.HasPrefix(a, "--file=") ||
			(isShortBundle(prev) && strings.HasSuffix(prev, "f")) || (i == 1 && !strings.HasPrefix(prev, "-") && strings.HasSuffix(prev, "f"))
	case "zip":
		return i == firstOperand(args)
	case "find":
		return findStripsStart(args)
	}
	return false
}

func firstOperand(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

// findStripsStart says find prints paths without its starting points
// (-printf with %P or %f only).
func findStripsStart(args []string) bool {
	for i, a := range args {
		if (a == "-printf" || a == "-fprintf") && i+1 < len(args) {
			f := args[i+1]
			return !strings.Contains(f, "%p") && !strings.Contains(f, "%h") && !strings.Contains(f, "%H")
		}
	}
	return false
}

func (a *analyzer) newSource(fr frame, kind Kind, text string, p syntax.Pos) int {
	n := a.g.add(sourceNode, len(a.sources))
	a.sources = append(a.sources, source{kind: kind, text: text, pos: a.pos(fr, p), node: n})
	return n
}

// stmtText is the statement's text without a here-document's body.
func (a *analyzer) stmtText(fr frame, s *syntax.Stmt) string {
	start := int(s.Pos().Offset())
	end := start
	if s.Cmd != nil {
		end = int(s.Cmd.End().Offset())
	}
	for _, r := range s.Redirs {
		if r.Word != nil {
			end = max(end, int(r.Word.End().Offset()))
		}
	}
	if start < 0 || end > len(fr.text) || start > end {
		return ""
	}
	return fr.text[start:end]
}

// oneLine joins a command's lines with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// finish decides what reaches the sink.
func (a *analyzer) finish() {
	toSink := a.g.reaching(sinkID)
	toUncaptured := a.g.reaching(uncapturedID)
	for i := range a.script.Commands {
		n := a.cmdNodes[i]
		switch {
		case toSink[n]:
			a.script.Commands[i].Output = Sink
		case toUncaptured[n]:
			a.script.Commands[i].Output = Uncaptured
		default:
			a.script.Commands[i].Output = Discarded
		}
	}
	type key struct {
		kind Kind
		off  int
		text string
	}
	seen := map[key]bool{}
	for _, src := range a.sources {
		order := src.kind == Order
		if !toSink[src.node] || (order && !a.g.reachesSinkUnsorted(src.node)) {
			continue
		}
		k := key{src.kind, src.pos.Offset, src.text}
		if seen[k] {
			continue
		}
		seen[k] = true
		a.script.Sources = append(a.script.Sources, Source{
			Kind:    src.kind,
			Text:    src.text,
			Pos:     src.pos,
			Command: a.g.firstCommand(src.node, toSink, order),
		})
	}
	slices.SortStableFunc(a.script.Sources, func(x, y Source) int { return x.Pos.Offset - y.Pos.Offset })
}

// wordStrings is the text of each value.
func wordStrings(vs []value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// setsFixedTime says touch is given a date to set rather than now: -d,
// --date or -t (-r copies another file's time, which may be any).
func setsFixedTime(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--date") || strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-t") ||
			isShortBundle(a) && strings.ContainsAny(a[1:], "dt") {
			return true
		}
	}
	return false
}
