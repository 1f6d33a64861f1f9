package shell

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// A command is judged by what the library says of its program: the
// behaviour of its spec (spec.Behaviour) gives every argument, standard
// input and output a role and says which values the program writes. A
// program the library does not describe is one we know nothing about: it
// may read anything it is given and write any file, so everything it gets
// reaches the sink, unless it is a file of the workspace that can be read,
// in which case its code is read instead.

// call is one command as the interpreter sees it while wiring it in.
type call struct {
	fr  frame
	st  *state
	s   *syntax.Stmt
	env []value // the exported variables and the command's own assignments
	own []value // the command's own assignments (`X=1 cmd`, `env X=1 cmd`)
	inv spec.Invocation
	// computed is what the program prints when the library computes it
	// whatever the script cannot know of its arguments (basename "$d/x").
	computed *string
	fields   []value
	args     []string // fields[1:] as text
	n        int      // its node
	index    int      // its index in Script.Commands
	base     string   // the program's base name, for sources' text
}

// command lists one command and wires it into the graph. It returns the
// command's index, or -1 when the bound on commands was reached.
func (a *analyzer) command(fr frame, st *state, s *syntax.Stmt, env []value, fields []value) int {
	return a.commandWith(fr, st, s, env, fields, nil)
}

// commandWith is command with sources a wrapper adds to what the command
// prints (xargs -P: the order its jobs finish in).
func (a *analyzer) commandWith(fr frame, st *state, s *syntax.Stmt, env []value, fields []value, extra []pending) int {
	if !a.budget() {
		return -1
	}
	name, _ := fields[0].known()
	c := &call{fr: fr, st: st, s: s, fields: fields, base: path.Base(name)}
	c.args = make([]string, len(fields)-1)
	for i, f := range fields[1:] {
		c.args[i] = f.String()
	}
	c.env = append(st.envWords(), env...)
	c.own = env

	b, inv, known := a.describe(c, name)
	if known && inv.Command() >= 0 {
		return a.wrapper(c, inv)
	}

	cmd := Command{
		Text:     oneLine(a.stmtText(fr, s)),
		Pos:      a.pos(fr, s.Pos()),
		Context:  slices.Clone(fr.ctx),
		Wrappers: slices.Clone(fr.wrappers),
		FromPipe: fr.piped,
		Facts:    slices.Clone(a.facts),
	}
	for _, f := range fields {
		cmd.Argv = append(cmd.Argv, f.word())
	}
	for _, e := range c.env {
		cmd.Env = append(cmd.Env, e.word())
	}
	c.index = len(a.script.Commands)
	c.n = a.g.add(commandNode, c.index)
	a.cmdNodes = append(a.cmdNodes, c.n)
	// In a condition, what the command is given decides the status; in a
	// branch, what it writes was picked by the conditions around.
	if fr.status > 0 {
		a.g.edge(c.n, fr.status)
	}
	for _, ctl := range fr.controls {
		a.g.edge(ctl, c.n)
	}
	a.script.Commands = append(a.script.Commands, cmd)
	for _, p := range extra {
		src := a.newSource(fr, p.value, p.text, p.because, s.Pos())
		a.g.edge(src, c.n)
	}

	if known {
		a.described(c, b, inv)
	} else {
		a.undescribed(c, name)
	}
	return c.index
}

// pending is a source to add to a command not yet listed.
type pending struct {
	value         effect.Value
	text, because string
}

// describe reads the command through its spec's behaviour; known is false
// when the library has none for it.
func (a *analyzer) describe(c *call, name string) (*spec.Behaviour, spec.Invocation, bool) {
	if _, ok := c.fields[0].known(); !ok {
		return nil, spec.Invocation{}, false
	}
	r := a.lib.Resolve(program.OfFor(a.lib.Mode())(name), c.args)
	if r.Spec == nil || r.Spec.Behaviour == nil || len(r.Wrappers) > 0 {
		return nil, spec.Invocation{}, false
	}
	b := r.Spec.Behaviour
	inv := b.Read(c.args, a.contextFacts(c), func(args []spec.Arg, i int) []string { return a.operandFacts(c, args, i) })
	return b, inv, true
}

// contextFacts are the facts of the place the command runs in: its
// environment, what its standard input is, what the script established.
func (a *analyzer) contextFacts(c *call) []string {
	var facts []string
	for _, e := range c.env {
		facts = append(facts, "env:"+e.String())
	}
	switch {
	case c.fr.piped || c.fr.stdinText != nil:
		facts = append(facts, "stdin:pipe")
	case c.fr.stdinFile != "":
		facts = append(facts, "stdin:file")
	}
	if c.st.cwd != nil && isKnownPath(c.st.cwd) {
		facts = append(facts, "cwd:absolute")
	}
	facts = append(facts, a.opts.Facts...)
	return append(facts, a.facts...)
}

// operandFacts are the facts of a file a command reads, args[i]: whether
// it may be a directory, a file of the checkout rather than one the build
// made (and one of the links at the top of the execution root), an
// absolute path, and what of its language's functions it uses.
func (a *analyzer) operandFacts(c *call, args []spec.Arg, i int) []string {
	st := c.st
	for _, arg := range args[:i] {
		if arg.Role.Kind == spec.Cwd && arg.HasValue {
			st = st.clone()
			a.cd(st, []value{a.argValue(c, arg)})
		}
	}
	v := a.argValue(c, args[i])
	key, known := fileKey(st, v)
	s, _ := v.known()
	var facts []string
	if !known {
		facts = append(facts, "operand:unknown")
	}
	if path.IsAbs(s) || slices.ContainsFunc(v.taint, func(t taint) bool { return t.mode == asPath && !t.temp }) {
		facts = append(facts, "operand:absolute")
	}
	if a.isDirectory(key, known, v) {
		facts = append(facts, "operand:dir")
	}
	checkedIn := known && a.isCheckedIn(key)
	if !checkedIn && a.holdsSourceCopies(key) {
		facts = append(facts, "operand:source-copy")
	}
	if checkedIn {
		facts = append(facts, "operand:source")
		if a.opts.Files != nil && (key == "." || !strings.Contains(key, "/")) && !strings.HasSuffix(s, "/") {
			// The top of the execution root is links into the checkout:
			// a workspace's top-level file or directory, named as such,
			// is a link whose target is the checkout's absolute path.
			// Only the action's inputs say which files are the
			// checkout's.
			facts = append(facts, "operand:link")
		}
	}
	if known && a.opts.Runner != nil && a.opts.Files != nil {
		facts = append(facts, a.sourceUses(key)...)
	}
	return facts
}

// fileArgs are the files a command's arguments name, by key: those it
// reads (with whether each key is known) and those it writes, a derived
// one included (cc -c src/a.c writes a.o). states are where each
// argument is read.
func (a *analyzer) fileArgs(c *call, inv spec.Invocation, states []*state) (read []fileArg, written []string) {
	for i, arg := range inv.Args {
		if arg.Option != "" && !arg.HasValue {
			continue
		}
		v := a.argValue(c, arg)
		switch {
		case arg.Role.Reads():
			key, known := fileKey(states[i], v)
			read = append(read, fileArg{key, known})
		case arg.Role.Kind == spec.Writes:
			key, _ := fileKey(states[i], v)
			written = append(written, key)
		}
		if arg.Role.Kind == spec.Derives {
			if name, ok := derivedName(v, arg.Role.Suffix); ok {
				key, _ := fileKey(states[i], knownValue(name))
				written = append(written, key)
			}
		}
	}
	return read, written
}

// fileArg is a file a command reads. A file the script names by a word
// it cannot know ("$d/gen.o") has the same key wherever the script names
// it so.
type fileArg struct {
	key   string
	known bool
}

// noteFiles notes what a command's files carry into the files it writes:
// the C sources they are made from (gcc -c gen.c; gcc -o gen gen.o; cp gen
// tool), so that running what it writes reads them, and, when it keeps
// permissions (cp), a checked-out file's permissions.
func (a *analyzer) noteFiles(c *call, inv spec.Invocation, states []*state) {
	read, written := a.fileArgs(c, inv, states)
	if len(written) == 0 {
		return
	}
	var srcs []string
	sourceMode := false
	for _, f := range read {
		if f.known && code.Language(f.key, "") == code.C {
			srcs = append(srcs, f.key)
		}
		srcs = append(srcs, a.madeFrom[f.key]...)
		sourceMode = sourceMode || a.hasSourceMode(f.key, f.known)
	}
	slices.Sort(srcs)
	srcs = slices.Compact(srcs)
	keeps := sourceMode && slices.Contains(inv.Keeps, effect.Mode)
	for _, key := range written {
		if len(srcs) > 0 {
			a.madeFrom[key] = srcs
		}
		if keeps {
			// A copy into a directory (cp a b "$d"/, -t DIR) is under it.
			a.sourceModes[key] = true
			a.sourceModes[strings.TrimSuffix(key, "/")+"/"] = true
		}
	}
}

// hasSourceMode says whether a file a command reads has, or holds files
// that have, the permissions of a checked-out file: the checkout's, or a
// copy's that kept them.
func (a *analyzer) hasSourceMode(key string, known bool) bool {
	return known && a.isCheckedIn(key) || a.holdsSourceCopies(key)
}

// holdsSourceCopies says whether a file is, or a directory holds, a copy
// the script made of a checked-out file that kept its permissions.
func (a *analyzer) holdsSourceCopies(key string) bool {
	prefix := strings.TrimSuffix(key, "/") + "/"
	if key == "." {
		prefix = ""
	}
	for k := range a.sourceModes {
		if k == key || strings.HasPrefix(k, prefix) || strings.HasSuffix(k, "/") && strings.HasPrefix(key, k) {
			return true
		}
	}
	return false
}

// isDirectory says whether a file a command reads may be a directory: the
// execution root, a path written with a slash at its end, one the script
// wrote files under, or one the action's inputs lie under.
func (a *analyzer) isDirectory(key string, known bool, v value) bool {
	if key == "." || strings.HasSuffix(v.String(), "/") || a.wroteUnder(key) {
		return true
	}
	if !known {
		return false
	}
	if a.opts.Files == nil {
		// Nothing says what the inputs are: a name with no extension may
		// be a directory.
		return path.Ext(key) == ""
	}
	prefix := key + "/"
	return slices.ContainsFunc(a.opts.Files.Inputs(), func(in string) bool { return strings.HasPrefix(in, prefix) })
}

// isCheckedIn says whether a file a command reads, or one under it, is a
// file of the checkout (not one a build step made), whose times and
// permissions are those of whoever checked it out.
func (a *analyzer) isCheckedIn(key string) bool {
	if _, made := a.files[key]; made || strings.HasPrefix(key, "bazel-out/") || path.IsAbs(key) {
		return false
	}
	if a.opts.Files == nil {
		return true
	}
	prefix := key + "/"
	return slices.ContainsFunc(a.opts.Files.Inputs(), func(in string) bool {
		return !strings.HasPrefix(in, "bazel-out/") && (in == key || key == "." || strings.HasPrefix(in, prefix))
	})
}

// sourceUses lists, as facts, what of its language's functions a source a
// command reads uses, with what it includes.
func (a *analyzer) sourceUses(key string) []string {
	lang := code.Language(key, "")
	if lang == "" || lang == code.Shell {
		return nil
	}
	return a.opts.Runner.UsesFile(lang, key)
}

// wrapper runs the command a wrapper runs (nice, timeout, env, xargs),
// with the environment it gives and what it adds to the command's output.
func (a *analyzer) wrapper(c *call, inv spec.Invocation) int {
	i := inv.Command()
	inner := slices.Clone(c.fields[1+inv.Args[i].Raw[0]:])
	env := slices.Clone(c.env[len(c.st.envWords()):])
	for _, arg := range inv.Args[:i] {
		if arg.Role.Kind == spec.Assign {
			env = append(env, c.fields[1+arg.Raw[0]])
		}
	}
	fr := c.fr
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InWrapper, Name: c.base})
	fr.wrappers = append(slices.Clip(fr.wrappers), Wrapper{Name: fields0(c), Effects: inv.Effects, Neutralised: inv.Neutralised})
	if inv.Stdin.Kind == spec.Arguments {
		// xargs passes what it reads as arguments.
		inner = append(inner, value{parts: []Part{{Text: "{" + c.base + "}"}}, taint: stdinAsData(fr.stdin)})
		fr.stdin = nil
	}
	var extra []pending
	for _, e := range inv.Effects {
		extra = append(extra, pending{e.Value, c.base, e.Because})
	}
	if name, ok := inner[0].known(); ok {
		if inv, ok := a.nestedShell(inner); ok {
			fr = a.carrying(fr, c, extra)
			a.nested(fr, withEnv(c.st, env), c.s, inv, Context{Kind: InShell, Name: path.Base(inv.Shell)}, shellArgs(inner, inv))
			return -1
		}
		if body, ok := a.funcs[name]; ok && len(env) == 0 && len(extra) == 0 {
			a.callFunction(fr, c.st, name, body, inner)
			return -1
		}
	}
	return a.commandWith(fr, c.st, c.s, env, inner, extra)
}

// fields0 is the program word of a call as the script names it.
func fields0(c *call) string {
	name, _ := c.fields[0].known()
	return name
}

// carrying is the frame of a command a wrapper runs through a shell
// (xargs -P sh -c ...): what the shell's commands print goes through a pipe
// that also carries what the wrapper adds (the order its jobs finish in).
func (a *analyzer) carrying(fr frame, c *call, extra []pending) frame {
	if len(extra) == 0 || fr.out.node < 0 {
		return fr
	}
	p := a.g.add(pipeNode, -1)
	a.g.edge(p, fr.out.node)
	for _, e := range extra {
		a.g.edge(a.newSource(fr, e.value, e.text, e.because, c.s.Pos()), p)
	}
	fr.out = dest{node: p}
	return fr
}

// described wires in a command the library describes.
func (a *analyzer) described(c *call, b *spec.Behaviour, inv spec.Invocation) {
	c.inv = inv
	if len(c.fr.stdin) == 0 && b.Computes != "" {
		if out, ok := a.compute(c, b, inv); ok {
			c.computed = &out
		}
	}
	nd := &a.g.nodes[c.n]
	nd.removes = inv.Removes
	if b.WritesElsewhere {
		a.writesElsewhere(c, inv, c.n)
	}
	if inv.Stdout != spec.Nothing {
		a.connectOut(c, b, inv)
	}
	switch inv.Stdin.Kind {
	case spec.Value, spec.Arguments:
		a.readStdin(c)
	case spec.Code:
		a.stdinCode(c, inv.Stdin.Language, stdinArgs(c, inv))
	}
	// A directory option (tar -C) changes where the operands after it are;
	// the files options name are where the command started (tar -f).
	st := c.st
	states := make([]*state, len(inv.Args))
	for i, arg := range inv.Args {
		if arg.Option != "" && arg.Role.Kind != spec.Cwd {
			states[i] = c.st
			a.argument(c, c.st, arg)
			continue
		}
		states[i] = st
		st = a.argument(c, st, arg)
	}
	a.noteFiles(c, inv, states)
	// make's effects hold where its makefile's recipes make them hold,
	// which its reader says.
	makes := a.opts.Runner != nil && code.Interpreter(c.base) == code.Make
	if !makes {
		for _, e := range inv.Effects {
			src := a.newSource(c.fr, e.Value, c.base, e.Because, c.s.Pos())
			a.g.edge(src, c.n)
		}
	}
	cmd := &a.script.Commands[c.index]
	cmd.Effects, cmd.Neutralised = inv.Effects, inv.Neutralised
	a.establish(inv.Sets...)
	// The commands of find -exec print where find prints, in its order.
	for _, arg := range inv.Args {
		if arg.Role.Kind == spec.Exec {
			a.exec(c, inv, arg)
		}
	}
	if makes {
		a.runMake(c, inv)
	}
}

// runMake hands make to the reader of makefiles with its whole command
// line, after a -C of the directory the script changed to: make finds its
// makefile itself, and the reader applies the effects of make's entry
// where the recipes make them hold (package make). What the reader says
// make prints goes where make's standard output goes, and what its
// recipes write into the files make writes (writesElsewhere), neither
// into the other nor straight into the outputs: the script copies what it
// keeps (make -C "$tmp"; cp "$tmp/lib.a" $@). Both go through nodes of the
// make command, so that what they carry is reported at it.
func (a *analyzer) runMake(c *call, inv spec.Invocation) {
	args := c.fields[1:]
	if c.st.cwd != nil {
		args = append([]value{{parts: []Part{{Text: "-C", Known: true}}}, *c.st.cwd}, args...)
	}
	out, ok := a.readWith(c, code.Program{Language: code.Make, Site: a.site(c.fr, c.s.Pos()), Args: codeArgs(args)})
	if !ok {
		return
	}
	printed := a.g.add(commandNode, c.index)
	if c.fr.out.node >= 0 {
		a.g.edge(printed, c.fr.out.node)
	}
	wrote := a.g.add(commandNode, c.index)
	a.writesElsewhere(c, inv, wrote)
	for _, r := range out.Stdout {
		a.g.edge(a.reachSource(c, r), printed)
	}
	for _, r := range out.Files {
		a.g.edge(a.reachSource(c, r), wrote)
	}
}

// writesElsewhere wires node n, what a program writes into files its
// arguments do not name by role, to those files: those named by a path
// among its arguments or their values (make OUT=$PWD/$@), else files under
// the directory it works in (make -C DIR), or, when none is named, any
// file.
func (a *analyzer) writesElsewhere(c *call, inv spec.Invocation, n int) {
	named := false
	for _, arg := range inv.Args {
		if arg.Role.Kind == spec.Cwd && arg.HasValue {
			a.g.edge(n, a.dirNode(c.st, a.argValue(c, arg)))
			named = true
		}
	}
	for _, f := range c.fields[1:] {
		s := f.String()
		if name, v, ok := strings.Cut(s, "="); ok && isName(name) {
			f = afterEquals(f, len(name)+1)
			s = v
		}
		if strings.Contains(s, "/") {
			a.g.edge(n, a.fileNode(c.st, f))
			named = true
		}
	}
	if !named {
		a.g.edge(n, sinkID)
	}
}

// connectOut sends the command's standard output where it goes, and tells
// a substitution it writes into what it prints.
func (a *analyzer) connectOut(c *call, b *spec.Behaviour, inv spec.Invocation) {
	if c.fr.out.node < 0 {
		return
	}
	a.g.edge(c.n, c.fr.out.node)
	ws, ok := a.writers[c.fr.out.node]
	if !ok {
		return
	}
	w := writer{path: inv.Stdout == spec.PathOutput, temp: slices.ContainsFunc(inv.Effects, func(e spec.Effect) bool { return e.Value == effect.TempName })}
	w.text = c.computed
	a.writers[c.fr.out.node] = append(ws, w)
}

// unknownPart stands for an argument's parts the script cannot know when a
// computation is asked what the program prints (spec.Computation): a
// result that holds it is not known.
const unknownPart = "\x00"

// compute is what a program the library computes prints, when its result
// does not depend on what the script cannot know: basename "$tmp/x" is x
// whatever $tmp is, while basename "$tmp" and dirname "$tmp/x" are not
// known.
func (a *analyzer) compute(c *call, b *spec.Behaviour, inv spec.Invocation) (string, bool) {
	if !allKnown(c.fields) {
		args := make([]string, len(c.fields)-1)
		for i, f := range c.fields[1:] {
			if _, known := f.known(); known && len(f.taint) > 0 {
				args[i] = unknownPart // known text that carries what varies
				continue
			}
			var sb strings.Builder
			for _, p := range f.parts {
				if p.Known {
					sb.WriteString(p.Text)
				} else {
					sb.WriteString(unknownPart)
				}
			}
			args[i] = sb.String()
		}
		inv = b.Read(args, nil, nil)
	}
	out, ok := b.Compute(inv)
	if !ok || strings.Contains(out, unknownPart) {
		return "", false
	}
	return out, true
}

func allKnown(vs []value) bool {
	for _, v := range vs {
		if _, ok := v.known(); !ok || len(v.taint) > 0 {
			return false
		}
	}
	return true
}

func (a *analyzer) readStdin(c *call) {
	for _, t := range c.fr.stdin {
		a.g.edge(t.node, c.n)
	}
}

// argValue is the word of an argument's value: the operand, the word after
// an option, or the value part of an option given as one word.
func (a *analyzer) argValue(c *call, arg spec.Arg) value {
	v := c.fields[1+arg.Raw[len(arg.Raw)-1]]
	if arg.Option != "" && len(arg.Raw) == 1 {
		v = attachedValue(v, arg)
	}
	return v
}

// argument wires in one argument by its role, and returns the state later
// arguments are read in (tar -C changes the directory of those after it).
func (a *analyzer) argument(c *call, st *state, arg spec.Arg) *state {
	if arg.Option != "" && !arg.HasValue {
		return st
	}
	v := a.argValue(c, arg)
	switch arg.Role.Kind {
	case spec.Value, spec.Argument:
		// What a computed program prints is known, whatever its
		// arguments hold that is not.
		if c.computed == nil {
			a.flowInto(c.n, v, arg.Role.Kind == spec.Value, false)
		}
	case spec.Reads, spec.Records:
		a.readOperand(c, st, v, arg.Role.Kind == spec.Records)
	case spec.Writes:
		if s, _ := v.known(); s != "-" {
			a.g.edge(c.n, a.fileNode(st, v))
			if arg.Role.Suffix != "" {
				a.g.edge(c.n, a.fileNode(st, withSuffix(v, arg.Role.Suffix)))
			}
			if mayBeDirectory(v) {
				// cp x "$d"/: what it writes is under the directory.
				a.g.edge(c.n, a.dirNode(st, v))
			}
		}
	case spec.Rewrites:
		a.readOperand(c, st, v, false)
		a.g.edge(c.n, a.fileNode(st, withSuffix(v, arg.Role.Suffix)))
	case spec.Derives:
		a.readOperand(c, st, v, true)
		if name, ok := derivedName(v, arg.Role.Suffix); ok {
			a.g.edge(c.n, a.fileNode(st, knownValue(name)))
		} else {
			a.g.edge(c.n, sinkID)
		}
	case spec.Cwd:
		st = st.clone()
		a.cd(st, []value{v})
	case spec.Code:
		a.runCode(c, arg.Role.Language, v, c.fields[2+arg.Raw[len(arg.Raw)-1]:], c.s.Pos())
	case spec.Script:
		a.runScript(c, st, arg.Role.Language, v, arg)
	case spec.Module:
		a.runModule(c, arg, v)
	case spec.Remaps:
		a.remap(c, v)
	case spec.Assign:
		// awk -v NAME=VALUE: a variable of the program it runs, which may
		// print it.
		a.flowInto(c.n, v, true, false)
	}
	return st
}

// attachedValue is the value part of an option given as one word
// (--file=x, -fx): its unknown parts and taints, the option's text cut.
func attachedValue(v value, arg spec.Arg) value {
	s := v.String()
	if i := strings.LastIndex(s, arg.Value); i > 0 && i+len(arg.Value) == len(s) {
		return afterEquals(v, i)
	}
	return v
}

func withSuffix(v value, suffix string) value {
	if suffix == "" {
		return v
	}
	v.parts = append(slices.Clone(v.parts), Part{Text: suffix, Known: true})
	return v
}

// derivedName is the name of the file a program derives from operand v
// in the directory it works in: v's last component without its
// extension, with suffix (cc -c src/a.c writes a.o). ok is false when
// that component is not known.
func derivedName(v value, suffix string) (string, bool) {
	if len(v.parts) == 0 {
		return "", false
	}
	last := v.parts[len(v.parts)-1]
	if !last.Known || (len(v.parts) > 1 && !strings.Contains(last.Text, "/")) {
		return "", false
	}
	base := path.Base(last.Text)
	if base == "." || base == "/" {
		return "", false
	}
	return strings.TrimSuffix(base, path.Ext(base)) + suffix, true
}

// mayBeDirectory says a file a command writes may be a directory it
// writes into: a name written with a slash at its end, or a temporary
// name (mktemp -d).
func mayBeDirectory(v value) bool {
	if strings.HasSuffix(v.String(), "/") {
		return true
	}
	return len(v.parts) == 1 && slices.ContainsFunc(v.taint, func(t taint) bool { return t.temp })
}

// readOperand wires in a file a command reads: a file of the machine whose
// content varies, what the script wrote into it, and its name when the
// command records names.
func (a *analyzer) readOperand(c *call, st *state, v value, records bool) {
	if s, ok := v.known(); ok {
		if src, ok := a.machineFile(c.fr, s, c.s.Pos()); ok {
			a.g.edge(src, c.n)
			return
		}
		if s == "-" {
			a.readStdin(c)
			return
		}
	}
	a.readFile(st, v, c.n)
	a.flowInto(c.n, v, false, records)
}

// remap is -ffile-prefix-map=OLD=NEW: when OLD is the build's directory,
// the command records paths without it, so a path taint of the directory
// no longer reaches what it makes.
func (a *analyzer) remap(c *call, v value) {
	if !remapsPath(v) {
		return
	}
	a.g.nodes[c.n].removes = append(slices.Clip(a.g.nodes[c.n].removes), effect.PWD)
}

// undescribed wires in a command the library does not describe: a tool we
// know nothing about, unless it is a file of the workspace whose code can
// be read.
func (a *analyzer) undescribed(c *call, name string) {
	_, known := c.fields[0].known()
	key, _ := fileKey(c.st, c.fields[0])
	made, wrote := a.files[key]
	if wrote && (known || a.madeFrom[key] != nil) {
		// A program the script made (gcc -o gen gen.c; ./gen): what it
		// prints may hold what it was made of (__DATE__), and its code is
		// not read.
		a.g.edge(made, c.n)
		if srcs := a.madeFrom[key]; len(srcs) > 0 && a.opts.Runner != nil {
			// What it calls of the C library when it runs.
			a.script.Commands[c.index].Read = srcs[0]
			for _, src := range srcs {
				a.handOver(c, code.Program{Language: code.C, File: src, Site: a.site(c.fr, c.s.Pos())})
			}
		} else {
			a.script.Commands[c.index].Unreadable = name + " is a program the script made, whose code is not read"
		}
	} else if known && a.inWorkspace(name) && a.lib.Resolve(program.OfFor(a.lib.Mode())(name), c.args).Spec == nil {
		if a.runTool(c, name) {
			return
		}
	}
	// It may write any file, and read standard input.
	a.g.edge(c.n, sinkID)
	if c.fr.out.node >= 0 {
		a.g.edge(c.n, c.fr.out.node)
		if ws, ok := a.writers[c.fr.out.node]; ok {
			a.writers[c.fr.out.node] = append(ws, writer{})
		}
	}
	a.readStdin(c)
	for _, f := range c.fields[1:] {
		a.flowInto(c.n, f, false, false)
		if s, ok := f.known(); ok {
			if src, ok := a.machineFile(c.fr, s, c.s.Pos()); ok {
				a.g.edge(src, c.n)
				continue
			}
		}
		a.readFile(c.st, f, c.n)
	}
	// A tool we know nothing about may read any variable it is given.
	for _, e := range c.env {
		a.flowInto(c.n, e, true, false)
	}
}

// inWorkspace says a program is named by a path inside the execution
// root: a tool of the build, not the machine's.
func (a *analyzer) inWorkspace(name string) bool {
	return strings.Contains(name, "/") && !path.IsAbs(name)
}

// runTool reads the code of a workspace tool the script runs and follows
// it as a part of the script (a shell script) or hands it to the reader of
// its language. It says whether the code was read.
func (a *analyzer) runTool(c *call, name string) bool {
	cmd := &a.script.Commands[c.index]
	if a.opts.Files == nil {
		cmd.Unreadable = "the workspace is not known, so " + name + " was not read"
		return false
	}
	key, _ := fileKey(c.st, c.fields[0])
	src, err := a.opts.Files.Program(key)
	if err != nil {
		cmd.Unreadable = err.Error()
		return false
	}
	if src.Language == "" {
		cmd.Unreadable = src.Path + ": not a program Ahab can read (no #! line or known extension)"
		return false
	}
	cmd.Read = src.Path
	a.runSource(c, c.st, src, c.fields[1:])
	return cmd.Unreadable == ""
}

// runSource runs the code of a file with arguments: a shell script within
// this analysis, anything else through the Runner.
func (a *analyzer) runSource(c *call, st *state, src code.Source, args []value) {
	if src.Language == code.Shell {
		p := a.g.add(pipeNode, -1)
		a.g.edge(p, c.n)
		a.connectToolOut(c)
		fr := c.fr
		fr.out = dest{node: p}
		fr.ctx = appendCtx(fr.ctx, Context{Kind: InShell, Name: src.Path})
		inv := Invocation{Shell: src.Path, Dialect: Bash, Script: src.Text}
		a.fileScript(fr, withEnv(st, c.own), c.s, inv, src.Path, true, args...)
		a.readStdin(c)
		return
	}
	if a.opts.Runner == nil {
		a.script.Commands[c.index].Unreadable = src.Path + ": " + src.Language + " is not read here"
		return
	}
	a.connectToolOut(c)
	a.handOver(c, code.Program{Language: src.Language, Text: src.Text, File: src.Path, Site: effect.Site{File: src.Path, Line: 1}, Args: codeArgs(args)})
}

func (a *analyzer) connectToolOut(c *call) {
	if c.fr.out.node >= 0 {
		a.g.edge(c.n, c.fr.out.node)
		if ws, ok := a.writers[c.fr.out.node]; ok {
			a.writers[c.fr.out.node] = append(ws, writer{})
		}
	}
}

// runCode reads code a command is given, inline as an argument (python3
// -c, awk 'PROG', with the arguments after it) or as a here-document,
// written at pos of the script.
func (a *analyzer) runCode(c *call, lang string, v value, args []value, pos syntax.Pos) {
	text, ok := v.known()
	if !ok {
		// What it runs may write anything.
		a.unreadCommand(c, c.base+" runs "+lang+" code computed while the script runs")
		a.g.edge(c.n, sinkID)
		a.flowInto(c.n, v, true, false)
		return
	}
	if lang == code.Shell {
		a.nestedCode(c, text, args)
		return
	}
	if a.opts.Runner == nil {
		a.unreadCommand(c, c.base+" runs "+lang+" code, which is not read here")
		return
	}
	a.handOver(c, code.Program{Language: lang, Text: text, Site: a.site(c.fr, pos), Args: codeArgs(args)})
}

// runModule hands the reader of its language a module a command runs by
// name (python3 -m tools.gen ARGS), with the arguments after it: the
// reader finds the module the way its language does.
func (a *analyzer) runModule(c *call, arg spec.Arg, v value) {
	name, ok := v.known()
	switch {
	case !ok:
		a.unreadCommand(c, c.base+" runs a module named while the script runs: "+v.String())
	case a.opts.Runner == nil:
		a.unreadCommand(c, c.base+" runs module "+name+", which is not read here")
	default:
		a.handOver(c, code.Program{Language: arg.Role.Language, Module: name, Site: a.site(c.fr, c.s.Pos()),
			Args: codeArgs(c.fields[2+arg.Raw[len(arg.Raw)-1]:])})
	}
}

// nestedCode follows shell code given inline to a shell in this analysis,
// with args as its $0, $1...
func (a *analyzer) nestedCode(c *call, text string, args []value) {
	inv := Invocation{Shell: c.base, Dialect: Bash, Script: text}
	if c.base == "sh" || c.base == "dash" {
		inv.Dialect = POSIX
	}
	a.nested(c.fr, withEnv(c.st, c.own), c.s, inv, Context{Kind: InShell, Name: c.base}, args)
}

// stdinCode reads a program the command reads from its standard input: a
// here-document given to python3, perl or bash. args are what the program
// gets after it, as runCode takes them.
func (a *analyzer) stdinCode(c *call, lang string, args []value) {
	if c.fr.stdinText == nil {
		a.readStdin(c)
		if len(c.fr.stdin) > 0 || c.fr.piped {
			a.unreadCommand(c, c.base+" reads its program from a pipe, which is not read")
		}
		return
	}
	a.runCode(c, lang, *c.fr.stdinText, args, c.fr.stdinPos)
}

// stdinArgs are the arguments a program reading its code from standard
// input gets (`bash -s A B`, `perl - A`): its operands, the "-" that names
// standard input left out; a shell's $0 is its own name.
func stdinArgs(c *call, inv spec.Invocation) []value {
	var args []value
	if code.Interpreter(c.base) == code.Shell {
		args = append(args, value{parts: []Part{{Text: c.base, Known: true}}})
	}
	first := true
	for _, arg := range inv.Args {
		if arg.Option != "" {
			continue
		}
		f := c.fields[1+arg.Raw[0]]
		if s, _ := f.known(); first && s == "-" {
			first = false
			continue
		}
		first = false
		args = append(args, f)
	}
	return args
}

// runScript reads a program file a command is given (python3 gen.py, bash
// x.sh): a spec for the file beats reading it.
func (a *analyzer) runScript(c *call, st *state, lang string, v value, arg spec.Arg) {
	s, ok := v.known()
	if !ok {
		a.unreadCommand(c, c.base+" runs a script named while the script runs: "+v.String())
		return
	}
	rest := c.fields[2+arg.Raw[len(arg.Raw)-1]:]
	if s == "-" {
		// python3 - ARGS, perl -: the program is standard input.
		var args []value
		if code.Interpreter(c.base) == code.Shell {
			args = append(args, value{parts: []Part{{Text: c.base, Known: true}}})
		}
		a.stdinCode(c, lang, append(args, rest...))
		return
	}
	if r := a.lib.Resolve(program.OfFor(a.lib.Mode())(s), nil); r.Spec != nil {
		return
	}
	cmd := &a.script.Commands[c.index]
	if a.opts.Files == nil {
		cmd.Unreadable = "the workspace is not known, so " + s + " was not read"
		return
	}
	key, _ := fileKey(st, v)
	src, err := a.opts.Files.Program(key)
	if err != nil {
		cmd.Unreadable = err.Error()
		return
	}
	if src.Language == "" {
		src.Language = lang
	}
	cmd.Read = src.Path
	if src.Language == code.Shell {
		inv := Invocation{Shell: c.base, Dialect: Bash, Script: src.Text}
		fr := c.fr
		fr.ctx = appendCtx(fr.ctx, Context{Kind: InShell, Name: src.Path})
		a.fileScript(fr, withEnv(st, c.own), c.s, inv, src.Path, true, rest...)
		return
	}
	if a.opts.Runner == nil {
		cmd.Unreadable = src.Path + ": " + src.Language + " is not read here"
		return
	}
	a.handOver(c, code.Program{Language: src.Language, Text: src.Text, File: src.Path, Site: effect.Site{File: src.Path, Line: 1}, Args: codeArgs(rest)})
}

// handOver gives a program to the reader of its language and wires what it
// found into the command: values reaching its standard output go where the
// command's output goes, values reaching the files it writes reach the
// sink.
func (a *analyzer) handOver(c *call, p code.Program) {
	out, ok := a.readWith(c, p)
	if !ok {
		return
	}
	for _, r := range out.Stdout {
		src := a.reachSource(c, r)
		a.g.edge(src, c.n)
	}
	for _, r := range out.Files {
		src := a.reachSource(c, r)
		a.g.edge(src, sinkID)
		a.g.edge(src, c.n)
	}
}

// readWith gives a program to the reader of its language, with what the
// command gives it, and notes what the reader could not follow; ok is
// false past the bound on programs running programs.
func (a *analyzer) readWith(c *call, p code.Program) (out code.Outcome, ok bool) {
	if a.opts.Depth+c.fr.nesting >= code.MaxDepth {
		a.truncate("programs run programs past " + strconv.Itoa(code.MaxDepth) + " levels")
		return code.Outcome{}, false
	}
	p.Outputs = a.opts.Outputs
	p.Depth = a.opts.Depth + c.fr.nesting + 1
	for _, arg := range c.inv.Args {
		if arg.Option != "" && arg.Role.Kind == spec.Assign && arg.HasValue {
			p.Vars = append(p.Vars, codeArgs([]value{a.argValue(c, arg)})...)
		}
		if arg.Role.Kind == spec.Imports && arg.HasValue {
			p.Imports = append(p.Imports, codeArgs([]value{a.argValue(c, arg)})...)
		}
	}
	for _, e := range c.env {
		if s, ok := e.known(); ok {
			p.Env = append(p.Env, s)
		}
	}
	out = a.opts.Runner.Run(p)
	for _, u := range out.Unread {
		a.unreadCommand(c, u)
	}
	return out, true
}

// unreadCommand notes what could not be followed in what a command runs:
// the command is then a program nobody could say anything of.
func (a *analyzer) unreadCommand(c *call, why string) {
	a.unread(why)
	if cmd := &a.script.Commands[c.index]; cmd.Unreadable == "" {
		cmd.Unreadable = why
	}
}

func (a *analyzer) reachSource(c *call, r effect.Reach) int {
	n := a.newSource(c.fr, r.Value, r.Text, r.Because, c.s.Pos())
	a.sources[len(a.sources)-1].site = r.Site
	return n
}

func codeArgs(vs []value) []code.Arg {
	out := make([]code.Arg, len(vs))
	for i, v := range vs {
		s, ok := v.known()
		if !ok {
			s = v.String()
		}
		out[i] = code.Arg{Text: s, Known: ok}
	}
	return out
}

// exec lists the command of find -exec: it prints where find prints, in the
// order find lists.
func (a *analyzer) exec(c *call, inv spec.Invocation, arg spec.Arg) {
	raw := arg.Raw[1:]
	if len(raw) > 0 {
		if t, _ := c.fields[1+raw[len(raw)-1]].known(); t == ";" || t == "+" {
			raw = raw[:len(raw)-1]
		}
	}
	var inner []value
	for _, i := range raw {
		f := c.fields[1+i]
		if t, _ := f.known(); t == "{}" {
			inner = append(inner, value{parts: []Part{{Text: "{}"}}})
			continue
		}
		inner = append(inner, f)
	}
	if len(inner) == 0 {
		return
	}
	fr := c.fr
	fr.ctx = appendCtx(fr.ctx, Context{Kind: InWrapper, Name: c.base})
	k := a.command(fr, c.st, c.s, nil, inner)
	if k < 0 {
		return
	}
	// What find lists varies in order; the commands it runs carry it.
	for _, e := range inv.Effects {
		src := a.newSource(fr, e.Value, c.base, e.Because, c.s.Pos())
		a.g.edge(src, a.cmdNodes[k])
	}
}

func isKnownPath(v *value) bool {
	s, ok := v.known()
	return ok && strings.HasPrefix(s, "/")
}

// flowInto wires a value used as an argument into command n. A path is
// not the command's data: `cat $tmp/x` prints the file, not its name,
// unless the command records the paths it is given (tar, find,
// sha256sum) or the argument is text (echo).
func (a *analyzer) flowInto(n int, v value, isText, recordsPaths bool) {
	if len(v.taint) == 0 {
		return
	}
	if remapsPath(v) {
		// -ffile-prefix-map=$PWD=. names the path to take out.
		return
	}
	path := !isText && !recordsPaths && isPathWord(v)
	for _, t := range v.taint {
		switch t.mode {
		case asTarget:
			a.g.edge(n, t.node)
		case asContent:
			a.g.edge(t.node, n)
		case asPath:
			if isText || recordsPaths || !path && !pathOnly(v) {
				a.g.edge(t.node, n)
			}
		default:
			if !path {
				a.g.edge(t.node, n)
			}
		}
	}
}

// isPathWord says whether a word is used as a path: it has a slash in
// its known text, or it joins an unknown part to a dot (`x.$$`), or it is
// nothing but a path from a path-printing source ($tmp, "$PWD").
func isPathWord(v value) bool {
	for i, p := range v.parts {
		if !p.Known {
			continue
		}
		if strings.Contains(p.Text, "/") {
			return true
		}
		if (i > 0 && strings.HasPrefix(p.Text, ".")) || (i+1 < len(v.parts) && strings.HasSuffix(p.Text, ".")) {
			return true
		}
	}
	return pathOnly(v)
}

// remapsPath says a word maps a path to another, a path directly followed
// by `=` or `/=` (-ffile-prefix-map=$PWD=., -fmacro-prefix-map=$PWD/=,
// --remap-path-prefix=$PWD=): it names the path so that it is left out.
func remapsPath(v value) bool {
	for i, p := range v.parts[:max(0, len(v.parts)-1)] {
		next := v.parts[i+1]
		if !p.Known && next.Known && (strings.HasPrefix(next.Text, "=") || strings.HasPrefix(next.Text, "/=")) && pathOnly(v) {
			return true
		}
	}
	return false
}

// pathOnly says every taint of the value is a path.
func pathOnly(v value) bool {
	for _, t := range v.taint {
		if t.mode != asPath {
			return false
		}
	}
	return len(v.taint) > 0
}
