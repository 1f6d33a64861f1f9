package spec

import (
	"strings"
	"unicode/utf8"
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
	literal bool // no wildcard: Match is string equality
}

// CompileGlob reads a pattern. Every string is a valid pattern.
func CompileGlob(pattern string) Glob {
	return Glob{pattern: pattern, literal: !strings.ContainsAny(pattern, "*?")}
}

// String returns the pattern text, which is also how globs sort (§5.1).
func (g Glob) String() string { return g.pattern }

// IsLiteral says whether the pattern has no wildcard.
func (g Glob) IsLiteral() bool { return g.literal }

// Match reports whether the whole of s matches the pattern.
func (g Glob) Match(s string) bool {
	if g.literal {
		return s == g.pattern
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

// compareGlobs orders globs by their pattern text (§5.1).
func compareGlobs(a, b Glob) int { return strings.Compare(a.pattern, b.pattern) }
