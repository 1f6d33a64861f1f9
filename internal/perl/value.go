package perl

import (
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

// val is what an expression may be: its text when exact, the varying
// values that reach it, and what it refers to (a filehandle, code, a
// variable, an object's class).
type val struct {
	s     string
	exact bool
	r     []effect.Reach
	fh    *handle
	code  *subDef
	ref   *cell
	class string
	// many says the value stands for a list of items not counted: what a
	// function returns.
	many bool
	// undef says the value is known to be undefined: an argument the
	// program was not given, an element past a list's known end.
	undef bool
	// epoch says the value is SOURCE_DATE_EPOCH as the environment gives
	// it: a time no later than any file the build checks out or makes.
	epoch bool
}

func fixed(s string) val { return val{s: s, exact: true} }

// undefined is perl's undef, known to be it.
var undefined = val{exact: true, undef: true}

// merge is a value that may be either.
func merge(a, b val) val {
	v := a
	v.exact = a.exact && b.exact && a.s == b.s && a.undef == b.undef
	v.undef = a.undef && b.undef
	v.epoch = a.epoch && b.epoch
	v.r = effect.AppendReaches(slices.Clip(a.r), b.r...)
	if v.fh == nil {
		v.fh = b.fh
	}
	if v.code == nil {
		v.code = b.code
	}
	if v.ref == nil {
		v.ref = b.ref
	}
	if v.class == "" {
		v.class = b.class
	}
	return v
}

// concat is the values side by side.
func concat(vs ...val) val {
	v := val{exact: true}
	var b strings.Builder
	for _, x := range vs {
		if b.Len()+len(x.s) <= maxString {
			b.WriteString(x.s)
		} else {
			b.WriteString(x.s[:min(len(x.s), maxString+1-b.Len())])
		}
		v.exact = v.exact && x.exact
		v.r = effect.AppendReaches(v.r, x.r...)
	}
	v.s = b.String()
	if len(v.s) > maxString {
		// A string built past this is not a name or a command anyone
		// writes: its text is not followed.
		v.s, v.exact = "", false
	}
	return v
}

// derived is a value computed from others: it varies where they do.
func derived(vs ...val) val {
	v := concat(vs...)
	v.s, v.exact = "", false
	return v
}

// without is v with the values a function removes (sort's order) taken
// out.
func without(v val, removes []effect.Value) val {
	if len(removes) == 0 {
		return v
	}
	v.r = slices.DeleteFunc(slices.Clone(v.r), func(r effect.Reach) bool { return slices.Contains(removes, r.Value) })
	return v
}

// cell is a variable: a scalar, an array's elements, or a hash's by key,
// with what was stored where the index or key is not known.
type cell struct {
	v      val
	elems  []val
	hash   map[string]val
	isHash bool
	approx val // stored under an index or key not known, or lost count
	// hasApprox says something was stored in approx.
	hasApprox bool
	inexact   bool
	keys      val // a hash's keys
	assigned  bool
	// weakAt is how many branches and loops were around where the
	// variable was declared: an assignment under no more of them surely
	// happens, for this variable.
	weakAt int
}

// addApprox stores a value under an index or key not known.
func (c *cell) addApprox(v val) {
	if c.hasApprox {
		v = merge(c.approx, v)
	}
	c.approx, c.hasApprox = v, true
}

// orApprox is an element that may also be what was stored where the
// index or key was not known.
func (c *cell) orApprox(v val) val {
	if c.hasApprox {
		return merge(v, c.approx)
	}
	return v
}

// all is everything the variable holds, as one value.
func (c *cell) all() val {
	v := c.orApprox(c.v)
	for _, e := range c.elems {
		v = merge(v, e)
	}
	for _, k := range sortedKeys(c.hash) {
		v = merge(v, c.hash[k])
	}
	v = merge(v, val{r: c.keys.r})
	v.exact = false
	return v
}

func sortedKeys(m map[string]val) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// handleKind is where a filehandle's output goes.
type handleKind uint8

const (
	toStdout handleKind = iota
	toNothing
	toFile   // a file that is an output, or whose name is not known
	toPipe   // a command, whose output is the program's
	toScalar // a variable: open(my $fh, '>', \$buf)
	fromInput
)

type handle struct {
	kind   handleKind
	reads  []effect.Reach // what reading it gives
	target *cell
}
