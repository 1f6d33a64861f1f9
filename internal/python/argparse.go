package python

import (
	"strconv"
	"strings"
)

// A program's command line through argparse: when sys.argv is known (as
// Bazel's actions give it), parse_args reads it as argparse does, so that
// args.seed is the --seed the action passed, or its default, rather than a
// value nobody knows. What a tool does then often turns on it: a seed
// given or not, --root given to a normalising filter. A parser the model
// does not follow (subparsers, a computed option name, other prefix
// characters, an argv not known, a command line argparse would refuse)
// gives a namespace whose attributes are unknown, as any call of a
// library nobody described does.

func init() {
	for name, h := range map[string]handler{
		"argparse.ArgumentParser":                              hArgParser,
		"argparse.ArgumentParser.add_argument":                 hAddArgument,
		"argparse._ArgumentGroup.add_argument":                 hAddArgument,
		"argparse._MutuallyExclusiveGroup.add_argument":        hAddArgument,
		"argparse.ArgumentParser.add_argument_group":           hArgGroup,
		"argparse.ArgumentParser.add_mutually_exclusive_group": hArgGroup,
		"argparse._ArgumentGroup.add_mutually_exclusive_group": hArgGroup,
		"argparse.ArgumentParser.set_defaults":                 hSetDefaults,
		"argparse.ArgumentParser.add_subparsers":               hArgOpaque,
		"argparse.ArgumentParser.parse_args":                   hParseArgs,
		"argparse.ArgumentParser.parse_known_args":             hParseArgs,
		"argparse.ArgumentParser.parse_intermixed_args":        hParseArgs,
		"argparse.ArgumentParser.parse_known_intermixed_args":  hParseArgs,
	} {
		handlers[name] = h
	}
}

// argParser is what an ArgumentParser was told: its arguments in the
// order they were added, and whether the reader can still follow it.
type argParser struct {
	args   []*cliArg
	extra  []kwArg // set_defaults of names no argument has
	abbrev bool    // a long option may be given by a unique prefix
	opaque bool
}

// cliArg is one add_argument.
type cliArg struct {
	flags    []string // option strings; none for a positional
	dest     string
	action   string // store, store_true, store_const, append, count, boolean…
	nargs    string // "" (one value), "?", "*", "+", or a count
	count    int
	typ      *value
	dflt     *value
	cnst     value
	required bool
}

func (a *cliArg) positional() bool { return len(a.flags) == 0 }

// takesValues says the option reads values from the command line.
func (a *cliArg) takesValues() bool {
	switch a.action {
	case "store", "append", "extend":
		return true
	}
	return false
}

// parserOf is the parser a call's receiver is, or nil.
func parserOf(c *call) *argParser {
	if c.recv == nil || c.recv.kind != kObject {
		return nil
	}
	return c.recv.obj.parser
}

func hArgParser(r *run, fr *frame, c *call) (value, bool) {
	p := &argParser{abbrev: true}
	if v, ok := c.kwarg("prefix_chars"); ok {
		if s, known := v.text(); !known || s != "-" {
			p.opaque = true
		}
	}
	if v, ok := c.kwarg("fromfile_prefix_chars"); ok && v.kind != kNone {
		p.opaque = true
	}
	if v, ok := c.kwarg("allow_abbrev"); ok {
		b, known := v.truth()
		p.abbrev = b || !known
		p.opaque = p.opaque || !known
	}
	if v, ok := c.kwarg("parents"); ok {
		items, exact := r.iterate(fr, v, c.node())
		for _, it := range items {
			if it.kind != kObject || it.obj.parser == nil || it.obj.parser.opaque {
				p.opaque = true
				continue
			}
			p.args = append(p.args, it.obj.parser.args...)
			p.extra = append(p.extra, it.obj.parser.extra...)
		}
		p.opaque = p.opaque || !exact
	}
	return value{kind: kObject, obj: &object{class: "argparse.ArgumentParser", parser: p}}, true
}

func hArgGroup(r *run, fr *frame, c *call) (value, bool) {
	p := parserOf(c)
	if p == nil {
		return value{}, false
	}
	class := "argparse._ArgumentGroup"
	if strings.HasSuffix(c.name, "mutually_exclusive_group") {
		class = "argparse._MutuallyExclusiveGroup"
	}
	return value{kind: kObject, obj: &object{class: class, parser: p}}, true
}

func hArgOpaque(r *run, fr *frame, c *call) (value, bool) {
	if p := parserOf(c); p != nil {
		p.opaque = true
	}
	return value{}, false
}

// nargsNames are argparse's constants for nargs, as the reader names them.
var nargsNames = map[string]string{
	"argparse.OPTIONAL": "?", "argparse.ZERO_OR_MORE": "*", "argparse.ONE_OR_MORE": "+",
}

func hAddArgument(r *run, fr *frame, c *call) (value, bool) {
	p := parserOf(c)
	if p == nil {
		return value{}, false
	}
	action := value{kind: kObject, obj: &object{class: "argparse.Action"}}
	a := &cliArg{action: "store"}
	for _, v := range c.args {
		s, ok := v.text()
		if !ok || s == "" {
			p.opaque = true
			return action, true
		}
		a.flags = append(a.flags, s)
	}
	followed := !c.varargs && len(c.args) > 0
	if len(a.flags) == 1 && !strings.HasPrefix(a.flags[0], "-") {
		a.dest, a.flags = a.flags[0], nil
	}
	for _, f := range a.flags {
		followed = followed && strings.HasPrefix(f, "-")
	}
	for _, k := range c.kw {
		followed = a.keyword(k) && followed
	}
	if a.action == "boolean" {
		// --x and --no-x.
		for _, f := range a.flags {
			if strings.HasPrefix(f, "--") {
				a.flags = append(a.flags, "--no-"+f[2:])
			}
		}
	}
	if a.dest == "" {
		a.dest = optionDest(a.flags)
	}
	p.opaque = p.opaque || !followed || a.action == ""
	p.args = append(p.args, a)
	return action, true
}

// keyword reads one keyword argument of add_argument; false for one the
// model does not follow.
func (a *cliArg) keyword(k kwArg) bool {
	switch k.name {
	case "action":
		a.action = actionName(k.v)
	case "nargs":
		a.nargs, a.count = nargsOf(k.v)
		if a.nargs == "!" {
			a.action = "" // REMAINDER, SUPPRESS, a computed one
		}
	case "type":
		t := k.v
		a.typ = &t
	case "default":
		d := k.v
		a.dflt = &d
	case "const":
		a.cnst = k.v
	case "dest":
		s, ok := k.v.text()
		a.dest = s
		return ok
	case "required":
		b, known := k.v.truth()
		a.required = b
		return known
	case "":
		return false
	}
	return true
}

// nargsOf reads nargs=: "?", "*", "+", or "N" and the count; "!" for one
// the model does not follow.
func nargsOf(v value) (string, int) {
	l, ok := v.literal()
	if n, named := nargsNames[l]; named {
		l = n
	}
	switch n, err := strconv.Atoi(l); {
	case !ok:
	case err == nil && n >= 0:
		return "N", n
	case l == "?" || l == "*" || l == "+":
		return l, 0
	}
	return "!", 0
}

// actionName is the action= of add_argument as the model knows it, or ""
// for one it does not follow (a class of the program's).
func actionName(v value) string {
	if v.kind == kLib && v.name == "argparse.BooleanOptionalAction" {
		return "boolean"
	}
	s, ok := v.text()
	if !ok {
		return ""
	}
	switch s {
	case "store", "store_true", "store_false", "store_const", "append", "append_const", "count", "extend", "help", "version":
		return s
	}
	return ""
}

// optionDest is the attribute an option sets: its first long name, else
// its first short one, with dashes made underscores.
func optionDest(flags []string) string {
	for _, f := range flags {
		if strings.HasPrefix(f, "--") && len(f) > 2 {
			return strings.ReplaceAll(f[2:], "-", "_")
		}
	}
	if len(flags) > 0 {
		return strings.ReplaceAll(strings.TrimLeft(flags[0], "-"), "-", "_")
	}
	return ""
}

func hSetDefaults(r *run, fr *frame, c *call) (value, bool) {
	p := parserOf(c)
	if p == nil {
		return value{}, false
	}
	for _, k := range c.kw {
		if k.name == "" {
			p.opaque = true
			continue
		}
		matched := false
		for _, a := range p.args {
			if a.dest == k.name {
				d := k.v
				a.dflt, matched = &d, true
			}
		}
		if !matched {
			p.extra = append(p.extra, k)
		}
	}
	return none, true
}

// hParseArgs is parse_args and its kin: the namespace the known command
// line gives, with the strings the program was given (parse_known_args
// also gives the words it did not take).
func hParseArgs(r *run, fr *frame, c *call) (value, bool) {
	p := parserOf(c)
	if p == nil {
		return value{}, false
	}
	known := strings.Contains(c.name, "known")
	argv, ok := r.commandLine(c)
	var ns value
	var rest []value
	if ok && !p.opaque {
		ns, rest, ok = r.parseCommandLine(fr, c, p, argv, known)
	}
	if !ok {
		t := r.callArgsData(fr, c)
		for _, a := range argv {
			t = t.union(a.taints)
		}
		ns = value{kind: kUnknown, sym: r.newSym(), taints: t}
		if known {
			return value{kind: kUnknown, sym: r.newSym(), taints: t}, true
		}
		return ns, true
	}
	if known {
		return newList(kTuple, []value{ns, newList(kList, rest)}), true
	}
	return ns, true
}

// commandLine is what parse_args reads: the list it is given, else
// sys.argv[1:]; ok when every word of it is known.
func (r *run) commandLine(c *call) ([]value, bool) {
	src, given := c.arg(0, "args")
	var items []value
	if given && src.kind != kNone {
		if (src.kind != kList && src.kind != kTuple) || src.obj.more != nil {
			return nil, false
		}
		items = src.obj.items
	} else {
		argv := r.argv()
		if argv.obj.more != nil || len(argv.obj.items) == 0 {
			return nil, false
		}
		items = argv.obj.items[1:]
	}
	for _, it := range items {
		if _, ok := it.text(); !ok || it.kind != kStr {
			return items, false
		}
	}
	return items, true
}

// cmdline is one command line being read by a parser.
type cmdline struct {
	r     *run
	fr    *frame
	c     *call
	p     *argParser
	argv  []value
	known bool // parse_known_args: words it does not take are kept
	attrs map[string]value
	seen  map[*cliArg]bool
	// negatives says an option looks like a negative number, so that
	// argparse takes -1 for an option rather than a value.
	negatives         bool
	positionals, rest []value
}

// parseCommandLine reads argv as argparse does: options by their names,
// a unique prefix of a long one, --name=value and -xvalue, -- ending
// them; then the positionals, each taking as many words as it can while
// leaving the ones after it theirs. ok is false when argparse would stop
// the program (an unknown option to parse_args, a missing value, -h).
func (r *run) parseCommandLine(fr *frame, c *call, p *argParser, argv []value, known bool) (value, []value, bool) {
	ns := value{kind: kObject, obj: &object{class: "argparse.Namespace", attrs: map[string]value{}}}
	l := &cmdline{r: r, fr: fr, c: c, p: p, argv: argv, known: known, attrs: ns.obj.attrs, seen: map[*cliArg]bool{}}
	for _, a := range p.args {
		for _, f := range a.flags {
			l.negatives = l.negatives || looksNegative(f)
		}
	}
	for i := 0; i < len(l.argv); i++ {
		s, _ := l.argv[i].text()
		switch {
		case s == "--":
			l.positionals = append(l.positionals, l.argv[i+1:]...)
			i = len(l.argv)
		case !l.isOption(l.argv[i]):
			l.positionals = append(l.positionals, l.argv[i])
		default:
			var ok bool
			if i, ok = l.option(i); !ok {
				return value{}, nil, false
			}
		}
	}
	if !r.assignPositionals(fr, c, p, l.positionals, l.attrs, l.seen, &l.rest, known) || !l.defaults() {
		return value{}, nil, false
	}
	return ns, l.rest, true
}

func (l *cmdline) isOption(v value) bool {
	s, _ := v.text()
	return len(s) > 1 && s[0] == '-' && (l.negatives || !looksNegative(s))
}

// option reads the option at argv[i] and the values it takes, and
// returns the index of the last word it took.
func (l *cmdline) option(i int) (int, bool) {
	s, _ := l.argv[i].text()
	a, name, val, attached := l.p.option(s)
	if a == nil {
		l.rest = append(l.rest, l.argv[i])
		return i, l.known
	}
	l.seen[a] = true
	if !a.takesValues() {
		if attached {
			if strings.HasPrefix(s, "--") {
				return i, false
			}
			// -vq: flags bundled after a dash; the rest is read again.
			l.argv = append(append(append([]value(nil), l.argv[:i+1]...), str("-"+val)), l.argv[i+1:]...)
		}
		return i, l.r.storeFlag(a, name, l.attrs)
	}
	var words []value
	if attached {
		words = []value{withTaints(str(val), l.argv[i].taints)}
	} else {
		j := i + 1
		for ; j < len(l.argv); j++ {
			w, _ := l.argv[j].text()
			if w == "--" || l.isOption(l.argv[j]) || a.maxWords() >= 0 && j-i > a.maxWords() {
				break
			}
		}
		words = l.argv[i+1 : j]
		i = j - 1
	}
	if len(words) < a.minWords() || a.maxWords() >= 0 && len(words) > a.maxWords() {
		return i, false
	}
	l.r.storeValues(l.fr, l.c, a, words, l.attrs)
	return i, true
}

// defaults gives every argument not given its default, and the names of
// set_defaults theirs; false when a required option is missing.
func (l *cmdline) defaults() bool {
	for _, a := range l.p.args {
		if a.required && !l.seen[a] {
			return false
		}
		if a.dest == "" || a.action == "help" || a.action == "version" {
			continue
		}
		if _, ok := l.attrs[a.dest]; !ok {
			l.attrs[a.dest] = l.r.argDefault(l.fr, l.c, a)
		}
	}
	for _, k := range l.p.extra {
		if _, ok := l.attrs[k.name]; !ok {
			l.attrs[k.name] = k.v
		}
	}
	return true
}

// looksNegative says a word is a negative number, which argparse takes
// for a value unless an option looks like one.
func looksNegative(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(s[1:], 64)
	return err == nil && strings.Trim(s[1:], "0123456789.") == ""
}

// option finds the option a word names, as argparse does: exactly, with
// =value, by a unique prefix of a long option, or as a short option with
// its value (or more flags) attached.
func (p *argParser) option(s string) (a *cliArg, name, val string, attached bool) {
	if a := p.byFlag(s); a != nil {
		return a, s, "", false
	}
	if n, v, ok := strings.Cut(s, "="); ok {
		if a := p.byFlag(n); a != nil {
			return a, n, v, true
		}
	}
	if strings.HasPrefix(s, "--") {
		if !p.abbrev {
			return nil, "", "", false
		}
		prefix, v, eq := strings.Cut(s, "=")
		var found *cliArg
		for _, cand := range p.args {
			for _, f := range cand.flags {
				if strings.HasPrefix(f, "--") && strings.HasPrefix(f, prefix) {
					if found != nil && found != cand {
						return nil, "", "", false // ambiguous: argparse stops
					}
					found, name = cand, f
				}
			}
		}
		return found, name, v, eq && found != nil
	}
	if len(s) > 2 {
		if a := p.byFlag(s[:2]); a != nil {
			return a, s[:2], s[2:], true
		}
	}
	return nil, "", "", false
}

func (p *argParser) byFlag(name string) *cliArg {
	for _, a := range p.args {
		for _, f := range a.flags {
			if f == name {
				return a
			}
		}
	}
	return nil
}

func (a *cliArg) minWords() int {
	switch a.nargs {
	case "":
		return 1
	case "N":
		return a.count
	case "+":
		return 1
	}
	return 0
}

// maxWords is how many words the argument takes at most; -1 for any.
func (a *cliArg) maxWords() int {
	switch a.nargs {
	case "", "?":
		return 1
	case "N":
		return a.count
	}
	return -1
}

// storeFlag records an option that takes no value.
func (r *run) storeFlag(a *cliArg, name string, attrs map[string]value) bool {
	switch a.action {
	case "store_true":
		attrs[a.dest] = boolValue(true)
	case "store_false":
		attrs[a.dest] = boolValue(false)
	case "store_const":
		attrs[a.dest] = a.cnst
	case "append_const":
		r.appendTo(attrs, a, []value{a.cnst})
	case "count":
		n := intValue(1)
		if old, ok := attrs[a.dest]; ok && old.kind == kInt && old.known {
			n = intValue(old.n + 1)
		} else if a.dflt != nil && a.dflt.kind == kInt && a.dflt.known {
			n = intValue(a.dflt.n + 1)
		}
		attrs[a.dest] = n
	case "boolean":
		attrs[a.dest] = boolValue(!strings.HasPrefix(name, "--no-"))
	default:
		// -h, --version: argparse prints and exits.
		return false
	}
	return true
}

// storeValues records the words an option or a positional took.
func (r *run) storeValues(fr *frame, c *call, a *cliArg, words []value, attrs map[string]value) {
	conv := make([]value, len(words))
	for i, w := range words {
		conv[i] = r.convert(fr, c, a, w)
	}
	var v value
	switch {
	case a.nargs == "" || a.nargs == "?" && len(conv) == 1:
		v = conv[0]
	case a.nargs == "?":
		v = a.cnst
	default:
		v = newList(kList, conv)
	}
	switch a.action {
	case "append":
		r.appendTo(attrs, a, []value{v})
	case "extend":
		items := conv
		if a.nargs == "" || a.nargs == "?" {
			items = []value{v}
		}
		r.appendTo(attrs, a, items)
	default:
		attrs[a.dest] = v
	}
}

// appendTo adds to the list an append or extend option builds, which
// starts as a copy of its default.
func (r *run) appendTo(attrs map[string]value, a *cliArg, items []value) {
	l, ok := attrs[a.dest]
	if !ok {
		l = newList(kList, nil)
		if a.dflt != nil && a.dflt.kind == kList && a.dflt.obj != nil {
			l.obj.items = append(l.obj.items, a.dflt.obj.items...)
			l.obj.more = a.dflt.obj.more
		}
		attrs[a.dest] = l
	}
	if l.kind != kList || l.obj == nil {
		return
	}
	for _, it := range items {
		l.obj.push(it)
	}
}

// convert is a word given to the argument's type=, as argparse calls it.
func (r *run) convert(fr *frame, c *call, a *cliArg, w value) value {
	if a.typ == nil {
		return w
	}
	return r.callValue(fr, *a.typ, &call{fr: fr, x: c.x, args: []value{w}})
}

// argDefault is what an argument not given sets: its default (a str one
// through type=, as argparse does), else None, False or True for the
// flags.
func (r *run) argDefault(fr *frame, c *call, a *cliArg) value {
	if a.dflt != nil {
		if a.dflt.kind == kStr && a.typ != nil && a.takesValues() {
			return r.convert(fr, c, a, *a.dflt)
		}
		return *a.dflt
	}
	switch a.action {
	case "store_true":
		return boolValue(false)
	case "store_false":
		return boolValue(true)
	}
	if a.positional() && a.nargs == "*" {
		return newList(kList, nil)
	}
	return none
}

// assignPositionals gives the positional arguments their words in order,
// each as many as it can take while those after it get their least.
func (r *run) assignPositionals(fr *frame, c *call, p *argParser, words []value, attrs map[string]value, seen map[*cliArg]bool, rest *[]value, known bool) bool {
	var pos []*cliArg
	for _, a := range p.args {
		if a.positional() {
			pos = append(pos, a)
		}
	}
	used := 0
	for k, a := range pos {
		least := 0
		for _, b := range pos[k+1:] {
			least += b.minWords()
		}
		avail := len(words) - used - least
		take := a.minWords()
		switch a.nargs {
		case "?":
			take = min(1, max(avail, 0))
		case "*", "+":
			take = max(avail, take)
		}
		if take < a.minWords() || used+take > len(words) {
			return false
		}
		if take == 0 {
			continue // its default
		}
		r.storeValues(fr, c, a, words[used:used+take], attrs)
		seen[a] = true
		used += take
	}
	if used < len(words) {
		if !known {
			return false
		}
		*rest = append(*rest, words[used:]...)
	}
	return true
}
