package python

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
)

// The interpreter follows abstract values: what the program computes, as
// far as it can be known (a string's known parts, a list's items), and
// which varying values went into it (its taints). A value the program
// cannot know (an argument given as a computed word, the result of a
// function Ahab knows nothing about) is unknown but fixed unless a taint
// says otherwise.

// taints is a set of reach ids (see run.reaches), sorted.
type taints []int32

func (a taints) union(b taints) taints {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	out := make(taints, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func (a taints) add(id int32) taints { return a.union(taints{id}) }

// kind is what a value is.
type kind uint8

const (
	kUnknown  kind = iota // anything: the reader cannot know it
	kNone                 // None
	kBool                 // a bool, known when known is set
	kInt                  // an int, known when known is set
	kFloat                // a float or a complex
	kStr                  // a str: its parts
	kBytes                // a bytes or bytearray: its parts
	kList                 // a list: obj
	kTuple                // a tuple: obj
	kDict                 // a dict: obj
	kSet                  // a set or frozenset: obj
	kFunc                 // a function the program defines: fn
	kClass                // a class the program defines: cls
	kInstance             // an instance of a class the program defines: obj
	kModule               // a module of the workspace: mod
	kLib                  // a name of the standard library or of a module not read: name
	kObject               // an object of a library class: obj
	kBound                // a method bound to a receiver: fn (or name) and recv
	kUnion                // one of alts
)

// part is a piece of a string: known text, or a piece the reader cannot
// know, named by a symbol so that a path built on it keeps its identity
// (the directory of sys.argv[1] is one directory wherever it is used).
type part struct {
	text string
	sym  int32 // 0: text is the piece
}

type value struct {
	kind   kind
	taints taints
	parts  []part // kStr, kBytes
	n      int64  // kInt, kBool (0 or 1) when known
	known  bool   // kInt, kBool, kFloat: the value is known
	sym    int32  // kUnknown: what it stands for, when used as a path
	obj    *object
	fn     *function
	cls    *class
	mod    *module
	name   string // kLib: the qualified name; kBound: the method's name
	recv   *value // kBound
	alts   []value
	// at is where a kLib name or os.environ is written, for the reach of
	// what it gives as a value (time.timezone printed).
	at node
}

// object is what a mutable value holds: a container's items, an
// instance's attributes, a library object's class, facts and file.
type object struct {
	items []value
	keys  []value // a dict's keys, beside items
	// more is the join of further items the reader does not know (a
	// listing's names); nil when items are all there is.
	more *value
	// whole are the taints of the container as a whole: the order a
	// listing came in, an order realised from a set, captured output.
	whole taints
	// latent is a set's order, which follows the hash seed: it is
	// realised when the set is iterated, printed or listed. maker is
	// what made the set (set, frozenset), seedText and seedSite where,
	// for the reach.
	latent   taints
	maker    string
	seedText string
	seedSite effect.Site
	// An instance of a class of the program.
	cls   *class
	attrs map[string]value
	// A library object: its class (tarfile.TarFile), the facts its
	// construction and methods established (seeded:random), and the file
	// it reads or writes.
	class string
	facts []string
	file  *file
	// writer says the object writes into file.
	writer bool
	// path is the path of a pathlib.Path; name the path of a file
	// object, which is not what it holds.
	path, name *value
	// decides are the orders this list decides, which sorting it in
	// place settles: the dirnames of os.walk, whose order is the walk's.
	decides taints
	// redirect is where contextlib.redirect_stdout sends sys.stdout in
	// its with, and saved what it was before.
	redirect, saved *value
	// environ says the object is os.environ.
	environ bool
	// parser is what an argparse.ArgumentParser (or a group of it) was
	// told.
	parser *argParser
	// held is what a future or an AsyncResult gives.
	held *value
}

var (
	none      = value{kind: kNone}
	unknown   = value{kind: kUnknown}
	unknownTF = value{kind: kBool}
)

func str(s string) value { return value{kind: kStr, parts: []part{{text: s}}} }

func intValue(n int64) value { return value{kind: kInt, n: n, known: true} }

func boolValue(b bool) value {
	v := value{kind: kBool, known: true}
	if b {
		v.n = 1
	}
	return v
}

// text returns the value of a str or bytes when every part is known.
func (v value) text() (string, bool) {
	if v.kind != kStr && v.kind != kBytes {
		return "", false
	}
	if len(v.parts) == 1 && v.parts[0].sym == 0 {
		return v.parts[0].text, true
	}
	var b strings.Builder
	for _, p := range v.parts {
		if p.sym != 0 {
			return "", false
		}
		b.WriteString(p.text)
	}
	return b.String(), true
}

// literal is the value's text as a fact shows it (arg1=w:gz,
// invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH), when it
// is known.
func (v value) literal() (string, bool) {
	switch v.kind {
	case kStr, kBytes:
		return v.text()
	case kInt:
		return strconv.FormatInt(v.n, 10), v.known
	case kBool:
		if v.n != 0 {
			return "True", v.known
		}
		return "False", v.known
	case kNone:
		return "None", true
	case kLib:
		return v.name, true
	}
	return "", false
}

// truth is what the value is as a condition, when known.
func (v value) truth() (bool, bool) {
	switch v.kind {
	case kNone:
		return false, true
	case kBool, kInt:
		return v.n != 0, v.known
	case kStr, kBytes:
		if s, ok := v.text(); ok {
			return s != "", true
		}
		for _, p := range v.parts {
			if p.sym == 0 && p.text != "" {
				return true, true
			}
		}
	case kTuple, kList, kSet:
		if v.obj != nil && v.obj.more == nil {
			return len(v.obj.items) > 0, true
		}
	case kDict:
		if v.obj != nil && v.obj.more == nil {
			return len(v.obj.keys) > 0, true
		}
	case kFunc, kClass, kModule, kLib, kBound:
		return true, true
	case kUnion:
		first, ok := v.alts[0].truth()
		for _, a := range v.alts[1:] {
			t, known := a.truth()
			if !known || t != first {
				return false, false
			}
		}
		return first, ok
	}
	return false, false
}

// isHeap says the value is a mutable object, shared by whoever holds it.
func (v value) isHeap() bool {
	switch v.kind {
	case kList, kDict, kSet, kInstance, kObject, kTuple:
		return v.obj != nil
	}
	return false
}

// same says two values are the same value: the same object, or the same
// known scalar.
func same(a, b value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNone:
		return true
	case kBool, kInt:
		return a.known && b.known && a.n == b.n
	case kStr, kBytes:
		return slices.Equal(a.parts, b.parts)
	case kUnknown:
		return a.sym != 0 && a.sym == b.sym
	case kFunc:
		return a.fn == b.fn
	case kClass:
		return a.cls == b.cls
	case kModule:
		return a.mod == b.mod
	case kLib:
		return a.name == b.name
	case kBound:
		return a.fn == b.fn && a.name == b.name && a.recv != nil && b.recv != nil && same(*a.recv, *b.recv)
	case kUnion:
		return false
	}
	return a.obj == b.obj
}

// maxAlts bounds the alternatives a value keeps: past it, they become one
// unknown value with all their taints.
const maxAlts = 8

// join is a value that may be a or b: after both branches of an if, or
// what a function returns on several paths.
func join(a, b value) value {
	if same(a, b) {
		a.taints = a.taints.union(b.taints)
		return a
	}
	var alts []value
	for _, v := range []value{a, b} {
		if v.kind == kUnion {
			for _, x := range v.alts {
				alts = addAlt(alts, x)
			}
			continue
		}
		alts = addAlt(alts, v)
	}
	if len(alts) == 1 {
		return alts[0]
	}
	if len(alts) > maxAlts {
		return collapse(alts)
	}
	return union(alts)
}

// union is a value that is one of alts. Its own taints are theirs, so
// that what reads a value's taints sees those of every alternative.
func union(alts []value) value {
	v := value{kind: kUnion, alts: alts}
	for _, a := range alts {
		v.taints = v.taints.union(a.taints)
	}
	return v
}

func addAlt(alts []value, v value) []value {
	for i, a := range alts {
		if same(a, v) {
			alts[i].taints = a.taints.union(v.taints)
			return alts
		}
	}
	return append(alts, v)
}

// collapse makes one value of too many alternatives: the objects among
// them stay (writing to one of several files writes to each), the rest
// become one unknown value of their kind, if they share one.
func collapse(alts []value) value {
	var objs []value
	rest := value{kind: alts[0].kind}
	var t taints
	for _, a := range alts {
		if a.isHeap() && len(objs) < maxAlts-1 {
			objs = append(objs, a)
			continue
		}
		t = t.union(deepTaints(a, true))
		if a.kind != rest.kind {
			rest.kind = kUnknown
		}
	}
	switch rest.kind {
	case kStr, kBytes:
		rest.parts = []part{{sym: -1}}
	case kBool, kInt, kFloat, kNone, kUnknown:
	default:
		rest.kind = kUnknown
	}
	if rest.kind == kNone {
		rest.kind = kUnknown
	}
	rest.taints = t
	if len(objs) == 0 {
		return rest
	}
	return union(append(objs, rest))
}

// each calls f on every alternative of v.
func each(v value, f func(value)) {
	if v.kind == kUnion {
		for _, a := range v.alts {
			f(a)
		}
		return
	}
	f(v)
}

// maxDeep bounds how deep deepTaints looks into containers in containers,
// and maxDeepNodes how many values one look visits.
const (
	maxDeep      = 6
	maxDeepNodes = 1 << 14
)

// deepTaints is every taint a value holds, in its items and attributes
// too: what reaches a file when it is written whole. With realise, a
// set's hash order counts, as it does when the set is printed or listed.
func deepTaints(v value, realise bool) taints {
	n := 0
	return deepTaintsAt(v, realise, 0, nil, &n)
}

// deep is deepTaints, counted as work.
func (r *run) deep(v value, realise bool) taints {
	n := 0
	t := deepTaintsAt(v, realise, 0, nil, &n)
	r.work += n
	if r.work > maxWork {
		panic(stop{})
	}
	return t
}

func deepTaintsAt(v value, realise bool, depth int, seen map[*object]bool, n *int) taints {
	*n++
	t := v.taints
	if depth > maxDeep || *n > maxDeepNodes {
		return t
	}
	switch v.kind {
	case kUnion:
		for _, a := range v.alts {
			t = t.union(deepTaintsAt(a, realise, depth+1, seen, n))
		}
	case kBound:
		if v.recv != nil {
			t = t.union(deepTaintsAt(*v.recv, realise, depth+1, seen, n))
		}
	}
	o := v.obj
	if o == nil || seen[o] {
		return t
	}
	if seen == nil {
		seen = map[*object]bool{}
	}
	seen[o] = true
	t = t.union(o.whole)
	if realise {
		t = t.union(o.latent)
	}
	for i, it := range o.items {
		t = t.union(deepTaintsAt(it, realise, depth+1, seen, n))
		if i < len(o.keys) {
			t = t.union(deepTaintsAt(o.keys[i], realise, depth+1, seen, n))
		}
	}
	if o.more != nil {
		t = t.union(deepTaintsAt(*o.more, realise, depth+1, seen, n))
	}
	for _, k := range sortedKeys(o.attrs) {
		t = t.union(deepTaintsAt(o.attrs[k], realise, depth+1, seen, n))
	}
	if o.path != nil {
		t = t.union(deepTaintsAt(*o.path, realise, depth+1, seen, n))
	}
	return t
}

func sortedKeys(m map[string]value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// withTaints is v with t added to its own taints.
func withTaints(v value, t taints) value {
	if len(t) == 0 {
		return v
	}
	if v.kind == kUnion {
		alts := slices.Clone(v.alts)
		for i := range alts {
			alts[i] = withTaints(alts[i], t)
		}
		v.alts = alts
		v.taints = v.taints.union(t)
		return v
	}
	v.taints = v.taints.union(t)
	return v
}

// maxItems bounds the items a container keeps one by one; the rest join
// into its more.
const maxItems = 256

func newList(k kind, items []value) value {
	o := &object{}
	for _, it := range items {
		o.push(it)
	}
	return value{kind: k, obj: o}
}

// push adds an item at the end.
func (o *object) push(it value) {
	if len(o.items) < maxItems && o.more == nil {
		o.items = append(o.items, it)
		return
	}
	o.addMore(it)
}

func (o *object) addMore(it value) {
	if o.more == nil {
		o.more = &it
		return
	}
	j := join(*o.more, it)
	o.more = &j
}

// element is the join of every item of a container, for an iteration
// that is not followed item by item.
func (o *object) element() value {
	var v value
	first := true
	for _, it := range o.items {
		if first {
			v, first = it, false
			continue
		}
		v = join(v, it)
	}
	if o.more != nil {
		if first {
			return *o.more
		}
		v = join(v, *o.more)
	}
	if first {
		return unknown
	}
	return v
}

// strOf is a str made of parts, with the taints given.
func strOf(parts []part, t taints) value {
	return value{kind: kStr, parts: compactParts(parts), taints: t}
}

// maxParts bounds the pieces of a string, and maxStrLen the text it
// keeps: past them the string is one unknown piece (s = s + s in a loop).
const (
	maxParts  = 64
	maxStrLen = 1 << 16
)

func compactParts(parts []part) []part {
	out := make([]part, 0, len(parts))
	n := 0
	for _, p := range parts {
		if n += len(p.text); n > maxStrLen {
			return []part{{sym: -1}}
		}
		if p.sym == 0 && p.text == "" && len(parts) > 1 {
			continue
		}
		if n := len(out); n > 0 && p.sym == 0 && out[n-1].sym == 0 {
			out[n-1].text += p.text
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return []part{{}}
	}
	if len(out) > maxParts {
		return []part{{sym: -1}}
	}
	return out
}

// isStrLike says the value is, or may be, a str or bytes: what the facts
// argN:str say.
func isStrLike(v value) bool {
	switch v.kind {
	case kStr, kBytes, kUnknown:
		return true
	case kUnion:
		for _, a := range v.alts {
			if isStrLike(a) {
				return true
			}
		}
	}
	return false
}

// hashesBySeed says iterating a set holding v follows the hash seed: its
// items are, or may be, strings, bytes or tuples of them. Numbers, None
// and bools hash to themselves.
func hashesBySeed(v value) bool {
	switch v.kind {
	case kNone, kBool, kInt, kFloat:
		return false
	case kTuple:
		if v.obj == nil {
			return true
		}
		for _, it := range v.obj.items {
			if hashesBySeed(it) {
				return true
			}
		}
		return v.obj.more != nil && hashesBySeed(*v.obj.more)
	case kUnion:
		for _, a := range v.alts {
			if hashesBySeed(a) {
				return true
			}
		}
		return false
	}
	return true
}

// reach is a value that varies, as found: where and why, and whether it
// is a path (os.getcwd()), which reaches an output only as data, not by
// naming the file a program opens.
type reach struct {
	effect.Reach
	path bool
}
