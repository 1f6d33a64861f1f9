package shell

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// Bounds on the work one script may cause, so that hostile input (deep
// nesting, recursive functions, eval bombs) ends quickly with a partial
// model marked Truncated.
const (
	maxNesting  = 16      // nested scripts (eval, bash -c, a tool's script) and function calls
	maxDepth    = 200     // syntax nesting walked
	maxWork     = 20000   // statements and commands visited
	maxCommands = 5000    // commands listed
	maxWordLen  = 1 << 16 // resolved text kept per word
	// maxParseDepth bounds how deeply the text of a script may nest
	// (subshells, substitutions, arithmetic) before it is parsed at all:
	// the parser recurses, and 100k nested `(` would take it minutes.
	maxParseDepth = 1000
)

// Options are what the interpreter knows of the action around a script.
type Options struct {
	// Library says what every command does. Nil means the built-in
	// library of Ahab's own judgement.
	Library *spec.Library
	// Outputs are the files the action declares it writes, by exec path;
	// only a value that reaches one of them (or a file whose name cannot
	// be known) counts. Nil means every file the script writes counts.
	Outputs []string
	// Env is the action's environment, NAME=VALUE: what the script's
	// commands get before the script exports anything.
	Env []string
	// Files reads the workspace files the script's commands run; nil reads
	// none.
	Files code.Files
	// Runner reads the code the script hands to other languages (python3
	// -c, awk programs, a tool written in Perl); nil reads none.
	Runner code.Runner
	// File is the file the script was read from, for the sites of what it
	// finds (empty: the action's own command line).
	File string
	// Facts are facts of the action every command's conditions see
	// (mnemonic:NAME).
	Facts []string
	// Depth counts how deep programs were handed to one another.
	Depth int
}

// genruleSetup is the script every genrule command starts by sourcing.
const genruleSetup = "bazel_tools/tools/genrule/genrule-setup.sh"

// Analyze parses the script of inv and follows it. A script that does not
// parse is a *ParseError.
func Analyze(inv Invocation, opts Options) (*Script, error) {
	file, err := parse(inv.Script, inv.Dialect)
	if err != nil {
		return nil, err
	}
	if opts.Library == nil {
		opts.Library = spec.Builtin()
	}
	a := &analyzer{
		top:         inv.Script,
		dialect:     inv.Dialect,
		script:      &Script{Invocation: inv},
		g:           newGraph(),
		funcs:       map[string]*syntax.Stmt{},
		lines:       lineStarts(inv.Script),
		lib:         opts.Library,
		opts:        opts,
		files:       map[string]int{},
		sourceModes: map[string]bool{},
		madeFrom:    map[string][]string{},
	}
	st := newState()
	for _, kv := range opts.Env {
		if name, v, ok := strings.Cut(kv, "="); ok && isName(name) {
			st.set(name, knownValue(v), true)
		}
	}
	for _, arg := range inv.Args {
		st.positional = append(st.positional, knownValue(arg))
	}
	if len(st.positional) == 0 {
		st.positional = []value{{parts: []Part{{Text: inv.Shell, Known: true}}}}
	}
	fr := frame{text: inv.Script, exact: true, site: opts.File, out: dest{node: uncapturedID}, err: dest{node: uncapturedID}, status: -1}
	a.stmts(fr, st, file.Stmts, true)
	a.finish()
	return a.script, nil
}

// parse parses a script in a dialect, refusing first one nested deeper
// than maxParseDepth, which the parser would take too long over.
func parse(script string, dialect Dialect) (*syntax.File, error) {
	if depth, at := nestingDepth(script); depth > maxParseDepth {
		return nil, &ParseError{Pos: posOf(script, at), Message: "script too deeply nested to analyse (over " + strconv.Itoa(maxParseDepth) + " levels of parentheses, braces or substitutions)", TooDeep: true}
	}
	lang := syntax.LangBash
	if dialect == POSIX {
		lang = syntax.LangPOSIX
	}
	file, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(script), "")
	if err != nil {
		return nil, parseError(script, err)
	}
	return file, nil
}

// nestingDepth is how deeply parentheses and braces nest in a script,
// counted on its bytes (quotes are not followed: an over-count only makes
// a pathological script fail sooner), and where the deepest one opens.
func nestingDepth(script string) (int, syntax.Pos) {
	depth, deepest, at := 0, 0, 0
	for i := 0; i < len(script); i++ {
		switch script[i] {
		case '(', '{', '[':
			depth++
			if depth > deepest {
				deepest, at = depth, i
			}
		case ')', '}', ']':
			depth = max(0, depth-1)
		}
	}
	line, col := 1, 1
	for i := 0; i < at; i++ {
		if script[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return deepest, syntax.NewPos(uint(at), uint(line), uint(col))
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
	lib     *spec.Library
	opts    Options

	cmdNodes []int // the graph node of each command
	sources  []source
	// writers maps a substitution's node to what the commands writing into
	// it print: a substitution that holds only paths (mktemp, pwd) is read
	// by the commands it is given, not printed.
	writers map[int][]writer
	// files maps a file's name, relative to the execution root, to its
	// node (files.go).
	files map[string]int
	// sourceModes are the files, and directories by their name and a
	// slash, that the script wrote with a checked-out file's permissions
	// (noteFiles).
	sourceModes map[string]bool
	// madeFrom are the C sources each file the script wrote was made
	// from, sorted (noteFiles).
	madeFrom map[string][]string
	// facts are what the commands so far established (fixed:mtime after
	// touch -d), for the conditions of the commands after them.
	facts []string
}

// writer is what a command writing into a substitution prints.
type writer struct {
	path bool // a path
	temp bool // a temporary file's name
	// text is what it prints, when the library can compute it from known
	// arguments ($(dirname $<)).
	text *string
}

// source is one occurrence of a source of variation.
type source struct {
	value   effect.Value
	text    string
	because string
	pos     Pos
	site    effect.Site
	node    int
}

// frame is what a statement inherits from where it sits.
type frame struct {
	text   string // the text the syntax positions refer to
	base   int    // its offset in the top-level script, when exact
	exact  bool
	anchor int // the offset to report when not exact
	// site is the file text comes from, when it is a file of its own (a
	// tool's script): positions in it are reported as sites of that file.
	site   string
	inFile bool // text is all of the file site
	out    dest
	err    dest
	stdin  []taint
	piped  bool // stdin is a pipe from another command
	// stdinFile is the file stdin is redirected from, when known; stdinText
	// the here-document or here-string it is, written at stdinPos.
	stdinFile string
	stdinText *value
	stdinPos  syntax.Pos
	ctx       []Context
	wrappers  []Wrapper
	nesting   int
	// status is the node of the exit status of the condition being
	// followed (-1 outside one, 0 at the top): what its commands are given
	// decides it. controls are the statuses of the conditions around: a
	// command a branch runs writes what they picked.
	status   int
	controls []int
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
	// temp says the value is the name of a temporary file or directory
	// (mktemp, $TMPDIR): no file under it is an output.
	temp bool
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
		a.truncate("the script is too long to follow to the end (over " + strconv.Itoa(maxWork) + " steps or " + strconv.Itoa(maxCommands) + " commands)")
		return false
	}
	return true
}

// site is where a syntax position of fr's text is, as a person opens it:
// a line of the tool's file the text is, or a line of the action's script.
func (a *analyzer) site(fr frame, p syntax.Pos) effect.Site {
	if fr.inFile {
		return effect.Site{File: fr.site, Line: int(p.Line())}
	}
	if fr.site != "" && !fr.exact {
		return effect.Site{File: fr.site}
	}
	return effect.Site{File: fr.site, Line: a.pos(fr, p).Line}
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
		a.truncate("the script nests too deeply to follow (over " + strconv.Itoa(maxDepth) + " levels)")
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
		a.whileClause(fr, st, c)
	case *syntax.ForClause:
		a.forClause(fr, st, c)
	case *syntax.CaseClause:
		a.caseClause(fr, st, c)
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
		for _, t := range a.arithm(fr, st, c.X) {
			if fr.status >= 0 {
				a.g.edge(t.node, fr.status)
			}
		}
	case *syntax.TestClause:
		a.test(fr, st, c.X)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			a.arithm(fr, st, x)
		}
	}
}

func (a *analyzer) whileClause(fr frame, st *state, c *syntax.WhileClause) {
	cond := a.condition(fr)
	body := fr
	body.ctx = appendCtx(fr.ctx, Context{Kind: InLoop})
	body.controls = append(slices.Clip(fr.controls), cond.status)
	inner := st.clone()
	a.stmts(cond, inner, c.Cond, false)
	a.stmts(body, inner, c.Do, false)
	merge(st, inner, st.clone())
}

// condition is the frame of a condition (if, while, until): a node
// gathers what decides its status, which controls the commands the
// branches or the body run. A value only tested so reaches an output when
// what is written depends on it (`if [ "$(id -u)" = 0 ]; then echo
// privileged; else ...`), and not when nothing the condition picks writes.
func (a *analyzer) condition(fr frame) frame {
	cond := fr
	cond.ctx = appendCtx(fr.ctx, Context{Kind: InCondition})
	cond.status = a.g.add(pipeNode, -1)
	return cond
}

func (a *analyzer) forClause(fr frame, st *state, c *syntax.ForClause) {
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
		if known := knownItems(items); known && len(items) > 1 && len(items) <= maxUnrolled {
			// Known words, not too many: the body runs once for each, in
			// order, as the shell runs it, so that what it does with
			// each (cp -a of a workspace's top-level file) is known.
			for _, v := range items {
				inner.set(it.Name.Value, v, false)
				a.stmts(body, inner, c.Do, false)
			}
			merge(st, inner, inner.clone())
			return
		}
		inner.set(it.Name.Value, loopValue(it.Name.Value, items), false)
		// How many times the body runs, over what, is what the items hold
		// (not a directory's name they are under), and which files a glob
		// among them lists: those the script wrote, with what made them.
		status := a.g.add(pipeNode, -1)
		for _, v := range items {
			for _, t := range v.taint {
				if t.mode == asData || t.mode == asContent {
					a.g.edge(t.node, status)
				}
			}
			a.globbed(inner, v, status)
		}
		body.controls = append(slices.Clip(body.controls), status)
	}
	a.stmts(body, inner, c.Do, false)
	merge(st, inner, st.clone())
}

func (a *analyzer) caseClause(fr frame, st *state, c *syntax.CaseClause) {
	word := a.value(fr, st, c.Word, false)
	status := a.g.add(pipeNode, -1)
	for _, t := range word.taint {
		if t.mode != asTarget {
			a.g.edge(t.node, status)
		}
	}
	branch := fr
	branch.ctx = appendCtx(fr.ctx, Context{Kind: InBranch})
	branch.controls = append(slices.Clip(fr.controls), status)
	// A known word takes the first item whose known pattern matches it.
	subject, known := word.known()
	var states []*state
	for _, item := range c.Items {
		matches, decided := false, known
		for _, p := range item.Patterns {
			pat, ok := a.value(fr, st, p, false).known()
			m, err := path.Match(pat, subject)
			if !ok || err != nil || !pureWords([]*syntax.Word{p}) {
				decided = false
				break
			}
			matches = matches || m
		}
		if decided && !matches {
			continue
		}
		inner := st.clone()
		a.stmts(branch, inner, item.Stmts, false)
		states = append(states, inner)
		if decided && item.Op == syntax.Break {
			merge(st, states...)
			return
		}
		known = known && decided
	}
	merge(st, append(states, st.clone())...)
}

func appendCtx(ctx []Context, c Context) []Context {
	return append(slices.Clip(ctx), c)
}

// maxUnrolled bounds how many known words a for loop's body is followed
// for one by one; past it the body is followed once for any of them.
const maxUnrolled = 64

// knownItems says a loop's words are all known.
func knownItems(items []value) bool {
	return !slices.ContainsFunc(items, func(v value) bool {
		_, ok := v.known()
		return !ok
	})
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
	cond := a.condition(fr)
	branch := fr
	branch.ctx = appendCtx(fr.ctx, Context{Kind: InBranch})
	// Every branch, the else's too, is picked by every condition before it.
	branch.controls = append(slices.Clip(fr.controls), cond.status)
	var states []*state
	hasElse := false
	for ; c != nil; c = c.Else {
		a.stmts(cond, st, c.Cond, false)
		holds, known := true, true // a plain else
		if c.ThenPos.IsValid() {
			holds, known = a.decide(fr, st, c.Cond)
		}
		if known && !holds {
			continue // a branch that never runs
		}
		inner := st.clone()
		a.stmts(branch, inner, c.Then, false)
		states = append(states, inner)
		if known {
			hasElse = true // no clause after it runs
			break
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

// test follows [[ ... ]]: in a condition, what its words hold decides the
// status, except the name of a file it tests (-d "$PWD/x" asks whether
// the file is there, which does not depend on where the build runs).
func (a *analyzer) test(fr frame, st *state, x syntax.TestExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.UnaryTest:
			if w, ok := n.X.(*syntax.Word); ok && isFileTest(n.Op) {
				a.tested(fr, a.value(fr, st, w, true), true)
				return false
			}
		case *syntax.Word:
			a.tested(fr, a.value(fr, st, n, true), false)
			return false
		}
		return true
	})
}

// tested adds what a tested value holds to the status of the condition
// around; a file's name (isFile) adds only what is not a path.
func (a *analyzer) tested(fr frame, v value, isFile bool) {
	if fr.status < 0 {
		return
	}
	for _, t := range v.taint {
		if t.mode == asTarget || isFile && t.mode == asPath {
			continue
		}
		a.g.edge(t.node, fr.status)
	}
}

func isFileTest(op syntax.UnTestOperator) bool {
	switch op {
	case syntax.TsExists, syntax.TsRegFile, syntax.TsDirect, syntax.TsCharSp, syntax.TsBlckSp,
		syntax.TsNmPipe, syntax.TsSocket, syntax.TsSmbLink, syntax.TsSticky, syntax.TsUIDSet,
		syntax.TsGIDSet, syntax.TsGrpOwn, syntax.TsUsrOwn, syntax.TsModif, syntax.TsRead,
		syntax.TsWrite, syntax.TsExec, syntax.TsNoEmpty:
		return true
	}
	return false
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
