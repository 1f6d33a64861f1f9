// Package csource reads C and C++ sources for what they use of the
// compiler's own varying values (__DATE__, __TIME__, __TIMESTAMP__,
// __FILE__): a source is not run, so its effects reach an output only
// through the compiler that compiles it, whose spec
// (internal/spec/library/host/compilers.json) tests the facts this package
// gives (source:__DATE__ …).
//
// The names it looks for are the library's functions of language "c"
// (internal/spec/library/lang/c.json); a --repro-specs file can add more.
// A source is tokenised as the preprocessor's first phases see it (line
// splices joined, comments, string and character literals skipped, raw
// strings of C++ included), so a name inside a comment or a string does not
// count, and one inside a directive does (#define STAMP __DATE__).
package csource

import (
	"path"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/spec"
)

// Language is the language of the library's functions this package looks
// up.
const Language = "c"

// The bounds on what is read: the text of one source (a larger one is read
// to this size), and how many files a source and its includes come to.
const (
	MaxText  = 1 << 20
	MaxFiles = 64
)

// Reader reads C sources. It is a code.Reader.
type Reader struct{}

// Read is what running a C source gives: nothing, for a source is
// compiled, not run. What it uses reaches an output through the
// compiler's spec, whose conditions Uses and UsesFile answer.
func (Reader) Read(code.Program, code.Env) code.Outcome { return code.Outcome{} }

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
