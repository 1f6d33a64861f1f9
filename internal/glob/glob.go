// Package glob is Ahab's pattern language (§5.1), which spec files and
// exception files share: `*` matches any run of characters, `?` exactly
// one, everything else itself, and the whole text must match.
package glob

import (
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/mode"
)

// Glob is a pattern of Ahab's glob language (§5.1): `*` matches any run of
// characters, `/` included and possibly empty; `?` matches exactly one
// character (a Unicode scalar, not a byte); everything else is literal;
// there are no escapes; the whole text must match.
//
// Globs are matched for every argument of every action and by exceptions,
// so Match neither allocates nor uses regexp. The zero Glob matches only
// the empty string.
type Glob struct {
	pattern string
	shape   shape
	ahab02  bool // match as Ahab 0.2 did (CompileAhab02)
}

// shape picks the matcher. Glob stays comparable (sets of globs are
// compared with ==), so nothing pattern-sized is precomputed.
type shape uint8

const (
	literalGlob shape = iota // no wildcard: string equality
	starGlob                 // `*` but no `?`: literal pieces found with strings.Index
	generalGlob              // `?`: the backtracking matcher
)

// Compile reads a pattern. Every string is a valid pattern.
func Compile(pattern string) Glob {
	shape := literalGlob
	switch {
	case strings.Contains(pattern, "?"):
		shape = generalGlob
	case strings.Contains(pattern, "*"):
		shape = starGlob
	}
	return Glob{pattern: pattern, shape: shape}
}

// CompileAhab02 reads a pattern that matches as Ahab 0.2's matcher did,
// for --compat 0.2. That matcher tried a `*` of the text against the
// pattern's character as a literal before trying the pattern's `*` as a
// wildcard, and never came back to the wildcard, so it misses some matches
// the documented meaning has: `a*c` does not match `a*bc`, nor `--x=*y`
// `--x=*zy`. It agrees with Match on every text without a `*`.
func CompileAhab02(pattern string) Glob {
	g := Compile(pattern)
	g.ahab02 = true
	return g
}

// For returns the compiler of mode m: CompileAhab02 for Ahab 0.2's
// judgement, Compile otherwise.
func For(m mode.Mode) func(string) Glob {
	if m == mode.Ahab02 {
		return CompileAhab02
	}
	return Compile
}

// String returns the pattern text, which is also how globs sort (§5.1).
func (g Glob) String() string { return g.pattern }

// IsLiteral says whether the pattern has no wildcard.
func (g Glob) IsLiteral() bool { return g.shape == literalGlob }

// Match reports whether the whole of s matches the pattern.
func (g Glob) Match(s string) bool {
	if g.ahab02 && g.shape != literalGlob && strings.Contains(s, "*") {
		return matchAhab02(g.pattern, s)
	}
	switch g.shape {
	case literalGlob:
		return s == g.pattern
	case starGlob:
		return matchStars(g.pattern, s)
	}
	return matchWildcards(g.pattern, s)
}

// matchStars matches a pattern whose only wildcard is `*`: the first piece
// is a prefix, the last a suffix, and each piece between is found at its
// leftmost place after the previous one, which is never worse than a later
// place.
func matchStars(p, s string) bool {
	first := strings.IndexByte(p, '*')
	last := strings.LastIndexByte(p, '*')
	prefix, suffix := p[:first], p[last+1:]
	if len(s) < len(prefix)+len(suffix) || !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		return false
	}
	s = s[len(prefix) : len(s)-len(suffix)]
	for middle := p[first+1 : last+1]; middle != ""; {
		piece, rest, _ := strings.Cut(middle, "*")
		middle = rest
		if piece == "" {
			continue
		}
		i := strings.Index(s, piece)
		if i < 0 {
			return false
		}
		s = s[i+len(piece):]
	}
	return true
}

// matchWildcards is the classic greedy matcher: on a mismatch it returns
// to the last `*` and lets it swallow one more character. Earlier stars
// never need revisiting, so this is O(len(p)·len(s)) with no allocation.
func matchWildcards(p, s string) bool {
	pi, si := 0, 0
	starP, starS := -1, 0 // position after the last `*`, and where its match ends
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; c {
			case '*':
				pi++
				starP, starS = pi, si
				continue
			case '?':
				_, size := utf8.DecodeRuneInString(s[si:])
				pi++
				si += size
				continue
			default:
				if c == s[si] {
					pi++
					si++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		// Backtrack: the last star takes one more whole character.
		_, size := utf8.DecodeRuneInString(s[starS:])
		starS += size
		pi, si = starP, starS
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchAhab02 is Ahab 0.2's matcher: at each character of the text it
// first tries the pattern's character as `?` or as the same character,
// and only then as a `*`; on a mismatch it lets the last `*` it took as a
// wildcard swallow one more character of the text.
func matchAhab02(pattern, text string) bool {
	p, t := []rune(pattern), []rune(text)
	pi, ti := 0, 0
	star, mark := -1, 0 // the last wildcard `*`, and where its match ends
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// Compare orders globs by their pattern text (§5.1).
func Compare(a, b Glob) int { return strings.Compare(a.pattern, b.pattern) }
