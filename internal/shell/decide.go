package shell

import (
	"path"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// A condition whose words are all known is decided, as the shell would:
// `if [ "$1" = --date ]` in a tool run with --date takes its then branch
// only, and without it its else branch only. What is decided is the test
// of [, test and [[ on known words, true, false and :, and the negation of
// those; anything else may go either way.

// decide says whether a condition list holds, when the script says.
func (a *analyzer) decide(fr frame, st *state, list []*syntax.Stmt) (holds, known bool) {
	if len(list) != 1 || list[0].Background || len(list[0].Redirs) > 0 {
		return false, false
	}
	s := list[0]
	holds, known = a.decideCmd(fr, st, s.Cmd)
	if s.Negated {
		holds = !holds
	}
	return holds, known
}

func (a *analyzer) decideCmd(fr frame, st *state, cmd syntax.Command) (holds, known bool) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return a.decideCall(fr, st, c)
	case *syntax.TestClause:
		return a.decideTest(fr, st, c.X)
	case *syntax.BinaryCmd:
		x, kx := a.decide(fr, st, []*syntax.Stmt{c.X})
		y, ky := a.decide(fr, st, []*syntax.Stmt{c.Y})
		switch c.Op {
		case syntax.AndStmt:
			return and(x, kx, y, ky)
		case syntax.OrStmt:
			return or(x, kx, y, ky)
		}
	}
	return false, false
}

// decideCall decides true, false, : and the tests of [ and test, of words
// that are all known.
func (a *analyzer) decideCall(fr frame, st *state, c *syntax.CallExpr) (holds, known bool) {
	if len(c.Assigns) > 0 || len(c.Args) == 0 || !pureWords(c.Args) {
		return false, false
	}
	var words []string
	for _, f := range a.fields(fr, st, c.Args) {
		w, ok := f.known()
		if !ok {
			return false, false
		}
		words = append(words, w)
	}
	switch words[0] {
	case "true", ":":
		return true, true
	case "false":
		return false, true
	case "[":
		if words[len(words)-1] != "]" {
			return false, false
		}
		return testWords(words[1 : len(words)-1])
	case "test":
		return testWords(words[1:])
	}
	return false, false
}

// and is the conjunction of two conditions, each known or not: false as
// soon as one is known false.
func and(x, kx, y, ky bool) (holds, known bool) {
	if kx && !x || ky && !y {
		return false, true
	}
	return true, kx && ky
}

// or is the disjunction of two conditions: true as soon as one is known
// true.
func or(x, kx, y, ky bool) (holds, known bool) {
	if kx && x || ky && y {
		return true, true
	}
	return false, kx && ky
}

// pureWords says words expand without running anything (no substitution),
// so that expanding them again changes nothing.
func pureWords(words []*syntax.Word) bool {
	pure := true
	for _, w := range words {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
				pure = false
			}
			return pure
		})
	}
	return pure
}

// testWords decides test's expression of known words: one word, ! EXPR,
// -z and -n, and the binary string and integer comparisons.
func testWords(w []string) (holds, known bool) {
	if len(w) > 0 && w[0] == "!" {
		h, k := testWords(w[1:])
		return !h, k
	}
	switch len(w) {
	case 0:
		return false, true
	case 1:
		return w[0] != "", true
	case 2:
		switch w[0] {
		case "-z":
			return w[1] == "", true
		case "-n":
			return w[1] != "", true
		}
	case 3:
		return compare(w[1], w[0], w[2])
	}
	return false, false
}

// compare decides a binary test of two known words.
func compare(op, x, y string) (holds, known bool) {
	switch op {
	case "=", "==":
		return x == y, true
	case "!=":
		return x != y, true
	}
	i, errx := strconv.ParseInt(x, 10, 64)
	j, erry := strconv.ParseInt(y, 10, 64)
	if errx != nil || erry != nil {
		return false, false
	}
	switch op {
	case "-eq":
		return i == j, true
	case "-ne":
		return i != j, true
	case "-lt":
		return i < j, true
	case "-le":
		return i <= j, true
	case "-gt":
		return i > j, true
	case "-ge":
		return i >= j, true
	}
	return false, false
}

// decideTest decides [[ ... ]] of known words; == and != match the right
// side as a pattern.
func (a *analyzer) decideTest(fr frame, st *state, x syntax.TestExpr) (holds, known bool) {
	switch x := x.(type) {
	case *syntax.ParenTest:
		return a.decideTest(fr, st, x.X)
	case *syntax.UnaryTest:
		return a.decideUnary(fr, st, x)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			h1, k1 := a.decideTest(fr, st, x.X)
			h2, k2 := a.decideTest(fr, st, x.Y)
			return and(h1, k1, h2, k2)
		case syntax.OrTest:
			h1, k1 := a.decideTest(fr, st, x.X)
			h2, k2 := a.decideTest(fr, st, x.Y)
			return or(h1, k1, h2, k2)
		}
		return a.decideBinary(fr, st, x)
	}
	return false, false
}

// testWord is a word of [[ ... ]] when it is known and expands without
// running anything.
func (a *analyzer) testWord(fr frame, st *state, x syntax.TestExpr) (string, bool) {
	w, ok := x.(*syntax.Word)
	if !ok || !pureWords([]*syntax.Word{w}) {
		return "", false
	}
	return a.value(fr, st, w, true).known()
}

// decideUnary decides ! EXPR, -z and -n of [[ ... ]].
func (a *analyzer) decideUnary(fr frame, st *state, x *syntax.UnaryTest) (holds, known bool) {
	if x.Op == syntax.TsNot {
		h, k := a.decideTest(fr, st, x.X)
		return !h, k
	}
	s, ok := a.testWord(fr, st, x.X)
	if !ok {
		return false, false
	}
	switch x.Op {
	case syntax.TsEmpStr:
		return s == "", true
	case syntax.TsNempStr:
		return s != "", true
	}
	return false, false
}

// decideBinary decides a comparison of [[ ... ]]: a pattern match, or a
// string or integer comparison.
func (a *analyzer) decideBinary(fr frame, st *state, x *syntax.BinaryTest) (holds, known bool) {
	sx, okx := a.testWord(fr, st, x.X)
	sy, oky := a.testWord(fr, st, x.Y)
	if !okx || !oky {
		return false, false
	}
	switch x.Op {
	case syntax.TsMatchShort, syntax.TsMatch, syntax.TsNoMatch:
		m, err := path.Match(sy, sx)
		if err != nil {
			return false, false
		}
		return m == (x.Op != syntax.TsNoMatch), true
	}
	return compare(x.Op.String(), sx, sy)
}
