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
// Globs are matched against every argument of every action, so Match
// does not allocate (TestGlobMatchDoesNotAllocate) and does not use
// regexp, which takes about three times as long on patterns shaped like
// the built-in library's (BenchmarkGlobMatch). The zero Glob matches only
// the empty string.
type Glob struct {
	pattern  string
	wildcard bool // has `*` or `?`; without, matched by string equality
	ahab02   bool // match with Ahab 0.2's general matcher (CompileAhab02)
}

// Compile reads a pattern. Every string is a valid pattern.
func Compile(pattern string) Glob {
	return Glob{pattern: pattern, wildcard: strings.ContainsAny(pattern, "*?")}
}

// CompileAhab02 reads a pattern that matches as Ahab 0.2 did, for
// --compat 0.2. Ahab 0.2 matched the simple shapes (`*`, `lit*`, `*lit`
// and `*lit*`, lit without a wildcard) with a prefix, suffix or substring
// test, which is what Compile does. Every other pattern went to a matcher
// that tried a `*` of the text against the pattern's character as a
// literal before trying the pattern's `*` as a wildcard, and never came
// back to the wildcard, so it misses some matches the documented meaning
// has: `a*c` does not match `a*bc`, nor `--x=*y` `--x=*zy`. It agrees with
// Match on every text without a `*`.
func CompileAhab02(pattern string) Glob {
	g := Compile(pattern)
	g.ahab02 = g.wildcard && !simpleShape(pattern)
	return g
}

// simpleShape reports whether pattern is `*`, `lit*`, `*lit` or `*lit*`
// with no wildcard in lit, the shapes Ahab 0.2 matched without its
// general matcher. `**` counts as `*lit*` with an empty lit: it matches
// everything either way.
func simpleShape(pattern string) bool {
	if pattern == "" || strings.ContainsRune(pattern, '?') {
		return false
	}
	first, last := pattern[0] == '*', pattern[len(pattern)-1] == '*'
	switch strings.Count(pattern, "*") {
	case 1:
		return first || last
	case 2:
		return first && last
	}
	return false
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
func (g Glob) IsLiteral() bool { return !g.wildcard }

// Match reports whether the whole of s matches the pattern.
func (g Glob) Match(s string) bool {
	switch {
	case !g.wildcard:
		return s == g.pattern
	case g.ahab02 && strings.Contains(s, "*"):
		return matchAhab02(g.pattern, s)
	}
	return matchWildcards(g.pattern, s)
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
