package awk

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
)

// truth decides a condition when what it tests is known: the variables
// the command line sets (awk -v), constants, what the program computed
// from them. A condition it cannot decide may go either way, and both
// branches may run.
func (in *interp) truth(x expr) (holds, known bool) {
	if in.undecided > 0 {
		return false, false
	}
	switch x := x.(type) {
	case unary:
		if x.op == "!" {
			h, k := in.truth(x.x)
			return !h, k
		}
	case group:
		if len(x.list) == 1 {
			return in.truth(x.list[0])
		}
	case binary:
		return in.truthOf(x)
	}
	v, ok := in.pure(x)
	if !ok || !v.exact {
		return false, false
	}
	return v.s != "" && v.s != "0", true
}

// pure is the value of an expression that only reads, and false for any
// other, which this does not run again. A variable nothing assigned yet,
// outside any branch or loop, is the empty string.
func (in *interp) pure(x expr) (val, bool) {
	switch x := x.(type) {
	case numLit, strLit:
		return in.eval(x), true
	case varRef:
		c := in.lookup(x.name)
		if !c.assigned && in.weak == 0 && len(in.frames) == 0 {
			return fixed(""), true
		}
		return c.v, true
	case group:
		if len(x.list) == 1 {
			return in.pure(x.list[0])
		}
	}
	return val{}, false
}

func (in *interp) truthOf(x binary) (holds, known bool) {
	switch x.op {
	case "&&":
		a, ka := in.truth(x.x)
		if ka && !a {
			return false, true
		}
		b, kb := in.truth(x.y)
		if kb && !b {
			return false, true
		}
		return true, ka && kb
	case "||":
		a, ka := in.truth(x.x)
		if ka && a {
			return true, true
		}
		b, kb := in.truth(x.y)
		if kb && b {
			return true, true
		}
		return false, ka && kb
	}
	a, oka := in.pure(x.x)
	b, okb := in.pure(x.y)
	if !oka || !okb || !a.exact || !b.exact {
		return false, false
	}
	// Two numbers compare as numbers, anything else as strings.
	fa, ea := strconv.ParseFloat(a.s, 64)
	fb, eb := strconv.ParseFloat(b.s, 64)
	if ea == nil && eb == nil && !math.IsNaN(fa) && !math.IsNaN(fb) {
		return code.Ordered(x.op, cmp.Compare(fa, fb))
	}
	return code.Ordered(x.op, strings.Compare(a.s, b.s))
}
