package make

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

// A value is make's text as far as the reader knows it: known text, words
// it cannot know (a command-line value the script computes, a list of files
// nobody listed), the output of a $(shell) command, which varies as the
// command does, and make's working directory ($(CURDIR)), which is the
// build's.
type value []part

type partKind uint8

const (
	literal partKind = iota
	// unknown: text is how the word was written where it was made (the
	// script's "$build/destdir", a function call); id names it for the
	// shell, the same id for the same text.
	unknown
	// output: text is the command, as the shell is given it; reaches are
	// what it prints that varies.
	output
	// curdir: the absolute path of make's working directory.
	curdir
)

type part struct {
	kind    partKind
	text    string
	id      int
	reaches []effect.Reach
}

func lit(s string) value {
	if s == "" {
		return nil
	}
	return value{{text: s}}
}

// known is the value's text when all of it is known.
func (v value) known() (string, bool) {
	if len(v) == 1 && v[0].kind == literal {
		return v[0].text, true
	}
	var b strings.Builder
	for _, p := range v {
		if p.kind != literal {
			return "", false
		}
		b.WriteString(p.text)
	}
	return b.String(), true
}

// size is the length of the value's known text.
func (v value) size() int {
	n := 0
	for _, p := range v {
		n += len(p.text)
	}
	return n
}

// cat appends values, joining neighbouring known text.
func cat(vs ...value) value {
	var out value
	for _, v := range vs {
		for _, p := range v {
			if p.kind == literal {
				if p.text == "" {
					continue
				}
				if n := len(out); n > 0 && out[n-1].kind == literal {
					out[n-1].text += p.text
					continue
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// same says two values are the same text, known or not.
func same(a, b value) bool {
	a, b = cat(a), cat(b)
	return slices.EqualFunc(a, b, func(x, y part) bool { return x.kind == y.kind && x.text == y.text })
}

// varying lists the parts of vs that vary or that nobody knows, for a
// value computed from them that the reader cannot compute: it carries
// them (their reaches, and the words the shell then cannot know).
func varying(vs ...value) value {
	var out value
	for _, v := range vs {
		for _, p := range v {
			if p.kind != literal && !slices.ContainsFunc(out, func(q part) bool { return q.kind == p.kind && q.text == p.text }) {
				out = append(out, p)
			}
		}
	}
	return out
}

// reaches are what the outputs of commands in v carry.
func (v value) reaches() []effect.Reach {
	var rs []effect.Reach
	for _, p := range v {
		rs = effect.AppendReaches(rs, p.reaches...)
	}
	return rs
}

// isSpace is make's whitespace between words.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// fields splits a value into words at the whitespace of its known text; a
// part the reader does not know is inside one word.
func (v value) fields() []value {
	var words []value
	var cur value
	flush := func() {
		if len(cur) > 0 {
			words = append(words, cur)
			cur = nil
		}
	}
	for _, p := range v {
		if p.kind != literal {
			cur = append(cur, p)
			continue
		}
		s := p.text
		for s != "" {
			i := strings.IndexFunc(s, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
			if i < 0 {
				cur = cat(cur, lit(s))
				break
			}
			if i > 0 {
				cur = cat(cur, lit(s[:i]))
			}
			flush()
			s = s[i+1:]
		}
	}
	flush()
	return words
}

// join joins words with one space.
func join(words []value) value {
	var out value
	for i, w := range words {
		if i > 0 {
			out = cat(out, lit(" "))
		}
		out = cat(out, w)
	}
	return out
}

// strings is the known text of each word; ok is false when some word is
// not known.
func knownWords(words []value) ([]string, bool) {
	out := make([]string, len(words))
	for i, w := range words {
		s, ok := w.known()
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func wordsOf(ss []string) []value {
	out := make([]value, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
	}
	return out
}

// placeholder is what the shell is given for a part the reader does not
// know as text: a variable no script sets for a word nobody knows, a
// command substitution of the command whose output it is, $PWD for the
// working directory.
func (p part) placeholder() string {
	switch p.kind {
	case unknown:
		return "${__ahab_unknown_" + strconv.Itoa(p.id) + "}"
	case output:
		return "$(" + p.text + ")"
	case curdir:
		return "$PWD"
	}
	return p.text
}

// key is a value as a name: of a target, a file a recipe writes. A part
// not known is named by its placeholder, the same for the same part.
func (v value) key() string {
	var b strings.Builder
	for _, p := range v {
		b.WriteString(p.placeholder())
	}
	return b.String()
}

// quoting is where in the shell's quotes a recipe's text has got to.
type quoting uint8

const (
	unquoted quoting = iota
	inSingle
	inDouble
)

// scanQuotes follows the shell's quotes through s.
func scanQuotes(q quoting, escaped bool, s string) (quoting, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if escaped {
			escaped = false
			continue
		}
		switch q {
		case unquoted:
			switch c {
			case '\\':
				escaped = true
			case '\'':
				q = inSingle
			case '"':
				q = inDouble
			}
		case inSingle:
			if c == '\'' {
				q = unquoted
			}
		case inDouble:
			switch c {
			case '\\':
				escaped = true
			case '"':
				q = unquoted
			}
		}
	}
	return q, escaped
}

// shellText is a recipe line as the shell's reader is given it: known text
// as it is, each other part as its placeholder, which inside single quotes
// stands between double quotes, so that the shell reads it as the text it
// stands for would be read (-DSTAMP='"$(DATE)"').
func (v value) shellText() string {
	var b strings.Builder
	q, esc := unquoted, false
	for _, p := range v {
		if p.kind == literal {
			b.WriteString(p.text)
			q, esc = scanQuotes(q, esc, p.text)
			continue
		}
		s := p.placeholder()
		if q == inSingle {
			s = `'"` + s + `"'`
		}
		b.WriteString(s)
		esc = false
	}
	return b.String()
}
