package perl

import (
	"strings"
)

// interpolate reads a string that interpolates into its literal parts and
// the variables and expressions written in it: "$x", "${x}", "$h{k}",
// "$a[0]", "$r->{k}[1]", "@list", "@{[ expr ]}", "$$". In a pattern a $
// before ), | or the end is an anchor.
func (p *parser) interpolate(body string, line int, pattern bool) *interpStr {
	s := &interpStr{line: line}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			s.parts = append(s.parts, strLit{lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			if pattern {
				lit.WriteByte('\\')
				lit.WriteByte(body[i])
				continue
			}
			lit.WriteString(escape(body[i]))
		case (c == '$' || c == '@') && i+1 < len(body):
			n := varExtent(body, i, pattern)
			if n == 0 {
				lit.WriteByte(c)
				continue
			}
			text := body[i : i+n]
			if c == '@' && !strings.HasPrefix(text, "@{") && !strings.HasPrefix(text, "@$") {
				// "@list" joins with spaces.
				text = "join(' ', " + text + ")"
			}
			stmts, err := parseAt(text, line+strings.Count(body[:i], "\n"), p.depth+1)
			if err != nil || len(stmts) != 1 {
				lit.WriteString(body[i : i+n])
				i += n - 1
				continue
			}
			es, ok := stmts[0].(exprStmt)
			if !ok {
				lit.WriteString(body[i : i+n])
				i += n - 1
				continue
			}
			flush()
			s.parts = append(s.parts, es.x)
			i += n - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return s
}

func escape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	case 'e':
		return "\x1b"
	case 'a':
		return "\a"
	}
	return string(c)
}

// varExtent is the length of the variable and its subscripts at body[i],
// or 0 when what is there is not one.
func varExtent(body string, i int, pattern bool) int {
	j, whole := varName(body, i, pattern)
	if j == 0 || whole {
		return j
	}
	return subscripts(body, i+j, pattern) - i
}

// varName is the length of the variable's name at body[i]; whole says
// nothing can follow it (a punctuation variable).
func varName(body string, i int, pattern bool) (int, bool) {
	j := i + 1
	c := body[j]
	switch {
	case c == '{':
		end := matching(body, j)
		if end < 0 {
			return 0, true
		}
		return end + 1 - i, false
	case isIdentStart(c) || c == ':' && strings.HasPrefix(body[j:], "::"):
		return qualifiedName(body, j) - i, false
	case body[i] == '$' && c == '$':
		if j+1 < len(body) && (isIdentStart(body[j+1]) || body[j+1] == '{') {
			// $$ref, $${ref}
			return 1 + varExtent(body, j, pattern), true
		}
		return 2, true
	case body[i] == '$' && isDigit(c):
		for j < len(body) && isDigit(body[j]) {
			j++
		}
		return j - i, true
	case body[i] == '$' && (c == '&' || c == '<' || c == '>') && !pattern:
		return 2, true
	}
	return 0, true
}

// qualifiedName is where a name from j ends: words joined by ::, not a
// :: the name does not go on after ("$x::" is $x and two colons).
func qualifiedName(body string, j int) int {
	for j < len(body) {
		switch {
		case isIdentPart(body[j]):
			j++
		case strings.HasPrefix(body[j:], "::") && j+2 < len(body) && isIdentStart(body[j+2]):
			j += 2
		default:
			return j
		}
	}
	return j
}

// subscripts is where the subscripts from j end: [..], {..}, ->[..],
// ->{..}; in a pattern not a quantifier {2,3} nor a class [abc].
func subscripts(body string, j int, pattern bool) int {
	for j < len(body) {
		k := j
		if strings.HasPrefix(body[k:], "->") && k+2 < len(body) && (body[k+2] == '[' || body[k+2] == '{') {
			k += 2
		}
		if body[k] != '[' && body[k] != '{' {
			break
		}
		if pattern && body[k] == '{' && k+1 < len(body) && isDigit(body[k+1]) {
			break
		}
		end := matching(body, k)
		if end < 0 || body[k] == '[' && pattern && !looksLikeIndex(body[k+1:end]) {
			break
		}
		j = end + 1
	}
	return j
}

func looksLikeIndex(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	return s[0] == '$' || s[0] == '-' || isDigit(s[0])
}

// matching is the offset of the bracket that closes body[i].
func matching(body string, i int) int {
	open := body[i]
	cl := closing(open)
	depth := 0
	for j := i; j < len(body); j++ {
		switch body[j] {
		case '\\':
			j++
		case open:
			depth++
		case cl:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
