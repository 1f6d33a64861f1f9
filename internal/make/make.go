// Package make reads GNU makefiles for what the recipes of a make run put
// into the files make writes and what it prints: it finds the makefile
// make reads, reads it as GNU make does (variables of every flavour, the
// command line's over the makefile's, conditionals, includes, explicit,
// pattern, static pattern, suffix and double-colon rules, the functions
// builds use), decides the goals, walks the rules they need, and hands
// each recipe line, expanded, to the shell's reader through the Runner,
// in make's working directory. With -j, two recipes that may run at the
// same time and write one file (both printing to make's standard output,
// or both appending to a log) give the order their jobs finish in:
// make's entry in the library (internal/spec/library/host/wrappers.json)
// says when its command line runs jobs in parallel, and this package says
// where that reaches.
//
// A makefile is not compiled into anything, so Uses lists nothing. What
// the reader cannot follow (a recipe line whose command is not known, an
// $(eval) in a recipe, an include it cannot read, a makefile past its
// bounds) is said in Unread, never taken for clean. A makefile that is
// none of the action's files (one the script writes itself) cannot be
// read: make is then judged by its command line alone, as its entry
// says.
package make

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// Bounds on the work one make run may cause.
const (
	maxText   = 1 << 20 // bytes of one makefile
	maxSteps  = 200_000 // lines, expansions and rules followed
	maxValue  = 1 << 20 // bytes of one expanded value
	maxDepth  = 64      // nested expansions, calls and includes
	maxWorlds = 8       // readings of the makefile along conditions not decided
	maxJobs   = 2000    // recipes run
)

// Reader reads makefiles. It is a code.Reader.
type Reader struct{}

// Uses lists nothing: a makefile is run, not compiled into an output.
func (Reader) Uses(string, *spec.Library) []string { return nil }

// Read follows the make run whose command line p.Args is (p.Text, when
// given, is the makefile: a file run as #!/usr/bin/make -f) and says what
// reaches what make prints and the files it writes.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	if out, long := p.TooLong("make", maxText); long {
		return out
	}
	r := &reader{p: p, env: env, unknowns: map[string]int{}, shells: map[string]value{}}
	cl, ok := r.commandLine()
	if !ok {
		return code.Outcome{Unread: []string{p.Where() + ": make: no behaviour of make in the library reads its command line"}}
	}
	r.cl = cl
	srcs, found := r.makefiles()
	if !found {
		// Nothing to read: make is its command line.
		r.commandLineEffects()
		return r.out
	}
	if len(srcs) > 0 {
		r.run(srcs)
	}
	return r.out
}

// reader is one make run: its command line, the makefiles it reads, and
// what it finds, over every reading its conditions make.
type reader struct {
	p   code.Program
	env code.Env
	cl  commandLine
	// dir is make's working directory, relative to the execution root
	// when known; nil for the execution root.
	dir value
	// listing are the files of the working directory, by path relative to
	// it, when known (listed): the action's inputs under it, or beside the
	// makefile when the directory is a copy of them.
	listing []string
	listed  bool
	// standIn is the directory of the makefile found among the inputs
	// when make's directory is a copy nobody can name.
	standIn string
	// unknowns names each word nobody knows, by text, for the shell.
	unknowns map[string]int
	// shells remembers what each $(shell) command gave.
	shells map[string]value
	steps  int
	worlds int
	out    code.Outcome
}

// step counts work and says whether to go on.
func (r *reader) step() bool {
	r.steps++
	if r.steps == maxSteps+1 {
		r.out.Note(fmt.Sprintf("%s: make: the makefile is too long to follow to its end: stopped after %d steps", r.p.Where(), maxSteps))
	}
	return r.steps <= maxSteps
}

// unknownPart is a word nobody knows, written text where it was made.
func (r *reader) unknownPart(text string) part {
	id, ok := r.unknowns[text]
	if !ok {
		id = len(r.unknowns)
		r.unknowns[text] = id
	}
	return part{kind: unknown, text: text, id: id}
}

// opaque is a value the reader cannot compute, named by what computes it
// (a function call as written), carrying what varies in vs.
func (r *reader) opaque(text string, vs ...value) value {
	return append(value{r.unknownPart(text)}, varying(vs...)...)
}

// commandLine is what make's command line asks for.
type commandLine struct {
	dirs, files, includes []value
	assigns               []assignment
	goals                 []value
	silent, envOverrides  bool
	noRules, noVars       bool
	dryRun                bool
	// makeflags is MAKEFLAGS for the recipes: the flags as make passes
	// them to the makes they run.
	makeflags string
	// effects are those of make's entry that hold for this command line.
	effects []spec.Effect
}

type assignment struct {
	name, op string
	val      value
}

// commandLine reads make's command line, MAKEFLAGS of the environment
// first, as make does, with the library's behaviour of make: its options
// and the effects its command line makes hold.
func (r *reader) commandLine() (commandLine, bool) {
	var cl commandLine
	mk := makeflagsWords(envValue(r.p.Env, "MAKEFLAGS"))
	texts := slices.Clone(mk)
	for _, a := range r.p.Args {
		texts = append(texts, a.Text)
	}
	known := func(i int) bool { return i < len(mk) || r.p.Args[i-len(mk)].Known }
	res := r.env.Library.Resolve(program.OfFor(r.env.Library.Mode())("make"), texts)
	if res.Spec == nil || res.Spec.Behaviour == nil {
		return cl, false
	}
	var facts []string
	for _, kv := range r.p.Env {
		facts = append(facts, "env:"+kv)
	}
	inv := res.Spec.Behaviour.Read(texts, facts, nil)
	cl.effects = inv.Effects
	var letters []string
	var jobs string
	valueOf := func(a spec.Arg) value {
		if known(a.Raw[len(a.Raw)-1]) {
			return lit(a.Value)
		}
		return value{r.unknownPart(a.Value)}
	}
	for _, a := range inv.Args {
		switch a.Option {
		case "":
			if as, ok := parseAssignment(a.Value); ok {
				if !known(a.Raw[0]) {
					as.val = value{r.unknownPart(as.val.key())}
				}
				cl.assigns = append(cl.assigns, as)
				continue
			}
			cl.goals = append(cl.goals, valueOf(a))
		case "--directory":
			cl.dirs = append(cl.dirs, valueOf(a))
		case "--file":
			cl.files = append(cl.files, valueOf(a))
		case "--include-dir":
			cl.includes = append(cl.includes, valueOf(a))
		case "--silent":
			cl.silent = true
			letters = append(letters, "s")
		case "--environment-overrides":
			cl.envOverrides = true
			letters = append(letters, "e")
		case "--no-builtin-rules":
			cl.noRules = true
			letters = append(letters, "r")
		case "--no-builtin-variables":
			cl.noRules, cl.noVars = true, true
			letters = append(letters, "R")
		case "--just-print":
			cl.dryRun = true
			letters = append(letters, "n")
		case "--keep-going":
			letters = append(letters, "k")
		case "--jobs":
			jobs = " -j" + a.Value
		}
	}
	cl.makeflags = strings.Join(letters, "") + jobs
	for _, as := range cl.assigns {
		if s, ok := as.val.known(); ok {
			cl.makeflags += " " + as.name + as.op + s
		}
	}
	cl.makeflags = strings.TrimSpace(cl.makeflags)
	return cl, true
}

// makeflagsWords are the words of MAKEFLAGS as make reads them: a first
// word without a dash is a bundle of flags, and the variables after -- are
// the command line's.
func makeflagsWords(s string) []string {
	var out []string
	for i, w := range strings.Fields(s) {
		switch {
		case w == "--":
			continue
		case i == 0 && !strings.HasPrefix(w, "-") && !strings.Contains(w, "="):
			w = "-" + w
		}
		out = append(out, w)
	}
	return out
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// commandLineEffects applies the effects of make's entry to everything
// make prints and writes: what its command line says when its makefile
// cannot be read.
func (r *reader) commandLineEffects() {
	for _, e := range r.cl.effects {
		rc := effect.Reach{Value: e.Value, Text: "make", Because: e.Because, Site: r.p.Site}
		r.out.Stdout = effect.AppendReaches(r.out.Stdout, rc)
		r.out.Files = effect.AppendReaches(r.out.Files, rc)
	}
}

// defaultMakefiles are the names make looks for, in its order.
var defaultMakefiles = []string{"GNUmakefile", "makefile", "Makefile"}

// makefiles finds what make reads: the files -f names, else the first of
// GNUmakefile, makefile and Makefile in its working directory. The
// directory may be one the script made and copied the makefile into
// (cp $(locations ...) "$tmp"; make -C "$tmp"): the makefile is then the
// one input of that name (or the one at the top of the others' tree),
// whose directory stands in for the copy. found is
// false when no file of the action's is the makefile (one the script
// writes itself); an empty list when what make reads is not known, which
// Unread says.
func (r *reader) makefiles() (srcs []makefile, found bool) {
	for _, d := range r.cl.dirs {
		r.dir = joinDir(r.dir, d)
	}
	if r.p.Text != "" {
		r.listFrom()
		return []makefile{{path: r.p.Where(), name: r.p.Where(), text: r.p.Text}}, true
	}
	if r.env.Files == nil {
		return nil, false
	}
	names := r.cl.files
	defaults := len(names) == 0
	if defaults {
		names = []value{lit(defaultMakefiles[0])}
	}
	for _, name := range names {
		src, dir, ok, why := r.findMakefile(name, defaults)
		switch {
		case why != "":
			r.out.Note(r.p.Where() + ": make: " + why)
			return nil, true
		case !ok:
			return nil, false
		}
		if len(src.Text) > maxText {
			r.out.Note(fmt.Sprintf("%s: make: makefile of %d bytes, more than the %d read", src.Path, len(src.Text), maxText))
			return nil, true
		}
		if dir != "" && r.standIn == "" {
			r.standIn = dir
		}
		opened := name.key()
		if defaults {
			opened = path.Base(src.Path)
		}
		srcs = append(srcs, makefile{path: src.Path, name: opened, text: src.Text})
	}
	r.listFrom()
	return srcs, true
}

// findMakefile finds one makefile: at its path when the directory is
// known, else (or when no file is there) the one input of its name. dir
// is the directory of an input found by name, which stands in for a copy;
// why says why what make reads is not known.
func (r *reader) findMakefile(name value, defaults bool) (src code.Source, dir string, ok bool, why string) {
	candidates := []string{}
	if defaults {
		candidates = defaultMakefiles
	} else if s, known := name.known(); known {
		candidates = []string{s}
	}
	inputs := r.env.Files.Inputs()
	if d, known := r.dir.known(); known {
		for _, c := range candidates {
			p := c
			if !path.IsAbs(c) {
				p = path.Join(d, c)
			}
			s, err := r.env.Files.Read(p)
			if err == nil {
				return s, "", true, ""
			}
			if slices.Contains(inputs, path.Clean(p)) && !errors.Is(err, fs.ErrNotExist) {
				return code.Source{}, "", false, err.Error()
			}
		}
	}
	// By name among the inputs: the base names make looks for, under a
	// directory whose known end is the working directory's.
	bases := make([]string, len(candidates))
	for i, c := range candidates {
		bases[i] = path.Base(c)
	}
	if !defaults {
		if _, known := name.known(); !known {
			bases = []string{path.Base(lastLiteral(name))}
		}
	}
	tail := strings.Trim(lastLiteral(r.dir), "/")
	for _, b := range bases {
		if b == "" || b == "." || b == "/" {
			continue
		}
		var found []string
		for _, in := range inputs {
			if path.Base(in) == b && (tail == "" || strings.HasSuffix(path.Dir(in), "/"+tail) || path.Dir(in) == tail) {
				found = append(found, in)
			}
		}
		slices.Sort(found)
		found = slices.Compact(found)
		if top, ok := topOf(found); ok {
			found = []string{top}
		}
		switch {
		case len(found) == 1:
			s, err := r.env.Files.Read(found[0])
			if err != nil {
				return code.Source{}, "", false, err.Error()
			}
			return s, path.Dir(found[0]), true, ""
		case len(found) > 1:
			return code.Source{}, "", false, "several of the action's inputs may be the makefile it reads: " + strings.Join(found, ", ")
		}
	}
	return code.Source{}, "", false, ""
}

// topOf is the one of several makefiles at the top of the others' tree,
// the one a copy of the tree runs first: the others are its
// subdirectories', which its recipes run with $(MAKE) -C.
func topOf(paths []string) (string, bool) {
	if len(paths) < 2 {
		return "", false
	}
	top := path.Dir(paths[0])
	for _, p := range paths {
		if d := path.Dir(p); len(d) < len(top) {
			top = d
		}
	}
	var at string
	for _, p := range paths {
		d := path.Dir(p)
		switch {
		case d == top && at == "":
			at = p
		case d == top, top != "." && !strings.HasPrefix(d, top+"/"):
			return "", false
		}
	}
	return at, at != ""
}

// lastLiteral is the known text at the end of a value, after the last
// part that is not known: of a word the script computes, what follows its
// last expansion as written ("$build/src" ends in "/src").
func lastLiteral(v value) string {
	n := len(v)
	switch {
	case n == 0:
		return ""
	case v[n-1].kind == literal:
		return v[n-1].text
	case v[n-1].kind == unknown:
		return writtenTail(v[n-1].text)
	}
	return ""
}

// writtenTail is what follows the last expansion of a shell word as
// written: $name, ${...} or $(...).
func writtenTail(s string) string {
	tail := -1
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		j := i + 1
		switch s[j] {
		case '{':
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return ""
			}
			j += k + 1
		case '(':
			k := matching(s, j)
			if k < 0 {
				return ""
			}
			j = k + 1
		default:
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
		}
		tail, i = j, j-1
	}
	if tail < 0 {
		return ""
	}
	return s[tail:]
}

// joinDir is make's directory after -C d.
func joinDir(dir, d value) value {
	s, known := d.known()
	if known && path.IsAbs(s) {
		return lit(path.Clean(s))
	}
	if dir == nil {
		if known {
			return lit(path.Clean(s))
		}
		return d
	}
	base, bk := dir.known()
	if known && bk {
		return lit(path.Join(base, s))
	}
	return cat(dir, lit("/"), d)
}

// listFrom sets the files of the working directory from the action's
// inputs: under the directory when it is known and within the execution
// root, else under the directory that stands in for it.
func (r *reader) listFrom() {
	if r.env.Files == nil {
		return
	}
	d, known := r.dir.known()
	switch {
	case r.dir == nil:
		d = "."
	case known && !path.IsAbs(d) && d != ".." && !strings.HasPrefix(d, "../"):
	case r.standIn != "":
		d = r.standIn
	default:
		return
	}
	r.listed = true
	for _, in := range r.env.Files.Inputs() {
		if d == "." {
			r.listing = append(r.listing, in)
		} else if rest, ok := strings.CutPrefix(in, d+"/"); ok {
			r.listing = append(r.listing, rest)
		}
	}
	slices.Sort(r.listing)
}

// exists says whether a file, by path relative to the working directory,
// is there before make runs, as far as the listing says: yes, no, or not
// known.
func (r *reader) exists(name string) (there, known bool) {
	if !r.listed || path.IsAbs(name) || strings.HasPrefix(name, "../") {
		return false, false
	}
	name = path.Clean(name)
	if _, found := slices.BinarySearch(r.listing, name); found {
		return true, true
	}
	i, _ := slices.BinarySearch(r.listing, name+"/")
	return i < len(r.listing) && strings.HasPrefix(r.listing[i], name+"/"), true
}
