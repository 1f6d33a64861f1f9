package make

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
)

// A world read to its end is a make run: the goals, the rules they need,
// each once, in make's order, and each recipe a job whose lines the
// shell's reader follows.

// database is a world's rules, looked up as make looks them up.
type database struct {
	explicit map[string][]entry
	patterns []patternRule
	// mentioned are the targets and prerequisites the makefiles name,
	// which ought to exist for an implicit rule to apply.
	mentioned            map[string]bool
	phony, silent        map[string]bool
	silentAll, oneShell  bool
	notParallel, exports bool
}

// entry is an explicit rule of one target.
type entry struct {
	rl                 *rule
	prereqs, orderOnly []string
	stem               string
}

type patternRule struct {
	target             string
	prereqs, orderOnly []string
	recipe             []recipeLine
	hasRecipe, builtin bool
}

func (w *world) database() *database {
	db := &database{explicit: map[string][]entry{}, mentioned: map[string]bool{}, phony: map[string]bool{}, silent: map[string]bool{}}
	suffixes := slices.Clone(defaultSuffixes)
	var suffixRules []*rule
	for _, rl := range w.rules {
		for _, p := range slices.Concat(rl.prereqs, rl.orderOnly) {
			db.mentioned[p] = true
		}
		if rl.pattern != "" {
			for _, t := range rl.targets {
				stem, ok := matchString(rl.pattern, t)
				if !ok {
					continue
				}
				e := entry{rl: rl, stem: stem, prereqs: substStem(rl.prereqs, stem), orderOnly: substStem(rl.orderOnly, stem)}
				db.explicit[t] = append(db.explicit[t], e)
				db.mentioned[t] = true
			}
			continue
		}
		for _, t := range rl.targets {
			if strings.Contains(t, "%") {
				db.patterns = append(db.patterns, patternRule{target: t, prereqs: rl.prereqs, orderOnly: rl.orderOnly, recipe: rl.recipe, hasRecipe: rl.hasRecipe})
				continue
			}
			switch t {
			case ".PHONY":
				for _, p := range rl.prereqs {
					db.phony[p] = true
				}
				continue
			case ".SILENT":
				if len(rl.prereqs) == 0 {
					db.silentAll = true
				}
				for _, p := range rl.prereqs {
					db.silent[p] = true
				}
				continue
			case ".NOTPARALLEL":
				db.notParallel = true
				continue
			case ".ONESHELL":
				db.oneShell = true
				continue
			case ".EXPORT_ALL_VARIABLES":
				db.exports = true
				continue
			case ".SUFFIXES":
				if len(rl.prereqs) == 0 {
					suffixes = nil
				}
				suffixes = append(suffixes, rl.prereqs...)
				continue
			case ".SECONDEXPANSION":
				w.r.out.Note(fmt.Sprintf("%s: make: .SECONDEXPANSION is not followed: prerequisites are expanded once", rl.site))
				continue
			}
			if strings.HasPrefix(t, ".") && !strings.Contains(t, "/") && len(rl.prereqs) == 0 && rl.hasRecipe {
				suffixRules = append(suffixRules, rl)
			}
			db.mentioned[t] = true
			db.explicit[t] = append(db.explicit[t], entry{rl: rl, prereqs: rl.prereqs, orderOnly: rl.orderOnly})
		}
	}
	// Suffix rules (.c.o:) are pattern rules written the old way.
	for _, rl := range suffixRules {
		for _, t := range rl.targets {
			from, to, ok := splitSuffixRule(t, suffixes)
			if !ok {
				continue
			}
			delete(db.explicit, t)
			db.patterns = append(db.patterns, patternRule{target: "%" + to, prereqs: []string{"%" + from}, recipe: rl.recipe, hasRecipe: true})
		}
	}
	if !w.r.cl.noRules {
		for _, b := range builtinRules {
			// A pattern rule of the makefile's without a recipe cancels
			// the built-in one.
			if slices.ContainsFunc(db.patterns, func(p patternRule) bool {
				return p.target == b.target && slices.Equal(p.prereqs, []string{b.prereq}) && !p.hasRecipe
			}) {
				continue
			}
			var recipe []recipeLine
			for _, l := range strings.Split(b.recipe, "\n") {
				recipe = append(recipe, recipeLine{text: l})
			}
			db.patterns = append(db.patterns, patternRule{target: b.target, prereqs: []string{b.prereq}, recipe: recipe, hasRecipe: true, builtin: true})
		}
	}
	return db
}

// splitSuffixRule reads a suffix rule's target: .c.o (from .c to .o) or
// .c (from .c to nothing), of known suffixes.
func splitSuffixRule(t string, suffixes []string) (from, to string, ok bool) {
	if slices.Contains(suffixes, t) {
		return t, "", true
	}
	for _, s := range suffixes {
		if rest, found := strings.CutPrefix(t, s); found && slices.Contains(suffixes, rest) {
			return s, rest, true
		}
	}
	return "", "", false
}

// matchString matches a name against a pattern with one %, giving the
// stem.
func matchString(pat, s string) (string, bool) {
	pre, suf, ok := strings.Cut(pat, "%")
	if !ok {
		return "", pat == s
	}
	if len(s) < len(pre)+len(suf) || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, suf) {
		return "", false
	}
	return s[len(pre) : len(s)-len(suf)], true
}

func substStem(ps []string, stem string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Replace(p, "%", stem, 1)
	}
	return out
}

// bitset is a set of jobs by index.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) with(i int) bitset {
	out := slices.Clone(b)
	for len(out) <= i/64 {
		out = append(out, 0)
	}
	out[i/64] |= 1 << (i % 64)
	return out
}

func union(a, b bitset) bitset {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := slices.Clone(a)
	for i, x := range b {
		out[i] |= x
	}
	return out
}

// job is one recipe run: what it prints and writes, and the jobs that
// finish before it starts.
type job struct {
	target string
	site   effect.Site
	after  bitset
	prints bool
	writes map[string]bool
}

type builder struct {
	w    *world
	db   *database
	done map[string]bitset
	jobs []*job
	// env is the recipes' environment; cd the line that puts them in
	// make's directory.
	env []string
	cd  string
}

// build follows the world's make run.
func (w *world) build() {
	db := w.database()
	b := &builder{w: w, db: db, done: map[string]bitset{}}
	b.env = w.recipeEnv(db)
	b.cd = w.r.cdLine()
	for _, g := range w.goals() {
		if w.failed {
			break
		}
		b.target(g, nil, 0, w.r.p.Site)
	}
	w.r.parallel(b)
}

// goals are the command line's, else .DEFAULT_GOAL, else the first target.
func (w *world) goals() []string {
	var out []string
	for _, g := range w.r.cl.goals {
		if _, known := g.known(); !known {
			w.r.out.Note(fmt.Sprintf("%s: make: a goal named while the script runs: %s", w.r.p.Where(), g[0].text))
		}
		out = append(out, g.key())
	}
	if len(out) > 0 {
		return out
	}
	if v, ok := w.vars[".DEFAULT_GOAL"]; ok {
		c := w.ctx(w.r.p.Site)
		x := c.expand(v.val)
		if !v.recursive {
			x = v.val
		}
		if s := strings.TrimSpace(x.key()); s != "" {
			return []string{s}
		}
	}
	if w.goal != "" {
		return []string{w.goal}
	}
	return nil
}

// target makes a target once: its prerequisites, then its recipe; it
// returns the jobs that have finished when it is made. from is where the
// target was asked for, where a built-in rule's recipe is reported.
func (b *builder) target(t string, scope map[string]*variable, depth int, from effect.Site) bitset {
	if fin, ok := b.done[t]; ok {
		return fin
	}
	b.done[t] = nil // a circular dependency is dropped, as make drops it
	if depth > 4*maxDepth || !b.w.r.step() {
		return nil
	}
	scope = b.scopeFor(t, scope)
	entries := b.db.explicit[t]
	var fin bitset
	if len(entries) > 0 && entries[0].rl.double {
		for _, e := range entries {
			for _, p := range slices.Concat(e.prereqs, e.orderOnly) {
				fin = union(fin, b.target(p, scope, depth+1, e.rl.site))
			}
			if e.rl.hasRecipe {
				fin = b.run(t, e.rl.recipe, e.rl.site, e.prereqs, e.orderOnly, e.stem, scope, fin)
			}
		}
		b.done[t] = fin
		return fin
	}
	var prereqs, orderOnly []string
	var recipe *entry
	for i, e := range entries {
		prereqs = append(prereqs, e.prereqs...)
		orderOnly = append(orderOnly, e.orderOnly...)
		if e.rl.hasRecipe {
			recipe = &entries[i]
		}
	}
	var lines []recipeLine
	site, stem := from, ""
	if len(entries) > 0 {
		site = entries[0].rl.site
	}
	if recipe != nil {
		lines, site, stem = recipe.rl.recipe, recipe.rl.site, recipe.stem
		if stem == "" {
			stem = b.suffixStem(t)
		}
	} else if !b.db.phony[t] && !b.upToDate(t, prereqs) {
		if pr, pstem, pre, oo, ok := b.implicit(t, 0, nil); ok {
			lines, stem = pr.recipe, pstem
			// The implicit rule's prerequisites come first: $< is its.
			prereqs = append(pre, prereqs...)
			orderOnly = append(oo, orderOnly...)
		}
	}
	for _, p := range slices.Concat(prereqs, orderOnly) {
		fin = union(fin, b.target(p, scope, depth+1, site))
	}
	if lines != nil {
		fin = b.run(t, lines, site, prereqs, orderOnly, stem, scope, fin)
	}
	b.done[t] = fin
	return fin
}

// upToDate says a target without a recipe of its own needs none: a file
// of the directory with no prerequisites.
func (b *builder) upToDate(t string, prereqs []string) bool {
	there, _ := b.w.r.exists(t)
	return there && len(prereqs) == 0
}

// suffixStem is $* of an explicit rule: the target less a known suffix.
func (b *builder) suffixStem(t string) string {
	for _, s := range defaultSuffixes {
		if strings.HasSuffix(t, s) && len(t) > len(s) {
			return strings.TrimSuffix(t, s)
		}
	}
	return ""
}

// implicit finds the pattern rule that makes t, as make chooses: among
// those whose target pattern matches, the shortest stem first, one whose
// prerequisites exist or ought to (the makefiles name them), else one
// whose prerequisites other pattern rules make, in a chain up to four
// rules long.
func (b *builder) implicit(t string, depth int, used []int) (pr *patternRule, stem string, prereqs, orderOnly []string, ok bool) {
	type candidate struct {
		i                  int
		stem               string
		prereqs, orderOnly []string
	}
	var cands []candidate
	dir, file := path.Split(t)
	for i := range b.db.patterns {
		p := &b.db.patterns[i]
		if !p.hasRecipe || slices.Contains(used, i) || p.builtin && len(p.recipe) == 0 {
			continue
		}
		name, prefix := t, ""
		if !strings.Contains(p.target, "/") {
			name, prefix = file, dir
		}
		s, matched := matchString(p.target, name)
		if !matched || s == "" && p.target != "%" {
			continue
		}
		subst := func(ps []string) []string {
			out := make([]string, len(ps))
			for k, x := range ps {
				if strings.Contains(x, "%") {
					x = prefix + strings.Replace(x, "%", s, 1)
				}
				out[k] = x
			}
			return out
		}
		cands = append(cands, candidate{i, prefix + s, subst(p.prereqs), subst(p.orderOnly)})
	}
	slices.SortStableFunc(cands, func(x, y candidate) int { return len(x.stem) - len(y.stem) })
	for pass := 0; pass < 2; pass++ {
		for _, c := range cands {
			p := &b.db.patterns[c.i]
			anything := p.target == "%"
			if pass == 1 && (anything || depth >= 3) {
				continue
			}
			all := true
			for _, q := range c.prereqs {
				if b.oughtToExist(q, !anything) {
					continue
				}
				if pass == 1 {
					if _, _, _, _, made := b.implicit(q, depth+1, append(slices.Clip(used), c.i)); made {
						continue
					}
				}
				all = false
				break
			}
			if all {
				return p, c.stem, c.prereqs, c.orderOnly, true
			}
		}
	}
	return nil, "", nil, nil, false
}

// oughtToExist says an implicit rule may use a prerequisite: a file of
// the directory, one the makefiles name, or, when the directory's files
// are not known and guess allows, any.
func (b *builder) oughtToExist(name string, guess bool) bool {
	if b.db.mentioned[name] || len(b.db.explicit[name]) > 0 {
		return true
	}
	there, known := b.w.r.exists(name)
	return there || !known && guess
}

// scopeFor applies the assignments that hold for a target (its own and
// its patterns', the patterns' first) onto those it inherits from the
// target that needs it.
func (b *builder) scopeFor(t string, parent map[string]*variable) map[string]*variable {
	var own []targetVar
	for _, pass := range []bool{true, false} {
		for _, tv := range b.w.tvars {
			isPattern := strings.Contains(tv.target, "%")
			if isPattern != pass {
				continue
			}
			if _, ok := matchString(tv.target, t); ok {
				own = append(own, tv)
			}
		}
	}
	if len(own) == 0 {
		return parent
	}
	scope := make(map[string]*variable, len(parent)+len(own))
	for k, v := range parent {
		scope[k] = v
	}
	c := b.w.ctx(b.w.r.p.Site)
	c.local = scope
	for _, tv := range own {
		base, defined := scope[tv.name]
		if !defined {
			base, defined = b.w.vars[tv.name]
		}
		if defined && !tv.override && base.origin == fromCommand {
			continue
		}
		v := &variable{origin: fromFile}
		switch tv.op {
		case "=":
			v.val, v.recursive = tv.val, true
		case ":=", "::=", ":::=":
			v.val = tv.val
		case "?=":
			if defined {
				continue
			}
			v.val, v.recursive = tv.val, true
		case "+=":
			switch {
			case !defined:
				v.val, v.recursive = tv.val, true
			case base.recursive:
				v.val, v.recursive = joinSpace(base.val, tv.val), true
			default:
				v.val = joinSpace(base.val, c.expand(tv.val))
			}
		case "!=":
			v.val = c.shell(c.expand(tv.val))
		}
		scope[tv.name] = v
	}
	return scope
}

// run runs a target's recipe as a job after the jobs of after, and
// returns the jobs finished when it is done.
func (b *builder) run(t string, lines []recipeLine, site effect.Site, prereqs, orderOnly []string, stem string, scope map[string]*variable, after bitset) bitset {
	r := b.w.r
	if len(b.jobs) >= maxJobs {
		r.out.Note(fmt.Sprintf("%s: make: more than %d recipes to follow: the rest are not read", r.p.Where(), maxJobs))
		return after
	}
	if len(lines) > 0 && lines[0].site != (effect.Site{}) {
		site = lines[0].site
	}
	j := &job{target: t, site: site, after: after, writes: map[string]bool{}}
	auto := map[string]value{
		"@": lit(t),
		"^": lit(strings.Join(dedup(prereqs), " ")),
		"+": lit(strings.Join(prereqs, " ")),
		"?": lit(strings.Join(dedup(prereqs), " ")),
		"*": lit(stem),
		"|": lit(strings.Join(dedup(orderOnly), " ")),
	}
	if len(prereqs) > 0 {
		auto["<"] = lit(prereqs[0])
	}
	c := &ctx{w: b.w, auto: auto, local: scope, active: map[string]bool{}, recipe: true}
	if b.db.oneShell && len(lines) > 1 {
		// One shell runs them all; the prefixes of the lines after the
		// first are taken off.
		texts := make([]string, len(lines))
		for i, l := range lines {
			texts[i] = l.text
			if i > 0 {
				texts[i] = strings.TrimLeft(l.text, "@+- \t")
			}
		}
		lines = []recipeLine{{text: strings.Join(texts, "\n"), site: lines[0].site}}
	}
	for _, l := range lines {
		if l.site == (effect.Site{}) {
			l.site = site
		}
		c.site = l.site
		b.line(c, j, l)
		if b.w.failed {
			break
		}
	}
	b.jobs = append(b.jobs, j)
	return after.with(len(b.jobs) - 1)
}

// line runs one recipe line of a job: make prints it unless it is silent,
// then the shell runs it.
func (b *builder) line(c *ctx, j *job, l recipeLine) {
	r := b.w.r
	v := c.expand(lit(l.text))
	if b.w.failed {
		return
	}
	v, silent, always := stripPrefixes(v)
	silent = silent || r.cl.silent || b.db.silentAll || b.db.silent[j.target]
	if !silent || r.cl.dryRun {
		j.prints = true
		r.out.Stdout = effect.AppendReaches(r.out.Stdout, v.reaches()...)
	}
	if r.cl.dryRun && !always && !strings.Contains(l.text, "$(MAKE)") && !strings.Contains(l.text, "${MAKE}") {
		return
	}
	text := v.shellText()
	if strings.TrimSpace(text) == "" {
		return
	}
	if cmd := commandWord(v); cmd != nil {
		if _, known := cmd.known(); !known && slices.ContainsFunc(cmd, func(p part) bool { return p.kind == unknown }) {
			r.out.Note(fmt.Sprintf("%s: make: the command of a recipe line is not known: %s", l.site, strings.TrimSpace(l.text)))
		}
	}
	r.jobOutputs(j, text)
	if r.env.Runner == nil {
		r.out.Note(fmt.Sprintf("%s: make: the recipe is not read here", l.site))
		return
	}
	o := r.env.Runner.Run(code.Program{Language: code.Shell, Text: b.cd + text, Site: l.site, Env: b.env, Depth: r.p.Depth + 1})
	r.out.Stdout = effect.AppendReaches(r.out.Stdout, o.Stdout...)
	r.out.Files = effect.AppendReaches(r.out.Files, o.Files...)
	for _, u := range o.Unread {
		r.out.Note(u)
	}
}

// stripPrefixes takes the recipe prefixes @ (silent), - (errors ignored)
// and + (run even under -n) off an expanded line, as make reads them after
// expanding it ($(Q)gcc with Q=@).
func stripPrefixes(v value) (out value, silent, always bool) {
	if len(v) == 0 || v[0].kind != literal {
		return v, false, false
	}
	s := v[0].text
	i := 0
	for ; i < len(s) && strings.IndexByte("@+- \t", s[i]) >= 0; i++ {
		switch s[i] {
		case '@':
			silent = true
		case '+':
			always = true
		}
	}
	return cat(lit(s[i:]), v[1:]), silent, always
}

// commandWord is the first word of a line that is not an assignment to
// the command's environment.
func commandWord(v value) value {
	for _, w := range v.fields() {
		s, known := w.known()
		if known {
			if name, _, ok := strings.Cut(s, "="); ok && isName(name) {
				continue
			}
		}
		return w
	}
	return nil
}

func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func dedup(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// recipeEnv is the environment recipes get: make's own, the command
// line's variables and those the makefiles export, as far as known.
func (w *world) recipeEnv(db *database) []string {
	c := w.ctx(w.r.p.Site)
	env := map[string]string{}
	for _, kv := range w.r.p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	names := make([]string, 0, len(w.vars))
	for name := range w.vars {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := w.vars[name]
		said := w.exported[name]
		exported := said == 1 || said == 0 && (v.origin == fromEnv || v.origin == fromCommand ||
			(w.exportAll || db.exports) && v.origin != fromDefault && v.origin != automatic)
		if !isName(name) || name == "MAKEFLAGS" || name == "MAKELEVEL" {
			continue
		}
		if !exported {
			if said == -1 {
				delete(env, name)
			}
			continue
		}
		x := v.val
		if v.recursive {
			x = c.expand(x)
		}
		if s, ok := x.known(); ok {
			env[name] = s
		} else {
			delete(env, name)
		}
	}
	env["MAKEFLAGS"] = w.r.cl.makeflags
	env["MAKELEVEL"] = "1"
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range env {
			if !yield(k) {
				return
			}
		}
	}) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// cdLine is what puts a recipe in make's working directory, for the
// shell's reader: nothing in the execution root.
func (r *reader) cdLine() string {
	if r.dir == nil {
		return ""
	}
	if d, ok := r.dir.known(); ok {
		if d == "." {
			return ""
		}
		return "cd '" + strings.ReplaceAll(d, "'", `'\''`) + "' || exit 1\n"
	}
	return cat(lit(`cd "`), r.dir, lit("\" || exit 1\n")).shellText()
}

// parallel applies make's effects to what its jobs print and write. The
// order jobs finish in (with -j) reaches make's standard output when two
// jobs that print may run at the same time, and a file when two such jobs
// write it (both appending to a log): each job's own files do not vary by
// order, nor does what jobs ordered by their prerequisites print. Under
// --output-sync each job's output stays together, but the jobs still
// finish in any order. Any other effect of make's entry holds for all it
// prints and writes.
func (r *reader) parallel(b *builder) {
	for _, e := range r.cl.effects {
		if e.Value != effect.Parallel {
			rc := effect.Reach{Value: e.Value, Text: "make", Because: e.Because, Site: r.p.Site}
			r.out.Stdout = effect.AppendReaches(r.out.Stdout, rc)
			r.out.Files = effect.AppendReaches(r.out.Files, rc)
			continue
		}
		if b.db.notParallel || len(b.jobs) < 2 {
			continue
		}
		var printers []int
		writers := map[string][]int{}
		for i, j := range b.jobs {
			if j.prints {
				printers = append(printers, i)
			}
			for k := range j.writes {
				writers[k] = append(writers[k], i)
			}
		}
		if i, ok := b.overlap(printers); ok {
			r.out.Stdout = effect.AppendReaches(r.out.Stdout, effect.Reach{Value: e.Value, Text: "make", Because: e.Because, Site: b.jobs[i].site})
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range writers {
				if !yield(k) {
					return
				}
			}
		}) {
			if i, ok := b.overlap(writers[k]); ok {
				r.out.Files = effect.AppendReaches(r.out.Files, effect.Reach{Value: e.Value, Text: "make", Because: e.Because, Site: b.jobs[i].site})
			}
		}
	}
}

// overlap finds two of the jobs that may run at the same time: neither
// waits for the other. It returns the later one.
func (b *builder) overlap(jobs []int) (int, bool) {
	for x, j := range jobs {
		for _, i := range jobs[:x] {
			if !b.jobs[j].after.has(i) {
				return j, true
			}
		}
	}
	return 0, false
}
