package perl

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
)

// truth decides a condition when what it tests is known: the arguments and
// environment the program is given, constants, what it computed from them.
// A condition it cannot decide may go either way, and the branches it
// picks between may both run.
func (in *interp) truth(x node) (holds, known bool) {
	if in.undecided > 0 {
		return false, false
	}
	switch x := x.(type) {
	case unNode:
		if x.op == "!" || x.op == "not" {
			h, k := in.truth(x.x)
			return !h, k
		}
	case binNode:
		return in.truthOf(x)
	case callNode:
		if x.name == "defined" && len(x.args) == 1 {
			v := in.pure(x.args[0])
			switch {
			case v.undef:
				return false, true
			case v.exact:
				return true, true
			}
			return false, false
		}
		if x.name == "scalar" && len(x.args) == 1 {
			return in.truth(x.args[0])
		}
		if x.name == "grep" {
			if n, ok := in.grepCount(x); ok {
				return truthy(n), true
			}
		}
	case varNode:
		if x.name[0] == '@' {
			c := in.lookup(x.name)
			if c.assigned && !c.inexact && !c.hasApprox {
				return len(c.elems) > 0, true
			}
			return false, false
		}
	case listNode:
		if len(x.items) == 1 {
			return in.truth(x.items[0])
		}
	}
	v := in.pure(x)
	if !v.exact {
		return false, false
	}
	return truthy(v), true
}

// pure is the value of an expression that only reads (a variable, an
// element, a constant); nil for any other, which this does not run again.
func (in *interp) pure(x node) val {
	switch x := x.(type) {
	case numLit, strLit, varNode, elemNode, *interpStr:
		return in.eval(x)
	case listNode:
		if len(x.items) == 1 {
			return in.pure(x.items[0])
		}
	}
	return val{}
}

// truthy is perl's truth of a value known: undef, "" and "0" are false.
func truthy(v val) bool { return !v.undef && v.s != "" && v.s != "0" }

func (in *interp) truthOf(x binNode) (holds, known bool) {
	switch x.op {
	case "&&", "and":
		a, ka := in.truth(x.x)
		if ka && !a {
			return false, true
		}
		b, kb := in.truth(x.y)
		if kb && !b {
			return false, true
		}
		return true, ka && kb
	case "||", "or", "//":
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
	a, b := in.pure(x.x), in.pure(x.y)
	if holds, ok := clamped(x.op, a, b); ok {
		return holds, true
	}
	if !a.exact || !b.exact {
		return false, false
	}
	if op, ok := stringOps[x.op]; ok {
		return code.Ordered(op, strings.Compare(a.s, b.s))
	}
	fa, ea := strconv.ParseFloat(orZero(a), 64)
	fb, eb := strconv.ParseFloat(orZero(b), 64)
	if ea != nil || eb != nil || math.IsNaN(fa) || math.IsNaN(fb) {
		return false, false
	}
	return code.Ordered(x.op, cmp.Compare(fa, fb))
}

// stringOps are Perl's string comparisons, by the numeric comparison of
// the same order.
var stringOps = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">="}

func orZero(v val) string {
	if v.undef || v.s == "" {
		return "0"
	}
	return v.s
}

// clamped decides a comparison of a file's time or the clock with
// SOURCE_DATE_EPOCH, which is the sources' date: every file a build checks
// out or makes, and the build's own time, is later (the reproducible-builds.org
// clamp, $t = $ENV{SOURCE_DATE_EPOCH} if $t > $ENV{SOURCE_DATE_EPOCH}).
func clamped(op string, a, b val) (holds, ok bool) {
	switch {
	case isTime(a) && b.epoch:
		switch op {
		case ">", ">=":
			return true, true
		case "<", "<=":
			return false, true
		}
	case a.epoch && isTime(b):
		switch op {
		case "<", "<=":
			return true, true
		case ">", ">=":
			return false, true
		}
	}
	return false, false
}

// isTime says a value is a time that varies: what it holds is the clock or
// files' metadata, which stat gives whole.
func isTime(v val) bool {
	return !v.exact && len(v.r) > 0 && !slices.ContainsFunc(v.r, func(r effect.Reach) bool {
		return r.Value != effect.Clock && r.Value != effect.MTime && r.Value != effect.FileMeta
	})
}

// grepCount is how many items grep keeps, when they are known and its test
// decides each: my $sorted = grep { $_ eq '--sorted' } @ARGV.
func (in *interp) grepCount(c callNode) (val, bool) {
	list, body := c.args, c.block
	if body == nil && len(list) > 0 {
		body, list = []stmt{exprStmt{list[0]}}, list[1:]
	}
	if len(body) != 1 || in.undecided > 0 {
		return val{}, false
	}
	test, ok := body[0].(exprStmt)
	if !ok {
		return val{}, false
	}
	var items []val
	for _, a := range list {
		items = append(items, in.evalList(a)...)
	}
	old := in.topic
	defer func() { in.topic = old }()
	n := 0
	for _, it := range items {
		if !it.exact || it.many {
			return val{}, false
		}
		in.topic = it
		holds, known := in.truth(test.x)
		if !known {
			return val{}, false
		}
		if holds {
			n++
		}
	}
	return fixed(strconv.Itoa(n)), true
}
