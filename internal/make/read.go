package make

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

// Reading a makefile is a pass over its lines in order, as GNU make does:
// assignments, conditionals and includes take effect as they are read,
// rules and recipes are kept for later. A condition that cannot be decided
// (ifeq ($(shell uname),Linux)) forks the reading: each branch is read on
// in a world of its own, up to maxWorlds, and every world's make run is
// followed; what any of them finds counts.

// origin is where a variable was set, which decides what may change it.
type origin uint8

const (
	fromDefault origin = iota
	fromEnv
	fromFile
	fromCommand
	fromOverride
	automatic
)

var originNames = [...]string{"default", "environment", "file", "command line", "override", "automatic"}

type variable struct {
	val value
	// recursive variables hold their text unexpanded (=), simple ones
	// expanded (:=).
	recursive bool
	origin    origin
}

// recipeLine is a line of a recipe as written, where it is written.
type recipeLine struct {
	text string
	site effect.Site
}

type rule struct {
	targets   []string
	prereqs   []string
	orderOnly []string
	recipe    []recipeLine
	hasRecipe bool
	double    bool
	// pattern is the target pattern of a static pattern rule.
	pattern string
	site    effect.Site
}

// targetVar is an assignment that holds for a target, or for targets
// matching a pattern, and what they need (t: CFLAGS += -g).
type targetVar struct {
	target   string
	name, op string
	val      value
	override bool
}

// frame is a makefile being read.
type frame struct {
	file  string
	lines []string
	i     int
	// at is the line all of an $(eval)'s text is reported at.
	at int
	// conds is how many conditionals were open when it began: each must
	// end in the file it began in.
	conds int
}

// cond is an open conditional.
type cond struct {
	outer bool // the lines around it are read
	now   bool // the lines of its current branch are read
	done  bool // a branch was read, so no later one is
	// sawElse says a plain else was met.
	sawElse bool
}

// defining collects the body of a define.
type defining struct {
	name, op         string
	override, export bool
	ignored          bool // in a branch not read
	nest             int
	body             []string
}

// world is one reading of the makefiles: what it has set, and where it is.
type world struct {
	r      *reader
	vars   map[string]*variable
	rules  []*rule
	tvars  []targetVar
	frames []*frame
	conds  []cond
	// cur is the rule whose recipe lines follow.
	cur      *rule
	defining *defining
	// goal is the first target of the makefiles, the default goal.
	goal string
	// exported says, by name, what export (1) and unexport (-1) said;
	// make exports the environment's and the command line's variables
	// unless told otherwise.
	exported  map[string]int8
	exportAll bool
	// inEval counts the $(eval)s being read, where the reading cannot
	// fork.
	inEval int
	failed bool
}

func (w *world) clone() *world {
	c := *w
	c.vars = maps.Clone(w.vars)
	c.exported = maps.Clone(w.exported)
	c.rules = make([]*rule, len(w.rules))
	for i, rl := range w.rules {
		x := *rl
		x.recipe = slices.Clip(x.recipe)
		x.prereqs = slices.Clip(x.prereqs)
		c.rules[i] = &x
		if rl == w.cur {
			c.cur = &x
		}
	}
	c.tvars = slices.Clip(w.tvars)
	c.frames = make([]*frame, len(w.frames))
	for i, f := range w.frames {
		x := *f
		c.frames[i] = &x
	}
	c.conds = slices.Clone(w.conds)
	if w.defining != nil {
		d := *w.defining
		d.body = slices.Clip(d.body)
		c.defining = &d
	}
	return &c
}

// makefile is a makefile to read and the name make opens it by, which
// MAKEFILE_LIST lists.
type makefile struct {
	path, name, text string
}

// run reads the makefiles in every world their conditions make, and
// follows each world's make run.
func (r *reader) run(files []makefile) {
	for _, w := range r.read(files) {
		if !w.failed {
			w.build()
		}
	}
}

// read reads the makefiles, in the order given, in every world their
// conditions make.
func (r *reader) read(files []makefile) []*world {
	w := r.newWorld()
	for i := len(files) - 1; i >= 0; i-- {
		w.push(files[i])
	}
	r.worlds = 1
	var done []*world
	pending := []*world{w}
	for len(pending) > 0 {
		w := pending[0]
		pending = pending[1:]
		pending = append(pending, w.readUntil(0)...)
		done = append(done, w)
	}
	return done
}

// push starts reading a makefile.
func (w *world) push(f makefile) {
	w.frames = append(w.frames, &frame{file: f.path, lines: strings.Split(f.text, "\n"), conds: len(w.conds)})
	if f.name != "" {
		var list value
		if mf, ok := w.vars["MAKEFILE_LIST"]; ok {
			list = mf.val
		}
		w.vars["MAKEFILE_LIST"] = &variable{val: cat(list, lit(" "+f.name)), origin: fromFile}
	}
}

// active says the lines read now are in branches that hold.
func (w *world) active() bool {
	return len(w.conds) == 0 || w.conds[len(w.conds)-1].now
}

// readUntil reads lines until only depth makefiles are open, and returns
// the worlds its conditions forked, each to be read on.
func (w *world) readUntil(depth int) []*world {
	var forks []*world
	for len(w.frames) > depth && !w.failed {
		f := w.frames[len(w.frames)-1]
		if f.i >= len(f.lines) {
			w.endFile(f)
			continue
		}
		if !w.r.step() {
			w.failed = true
			break
		}
		forks = append(forks, w.line(f)...)
	}
	return forks
}

// endFile closes a makefile read to its end.
func (w *world) endFile(f *frame) {
	switch {
	case w.defining != nil && f.conds == len(w.conds):
		w.fail(effect.Site{File: f.file, Line: len(f.lines)}, "missing 'endef', unterminated 'define'")
	case len(w.conds) > f.conds:
		w.fail(effect.Site{File: f.file, Line: len(f.lines)}, "missing 'endif'")
	}
	w.frames = w.frames[:len(w.frames)-1]
	w.cur = nil
}

// fail ends the world's make run, as make stops at an error in a
// makefile: what it was to run does not run.
func (w *world) fail(site effect.Site, msg string) {
	w.r.out.Note(fmt.Sprintf("%s: make: %s", site, msg))
	w.failed = true
}

// line reads the next logical line of f.
func (w *world) line(f *frame) []*world {
	site := effect.Site{File: f.file, Line: f.i + 1}
	if f.at > 0 {
		site.Line = f.at
	}
	first := f.lines[f.i]
	if w.defining == nil && w.cur != nil && strings.HasPrefix(first, w.recipePrefix()) {
		text := w.recipeText(f)
		if w.active() {
			w.cur.recipe = append(w.cur.recipe, recipeLine{text: text, site: site})
			w.cur.hasRecipe = true
		}
		return nil
	}
	if w.defining != nil {
		f.i++
		w.defineLine(first, site)
		return nil
	}
	text := joinLines(f)
	trimmed := strings.TrimLeft(text, " \t")
	word, rest := firstWord(trimmed)
	switch word {
	case "ifeq", "ifneq", "ifdef", "ifndef":
		return w.conditional(word, rest, site)
	case "else":
		return w.elseLine(rest, site)
	case "endif":
		if len(w.conds) == 0 || len(w.conds) <= f.conds {
			w.fail(site, "extraneous 'endif'")
			return nil
		}
		w.conds = w.conds[:len(w.conds)-1]
		return nil
	}
	if !w.active() {
		if word == "define" || (word == "override" || word == "export" || word == "private") && strings.HasPrefix(rest, "define") {
			w.defining = &defining{ignored: true}
		}
		return nil
	}
	text = stripComment(trimmed)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	w.statement(text, site)
	return nil
}

// recipePrefix is what starts a recipe line: a tab, or .RECIPEPREFIX.
func (w *world) recipePrefix() string {
	if v, ok := w.vars[".RECIPEPREFIX"]; ok {
		if s, _ := v.val.known(); s != "" {
			return s[:1]
		}
	}
	return "\t"
}

// recipeText joins a recipe line and the lines its backslashes continue
// onto, as make gives them to the shell: the backslash and newline kept,
// the recipe prefix of each continued line taken off.
func (w *world) recipeText(f *frame) string {
	prefix := w.recipePrefix()
	s := strings.TrimPrefix(f.lines[f.i], prefix)
	f.i++
	for continued(s) && f.i < len(f.lines) {
		s += "\n" + strings.TrimPrefix(f.lines[f.i], prefix)
		f.i++
	}
	return s
}

// continued says a line ends with a backslash that continues it.
func continued(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// joinLines reads a logical line that is not a recipe's: each backslash
// and newline, with the space around them, becomes one space.
func joinLines(f *frame) string {
	s := f.lines[f.i]
	f.i++
	for continued(s) && f.i < len(f.lines) {
		s = strings.TrimRight(s[:len(s)-1], " \t") + " " + strings.TrimLeft(f.lines[f.i], " \t")
		f.i++
	}
	return strings.TrimSuffix(s, "\r")
}

// stripComment cuts a line at its first # not escaped with a backslash.
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '#' {
				s = s[:i] + s[i+1:]
			}
		case '#':
			return s[:i]
		}
	}
	return s
}

func firstWord(s string) (word, rest string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// defineLine reads a line of a define's body.
func (w *world) defineLine(line string, site effect.Site) {
	d := w.defining
	word, rest := firstWord(strings.TrimLeft(line, " \t"))
	switch {
	case word == "endef" && (strings.TrimSpace(stripComment(rest)) == ""):
		if d.nest > 0 {
			d.nest--
			break
		}
		w.defining = nil
		if !d.ignored {
			w.assign(d.name, d.op, lit(strings.Join(d.body, "\n")), d.override, d.export, site)
		}
		return
	case word == "define":
		d.nest++
	}
	d.body = append(d.body, line)
}

// statement reads a line that is not a conditional: a directive, an
// assignment, a rule, or text expanded for what it does ($(info),
// $(eval)).
func (w *world) statement(text string, site effect.Site) {
	word, rest := firstWord(text)
	switch word {
	case "include", "-include", "sinclude":
		w.cur = nil
		w.include(rest, word == "include", site)
		return
	case "define":
		w.cur = nil
		w.startDefine(rest, false, false)
		return
	case "undefine":
		w.cur = nil
		w.undefine(rest, false, site)
		return
	case "vpath", "load", "-load":
		w.cur = nil
		return
	}
	var override, export, unexport bool
	body := text
	for prefix := true; prefix; {
		word, rest := firstWord(body)
		switch word {
		case "override":
			override = true
		case "export":
			export = true
		case "unexport":
			unexport = true
		case "private":
		default:
			prefix = false
			continue
		}
		body = rest
	}
	if override || export || unexport {
		if word, rest := firstWord(body); word == "define" {
			w.cur = nil
			w.startDefine(rest, override, export)
			return
		} else if word == "undefine" {
			w.cur = nil
			w.undefine(rest, override, site)
			return
		}
	}
	if as, ok := parseAssignment(body); ok {
		w.cur = nil
		c := w.ctx(site)
		name, known := c.expand(lit(as.name)).known()
		if !known || strings.TrimSpace(name) == "" {
			w.r.out.Note(fmt.Sprintf("%s: make: an assignment to a variable named while make runs: %s", site, as.name))
			return
		}
		name = strings.TrimSpace(name)
		w.assign(name, as.op, as.val, override, export, site)
		if unexport {
			w.exported[name] = -1
		}
		return
	}
	if export || unexport {
		// export NAME..., unexport NAME..., or export alone.
		w.cur = nil
		names := w.ctx(site).expand(lit(body)).fields()
		if len(names) == 0 {
			w.exportAll = export
		}
		for _, n := range names {
			s, _ := n.known()
			w.exported[s] = 1
			if unexport {
				w.exported[s] = -1
			}
		}
		return
	}
	w.ruleLine(text, site)
}

func (w *world) startDefine(rest string, override, export bool) {
	rest = strings.TrimSpace(stripComment(rest))
	name, op := rest, "="
	for _, o := range []string{":::=", "::=", ":=", "+=", "?=", "!=", "="} {
		if strings.HasSuffix(rest, o) {
			name, op = strings.TrimSpace(strings.TrimSuffix(rest, o)), o
			break
		}
	}
	w.defining = &defining{name: name, op: op, override: override, export: export}
}

func (w *world) undefine(rest string, override bool, site effect.Site) {
	for _, n := range w.ctx(site).expand(lit(stripComment(rest))).fields() {
		s, _ := n.known()
		if v, ok := w.vars[s]; ok && (v.origin < fromCommand || override) {
			delete(w.vars, s)
		}
	}
}

// parseAssignment reads a line as an assignment, NAME OP VALUE, when its
// first = or : outside a reference is an assignment's operator.
func parseAssignment(s string) (assignment, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '=', ':', '?', '+', '!':
			if depth > 0 {
				continue
			}
			op := ""
			for _, o := range []string{":::=", "::=", ":=", "?=", "+=", "!=", "="} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if c == ':' && op == "" {
				return assignment{}, false // a rule
			}
			if op == "" {
				continue
			}
			name := strings.TrimSpace(s[:i])
			if name == "" || strings.ContainsAny(name, " \t") {
				return assignment{}, false
			}
			return assignment{name: name, op: op, val: lit(strings.TrimLeft(s[i+len(op):], " \t"))}, true
		case ' ', '\t':
		case ';', '#':
			if depth == 0 {
				return assignment{}, false
			}
		}
	}
	return assignment{}, false
}

// assign sets a variable as the makefile's line does, unless the command
// line (or the environment, under -e) has it.
func (w *world) assign(name, op string, val value, override, export bool, site effect.Site) {
	old, defined := w.vars[name]
	if export {
		w.exported[name] = 1
	}
	if defined && !override && (old.origin == fromCommand || old.origin == fromOverride ||
		old.origin == fromEnv && w.r.cl.envOverrides) {
		return
	}
	v := &variable{origin: fromFile}
	if override {
		v.origin = fromOverride
	}
	c := w.ctx(site)
	switch op {
	case "=":
		v.val, v.recursive = val, true
	case ":=", "::=":
		v.val = c.expand(val)
	case ":::=":
		v.val, v.recursive = escapeDollars(c.expand(val)), true
	case "?=":
		if defined {
			return
		}
		v.val, v.recursive = val, true
	case "+=":
		switch {
		case !defined:
			v.val, v.recursive = val, true
		case old.recursive:
			v.val, v.recursive = joinSpace(old.val, val), true
		default:
			v.val = joinSpace(old.val, c.expand(val))
		}
	case "!=":
		v.val = c.shell(c.expand(val))
	}
	w.vars[name] = v
}

// joinSpace appends b to a with a space between, as += does.
func joinSpace(a, b value) value {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	return cat(a, lit(" "), b)
}

// escapeDollars doubles the dollar signs of known text, so that a value
// expanded once keeps its text when expanded again (:::=).
func escapeDollars(v value) value {
	out := make(value, len(v))
	for i, p := range v {
		if p.kind == literal {
			p.text = strings.ReplaceAll(p.text, "$", "$$")
		}
		out[i] = p
	}
	return out
}

// include reads the makefiles an include names, relative to make's
// directory or one of -I's; one that cannot be read stops make, unless
// the line is -include or sinclude.
func (w *world) include(rest string, must bool, site effect.Site) {
	c := w.ctx(site)
	names := c.expand(lit(stripComment(rest))).fields()
	if len(w.frames) >= maxDepth {
		w.fail(site, "includes nested too deeply to follow")
		return
	}
	// The last is read first: the frames are a stack.
	var found []makefile
	for _, n := range names {
		s, known := n.known()
		if !known {
			if must {
				w.r.out.Note(fmt.Sprintf("%s: make: include of a makefile named while make runs: %s", site, n.key()))
			}
			continue
		}
		src, ok := w.r.readInclude(s)
		if !ok {
			if must {
				w.r.out.Note(fmt.Sprintf("%s: make: include of %s, which is none of the action's files", site, s))
			}
			continue
		}
		found = append(found, src)
	}
	for i := len(found) - 1; i >= 0; i-- {
		w.push(found[i])
	}
}

// readInclude finds an included makefile.
func (r *reader) readInclude(name string) (makefile, bool) {
	if r.env.Files == nil || len(name) > 4096 {
		return makefile{}, false
	}
	var dirs []string
	if path.IsAbs(name) {
		dirs = []string{""}
	} else {
		dirs = append(dirs, r.dirPath())
		for _, inc := range r.cl.includes {
			if s, ok := inc.known(); ok {
				dirs = append(dirs, path.Join(r.dirPath(), s))
			}
		}
	}
	for _, d := range dirs {
		p := name
		if d != "" {
			p = path.Join(d, name)
		}
		if src, err := r.env.Files.Read(p); err == nil {
			if len(src.Text) > maxText {
				r.out.Note(fmt.Sprintf("%s: make: makefile of %d bytes, more than the %d read", src.Path, len(src.Text), maxText))
				return makefile{}, false
			}
			return makefile{path: src.Path, name: name, text: src.Text}, true
		}
	}
	return makefile{}, false
}

// dirPath is make's directory as the files of the action name it: the
// directory when known, else the one that stands in for it.
func (r *reader) dirPath() string {
	if r.dir == nil {
		return "."
	}
	if d, ok := r.dir.known(); ok {
		return d
	}
	return r.standIn
}

// conditional reads ifeq, ifneq, ifdef and ifndef. A condition not decided
// forks the world: this one reads the branch, the fork what follows it.
func (w *world) conditional(word, rest string, site effect.Site) []*world {
	if !w.active() {
		w.conds = append(w.conds, cond{outer: false, done: true})
		return nil
	}
	holds, known := w.decide(word, rest, site)
	if known {
		w.conds = append(w.conds, cond{outer: true, now: holds, done: holds})
		return nil
	}
	fork := w.fork(site)
	w.conds = append(w.conds, cond{outer: true, now: true, done: true})
	if fork == nil {
		return nil
	}
	fork.conds = append(fork.conds, cond{outer: true})
	return []*world{fork}
}

// fork is a copy of the world to read the branch of a condition not
// decided that this one does not; nil past the bound, or in an $(eval),
// where this world reads the branch alone and says so.
func (w *world) fork(site effect.Site) *world {
	if w.inEval > 0 || w.r.worlds >= maxWorlds {
		w.r.out.Note(fmt.Sprintf("%s: make: a condition not decided, past the %d readings followed: only its first branch is read", site, maxWorlds))
		return nil
	}
	w.r.worlds++
	return w.clone()
}

// elseLine reads else, and else ifeq ... .
func (w *world) elseLine(rest string, site effect.Site) []*world {
	if len(w.conds) == 0 {
		w.fail(site, "extraneous 'else'")
		return nil
	}
	c := &w.conds[len(w.conds)-1]
	if c.sawElse {
		w.fail(site, "only one 'else' per conditional")
		return nil
	}
	word, cond := firstWord(strings.TrimSpace(stripComment(rest)))
	if word == "" {
		c.sawElse = true
		c.now = c.outer && !c.done
		c.done = c.done || c.now
		return nil
	}
	if c.done || !c.outer {
		c.now = false
		return nil
	}
	switch word {
	case "ifeq", "ifneq", "ifdef", "ifndef":
	default:
		w.fail(site, "extraneous text after 'else' directive")
		return nil
	}
	holds, known := w.decide(word, cond, site)
	if known {
		c.now, c.done = holds, holds
		return nil
	}
	fork := w.fork(site)
	c = &w.conds[len(w.conds)-1]
	c.now, c.done = true, true
	if fork == nil {
		return nil
	}
	fc := &fork.conds[len(fork.conds)-1]
	fc.now, fc.done = false, false
	return []*world{fork}
}

// decide says whether a condition holds, when it can.
func (w *world) decide(word, rest string, site effect.Site) (holds, known bool) {
	c := w.ctx(site)
	rest = strings.TrimSpace(stripComment(rest))
	switch word {
	case "ifdef", "ifndef":
		name, ok := c.expand(lit(rest)).known()
		if !ok {
			return false, false
		}
		v, defined := w.vars[strings.TrimSpace(name)]
		set := defined && len(v.val) > 0
		if set {
			// ifdef asks whether the value is empty as written, not
			// expanded: X = $(EMPTY) is defined.
			if s, ok := v.val.known(); ok && s == "" {
				set = false
			}
		}
		return set == (word == "ifdef"), true
	}
	a, b, ok := condArgs(rest)
	if !ok {
		w.fail(site, "invalid syntax in conditional")
		return false, true
	}
	x, y := c.expand(lit(a)), c.expand(lit(b))
	xs, xk := x.known()
	ys, yk := y.known()
	switch {
	case xk && yk:
		return (xs == ys) == (word == "ifeq"), true
	case same(x, y):
		return word == "ifeq", true
	}
	return false, false
}

// condArgs reads the two arguments of ifeq and ifneq: (a,b), "a" "b",
// 'a' 'b', or a mix of quotes.
func condArgs(s string) (a, b string, ok bool) {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		inner := s[1 : len(s)-1]
		depth := 0
		for i := 0; i < len(inner); i++ {
			switch inner[i] {
			case '(', '{':
				depth++
			case ')', '}':
				depth--
			case ',':
				if depth == 0 {
					return strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:]), true
				}
			}
		}
		return "", "", false
	}
	quoted := func(s string) (string, string, bool) {
		if s == "" || (s[0] != '"' && s[0] != '\'') {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", false
		}
		return s[1 : 1+end], strings.TrimLeft(s[2+end:], " \t"), true
	}
	a, rest, ok := quoted(s)
	if !ok {
		return "", "", false
	}
	b, rest, ok = quoted(rest)
	return a, b, ok && rest == ""
}

// ruleLine reads a rule: targets, a colon (two for double-colon rules),
// the prerequisites (after | order-only ones), a recipe after ;, or the
// assignments that hold for the targets.
func (w *world) ruleLine(text string, site effect.Site) {
	w.cur = nil
	c := w.ctx(site)
	head, recipe, hasRecipe := cutTop(text, ';')
	i := colon(head)
	if i < 0 {
		// The colon may come from an expansion ($(RULE)), or the line
		// is one expanded for what it does.
		x := c.expand(lit(head))
		s, known := x.known()
		if !known || colon(s) < 0 {
			if strings.TrimSpace(x.key()) != "" {
				w.fail(site, "missing separator")
			}
			return
		}
		head, i = s, colon(s)
	}
	left, right := head[:i], head[i+1:]
	double := strings.HasPrefix(right, ":")
	if double {
		right = right[1:]
	}
	left = strings.TrimSuffix(strings.TrimRight(left, " \t"), "&") // grouped targets
	targets, _ := knownWords(c.expand(lit(left)).fields())
	if tv, ok := w.targetAssignment(right, recipe, hasRecipe); ok {
		for _, t := range targets {
			tv.target = t
			if tv.op == ":=" || tv.op == "::=" {
				tv.val = c.expand(tv.val)
			}
			w.tvars = append(w.tvars, tv)
		}
		return
	}
	rl := &rule{double: double, site: site}
	for _, t := range c.expand(lit(left)).fields() {
		rl.targets = append(rl.targets, t.key())
	}
	if j := colon(right); j >= 0 {
		rl.pattern = strings.TrimSpace(c.expand(lit(right[:j])).key())
		right = right[j+1:]
	}
	normal, orderOnly, _ := strings.Cut(c.expand(lit(right)).key(), "|")
	rl.prereqs = strings.Fields(normal)
	rl.orderOnly = strings.Fields(orderOnly)
	if hasRecipe {
		rl.hasRecipe = true
		rl.recipe = append(rl.recipe, recipeLine{text: strings.TrimLeft(recipe, " \t"), site: site})
	}
	w.rules = append(w.rules, rl)
	w.cur = rl
	if w.goal == "" {
		for _, t := range rl.targets {
			if !strings.Contains(t, "%") && (!strings.HasPrefix(t, ".") || strings.Contains(t, "/")) {
				w.goal = t
				break
			}
		}
	}
}

// targetAssignment reads what follows a rule's colon as an assignment
// that holds for its targets, when it is one.
func (w *world) targetAssignment(right, recipe string, hasRecipe bool) (targetVar, bool) {
	s := right
	if hasRecipe {
		s += ";" + recipe
	}
	var tv targetVar
	for {
		word, rest := firstWord(strings.TrimLeft(s, " \t"))
		switch word {
		case "override":
			tv.override = true
		case "export", "private":
		default:
			as, ok := parseAssignment(s)
			if !ok {
				return tv, false
			}
			tv.name, tv.op, tv.val = as.name, as.op, as.val
			return tv, true
		}
		s = rest
	}
}

// cutTop cuts s at the first sep outside a reference.
func cutTop(s string, sep byte) (before, after string, found bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth = max(0, depth-1)
		case sep:
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// colon is the index of the first colon of a rule outside a reference,
// or -1.
func colon(s string) int {
	before, _, found := cutTop(s, ':')
	if !found {
		return -1
	}
	return len(before)
}

// newWorld is the world before any makefile is read: make's own
// variables, its defaults, the environment's and the command line's.
func (r *reader) newWorld() *world {
	w := &world{r: r, vars: map[string]*variable{}, exported: map[string]int8{}}
	set := func(name string, v value, o origin) { w.vars[name] = &variable{val: v, origin: o} }
	if !r.cl.noVars {
		for name, text := range defaultVariables {
			w.vars[name] = &variable{val: lit(text), recursive: true, origin: fromDefault}
		}
	}
	set("MAKE", lit("make"), fromDefault)
	set("MAKE_VERSION", lit("4.3"), fromDefault)
	set("SHELL", lit("/bin/sh"), fromDefault)
	set(".SHELLFLAGS", lit("-c"), fromDefault)
	set("MAKEFLAGS", lit(r.cl.makeflags), fromFile)
	set("MAKELEVEL", lit("0"), fromEnv)
	set("MAKEFILE_LIST", nil, fromFile)
	var goals []value
	goals = append(goals, r.cl.goals...)
	set("MAKECMDGOALS", join(goals), fromDefault)
	switch d, known := r.dir.known(); {
	case r.dir != nil && known && path.IsAbs(d):
		set("CURDIR", lit(d), fromFile)
	default:
		set("CURDIR", value{{kind: curdir}}, fromFile)
	}
	for _, kv := range r.p.Env {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name == "SHELL" || name == "MAKEFLAGS" || name == "MAKELEVEL" {
			continue
		}
		w.vars[name] = &variable{val: lit(v), recursive: true, origin: fromEnv}
	}
	for _, as := range r.cl.assigns {
		v := &variable{origin: fromCommand}
		switch as.op {
		case ":=", "::=":
			v.val = w.ctx(r.p.Site).expand(as.val)
		case "+=":
			old := w.vars[as.name]
			if old == nil {
				v.val, v.recursive = as.val, true
			} else {
				v.val, v.recursive = joinSpace(old.val, as.val), old.recursive
			}
		default:
			v.val, v.recursive = as.val, true
		}
		w.vars[as.name] = v
	}
	return w
}
