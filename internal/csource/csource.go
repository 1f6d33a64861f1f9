// Package csource reads C and C++ sources: for what they use of the
// compiler's own varying values (__DATE__, __TIME__, __TIMESTAMP__,
// __FILE__), which reach an output through the compiler that compiles
// them, whose spec (internal/spec/library/host/compilers.json) tests the
// facts this package gives (source:__DATE__ …); and, for a program a
// script compiles and then runs, for what it calls of the C library
// (time, rand, getpid, readdir…), which reach what the program prints.
//
// The names it looks for are the library's functions of languages "c"
// (internal/spec/library/lang/c.json) and "libc" (lang/libc.json); a
// --repro-specs file can add more. A source is tokenised as the
// preprocessor's first phases see it (line splices joined, comments,
// string and character literals skipped, raw strings of C++ included), so
// a name inside a comment or a string does not count, and one inside a
// directive does (#define STAMP __DATE__).
package csource

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

// Language is the language of the library's functions a compiler sees
// (the preprocessor's names), and Runtime that of the functions of the C
// library a compiled program calls.
const (
	Language = "c"
	Runtime  = "libc"
)

// The bounds on what is read: the text of one source (a larger one is read
// to this size), and how many files a source and its includes come to.
const (
	MaxText      = 1 << 20
	MaxFiles     = 64
	maxArgTokens = 256
)

// Reader reads C sources. It is a code.Reader.
type Reader struct{}

// Read is what running a program compiled from the C source p.File (or
// p.Text) gives: each call of a function of the C library whose entry says
// what varies (time(), rand() unless srand was given a constant,
// getpid()…), taken to reach both what the program prints and the files
// it writes, for the source's data flow is not followed. The calls are
// taken in the order they are written, which is the order they run in
// for the straight-line generators builds compile (a seed before the
// draws). What the compiler puts in (__DATE__) is not the program's: it
// reaches what the compiler writes, through the compiler's spec.
func (Reader) Read(p code.Program, env code.Env) code.Outcome {
	text, where := p.Text, p.Where()
	if text == "" && p.File != "" && env.Files != nil {
		src, err := env.Files.Read(p.File)
		if err != nil {
			return code.Outcome{Unread: []string{p.File + ": " + err.Error()}}
		}
		text = src.Text
	}
	if len(text) > MaxText {
		return code.Outcome{Unread: []string{fmt.Sprintf("%s: C source of %d bytes, more than the %d read", where, len(text), MaxText)}}
	}
	var out code.Outcome
	var established []string
	s := newScanner(text)
	var toks []token
	for t := s.next(); t.kind != eof; t = s.next() {
		toks = append(toks, t)
	}
	for i, t := range toks {
		if t.kind != ident || i+1 == len(toks) || toks[i+1].kind != other || toks[i+1].text != "(" {
			continue // not a call: time_t time = 0
		}
		if i > 0 && toks[i-1].kind == other && (toks[i-1].text == "." || toks[i-1].text == ">") {
			continue // a member: x.time(), p->time()
		}
		f, ok := env.Library.Function(Runtime, t.text)
		if !ok {
			continue
		}
		facts := append(callFacts(toks[i+2:]), established...)
		site := effect.Site{File: p.File, Line: s.line(t.pos)}
		if p.File == "" {
			site = p.Site
		}
		for _, e := range f.Effects {
			if applies, by := e.Apply(facts); applies && by == "" {
				r := effect.Reach{Value: e.Value, Text: t.text + "()", Because: e.Because, Site: site}
				out.Stdout = effect.AppendReaches(out.Stdout, r)
				out.Files = effect.AppendReaches(out.Files, r)
			}
		}
		for _, fact := range f.Sets {
			if fact.When.Holds(facts) && !slices.Contains(established, fact.Name) {
				established = append(established, fact.Name)
			}
		}
	}
	return out
}

// callFacts reads a call's arguments, toks starting past its opening
// parenthesis, to its closing one, and says which are fixed: arg0:fixed
// for a first argument that is one literal (srand(42)), as the readers of
// other languages say it. It looks at most maxArgTokens tokens: an
// argument list longer than that says nothing, and a source of calls
// nested without end does not take quadratic time.
func callFacts(toks []token) []string {
	toks = toks[:min(len(toks), maxArgTokens)]
	var facts []string
	depth, arg, n, fixed := 1, 0, 0, true
	end := func() {
		if n == 1 && fixed {
			facts = append(facts, "arg"+strconv.Itoa(arg)+":fixed")
		}
	}
	for _, t := range toks {
		switch {
		case t.kind == other && t.text == "(":
			depth++
		case t.kind == other && t.text == ")":
			depth--
			if depth == 0 {
				end()
				return facts
			}
		case t.kind == other && t.text == "," && depth == 1:
			end()
			arg, n, fixed = arg+1, 0, true
			continue
		}
		n++
		fixed = fixed && t.kind == literal
	}
	return facts
}

// Uses lists, as facts source:NAME, the library's functions of C the text
// uses, sorted.
func (Reader) Uses(text string, lib *spec.Library) []string {
	seen := map[string]bool{}
	uses(text, lib, seen)
	return facts(seen)
}

// UsesFile is Uses of a source and of the workspace headers it includes
// with #include "…", each found beside the file that includes it, as the
// preprocessor looks first. A header that cannot be read is passed over:
// the compiler would find it on a -I directory this package is not told of.
func UsesFile(execPath string, files code.Files, lib *spec.Library) []string {
	seen := map[string]bool{}
	visited := map[string]bool{}
	queue := []string{path.Clean(execPath)}
	for len(queue) > 0 && len(visited) < MaxFiles {
		p := queue[0]
		queue = queue[1:]
		if visited[p] {
			continue
		}
		visited[p] = true
		src, err := files.Read(p)
		if err != nil {
			continue
		}
		uses(src.Text, lib, seen)
		for _, inc := range Includes(src.Text) {
			queue = append(queue, path.Join(path.Dir(p), inc))
		}
	}
	return facts(seen)
}

func uses(text string, lib *spec.Library, seen map[string]bool) {
	s := newScanner(text)
	for {
		t := s.next()
		if t.kind == eof {
			return
		}
		if t.kind == ident && !seen[t.text] {
			if _, ok := lib.Function(Language, t.text); ok {
				seen[t.text] = true
			}
		}
	}
}

func facts(seen map[string]bool) []string {
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, "source:"+name)
	}
	slices.Sort(out)
	return out
}

// Includes lists the headers a source includes by a quoted name
// (#include "x.h", #import, #include_next), in order; those in angle
// brackets are the system's and are left out.
func Includes(text string) []string {
	var out []string
	s := newScanner(text)
	for {
		t := s.next()
		switch t.kind {
		case eof:
			return out
		case directive:
			if name, ok := quotedInclude(t.text); ok {
				out = append(out, name)
			}
		}
	}
}

// quotedInclude reads the header of an include directive's text (what
// follows the #).
func quotedInclude(d string) (string, bool) {
	d = strings.TrimLeft(d, " \t")
	word := d
	if i := strings.IndexAny(d, " \t\""); i >= 0 {
		word = d[:i]
	}
	switch word {
	case "include", "import", "include_next":
	default:
		return "", false
	}
	rest := strings.TrimLeft(d[len(word):], " \t")
	if !strings.HasPrefix(rest, `"`) {
		return "", false
	}
	name, _, ok := strings.Cut(rest[1:], `"`)
	if !ok || name == "" || strings.ContainsAny(name, "\n") {
		return "", false
	}
	return name, true
}
