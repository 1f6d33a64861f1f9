package make

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
)

// ctx is what an expansion sees: the world, the line it is written on,
// and in a recipe the job's automatic and target-specific variables.
type ctx struct {
	w      *world
	site   effect.Site
	auto   map[string]value
	local  map[string]*variable
	active map[string]bool // recursive variables being expanded
	depth  int
	recipe bool
}

func (w *world) ctx(site effect.Site) *ctx {
	return &ctx{w: w, site: site, active: map[string]bool{}}
}

// with is the context with a variable bound ($(foreach), $(call)).
func (c *ctx) with(bind map[string]*variable) *ctx {
	x := *c
	x.local = make(map[string]*variable, len(c.local)+len(bind))
	for k, v := range c.local {
		x.local[k] = v
	}
	for k, v := range bind {
		x.local[k] = v
	}
	x.depth++
	return &x
}

func (c *ctx) note(format string, args ...any) {
	c.w.r.out.Note(fmt.Sprintf("%s: make: ", c.site) + fmt.Sprintf(format, args...))
}

// lookup finds a variable: automatic, then target-specific, then global.
func (c *ctx) lookup(name string) (*variable, bool) {
	if c.auto != nil {
		if v, ok := c.automatic(name); ok {
			return &variable{val: v, origin: automatic}, true
		}
	}
	if v, ok := c.local[name]; ok {
		return v, true
	}
	v, ok := c.w.vars[name]
	return v, ok
}

// automatic is $@, $<, $^, $+, $?, $*, $|, and their D and F forms.
func (c *ctx) automatic(name string) (value, bool) {
	if v, ok := c.auto[name]; ok {
		return v, true
	}
	if len(name) != 2 || (name[1] != 'D' && name[1] != 'F') {
		return nil, false
	}
	v, ok := c.auto[name[:1]]
	if !ok {
		return nil, false
	}
	var out []value
	for _, w := range v.fields() {
		d, f := c.splitDir(w)
		if name[1] == 'D' {
			s, known := d.known()
			switch {
			case known && s == "":
				d = lit(".")
			case known:
				d = lit(strings.TrimSuffix(s, "/"))
			}
			out = append(out, d)
		} else {
			out = append(out, f)
		}
	}
	return join(out), true
}

// expand expands a value's known text; what is not known is kept.
func (c *ctx) expand(v value) value {
	if c.depth > maxDepth {
		c.note("expansions nested too deeply to follow")
		return nil
	}
	var out value
	for _, p := range v {
		if p.kind != literal {
			out = append(out, p)
			continue
		}
		if !strings.Contains(p.text, "$") {
			out = cat(out, value{p})
			continue
		}
		out = cat(out, c.expandText(p.text))
		if out.size() > maxValue {
			c.note("a value of more than %d bytes", maxValue)
			return c.w.r.opaque("a value too long to follow", out)
		}
	}
	return out
}

func (c *ctx) expandText(s string) value {
	var out value
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		out = cat(out, lit(s[start:i]))
		start = len(s)
		if i+1 >= len(s) {
			break
		}
		if !c.w.r.step() {
			return out
		}
		switch ch := s[i+1]; ch {
		case '$':
			out = cat(out, lit("$"))
			i++
		case '(', '{':
			end := matching(s, i+1)
			if end < 0 {
				c.note("unterminated variable reference")
				return out
			}
			out = cat(out, c.reference(s[i+2:end], ch))
			i = end
		default:
			out = cat(out, c.variable(string(ch)))
			i++
		}
		start = i + 1
	}
	if start < len(s) {
		out = cat(out, lit(s[start:]))
	}
	return out
}

// matching is the index of the parenthesis or brace that closes the one
// at open, counting those of its kind, as make does; -1 if none does.
func matching(s string, open int) int {
	o := s[open]
	cl := byte(')')
	if o == '{' {
		cl = '}'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case cl:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// reference expands $(content): a function call, a substitution
// reference $(VAR:a=b), or a variable.
func (c *ctx) reference(content string, open byte) value {
	name, args := firstWord(content)
	if f, ok := functions[name]; ok && len(content) > len(name) && (content[len(name)] == ' ' || content[len(name)] == '\t') {
		return f.call(c, splitArgs(args, f.max), "$"+string(open)+content+closer(open))
	}
	if before, after, found := cutTop(content, ':'); found {
		if from, to, ok := strings.Cut(after, "="); ok {
			n, known := c.expand(lit(before)).known()
			if !known {
				return c.w.r.opaque("$(" + content + ")")
			}
			return c.patsubst(c.expand(lit(from)), c.expand(lit(to)), c.variable(n), true)
		}
	}
	n, known := c.expand(lit(content)).known()
	if !known {
		c.note("a variable named while make runs: $(%s)", content)
		return c.w.r.opaque("$(" + content + ")")
	}
	return c.variable(n)
}

func closer(open byte) string {
	if open == '{' {
		return "}"
	}
	return ")"
}

// variable is the value of a variable, expanded when it is recursive.
func (c *ctx) variable(name string) value {
	v, ok := c.lookup(name)
	if !ok {
		return nil
	}
	if !v.recursive {
		return v.val
	}
	if c.active[name] {
		c.note("recursive variable %s references itself", name)
		return nil
	}
	c.active[name] = true
	x := *c
	x.depth++
	out := x.expand(v.val)
	delete(c.active, name)
	return out
}

// splitArgs splits a function's arguments at commas outside references;
// the last of max takes the rest.
func splitArgs(s string, max int) []string {
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 && (max == 0 || len(args) < max-1) {
				args = append(args, s[start:i])
				start = i + 1
			}
		}
	}
	return append(args, s[start:])
}

// shell runs a $(shell) command through the shell's reader: its value is
// the command's output, which carries what varies in what it prints, and
// what it writes into files is what make writes.
func (c *ctx) shell(cmd value) value {
	text := cmd.shellText()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	r := c.w.r
	if v, ok := r.shells[text]; ok {
		return v
	}
	var reaches []effect.Reach
	if r.env.Runner == nil {
		c.note("$(shell %s) is not read here", text)
	} else {
		o := r.env.Runner.Run(code.Program{Language: code.Shell, Text: text, Site: c.site, Env: r.p.Env, Depth: r.p.Depth + 1})
		reaches = o.Stdout
		r.out.Files = effect.AppendReaches(r.out.Files, o.Files...)
		for _, u := range o.Unread {
			r.out.Note(u)
		}
	}
	v := value{{kind: output, text: text, reaches: reaches}}
	r.shells[text] = v
	return v
}

// function is one of make's functions: how many arguments it takes (0:
// any) and what it does with them, unexpanded, and the call as written.
type function struct {
	max  int
	call func(c *ctx, args []string, text string) value
}

var functions map[string]function

func init() {
	functions = map[string]function{
		"subst":      {3, (*ctx).fnSubst},
		"patsubst":   {3, (*ctx).fnPatsubst},
		"strip":      {1, (*ctx).fnStrip},
		"findstring": {2, (*ctx).fnFindstring},
		"filter":     {2, func(c *ctx, a []string, t string) value { return c.fnFilter(a, t, true) }},
		"filter-out": {2, func(c *ctx, a []string, t string) value { return c.fnFilter(a, t, false) }},
		"sort":       {1, (*ctx).fnSort},
		"word":       {2, (*ctx).fnWord},
		"wordlist":   {3, (*ctx).fnWordlist},
		"words":      {1, (*ctx).fnWords},
		"firstword":  {1, func(c *ctx, a []string, t string) value { return c.nth(a[0], t, 1) }},
		"lastword":   {1, func(c *ctx, a []string, t string) value { return c.nth(a[0], t, -1) }},
		"dir":        {1, func(c *ctx, a []string, t string) value { return c.perDir(a[0], true) }},
		"notdir":     {1, func(c *ctx, a []string, t string) value { return c.perDir(a[0], false) }},
		"suffix":     {1, func(c *ctx, a []string, t string) value { return c.perSuffix(a[0], t, true) }},
		"basename":   {1, func(c *ctx, a []string, t string) value { return c.perSuffix(a[0], t, false) }},
		"addsuffix":  {2, func(c *ctx, a []string, t string) value { return c.affix(a, false) }},
		"addprefix":  {2, func(c *ctx, a []string, t string) value { return c.affix(a, true) }},
		"join":       {2, (*ctx).fnJoin},
		"wildcard":   {1, (*ctx).fnWildcard},
		"realpath":   {1, (*ctx).fnAbspath},
		"abspath":    {1, (*ctx).fnAbspath},
		"error":      {1, (*ctx).fnError},
		"warning":    {1, func(c *ctx, a []string, t string) value { c.expand(lit(a[0])); return nil }},
		"info":       {1, (*ctx).fnInfo},
		"shell":      {1, func(c *ctx, a []string, t string) value { return c.shell(c.expand(lit(a[0]))) }},
		"if":         {3, (*ctx).fnIf},
		"or":         {0, func(c *ctx, a []string, t string) value { return c.fnOrAnd(a, t, true) }},
		"and":        {0, func(c *ctx, a []string, t string) value { return c.fnOrAnd(a, t, false) }},
		"foreach":    {3, (*ctx).fnForeach},
		"call":       {0, (*ctx).fnCall},
		"value":      {1, (*ctx).fnValue},
		"eval":       {1, (*ctx).fnEval},
		"origin":     {1, (*ctx).fnOrigin},
		"flavor":     {1, (*ctx).fnFlavor},
		"file":       {2, (*ctx).fnFile},
		"guile":      {1, func(c *ctx, a []string, t string) value { c.note("%s is not followed", t); return c.w.r.opaque(t) }},
	}
}

// arg expands argument i, or nothing when the call has fewer.
func (c *ctx) arg(args []string, i int) value {
	if i >= len(args) {
		return nil
	}
	return c.expand(lit(args[i]))
}

func (c *ctx) fnSubst(args []string, text string) value {
	from, to, in := c.arg(args, 0), c.arg(args, 1), c.arg(args, 2)
	f, fk := from.known()
	t, tk := to.known()
	if s, ok := in.known(); ok && fk && tk {
		if f == "" {
			return lit(s + t)
		}
		return lit(strings.ReplaceAll(s, f, t))
	}
	if fk && tk {
		// What is known changes; a part not known keeps what it carries,
		// its text unknown.
		var out value
		for _, p := range in {
			switch {
			case p.kind == literal && f != "":
				out = cat(out, lit(strings.ReplaceAll(p.text, f, t)))
			case p.kind == literal:
				out = cat(out, value{p})
			default:
				out = append(out, c.w.r.opaque(text, value{p})...)
			}
		}
		return out
	}
	return c.w.r.opaque(text, from, to, in)
}

func (c *ctx) fnPatsubst(args []string, text string) value {
	return c.patsubst(c.arg(args, 0), c.arg(args, 1), c.arg(args, 2), false)
}

// patsubst replaces each word matching a pattern; a substitution
// reference matches a suffix when the pattern has no %.
func (c *ctx) patsubst(pat, rep, in value, ref bool) value {
	p, pk := pat.known()
	r, rk := rep.known()
	if !pk || !rk {
		return c.w.r.opaque("$(patsubst "+pat.key()+","+rep.key()+","+in.key()+")", pat, rep, in)
	}
	if ref && !strings.Contains(p, "%") {
		p, r = "%"+p, "%"+r
	}
	var out []value
	for _, w := range in.fields() {
		stem, matched, known := matchValue(p, w)
		switch {
		case !known:
			out = append(out, c.w.r.opaque("$(patsubst "+p+","+r+","+w.key()+")", w))
		case !matched:
			out = append(out, w)
		default:
			out = append(out, replaceStem(r, stem))
		}
	}
	return join(out)
}

// matchValue matches a word against a pattern with at most one %: whether
// it matches, the stem, and whether that is known (a part not known may
// or may not match).
func matchValue(pat string, w value) (stem value, matched, known bool) {
	pre, suf, hasPct := strings.Cut(pat, "%")
	if s, ok := w.known(); ok {
		if !hasPct {
			return nil, s == pat, true
		}
		if len(s) >= len(pre)+len(suf) && strings.HasPrefix(s, pre) && strings.HasSuffix(s, suf) {
			return lit(s[len(pre) : len(s)-len(suf)]), true, true
		}
		return nil, false, true
	}
	if !hasPct || len(w) == 0 {
		return nil, false, false
	}
	first, last := w[0], w[len(w)-1]
	if first.kind != literal && pre != "" || last.kind != literal && suf != "" {
		return nil, false, false
	}
	if first.kind == literal && !strings.HasPrefix(first.text, pre) {
		if len(first.text) >= len(pre) {
			return nil, false, true
		}
		return nil, false, false
	}
	if last.kind == literal && !strings.HasSuffix(last.text, suf) {
		if len(last.text) >= len(suf) {
			return nil, false, true
		}
		return nil, false, false
	}
	stem = slices.Clone(w)
	if pre != "" {
		stem[0].text = stem[0].text[len(pre):]
	}
	if suf != "" {
		l := &stem[len(stem)-1]
		l.text = l.text[:len(l.text)-len(suf)]
	}
	return cat(stem), true, true
}

// replaceStem puts a stem for the % of a replacement.
func replaceStem(rep string, stem value) value {
	pre, suf, ok := strings.Cut(rep, "%")
	if !ok {
		return lit(rep)
	}
	return cat(lit(pre), stem, lit(suf))
}

func (c *ctx) fnStrip(args []string, _ string) value { return join(c.arg(args, 0).fields()) }

func (c *ctx) fnFindstring(args []string, text string) value {
	find, in := c.arg(args, 0), c.arg(args, 1)
	f, fk := find.known()
	s, sk := in.known()
	if fk && sk {
		if strings.Contains(s, f) {
			return lit(f)
		}
		return nil
	}
	return c.w.r.opaque(text, find, in)
}

func (c *ctx) fnFilter(args []string, text string, keep bool) value {
	pats := c.arg(args, 0).fields()
	ps, ok := knownWords(pats)
	if !ok {
		return c.w.r.opaque(text, c.arg(args, 0), c.arg(args, 1))
	}
	var out []value
	for _, w := range c.arg(args, 1).fields() {
		matched, known := false, true
		for _, p := range ps {
			_, m, k := matchValue(p, w)
			if k && m {
				matched = true
				break
			}
			known = known && k
		}
		switch {
		case !matched && !known:
			out = append(out, c.w.r.opaque(text, w))
		case matched == keep:
			out = append(out, w)
		}
	}
	return join(out)
}

// knownList is the words of an argument when the reader knows how many
// there are: none comes from a command's output, which may hold any
// number.
func (c *ctx) knownList(v value) ([]value, bool) {
	for _, p := range v {
		if p.kind == output {
			return nil, false
		}
	}
	return v.fields(), true
}

func (c *ctx) fnSort(args []string, text string) value {
	in := c.arg(args, 0)
	ws, ok := knownWords(in.fields())
	if !ok {
		return c.w.r.opaque(text, in)
	}
	slices.Sort(ws)
	return join(wordsOf(slices.Compact(ws)))
}

func (c *ctx) number(v value) (int, bool) {
	s, ok := v.known()
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

func (c *ctx) fnWord(args []string, text string) value {
	n, ok := c.number(c.arg(args, 0))
	ws, wk := c.knownList(c.arg(args, 1))
	switch {
	case !ok || !wk:
		return c.w.r.opaque(text, c.arg(args, 1))
	case n < 1 || n > len(ws):
		return nil
	}
	return ws[n-1]
}

func (c *ctx) fnWordlist(args []string, text string) value {
	s, ok1 := c.number(c.arg(args, 0))
	e, ok2 := c.number(c.arg(args, 1))
	ws, wk := c.knownList(c.arg(args, 2))
	if !ok1 || !ok2 || !wk {
		return c.w.r.opaque(text, c.arg(args, 2))
	}
	s, e = max(s, 1), min(e, len(ws))
	if s > e {
		return nil
	}
	return join(ws[s-1 : e])
}

func (c *ctx) fnWords(args []string, text string) value {
	ws, ok := c.knownList(c.arg(args, 0))
	if !ok {
		return c.w.r.opaque(text, c.arg(args, 0))
	}
	return lit(strconv.Itoa(len(ws)))
}

// nth is $(firstword) (n = 1) or $(lastword) (n = -1).
func (c *ctx) nth(arg, text string, n int) value {
	in := c.expand(lit(arg))
	ws, ok := c.knownList(in)
	switch {
	case !ok:
		return c.w.r.opaque(text, in)
	case len(ws) == 0:
		return nil
	case n < 0:
		return ws[len(ws)-1]
	}
	return ws[0]
}

// splitDir splits a word after its last slash: dir/ and file. A slash in
// the known text after every part not known splits it; else it is not
// known where.
func (c *ctx) splitDir(w value) (dir, file value) {
	for i := len(w) - 1; i >= 0; i-- {
		p := w[i]
		if p.kind != literal {
			if i == len(w)-1 {
				return c.w.r.opaque("$(dir "+w.key()+")", w), c.w.r.opaque("$(notdir "+w.key()+")", w)
			}
			break
		}
		if j := strings.LastIndexByte(p.text, '/'); j >= 0 {
			return cat(w[:i], lit(p.text[:j+1])), cat(lit(p.text[j+1:]), w[i+1:])
		}
		if i < len(w)-1 {
			break
		}
	}
	if _, known := w.known(); known {
		return lit("./"), w
	}
	return c.w.r.opaque("$(dir "+w.key()+")", w), c.w.r.opaque("$(notdir "+w.key()+")", w)
}

func (c *ctx) perDir(arg string, dir bool) value {
	var out []value
	for _, w := range c.expand(lit(arg)).fields() {
		d, f := c.splitDir(w)
		if dir {
			out = append(out, d)
		} else {
			out = append(out, f)
		}
	}
	return join(out)
}

// perSuffix is $(suffix) or $(basename) of each word.
func (c *ctx) perSuffix(arg, text string, suffix bool) value {
	var out []value
	for _, w := range c.expand(lit(arg)).fields() {
		last := w[len(w)-1]
		if last.kind != literal {
			out = append(out, c.w.r.opaque(text, w))
			continue
		}
		name := last.text[strings.LastIndexByte(last.text, '/')+1:]
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 {
			if !suffix {
				out = append(out, w)
			} else if _, known := w.known(); !known && !strings.Contains(last.text, "/") {
				out = append(out, c.w.r.opaque(text, w))
			}
			continue
		}
		cut := len(last.text) - len(name) + dot
		if suffix {
			out = append(out, lit(last.text[cut:]))
		} else {
			out = append(out, cat(w[:len(w)-1], lit(last.text[:cut])))
		}
	}
	return join(out)
}

// affix is $(addprefix) or $(addsuffix).
func (c *ctx) affix(args []string, prefix bool) value {
	a := c.arg(args, 0)
	var out []value
	for _, w := range c.arg(args, 1).fields() {
		if prefix {
			out = append(out, cat(a, w))
		} else {
			out = append(out, cat(w, a))
		}
	}
	return join(out)
}

func (c *ctx) fnJoin(args []string, _ string) value {
	a, b := c.arg(args, 0).fields(), c.arg(args, 1).fields()
	out := make([]value, max(len(a), len(b)))
	for i := range out {
		if i < len(a) {
			out[i] = a[i]
		}
		if i < len(b) {
			out[i] = cat(out[i], b[i])
		}
	}
	return join(out)
}

// fnWildcard lists the files matching each pattern, sorted as make 4.3
// sorts them, from the working directory's listing; a listing nobody has
// gives a list the reader does not know.
func (c *ctx) fnWildcard(args []string, text string) value {
	var out []value
	for _, w := range c.arg(args, 0).fields() {
		pat, ok := w.known()
		if !ok {
			out = append(out, c.w.r.opaque(text, w))
			continue
		}
		names, known := c.w.r.glob(pat)
		if !known {
			out = append(out, c.w.r.opaque("$(wildcard "+pat+")"))
			continue
		}
		out = append(out, wordsOf(names)...)
	}
	return join(out)
}

// glob lists the files of the working directory a pattern matches, when
// the listing is known.
func (r *reader) glob(pat string) ([]string, bool) {
	if !strings.ContainsAny(pat, "*?[") {
		there, known := r.exists(pat)
		if !known {
			return nil, false
		}
		if there {
			return []string{pat}, true
		}
		return nil, true
	}
	if !r.listed || path.IsAbs(pat) {
		return nil, false
	}
	clean := strings.TrimPrefix(pat, "./")
	var out []string
	seen := map[string]bool{}
	for _, f := range r.listing {
		// A pattern may name the directories above files too (src/*).
		for name := f; name != "."; name = path.Dir(name) {
			if m, err := path.Match(clean, name); err == nil && m && !seen[name] {
				seen[name] = true
				out = append(out, strings.TrimSuffix(pat, clean)+name)
			}
		}
	}
	slices.Sort(out)
	return out, true
}

// fnAbspath makes each word absolute: under make's working directory,
// which is the build's, unless it is absolute already.
func (c *ctx) fnAbspath(args []string, text string) value {
	var out []value
	for _, w := range c.arg(args, 0).fields() {
		s, ok := w.known()
		switch {
		case ok && path.IsAbs(s):
			out = append(out, lit(path.Clean(s)))
		case ok:
			out = append(out, cat(c.variable("CURDIR"), lit("/"+path.Clean(s))))
		default:
			out = append(out, c.w.r.opaque(text, w))
		}
	}
	return join(out)
}

// fnError stops make: nothing after it runs.
func (c *ctx) fnError(args []string, _ string) value {
	c.arg(args, 0)
	c.w.failed = true
	return nil
}

// fnInfo prints its text on make's standard output.
func (c *ctx) fnInfo(args []string, _ string) value {
	v := c.arg(args, 0)
	c.w.r.out.Stdout = effect.AppendReaches(c.w.r.out.Stdout, v.reaches()...)
	return nil
}

// emptiness says whether a value is empty, as $(if) and ifdef see it,
// when that is known.
func emptiness(v value) (empty, known bool) {
	ws := v.fields()
	if len(ws) == 0 {
		return true, true
	}
	for _, w := range ws {
		if _, ok := w.known(); ok {
			return false, true
		}
	}
	return false, false
}

func (c *ctx) fnIf(args []string, text string) value {
	cond := c.arg(args, 0)
	empty, known := emptiness(cond)
	switch {
	case known && !empty:
		return c.arg(args, 1)
	case known:
		return c.arg(args, 2)
	}
	a, b := c.arg(args, 1), c.arg(args, 2)
	if same(a, b) {
		return a
	}
	return c.w.r.opaque(text, cond, a, b)
}

// fnOrAnd is $(or) (or) and $(and).
func (c *ctx) fnOrAnd(args []string, text string, or bool) value {
	var last value
	for i := range args {
		v := c.arg(args, i)
		empty, known := emptiness(v)
		switch {
		case !known:
			rest := []value{v}
			for j := i + 1; j < len(args); j++ {
				rest = append(rest, c.arg(args, j))
			}
			return c.w.r.opaque(text, rest...)
		case or && !empty:
			return v
		case !or && empty:
			return nil
		}
		last = v
	}
	if or {
		return nil
	}
	return last
}

func (c *ctx) fnForeach(args []string, text string) value {
	if len(args) < 3 {
		return nil
	}
	name, ok := c.expand(lit(args[0])).known()
	if !ok {
		return c.w.r.opaque(text)
	}
	name = strings.TrimSpace(name)
	list := c.arg(args, 1)
	ws, known := c.knownList(list)
	if !known {
		// One pass with the whole list, which carries what varies in it.
		return c.with(map[string]*variable{name: {val: list}}).expand(lit(args[2]))
	}
	var out []value
	for _, w := range ws {
		if !c.w.r.step() {
			break
		}
		out = append(out, c.with(map[string]*variable{name: {val: w}}).expand(lit(args[2])))
	}
	return join(slices.DeleteFunc(out, func(v value) bool { return len(v) == 0 }))
}

func (c *ctx) fnCall(args []string, text string) value {
	name, ok := c.arg(args, 0).known()
	if !ok {
		return c.w.r.opaque(text)
	}
	name = strings.TrimSpace(name)
	v, defined := c.lookup(name)
	if !defined {
		return nil
	}
	bind := map[string]*variable{"0": {val: lit(name)}}
	for i := 1; i < max(len(args), 10); i++ {
		bind[strconv.Itoa(i)] = &variable{val: c.arg(args, i)}
	}
	x := c.with(bind)
	if !v.recursive {
		return v.val
	}
	return x.expand(v.val)
}

func (c *ctx) fnValue(args []string, _ string) value {
	name, _ := c.arg(args, 0).known()
	if v, ok := c.lookup(strings.TrimSpace(name)); ok {
		return v.val
	}
	return nil
}

// fnEval reads its text as makefile lines, while the makefiles are read;
// in a recipe, what it defines comes too late for Ahab to follow.
func (c *ctx) fnEval(args []string, text string) value {
	v := c.arg(args, 0)
	s, ok := v.known()
	switch {
	case c.recipe:
		c.note("%s in a recipe is not followed", text)
	case !ok:
		c.note("%s of text made while make runs is not followed", text)
	default:
		c.w.eval(s, c.site)
	}
	return nil
}

// eval reads text as makefile lines where it is written.
func (w *world) eval(text string, site effect.Site) {
	if len(w.frames) >= maxDepth {
		w.r.out.Note(fmt.Sprintf("%s: make: $(eval) nested too deeply to follow", site))
		return
	}
	depth := len(w.frames)
	w.frames = append(w.frames, &frame{file: site.File, at: site.Line, lines: strings.Split(text, "\n"), conds: len(w.conds)})
	w.inEval++
	w.readUntil(depth)
	w.inEval--
}

func (c *ctx) fnOrigin(args []string, _ string) value {
	name, _ := c.arg(args, 0).known()
	name = strings.TrimSpace(name)
	v, ok := c.lookup(name)
	switch {
	case !ok:
		return lit("undefined")
	case v.origin == fromEnv && c.w.r.cl.envOverrides:
		return lit("environment override")
	}
	return lit(originNames[v.origin])
}

func (c *ctx) fnFlavor(args []string, _ string) value {
	name, _ := c.arg(args, 0).known()
	v, ok := c.lookup(strings.TrimSpace(name))
	switch {
	case !ok:
		return lit("undefined")
	case v.recursive:
		return lit("recursive")
	}
	return lit("simple")
}

// fnFile writes its text into a file (> and >>), what make writes; a file
// it reads is not known.
func (c *ctx) fnFile(args []string, text string) value {
	op := strings.TrimSpace(c.arg(args, 0).key())
	if strings.HasPrefix(op, ">") {
		body := c.arg(args, 1)
		c.w.r.out.Files = effect.AppendReaches(c.w.r.out.Files, body.reaches()...)
		return nil
	}
	return c.w.r.opaque(text)
}
