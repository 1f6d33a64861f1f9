package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// fields expands words into the fields a command sees: "$@" becomes one
// field per positional parameter, and an unquoted expansion with a known
// value is split on blanks. Globs are left as written.
func (a *analyzer) fields(fr frame, st *state, words []*syntax.Word) []value {
	var out []value
	for _, w := range words {
		out = append(out, a.expand(fr, st, w)...)
	}
	return out
}

// fieldBuilder collects fields while a word is expanded.
type fieldBuilder struct {
	fields  []value
	cur     value
	started bool // cur holds something, if only an empty quoted string
}

func (b *fieldBuilder) add(p Part, taints []taint, quoted bool) {
	b.cur.parts = append(b.cur.parts, p)
	b.cur.taint = append(b.cur.taint, taints...)
	b.cur.quoted = b.cur.quoted || quoted
	b.started = true
}

func (b *fieldBuilder) split() {
	if b.started {
		b.fields = append(b.fields, b.cur)
	}
	b.cur = value{}
	b.started = false
}

// addSplit adds an unquoted expansion: a known value is split on blanks.
func (b *fieldBuilder) addSplit(v value) {
	s, ok := v.known()
	if !ok {
		for _, p := range v.parts {
			b.add(p, nil, false)
		}
		b.cur.taint = append(b.cur.taint, v.taint...)
		if len(v.parts) == 0 && len(v.taint) > 0 {
			b.started = true
		}
		return
	}
	words := strings.Fields(s)
	if len(words) == 0 {
		// An empty unquoted expansion adds nothing, not even an empty field.
		b.cur.taint = append(b.cur.taint, v.taint...)
		return
	}
	if s[0] == ' ' || s[0] == '\t' || s[0] == '\n' {
		b.split()
	}
	for i, w := range words {
		if i > 0 {
			b.split()
		}
		b.add(Part{Text: w, Known: true}, v.taint, false)
	}
	if last := s[len(s)-1]; last == ' ' || last == '\t' || last == '\n' {
		b.split()
	}
}

// expand expands one word into fields.
func (a *analyzer) expand(fr frame, st *state, w *syntax.Word) []value {
	var b fieldBuilder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				b.addSplit(a.tilde(fr, st, p))
				continue
			}
			b.add(Part{Text: unescape(p.Value), Known: true}, nil, false)
		case *syntax.SglQuoted:
			b.add(Part{Text: sglValue(p), Known: true}, nil, true)
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				if pe, ok := p.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "@" && simpleParam(pe) {
					// "$@": one field per parameter.
					params := st.positional[min(1, len(st.positional)):]
					for i, v := range params {
						if i > 0 {
							b.split()
						}
						for _, vp := range v.parts {
							b.add(vp, nil, true)
						}
						b.cur.taint = append(b.cur.taint, v.taint...)
						b.started = true
					}
					continue
				}
			}
			v := a.quoted(fr, st, p.Parts)
			if len(v.parts) == 0 {
				b.started = true
				b.cur.quoted = true
			}
			for _, vp := range v.parts {
				b.add(vp, nil, true)
			}
			b.cur.taint = append(b.cur.taint, v.taint...)
		case *syntax.ParamExp:
			if pe := p; pe.Param != nil && (pe.Param.Value == "@" || pe.Param.Value == "*") && simpleParam(pe) {
				for _, v := range st.positional[min(1, len(st.positional)):] {
					b.split()
					b.addSplit(v)
				}
				continue
			}
			b.addSplit(a.paramExp(fr, st, p))
		default:
			v := a.part(fr, st, part)
			for _, vp := range v.parts {
				b.add(vp, nil, false)
			}
			b.cur.taint = append(b.cur.taint, v.taint...)
		}
	}
	b.split()
	for i := range b.fields {
		b.fields[i].parts = capParts(b.fields[i].parts)
	}
	return b.fields
}

// value resolves a word as one value, without splitting: an assignment's
// knownValue is a word whose text is known: s.
func knownValue(s string) value { return value{parts: []Part{{Text: s, Known: true}}} }

// value, a redirection's file, a here-document.
func (a *analyzer) value(fr frame, st *state, w *syntax.Word, quotedCtx bool) value {
	var v value
	for _, part := range w.Parts {
		var pv value
		if lit, ok := part.(*syntax.Lit); ok {
			text := lit.Value
			if quotedCtx {
				text = unescapeQuoted(text)
			} else {
				text = unescape(text)
			}
			pv = value{parts: []Part{{Text: text, Known: true}}}
		} else if dq, ok := part.(*syntax.DblQuoted); ok {
			pv = a.quoted(fr, st, dq.Parts)
		} else {
			pv = a.part(fr, st, part)
		}
		v.parts = append(v.parts, pv.parts...)
		v.taint = append(v.taint, pv.taint...)
	}
	v.parts = capParts(v.parts)
	return v
}

// capParts bounds the text a word keeps.
func capParts(parts []Part) []Part {
	total := 0
	for i, p := range parts {
		total += len(p.Text)
		if total > maxWordLen {
			out := slices.Clone(parts[:i])
			return append(out, Part{Text: "..."})
		}
	}
	return parts
}

// quoted resolves the parts of a double-quoted string.
func (a *analyzer) quoted(fr frame, st *state, parts []syntax.WordPart) value {
	var v value
	for _, part := range parts {
		var pv value
		if lit, ok := part.(*syntax.Lit); ok {
			pv = value{parts: []Part{{Text: unescapeQuoted(lit.Value), Known: true}}}
		} else {
			pv = a.part(fr, st, part)
		}
		v.parts = append(v.parts, pv.parts...)
		v.taint = append(v.taint, pv.taint...)
	}
	v.quoted = true
	return v
}

// part resolves an expansion.
func (a *analyzer) part(fr frame, st *state, part syntax.WordPart) value {
	switch p := part.(type) {
	case *syntax.Lit:
		return value{parts: []Part{{Text: unescape(p.Value), Known: true}}}
	case *syntax.SglQuoted:
		return value{parts: []Part{{Text: sglValue(p), Known: true}}}
	case *syntax.DblQuoted:
		return a.quoted(fr, st, p.Parts)
	case *syntax.ParamExp:
		return a.paramExp(fr, st, p)
	case *syntax.CmdSubst:
		return a.cmdSubst(fr, st, p)
	case *syntax.ArithmExp:
		return value{parts: []Part{{Text: a.nodeText(fr, p)}}, taint: a.arithm(fr, st, p.X)}
	case *syntax.ProcSubst:
		return a.procSubst(fr, st, p)
	case *syntax.ExtGlob:
		return value{parts: []Part{{Text: a.nodeText(fr, p), Known: true}}}
	}
	return value{parts: []Part{{Text: a.nodeText(fr, part)}}}
}

func (a *analyzer) nodeText(fr frame, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(fr.text) || start > end {
		return "?"
	}
	return fr.text[start:end]
}

func (a *analyzer) cmdSubst(fr frame, st *state, cs *syntax.CmdSubst) value {
	p := a.g.add(pipeNode, -1)
	if a.writers == nil {
		a.writers = map[int][]writer{}
	}
	a.writers[p] = []writer{}
	inner := fr
	inner.out = dest{node: p}
	inner.ctx = appendCtx(fr.ctx, Context{Kind: InSubstitution})
	// What it prints is a word of the command around, which decides.
	inner.status = -1
	a.stmts(inner, st.clone(), cs.Stmts, false)
	// A substitution of nothing but paths (mktemp, pwd) is a path; of
	// nothing but temporary names, one under which no output lies.
	writers := a.writers[p]
	delete(a.writers, p)
	// One command whose output the library computes: a known word.
	if len(writers) == 1 && writers[0].text != nil {
		return value{parts: []Part{{Text: strings.TrimRight(*writers[0].text, "\n"), Known: true}}}
	}
	t := taint{node: p, mode: asData}
	if len(writers) > 0 && !slices.ContainsFunc(writers, func(w writer) bool { return !w.path }) {
		t.mode = asPath
		t.temp = !slices.ContainsFunc(writers, func(w writer) bool { return !w.temp })
	}
	return value{parts: []Part{{Text: a.nodeText(fr, cs)}}, taint: []taint{t}}
}

func (a *analyzer) procSubst(fr frame, st *state, ps *syntax.ProcSubst) value {
	p := a.g.add(pipeNode, -1)
	inner := fr
	inner.ctx = appendCtx(fr.ctx, Context{Kind: InProcessSubstitution})
	inner.status = -1
	v := value{parts: []Part{{Text: a.nodeText(fr, ps)}}}
	if ps.Op == syntax.CmdOut {
		inner.stdin = []taint{{node: p, mode: asContent}}
		v.taint = []taint{{node: p, mode: asTarget}}
	} else {
		inner.out = dest{node: p}
		v.taint = []taint{{node: p, mode: asContent}}
	}
	a.stmts(inner, st.clone(), ps.Stmts, false)
	return v
}

func simpleParam(pe *syntax.ParamExp) bool {
	return !pe.Excl && !pe.Length && !pe.Width && pe.Index == nil && pe.Slice == nil &&
		pe.Repl == nil && pe.Names == 0 && pe.Exp == nil && len(pe.Modifiers) == 0
}

func (a *analyzer) paramExp(fr frame, st *state, pe *syntax.ParamExp) value {
	if pe.Param == nil {
		return value{parts: []Part{{Text: a.nodeText(fr, pe)}}}
	}
	text := a.nodeText(fr, pe)
	v := a.param(fr, st, pe.Param.Value, pe.Pos())
	v = a.relabel(v, text)
	if simpleParam(pe) {
		return v
	}
	unknown := value{parts: []Part{{Text: text}}, taint: v.taint}
	switch {
	case pe.Excl || pe.Names != 0:
		return value{parts: []Part{{Text: text}}}
	case pe.Exp != nil:
		return a.paramDefault(fr, st, pe, v, unknown)
	case pe.Repl != nil:
		if pe.Repl.Orig != nil {
			unknown.taint = append(unknown.taint, a.value(fr, st, pe.Repl.Orig, true).taint...)
		}
		if pe.Repl.With != nil {
			unknown.taint = append(unknown.taint, a.value(fr, st, pe.Repl.With, true).taint...)
		}
	case pe.Index != nil:
		unknown.taint = append(unknown.taint, a.arithm(fr, st, pe.Index)...)
	case pe.Slice != nil:
		if pe.Slice.Offset != nil {
			unknown.taint = append(unknown.taint, a.arithm(fr, st, pe.Slice.Offset)...)
		}
		if pe.Slice.Length != nil {
			unknown.taint = append(unknown.taint, a.arithm(fr, st, pe.Slice.Length)...)
		}
	}
	return unknown
}

// paramDefault is ${x:-word} and its kin: the word when the parameter is
// unset (or null), the parameter otherwise, and unknown when the script
// cannot say which.
func (a *analyzer) paramDefault(fr frame, st *state, pe *syntax.ParamExp, v, unknown value) value {
	var word value
	if pe.Exp.Word != nil {
		word = a.value(fr, st, pe.Exp.Word, true)
	}
	unknown.taint = append(unknown.taint, word.taint...)
	set, setKnown := a.isSet(st, pe.Param.Value)
	if !setKnown {
		return unknown
	}
	s, known := v.known()
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		orNull := pe.Exp.Op == syntax.DefaultUnsetOrNull || pe.Exp.Op == syntax.AssignUnsetOrNull
		switch {
		case !set || known && s == "" && orNull:
			if pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull {
				st.set(pe.Param.Value, word, false)
			}
			return word
		case known && s != "":
			return v
		}
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if !set {
			return value{parts: []Part{{Known: true}}}
		}
		if known && (s != "" || pe.Exp.Op == syntax.AlternateUnset) {
			return word
		}
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return v
	}
	return unknown
}

// relabel writes a value's unknown parts as the expansion that produced
// them, so `$x` reads as `$x` rather than as where x came from.
func (a *analyzer) relabel(v value, text string) value {
	if _, ok := v.known(); ok {
		return v
	}
	if len(v.parts) == 1 {
		v.parts = []Part{{Text: text}}
	}
	return v
}

// isSet says whether a parameter is set, and whether the script says so:
// a variable the script neither set nor unset may come from the
// environment.
func (a *analyzer) isSet(st *state, name string) (set, known bool) {
	if v, ok := st.get(name); ok {
		return !v.unset, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		return n < len(st.positional), true
	}
	if a.unsetByEnvironment(name) {
		return false, true
	}
	return false, false
}

// unsetByEnvironment says a variable the script never set is unset: the
// environment the action gives is known whole (Bazel gives an action the
// variables aquery lists and no others) and the shell sets no variable
// of that name itself (its table has no $NAME).
func (a *analyzer) unsetByEnvironment(name string) bool {
	if a.opts.Env == nil || !isName(name) {
		return false
	}
	_, shells := a.variable(name)
	return !shells
}

// param is the value of a parameter by name.
func (a *analyzer) param(fr frame, st *state, name string, pos syntax.Pos) value {
	unknown := value{parts: []Part{{Text: "$" + name}}}
	if n, err := strconv.Atoi(name); err == nil {
		if n < len(st.positional) {
			return st.positional[n]
		}
		return value{parts: []Part{{Known: true}}}
	}
	switch name {
	case "#":
		return value{parts: []Part{{Text: strconv.Itoa(max(0, len(st.positional)-1)), Known: true}}}
	case "@", "*":
		return a.allPositional(st)
	case "?", "-", "_", "LINENO":
		return unknown
	}
	if v, ok := st.get(name); ok {
		if v.unset {
			return value{parts: []Part{{Known: true}}}
		}
		return v.val
	}
	switch name {
	case "PWD":
		if st.cwd != nil && (isKnownPath(st.cwd) || len(st.cwd.taint) > 0) {
			return *st.cwd
		}
	case "OLDPWD":
		if st.oldcwd != nil {
			return *st.oldcwd
		}
		if st.cwd == nil {
			return unknown
		}
	}
	if a.unsetByEnvironment(name) {
		return value{parts: []Part{{Known: true}}}
	}
	// What the shell itself sets ($RANDOM, $$, $PWD), as the library says.
	if f, ok := a.variable(name); ok && len(f.Effects) > 0 {
		e := f.Effects[0]
		t := taint{node: a.newSource(fr, e.Value, "$"+name, e.Because, pos), mode: asData}
		if f.Returns == "path" {
			t.mode, t.temp = asPath, e.Value == effect.TempName
		}
		unknown.taint = []taint{t}
	}
	return unknown
}

// tilde expands a word's leading ~ (~/x, ~user): HOME when the script or
// the action sets it, else the home directory of the account running the
// build, which the library says varies.
func (a *analyzer) tilde(fr frame, st *state, p *syntax.Lit) value {
	prefix, rest, _ := strings.Cut(p.Value, "/")
	if rest != "" || strings.Contains(p.Value, "/") {
		rest = "/" + rest
	}
	if prefix == "~" {
		if home, ok := st.get("HOME"); ok && !home.unset {
			v := home.val
			v.parts = append(slices.Clone(v.parts), Part{Text: unescape(rest), Known: true})
			return v
		}
	}
	v := value{parts: []Part{{Text: prefix}, {Text: unescape(rest), Known: true}}}
	if f, ok := a.lib.Function("sh", "~"); ok && len(f.Effects) > 0 {
		e := f.Effects[0]
		v.taint = []taint{{node: a.newSource(fr, e.Value, prefix, e.Because, p.Pos()), mode: asPath}}
	}
	return v
}

// variable finds a variable the shell sets among the library's functions
// of its dialect: bash's own, then POSIX sh's.
func (a *analyzer) variable(name string) (spec.Function, bool) {
	if a.dialect == Bash {
		if f, ok := a.lib.Function("bash", "$"+name); ok {
			return f, true
		}
	}
	return a.lib.Function("sh", "$"+name)
}

func (a *analyzer) allPositional(st *state) value {
	var v value
	for i, p := range st.positional[min(1, len(st.positional)):] {
		if i > 0 {
			v.parts = append(v.parts, Part{Text: " ", Known: true})
		}
		v.parts = append(v.parts, p.parts...)
		v.taint = append(v.taint, p.taint...)
	}
	if v.parts == nil {
		v.parts = []Part{{Known: true}}
	}
	return v
}

// unescape removes the backslashes of an unquoted literal.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeQuoted removes the backslashes that escape in double quotes.
func unescapeQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// sglValue is a single-quoted string's value; $'...' gets its common
// escapes.
func sglValue(q *syntax.SglQuoted) string {
	if !q.Dollar {
		return q.Value
	}
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, `'`, `\"`, `"`, `\e`, "\x1b", `\r`, "\r")
	return r.Replace(q.Value)
}
