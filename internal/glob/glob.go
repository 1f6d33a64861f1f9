// Package glob is Ahab's pattern language (§5.1), which spec files and
// exception files share: `*` matches any run of characters, `?` exactly
// one, everything else itself, and the whole text must match.
package glob

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
	shape   shape
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

// String returns the pattern text, which is also how globs sort (§5.1).
func (g Glob) String() string { return g.pattern }

// IsLiteral says whether the pattern has no wildcard.
func (g Glob) IsLiteral() bool { return g.shape == literalGlob }

// Match reports whether the whole of s matches the pattern.
func (g Glob) Match(s string) bool {
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

// Compare orders globs by their pattern text (§5.1).
func Compare(a, b Glob) int { return strings.Compare(a.pattern, b.pattern) }
