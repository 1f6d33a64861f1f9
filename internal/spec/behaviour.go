package spec

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/glob"
)

// Behaviour is what a spec says a program does, in the vocabulary Ahab's
// own judgement reads (package effect): how it reads its command line
// (Options), what each argument, its standard input and its standard
// output are to it, which values of the machine or the moment it writes
// into what it produces and what neutralises them (Effects), and what it
// changes for the commands after it (Sets). The shell analysis and the
// readers of other languages ask it what a command does; nothing about a
// particular program is written in Go.
type Behaviour struct {
	Options Grammar
	// Operands are the roles of the arguments that are not options, by
	// position (see RoleList).
	Operands RoleList
	Stdin    Role
	Stdout   Output
	Effects  []Effect
	Sets     []Fact
	// Removes are values the program takes out of what it is given: sort
	// puts lines in an order of its own, whatever order they came in.
	Removes []effect.Value
	// Cases change the roles when an option is present: gzip -c writes to
	// standard output, sed -i rewrites its operands.
	Cases []Case
	// WritesElsewhere says the program writes files its arguments do not
	// name (make writes its makefile's targets): what it makes may reach
	// any file.
	WritesElsewhere bool
	// Computes names a computation implemented in Go (see Computations)
	// that gives what the program prints from its arguments, when they
	// are known: $(dirname $<) is then a known path.
	Computes string
	// Keeps are what the files it writes keep of the files it reads, each
	// with when and unless as an effect's: cp gives a copy the
	// permissions of the file copied (effect.Mode), so that a copy of a
	// checked-out file has the checkout's umask in it.
	Keeps []Effect
}

// Computation is what a program prints, computed from an invocation's
// arguments; ok is false when it cannot say. A part of an argument the
// caller cannot know is written as a NUL byte, which no argument holds,
// and a result holding one is not known: basename of "\x00/x" is x.
type Computation func(inv Invocation) (out string, ok bool)

// computations are the computations a spec may name with computes: the
// few pure programs scripts use to make the names they pass on.
var computations = map[string]Computation{
	"dirname":  computeDirname,
	"basename": computeBasename,
	"echo":     computeEcho,
}

// ComputationNames lists the names computes accepts, sorted.
func ComputationNames() []string { return slices.Sorted(maps.Keys(computations)) }

// Compute gives what the program prints for inv, when its behaviour names
// a computation and it can say.
func (b *Behaviour) Compute(inv Invocation) (string, bool) {
	f, ok := computations[b.Computes]
	if !ok {
		return "", false
	}
	return f(inv)
}

func operands(inv Invocation) []string {
	var out []string
	for _, a := range inv.Args {
		if a.Option == "" {
			out = append(out, a.Value)
		}
	}
	return out
}

func computeDirname(inv Invocation) (string, bool) {
	ops := operands(inv)
	if len(ops) == 0 || len(ops) < len(inv.Args) {
		return "", false
	}
	lines := make([]string, len(ops))
	for i, o := range ops {
		lines[i] = path.Dir(o)
	}
	return strings.Join(lines, "\n") + "\n", true
}

func computeBasename(inv Invocation) (string, bool) {
	ops := operands(inv)
	if len(ops) == 0 || len(ops) > 2 || len(ops) < len(inv.Args) {
		return "", false
	}
	base := path.Base(ops[0])
	if len(ops) == 2 && ops[1] != base {
		base = strings.TrimSuffix(base, ops[1])
	}
	return base + "\n", true
}

func computeEcho(inv Invocation) (string, bool) {
	if len(operands(inv)) < len(inv.Args) {
		return "", false // -n, -e
	}
	return strings.Join(operands(inv), " ") + "\n", true
}

// Output is what a program's standard output carries.
type Output uint8

const (
	// Product: what the program makes (the default).
	Product Output = iota
	// Nothing: nothing worth having (cd, rm, mkdir, cp).
	Nothing
	// PathOutput: a path (mktemp, pwd, realpath, dirname), which a
	// command it is given to reads rather than prints.
	PathOutput
)

var outputNames = [...]string{"product", "nothing", "path"}

func (o Output) String() string { return outputNames[o] }

// Kind is what an argument, or the standard input, is to a program.
type Kind uint8

// The kinds of role, named by their spelling in the file format.
const (
	// Value: data, which may appear in what the program produces (the
	// default for an option's value and for any argument of a program
	// nobody described).
	Value    Kind = iota
	Reads         // the path of a file it reads
	Records       // the path of a file it reads and whose name it records (tar, sha256sum)
	Writes        // the path of a file it writes, and with Suffix the same name with it (ssh-keygen -f key writes key.pub)
	Rewrites      // the path of a file it reads and replaces (sed -i, gzip FILE)
	Cwd           // a directory it works in (tar -C)
	Ignored       // a value that never reaches its output (a count of threads)
	Code          // a program, in Language (python3 -c, awk 'PROGRAM')
	Script        // the path of a file holding a program, in Language
	Command       // this argument and those after it are a command it runs (nice, timeout)
	Exec          // a command it runs, up to an argument `;` or `+` (find -exec)
	Assign        // NAME=VALUE, an assignment to the environment of what it runs (env)
	// Remaps: OLD=NEW, a path the program takes out of what it records
	// (-ffile-prefix-map=$PWD=.).
	Remaps
	Module // the name of a module to run, in Language (python3 -m)
	// Argument: data that may be a path, as any argument of a program
	// nobody described: a path in it is not data (make's VAR=VALUE).
	Argument
	// Imports: a module its interpreter loads before the program it runs
	// (perl -MPOSIX, node -r), whose functions the program calls by
	// their short names.
	Imports
	// Derives: the path of a file it reads and whose name it records, and
	// from which it names the file it writes, in the directory it works
	// in: the name without directory and extension, with Suffix (cc -c
	// x/y.c writes y.o).
	Derives
	// Unless is the standard input's role when read only without file
	// operands: cat, gzip and sort read their operands, or else stdin.
	Unless
	// Arguments: the standard input becomes arguments of the command run
	// (xargs).
	Arguments
)

var kindNames = [...]string{
	"value", "reads", "records", "writes", "rewrites", "cwd", "ignored", "code", "script",
	"command", "exec", "assign", "remaps", "module", "argument", "imports", "derives", "unless-operands", "arguments",
}

func (k Kind) String() string { return kindNames[k] }

// Role is a kind, and for Code and Script the language the program is
// written in, for Rewrites, Writes and Derives the suffix of the file
// written (gzip's .gz, ssh-keygen's .pub, cc's .o).
type Role struct {
	Kind     Kind
	Language string
	Suffix   string
}

func (r Role) String() string {
	switch {
	case r.Language != "":
		return r.Kind.String() + ":" + r.Language
	case r.Suffix != "":
		return r.Kind.String() + ":" + r.Suffix
	}
	return r.Kind.String()
}

// Reads says whether the argument is the path of a file the program reads.
func (r Role) Reads() bool {
	return r.Kind == Reads || r.Kind == Records || r.Kind == Rewrites || r.Kind == Derives
}

// ParseRole reads a role as the format spells it: `reads`, `code:python`,
// `rewrites:.gz`.
func ParseRole(s string) (Role, error) {
	name, arg, hasArg := strings.Cut(s, ":")
	k := slices.Index(kindNames[:], name)
	if k < 0 || Kind(k) == Unless || Kind(k) == Arguments {
		return Role{}, fmt.Errorf("unknown role %q, expected one of: %s", s, roleNames())
	}
	r := Role{Kind: Kind(k)}
	switch r.Kind {
	case Code, Script, Module:
		if !hasArg || arg == "" {
			return Role{}, fmt.Errorf("role %q needs a language, as in %s:python", s, name)
		}
		r.Language = arg
	case Rewrites, Writes:
		r.Suffix = arg
	case Derives:
		if !hasArg || arg == "" {
			return Role{}, fmt.Errorf("role %q needs the suffix of what it writes, as in derives:.o", s)
		}
		r.Suffix = arg
	default:
		if hasArg {
			return Role{}, fmt.Errorf("role %q takes nothing after %s", s, name)
		}
	}
	return r, nil
}

func roleNames() string {
	var names []string
	for k, n := range kindNames {
		if Kind(k) == Unless || Kind(k) == Arguments {
			continue
		}
		switch Kind(k) {
		case Code, Script, Module:
			n += ":LANGUAGE"
		case Derives:
			n += ":SUFFIX"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// RoleList gives operands their roles by position: Head for the first
// ones, Tail for the last ones, Rest (repeated) for those between. With no
// Rest, the operands between keep the role Value.
type RoleList struct {
	Head, Tail []Role
	Rest       *Role
}

// ParseRoleList reads a list of roles in which at most one ends with
// "...": that one repeats for every operand between the others.
func ParseRoleList(list []string) (RoleList, error) {
	var l RoleList
	for _, s := range list {
		name, repeats := strings.CutSuffix(s, "...")
		r, err := ParseRole(name)
		if err != nil {
			return RoleList{}, err
		}
		switch {
		case repeats && l.Rest != nil:
			return RoleList{}, fmt.Errorf("operands: only one role may repeat (end with ...), found %q after %q", s, l.Rest.String()+"...")
		case repeats:
			l.Rest = &r
		case l.Rest != nil:
			l.Tail = append(l.Tail, r)
		default:
			l.Head = append(l.Head, r)
		}
	}
	return l, nil
}

// Of returns the roles of n operands.
func (l RoleList) Of(n int) []Role {
	roles := make([]Role, n)
	head := min(len(l.Head), n)
	copy(roles, l.Head[:head])
	tail := min(len(l.Tail), n-head)
	copy(roles[n-tail:], l.Tail[len(l.Tail)-tail:])
	for i := head; i < n-tail; i++ {
		if l.Rest != nil {
			roles[i] = *l.Rest
		}
	}
	return roles
}

// IsZero says the list gives no operand a role.
func (l RoleList) IsZero() bool { return len(l.Head) == 0 && len(l.Tail) == 0 && l.Rest == nil }

// Effect is a value the program writes into what it produces, unless one
// of Unless is among the facts of its invocation, and only when When
// holds (always, when nil).
type Effect struct {
	Value   effect.Value
	Because string
	When    *Condition
	Unless  []glob.Glob
}

// Fact is something a program establishes for the commands after it
// when When holds: touch -d fixes files' times (fixed:mtime).
type Fact struct {
	Name string
	When *Condition
}

// Case replaces roles while When holds.
type Case struct {
	When     *Condition
	Operands *RoleList
	Stdin    *Role
	Stdout   *Output
	// Roles give options other roles: tar -x reads the file of --file.
	Roles map[string]Role
	// Removes are values taken out of what the program is given, beside
	// the behaviour's: gzip -l prints sizes and names, not the time a
	// compressed file records.
	Removes []effect.Value
}

// Condition is the `when` of an effect, a fact or a case: it holds when
// its guard does (the last fact that speaks to Family or Off decides,
// as for a clause; no Family means no guard), every pattern of All
// matches some fact and no pattern of None matches any.
type Condition struct {
	Guard
	All  []glob.Glob
	None []glob.Glob
}

// Holds decides the condition on facts; a nil condition always holds.
func (c *Condition) Holds(facts []string) bool {
	if c == nil {
		return true
	}
	if (len(c.Family) > 0 || len(c.Off) > 0) && !c.Guard.Holds(facts) {
		return false
	}
	for _, g := range c.All {
		if !slices.ContainsFunc(facts, g.Match) {
			return false
		}
	}
	for _, g := range c.None {
		if slices.ContainsFunc(facts, g.Match) {
			return false
		}
	}
	return true
}

// Grammar is how a program reads its command line: which options it has,
// under which names, and which take a value. A short option (one letter
// after a dash) may be bundled with others (-czf); a long one takes its
// value after `=` or as the next argument; `--` ends the options.
type Grammar struct {
	options []optionDecl
	byName  map[string]int
	// BundleFirst says a first argument without a dash is a bundle of
	// short options (tar's `tar cvf out.tar`, ar's `ar rcs`).
	BundleFirst bool
}

type optionDecl struct {
	names     []string // as declared
	takes     bool     // takes a value
	optional  bool     // the value is optional: only attached (--x=v, -xv), never the next word
	role      Role
	canonical string
}

// ParseOptions reads option declarations: each is one or more names
// joined by `|` (the first long one, else the last one, is the canonical
// name that conditions use), then, for an option that takes a value, `=`
// and the value's role, with `?` after it when the value is optional:
// "-f|--file=writes", "-u|--utc|--universal", "-I|--iso-8601=value?".
func ParseOptions(decls []string, bundleFirst bool) (Grammar, error) {
	g := Grammar{byName: map[string]int{}, BundleFirst: bundleFirst}
	for _, d := range decls {
		names, role, takes := strings.Cut(d, "=")
		decl := optionDecl{takes: takes}
		if takes {
			if r, ok := strings.CutSuffix(role, "?"); ok {
				decl.optional, role = true, r
			}
			var err error
			if decl.role, err = ParseRole(role); err != nil {
				return Grammar{}, fmt.Errorf("option %q: %w", d, err)
			}
		}
		for _, n := range strings.Split(names, "|") {
			keyword := n != "" && n[0] != '-'
			if keyword && !takes {
				return Grammar{}, fmt.Errorf("option %q: keyword %q takes a value, expected %s=ROLE", d, n, n)
			}
			if n == "" || n == "-" || n == "--" || strings.ContainsAny(n, " \t=") {
				return Grammar{}, fmt.Errorf("option %q: %q is not an option name, expected -x, -name, --name or a keyword of NAME=VALUE arguments (dd's if)", d, n)
			}
			if _, dup := g.byName[n]; dup {
				return Grammar{}, fmt.Errorf("option %q: %s is declared twice", d, n)
			}
			g.byName[n] = len(g.options)
			decl.names = append(decl.names, n)
		}
		decl.canonical = decl.names[len(decl.names)-1]
		for _, n := range decl.names {
			if strings.HasPrefix(n, "--") {
				decl.canonical = n
				break
			}
		}
		g.options = append(g.options, decl)
	}
	return g, nil
}

// Canonical returns the canonical names of the declared options.
func (g Grammar) Canonical() []string {
	names := make([]string, len(g.options))
	for i, d := range g.options {
		names[i] = d.canonical
	}
	return names
}

// aliasIn says whether a pattern of a condition names an option by a name
// that is not its canonical one, which the condition never sees: it
// returns the canonical name.
func (g Grammar) aliasIn(pattern string) (alias, canonical string, ok bool) {
	name := pattern
	if i := strings.IndexAny(name, "=*?"); i >= 0 {
		name = name[:i]
	}
	k, declared := g.byName[name]
	if !declared || g.options[k].canonical == name {
		return "", "", false
	}
	return name, g.options[k].canonical, true
}

// checkConditions says what is wrong with the conditions of a behaviour:
// a pattern that names an option by an alias.
func (b *Behaviour) checkConditions() error {
	var conditions [][]glob.Glob
	add := func(c *Condition) {
		if c != nil {
			conditions = append(conditions, c.Family, c.Off, c.All, c.None)
		}
	}
	for _, e := range slices.Concat(b.Effects, b.Keeps) {
		add(e.When)
		conditions = append(conditions, e.Unless)
	}
	for _, f := range b.Sets {
		add(f.When)
	}
	for _, c := range b.Cases {
		add(c.When)
	}
	for _, globs := range conditions {
		for _, g := range globs {
			if alias, canonical, ok := b.Options.aliasIn(g.String()); ok {
				return fmt.Errorf("condition %q names %s, which conditions see as %s (the first long name of its declaration)", g.String(), alias, canonical)
			}
		}
	}
	for _, c := range b.Cases {
		for option := range c.Roles {
			if alias, canonical, ok := b.Options.aliasIn(option); ok {
				return fmt.Errorf("case roles name %s, which is seen as %s", alias, canonical)
			}
		}
	}
	return nil
}

// IsZero says the grammar declares no option.
func (g Grammar) IsZero() bool { return len(g.options) == 0 && !g.BundleFirst }

// Arg is one option or operand of a command line read through a grammar.
type Arg struct {
	// Option is the option's canonical name; empty for an operand.
	Option string
	// Value is the option's value or the operand.
	Value    string
	HasValue bool
	Role     Role
	// Raw are the indexes of the arguments it came from: one, or two for
	// an option and its value given apart.
	Raw []int
	// Known says the option is declared (an undeclared one stays as
	// written, with Value empty).
	Known bool
}

// String is the argument as conditions see it: `--file=out.tar`,
// `-name=*.c`, a short option with its value attached as compilers are
// written (`-DNDEBUG`, `-O2`), `--create`, an undeclared `-Wall` as
// written, an operand as is.
func (a Arg) String() string {
	switch {
	case a.Option == "":
		return a.Value
	case a.HasValue && len(a.Option) == 2 && a.Option[0] == '-':
		return a.Option + a.Value
	case a.HasValue:
		return a.Option + "=" + a.Value
	}
	return a.Option
}

// Read splits args (argv without argv[0]) into options and operands. An
// option the grammar does not declare is kept as written, and so is a
// bundle with a letter it does not declare; operands come out in order,
// their Role left to the caller (RoleList.Of).
func (g Grammar) Read(args []string) []Arg {
	out := make([]Arg, 0, len(args))
	operand := func(i int) { out = append(out, Arg{Value: args[i], Raw: []int{i}}) }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				operand(j)
			}
			return out
		case strings.HasPrefix(a, "--"):
			i = g.long(args, i, &out)
		case len(a) > 1 && a[0] == '-':
			i = g.short(args, i, "-", &out)
		case i == 0 && g.BundleFirst && a != "" && isLetters(a):
			i = g.short(args, i, "", &out)
		case g.keyword(a):
			i = g.long(args, i, &out)
		default:
			operand(i)
		}
	}
	return out
}

// long reads a long option (or a single-dash one, -name) at args[i] and
// returns the index of the last argument it used.
func (g Grammar) long(args []string, i int, out *[]Arg) int {
	name, value, hasEq := strings.Cut(args[i], "=")
	k, ok := g.byName[name]
	if !ok {
		*out = append(*out, Arg{Option: args[i], Raw: []int{i}})
		return i
	}
	d := g.options[k]
	arg := Arg{Option: d.canonical, Role: d.role, Raw: []int{i}, Known: true}
	switch {
	case d.role.Kind == Exec && !hasEq:
		// find -exec CMD ARGS ;: the command runs up to ; or +.
		var words []string
		j := i + 1
		for ; j < len(args) && args[j] != ";" && args[j] != "+"; j++ {
			words = append(words, args[j])
			arg.Raw = append(arg.Raw, j)
		}
		if j < len(args) {
			arg.Raw = append(arg.Raw, j)
		}
		arg.Value, arg.HasValue = strings.Join(words, " "), true
		*out = append(*out, arg)
		return min(j, len(args)-1)
	case !d.takes:
		if hasEq {
			// A flag given a value is not the declared flag.
			*out = append(*out, Arg{Option: args[i], Raw: []int{i}})
			return i
		}
	case hasEq:
		arg.Value, arg.HasValue = value, true
	case !d.optional && i+1 < len(args):
		arg.Value, arg.HasValue = args[i+1], true
		arg.Raw = append(arg.Raw, i+1)
		i++
	}
	*out = append(*out, arg)
	return i
}

// short reads a bundle of short options at args[i] (written after a dash,
// or, for tar's first argument, without one), or a single-dash long option,
// and returns the index of the last argument it used.
func (g Grammar) short(args []string, i int, dash string, out *[]Arg) int {
	a := args[i]
	if name, _, _ := strings.Cut(a, "="); len(name) > 2 {
		if _, ok := g.byName[name]; ok {
			return g.long(args, i, out)
		}
	}
	letters := a[len(dash):]
	// The bundle is split only when every letter up to a valued one is
	// declared; otherwise it is an option of its own (-Wall, -fPIC, -1).
	var bundle []Arg
	last := i
	for j := 0; j < len(letters); j++ {
		k, ok := g.byName["-"+letters[j:j+1]]
		if !ok {
			*out = append(*out, Arg{Option: a, Raw: []int{i}})
			return i
		}
		d := g.options[k]
		arg := Arg{Option: d.canonical, Role: d.role, Raw: []int{i}, Known: true}
		rest := letters[j+1:]
		switch {
		case !d.takes:
		case dash == "":
			// tar cfv out.tar: each valued letter takes the next word,
			// and the letters after it are options still.
			if last+1 < len(args) {
				last++
				arg.Value, arg.HasValue = args[last], true
				arg.Raw = append(arg.Raw, last)
			}
		case rest != "":
			// -fout.tar, -ofile: the rest of the bundle is the value.
			arg.Value, arg.HasValue = strings.TrimPrefix(rest, "="), true
			return g.emit(out, append(bundle, arg), last)
		case !d.optional && i+1 < len(args):
			last = i + 1
			arg.Value, arg.HasValue = args[last], true
			arg.Raw = append(arg.Raw, last)
		}
		bundle = append(bundle, arg)
	}
	return g.emit(out, bundle, last)
}

func (g Grammar) emit(out *[]Arg, args []Arg, last int) int {
	*out = append(*out, args...)
	return last
}

// keyword says a is NAME=VALUE for a declared keyword NAME (dd's if=).
func (g Grammar) keyword(a string) bool {
	name, _, ok := strings.Cut(a, "=")
	if !ok || name == "" || name[0] == '-' {
		return false
	}
	_, declared := g.byName[name]
	return declared
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// Invocation is a command line read through a behaviour: every argument
// with its role, what standard input and output are to the program, and
// what its effects and facts come to.
type Invocation struct {
	Args   []Arg
	Stdin  Role
	Stdout Output
	// Effects are the effects that apply and that nothing neutralises.
	Effects []Effect
	// Neutralised are the effects that apply but that a fact neutralises,
	// each with the fact that did.
	Neutralised []Neutralised
	Sets        []string
	Removes     []effect.Value
	// Keeps are the values the files it writes keep of those it reads
	// (Behaviour.Keeps that hold).
	Keeps []effect.Value
	// Facts are what the conditions saw: the arguments as read, the
	// context, and the facts Read derived (operands:N, runs:command, the
	// operands' own).
	Facts []string
}

// Neutralised is an effect and the fact that neutralised it.
type Neutralised struct {
	Effect Effect
	By     string
}

// Read reads one invocation: args is argv without argv[0]; context holds
// the facts of the place it runs in (env:NAME=VALUE, stdin:pipe,
// fixed:mtime…, see docs/specs.md), which conditions see after the
// arguments. operandFacts, when not nil, gives the facts of the argument
// args[i] when it names a file the program reads (operand:dir,
// operand:source…), once roles are known; args are all of them, so that it
// can see a directory option before (tar -C).
func (b *Behaviour) Read(args []string, context []string, operandFacts func(args []Arg, i int) []string) Invocation {
	inv := Invocation{Args: b.Options.Read(args), Stdin: b.Stdin, Stdout: b.Stdout, Removes: b.Removes}
	facts := make([]string, 0, len(inv.Args)+len(context)+2)
	for _, a := range inv.Args {
		facts = append(facts, a.String())
	}
	facts = append(facts, context...)

	operands := b.Operands
	for _, c := range b.Cases {
		if !c.When.Holds(facts) {
			continue
		}
		if c.Operands != nil {
			operands = *c.Operands
		}
		if c.Stdin != nil {
			inv.Stdin = *c.Stdin
		}
		if c.Stdout != nil {
			inv.Stdout = *c.Stdout
		}
		for i := range inv.Args {
			if r, ok := c.Roles[inv.Args[i].Option]; ok && inv.Args[i].Option != "" {
				inv.Args[i].Role = r
			}
		}
		if len(c.Removes) > 0 {
			inv.Removes = slices.Concat(inv.Removes, c.Removes)
		}
	}
	n := inv.assignOperands(operands)
	inv.resolveStdin()

	facts = append(facts, "operands:"+strconv.Itoa(n))
	if inv.Command() >= 0 {
		facts = append(facts, "runs:command")
	}
	if operandFacts != nil {
		for i, a := range inv.Args {
			if a.Role.Reads() {
				for _, f := range operandFacts(inv.Args, i) {
					if !slices.Contains(facts, f) {
						facts = append(facts, f)
					}
				}
			}
		}
	}
	for _, e := range b.Effects {
		if !e.When.Holds(facts) {
			continue
		}
		if by, ok := firstMatch(e.Unless, facts); ok {
			inv.Neutralised = append(inv.Neutralised, Neutralised{Effect: e, By: by})
			continue
		}
		inv.Effects = append(inv.Effects, e)
	}
	for _, f := range b.Sets {
		if f.When.Holds(facts) {
			inv.Sets = append(inv.Sets, f.Name)
		}
	}
	for _, k := range b.Keeps {
		if _, unless := firstMatch(k.Unless, facts); k.When.Holds(facts) && !unless {
			inv.Keeps = append(inv.Keeps, k.Value)
		}
	}
	inv.Facts = facts
	return inv
}

// assignOperands gives each operand its role and returns how many there
// are. A Command or Assign role ends the roles: the command and everything
// after it are the command's (see Invocation.Command).
func (inv *Invocation) assignOperands(l RoleList) int {
	var idx []int
	for i, a := range inv.Args {
		if a.Option == "" {
			idx = append(idx, i)
		}
	}
	roles := l.Of(len(idx))
	for n, i := range idx {
		inv.Args[i].Role = roles[n]
	}
	// env A=1 B=2 cmd: the assignments are those operands that look like
	// one, up to the first that does not, which starts the command.
	for n, i := range idx {
		if inv.Args[i].Role.Kind != Assign {
			continue
		}
		if name, _, ok := strings.Cut(inv.Args[i].Value, "="); ok && isEnvName(name) {
			continue
		}
		inv.Args[i].Role = Role{Kind: Command}
		for _, j := range idx[n+1:] {
			inv.Args[j].Role = Role{Kind: Value}
		}
		break
	}
	return len(idx)
}

// resolveStdin settles what standard input is when it depends on the
// rest: Unless reads it only when no operand names a file read, and Code
// is the program only when no argument gives one.
func (inv *Invocation) resolveStdin() {
	switch inv.Stdin.Kind {
	case Unless:
		inv.Stdin = Role{Kind: Value}
		for _, a := range inv.Args {
			if a.Option == "" && a.Role.Reads() {
				inv.Stdin = Role{Kind: Ignored}
				break
			}
		}
	case Code:
		for _, a := range inv.Args {
			if a.Role.Kind == Code || a.Role.Kind == Script {
				inv.Stdin = Role{Kind: Value}
				break
			}
		}
	}
}

// Command returns the command a wrapper runs: the index in Args of its
// program word, or -1.
func (inv *Invocation) Command() int {
	for i, a := range inv.Args {
		if a.Option == "" && a.Role.Kind == Command {
			return i
		}
	}
	return -1
}

func firstMatch(globs []glob.Glob, facts []string) (string, bool) {
	for _, f := range facts {
		if matchesAny(globs, f) {
			return f, true
		}
	}
	return "", false
}

func isEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
