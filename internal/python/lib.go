package python

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// handler is what Python itself does for a function of the language or
// its standard library, beyond what the table says of it: the value it
// computes (os.path.join), where it writes (print), what it builds (list).
// It says whether it handled the call.
type handler func(r *run, fr *frame, c *call) (value, bool)

// handlers is filled by builtins.go and stdlib.go.
var handlers = map[string]handler{}

// callLib calls a function of the library by its qualified name: its
// entry in the table says what varies, Python (handlers) or the
// entry's shape (opens, writes, runs, returns) what it computes.
func (r *run) callLib(fr *frame, name string, c *call) value {
	name = strings.TrimPrefix(name, "builtins.")
	c.name = name
	f, described := r.lib.Function(Language, name)
	facts := r.callFacts(c, described)
	text, site := fr.at(c.node())
	var eff []effect.Value
	var t taints
	pathResult := f.Returns == "path" || isPathClass(f.Returns)
	for _, e := range f.Effects {
		if applies, by := e.Apply(facts); applies && by == "" {
			t = t.add(r.reach(e.Value, text, e.Because, site, pathResult))
			eff = append(eff, e.Value)
		}
	}
	c.eff = t
	var res value
	handled := false
	opens := false
	switch {
	case f.Runs != "":
		res, handled = r.runProgram(fr, c, f), true
	case handlers[name] != nil:
		res, handled = handlers[name](r, fr, c)
	}
	if !handled && f.Opens != "" {
		res, _ = r.open(fr, c, f)
		handled, opens = true, true
	}
	if !handled {
		res = r.generic(fr, c, f, eff)
	}
	if !c.placed {
		// A handler may have taken effects out (a tarfile filter).
		res = r.place(fr, c, f, described, opens, res, c.eff)
	}
	if len(f.Removes) > 0 {
		res = r.removeDeep(res, f.Removes)
	}
	r.establish(c, f, facts, res)
	return res
}

// place puts what a call produced where it goes (see the package doc):
// what it is given into the file its object writes, and its effects t
// into the file it opens or writes, its result, the file of its object,
// or what it changes; it returns the result.
func (r *run) place(fr *frame, c *call, f spec.Function, described, opens bool, res value, t taints) value {
	writer := c.recv != nil && c.recv.kind == kObject && c.recv.obj.file != nil && c.recv.obj.writer
	if writer {
		// A method of an object that writes a file: what it is given
		// goes into the file. A method the table describes
		// (TarFile.add) takes files by name, and records their content
		// rather than the paths; a file object's write takes data.
		if described {
			r.writeFile(c.recv.obj.file, r.argData(fr, c).union(r.argContents(c, value{})))
		} else {
			r.writeFile(c.recv.obj.file, r.callArgsData(fr, c))
		}
	}
	switch {
	case opens:
		// What an opened file records is in what it writes; reading,
		// nothing of it reaches anything.
		if res.obj.writer {
			r.writeFile(res.obj.file, t)
		}
	case f.Writes != "":
		if dst, ok := c.argSpec(f.Writes); ok {
			r.writeFile(r.writtenFile(dst), t.union(r.argData(fr, c)).union(r.argContents(c, dst)))
		}
	case f.Returns != "":
		res = addWhole(res, t)
	case writer:
		r.writeFile(c.recv.obj.file, t)
	case c.stmt:
		if dst, ok := c.changes(); ok {
			dst.obj.whole = dst.obj.whole.union(t)
			if c.recv != nil && dst.obj == c.recv.obj {
				// A method that orders its object in place (list.sort).
				r.removeIn(dst, f.Removes, true)
			}
		}
	default:
		res = addWhole(res, t)
	}
	return res
}

// callFacts are the facts the conditions of a call's entry see (see the
// package doc); which files it names are sources is asked only of a
// function the table describes.
func (r *run) callFacts(c *call, described bool) []string {
	facts := make([]string, 0, 3*len(c.args)+len(c.kw)+len(r.environ)+len(r.facts)+2)
	// An argument's facts go from the most general to its value, so that
	// a guard's last word can be the value (random.seed(None)).
	for i, a := range c.args {
		n := "arg" + strconv.Itoa(i)
		if len(r.deep(a, true)) == 0 {
			facts = append(facts, n+":fixed")
		}
		if isStrLike(a) {
			facts = append(facts, n+":str")
		}
		if described && r.isSource(a) {
			facts = append(facts, n+":source")
		}
		if l, ok := a.literal(); ok && a.kind != kUnion {
			facts = append(facts, n+":known", n+"="+l)
		}
	}
	facts = append(facts, "args:"+strconv.Itoa(len(c.args)))
	if c.varargs {
		facts = append(facts, "args:?")
	}
	for _, k := range c.kw {
		if k.name == "" {
			continue
		}
		if len(r.deep(k.v, true)) == 0 {
			facts = append(facts, k.name+":fixed")
		}
		if described && r.isSource(k.v) {
			facts = append(facts, k.name+":source")
		}
		if l, ok := k.v.literal(); ok && k.v.kind != kUnion {
			facts = append(facts, k.name+"="+l)
		} else {
			facts = append(facts, k.name+"=?")
		}
	}
	facts = append(facts, r.envFacts()...)
	facts = append(facts, r.facts...)
	if c.recv != nil && c.recv.kind == kObject {
		facts = append(facts, c.recv.obj.facts...)
		if described && c.recv.obj.path != nil && r.isSource(*c.recv.obj.path) {
			facts = append(facts, "self:source")
		}
	}
	if c.sorted {
		facts = append(facts, "sorted")
	}
	return facts
}

// envFacts are the program's environment as facts, env:NAME=VALUE.
func (r *run) envFacts() []string {
	names := make([]string, 0, len(r.environ))
	for k, v := range r.environ {
		if v.known {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	facts := make([]string, len(names))
	for i, k := range names {
		facts[i] = "env:" + k + "=" + r.environ[k].text
	}
	return facts
}

// establish records the facts a call sets: for the object it makes (the
// result os.stat describes a file with), else for the object whose
// method it is (random.Random.seed), else for the code after it.
func (r *run) establish(c *call, f spec.Function, facts []string, res value) {
	for _, fact := range f.Sets {
		if !fact.When.Holds(facts) {
			continue
		}
		switch {
		case res.kind == kObject && res.obj != nil && f.Returns != "" && !isBuiltinType(f.Returns):
			res.obj.facts = appendFact(res.obj.facts, fact.Name)
		case c.recv != nil && c.recv.kind == kObject:
			c.recv.obj.facts = appendFact(c.recv.obj.facts, fact.Name)
		default:
			r.facts = appendFact(r.facts, fact.Name)
		}
	}
}

func appendFact(facts []string, f string) []string {
	if slices.Contains(facts, f) {
		return facts
	}
	return append(facts, f)
}

// argSpec finds the argument an entry's opens or writes names: "1|dst",
// "0|file|fileobj".
func (c *call) argSpec(s string) (value, bool) {
	for _, alt := range strings.Split(s, "|") {
		if n, err := strconv.Atoi(alt); err == nil {
			if n < len(c.args) {
				return c.args[n], true
			}
			continue
		}
		if v, ok := c.kwarg(alt); ok {
			return v, true
		}
	}
	return value{}, false
}

// changes is what a call whose result is dropped changes, if anything:
// its first argument when that is a container (random.shuffle(names)),
// else the object whose method it is (names.sort()).
func (c *call) changes() (value, bool) {
	if len(c.args) > 0 && c.args[0].isHeap() {
		return c.args[0], true
	}
	if c.recv != nil && c.recv.isHeap() {
		return *c.recv, true
	}
	return value{}, false
}

// argData is what a call's arguments carry as data: not the paths among
// them, which name files rather than become their content.
func (r *run) argData(fr *frame, c *call) taints {
	var t taints
	for _, a := range c.args {
		t = t.union(r.data(r.dataOf(fr, a, c.node())))
	}
	for _, k := range c.kw {
		t = t.union(r.data(r.dataOf(fr, k.v, c.node())))
	}
	return t
}

// argContents is what the files the call's arguments name hold, but the
// one it writes: shutil.copy(src, dst) copies src's content.
func (r *run) argContents(c *call, dst value) taints {
	var t taints
	for _, a := range c.args {
		if !same(a, dst) && (a.kind == kStr || a.kind == kObject && a.obj.path != nil) {
			t = t.union(r.contentOf(a))
		}
		if a.kind == kObject && a.obj.file != nil && !same(a, dst) {
			t = t.union(r.fileContent(a.obj.file))
		}
	}
	return t
}

// writtenFile is the file a call's "writes" names: a file object's, or
// the file at a path, which may get an extension the call adds
// (shutil.make_archive("out", "gztar") writes out.tar.gz).
func (r *run) writtenFile(dst value) *file {
	if dst.kind == kObject && dst.obj.file != nil {
		return dst.obj.file
	}
	f := r.fileOf(dst)
	if key, known, _ := r.pathKey(dst); known && !f.output {
		for _, o := range r.p.Outputs {
			if strings.HasPrefix(o, key+".") {
				return r.fileOf(str(o))
			}
		}
	}
	return f
}

// writeTo writes into what a value names: a file object, or a path.
func (r *run) writeTo(fr *frame, dst value, t taints) {
	each(dst, func(d value) {
		if d.kind == kObject && d.obj.file != nil {
			r.writeFile(d.obj.file, t)
			return
		}
		r.writeFile(r.fileOf(d), t)
	})
}

func addWhole(v value, t taints) value {
	if len(t) == 0 {
		return v
	}
	if v.isHeap() && v.kind != kInstance {
		v.obj.whole = v.obj.whole.union(t)
		return v
	}
	return withTaints(v, t)
}

// removeDeep is v without the values vs anywhere in it: what sorted()
// gives of a listing.
func (r *run) removeDeep(v value, vs []effect.Value) value {
	return r.removeAt(v, vs, 0)
}

func (r *run) removeAt(v value, vs []effect.Value, depth int) value {
	v.taints = r.without(v.taints, vs)
	if depth >= maxDeep {
		return v
	}
	switch v.kind {
	case kUnion:
		alts := slices.Clone(v.alts)
		for i := range alts {
			alts[i] = r.removeAt(alts[i], vs, depth+1)
		}
		v = union(alts)
	case kList, kTuple, kSet, kDict:
		r.removeIn(v, vs, false)
	}
	return v
}

// removeIn takes vs out of a container, in place: its order and its
// items' own, not what they hold (sorting a list of lists orders the
// list; a list may hold itself). An object the program had before, which
// it sorts in place, keeps in the journal what was taken out; a result
// a call just made (sorted()) need not.
func (r *run) removeIn(v value, vs []effect.Value, existing bool) {
	if len(vs) == 0 || v.obj == nil {
		return
	}
	o := v.obj
	if !existing {
		defer r.unjournaled()()
	}
	if slices.Contains(vs, effect.Order) {
		r.settle(o.decides)
	}
	r.takeOut(o, slotWhole, vs)
	r.takeOut(o, slotLatent, vs)
	for i := range o.items {
		r.takeOut(o, slot(i), vs)
	}
	if o.more != nil {
		r.takeOut(o, slotMore, vs)
	}
}

// generic is a function Python does nothing special for: its result is
// made of what it is given (and what its receiver holds), of the kind
// its entry's returns says.
func (r *run) generic(fr *frame, c *call, f spec.Function, eff []effect.Value) value {
	t := r.callData(fr, c)
	if c.recv != nil && c.recv.kind == kObject && c.recv.obj.file != nil {
		t = t.union(r.fileContent(c.recv.obj.file))
	}
	return r.returned(f.Returns, t, eff)
}

// callArgsData is everything a call's arguments carry.
func (r *run) callArgsData(fr *frame, c *call) taints {
	var t taints
	for _, a := range c.args {
		t = t.union(r.dataOf(fr, a, c.node()))
	}
	for _, k := range c.kw {
		t = t.union(r.dataOf(fr, k.v, c.node()))
	}
	return t
}

// callData is everything a call's arguments and receiver carry.
func (r *run) callData(fr *frame, c *call) taints {
	var t taints
	if c.recv != nil {
		t = t.union(r.dataOf(fr, *c.recv, c.node()))
	}
	for _, a := range c.args {
		t = t.union(r.dataOf(fr, a, c.node()))
	}
	for _, k := range c.kw {
		t = t.union(r.dataOf(fr, k.v, c.node()))
	}
	return t
}

// builtinTypes are the classes a "returns" can name that are Python's own
// types: the result is a value of that type.
var builtinTypes = map[string]kind{
	"str": kStr, "bytes": kBytes, "int": kInt, "float": kFloat, "bool": kBool,
	"list": kList, "tuple": kTuple, "dict": kDict, "set": kSet, "None": kNone,
}

func isBuiltinType(class string) bool {
	_, ok := builtinTypes[class]
	return ok
}

// pathClasses are pathlib's classes, whose objects are paths.
func isPathClass(class string) bool {
	switch class {
	case "pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.PurePosixPath":
		return true
	}
	return false
}

// returned is a result of the kind an entry's returns says, carrying t.
// A path (returns "path") is a new unknown piece; it names a temporary
// directory when a temporary name is among the effects.
func (r *run) returned(returns string, t taints, eff []effect.Value) value {
	switch k, ok := builtinTypes[returns]; {
	case returns == "path":
		v := r.fresh(t)
		if slices.Contains(eff, effect.TempName) {
			r.temp[v.parts[0].sym] = true
		}
		if slices.Contains(eff, effect.PWD) {
			v.parts = []part{{sym: cwdSym}}
		}
		return v
	case isPathClass(returns):
		p := r.returned("path", t, eff)
		return value{kind: kObject, obj: &object{class: "pathlib.Path", path: &p}}
	case ok && (k == kList || k == kTuple || k == kSet || k == kDict):
		v := value{kind: k, obj: &object{whole: t}}
		v.obj.addMore(value{kind: kUnknown, sym: r.newSym()})
		return v
	case ok && (k == kStr || k == kBytes):
		v := r.fresh(t)
		v.kind = k
		return v
	case ok:
		return value{kind: k, taints: t}
	case returns != "":
		return value{kind: kObject, obj: &object{class: returns, whole: t}}
	}
	return value{kind: kUnknown, taints: t, sym: r.newSym()}
}

// open is a call whose entry's opens names the file it opens: open(),
// tarfile.open(), zipfile.ZipFile(), gzip.open(). It writes when its
// mode (argument 1 or mode=) has w, a, x or +, or cannot be known, or
// when it wraps a file object that writes. Its result is an object of
// the entry's class that writes into the file, or reads it.
func (r *run) open(fr *frame, c *call, f spec.Function) (value, bool) {
	target, ok := c.argSpec(f.Opens)
	class := f.Returns
	if class == "" {
		class = "io.TextIOWrapper"
	}
	o := &object{class: class}
	mode, hasMode := c.arg(1, "mode")
	writes := false
	if hasMode {
		m, known := mode.text()
		writes = !known || strings.ContainsAny(m, "wax+")
	}
	switch {
	case !ok:
		// No file named: a file object given by keyword may be.
		if fo, ok := c.kwarg("fileobj"); ok && fo.kind == kObject && fo.obj.file != nil {
			o.file = fo.obj.file
			o.writer = writes || !hasMode && fo.obj.writer
		} else {
			o.file = r.memory()
			o.writer = writes
		}
	case target.kind == kObject && target.obj.file != nil:
		o.file = target.obj.file
		o.writer = writes || !hasMode && target.obj.writer
	default:
		o.file = r.fileOf(target)
		o.writer = writes
		o.file.made = o.file.made || writes
		if !writes {
			text, site := fr.at(c.node())
			o.whole = r.readFile(target, text, site)
		}
	}
	if p, ok := pathOf(target); ok {
		o.name = &p
	}
	return value{kind: kObject, obj: o}, o.writer
}

// runProgram hands the program a call runs (subprocess.run(argv),
// os.system(script)) to the Runner, and sends what it prints where the
// call sends it: the result (check_output, capture_output=True,
// stdout=PIPE), a file (stdout=f), nowhere (DEVNULL), or the program's
// own standard output.
func (r *run) runProgram(fr *frame, c *call, f spec.Function) value {
	_, site := fr.at(c.node())
	cmd, ok := c.arg(0, "args")
	if !ok {
		cmd, ok = c.arg(0, "command")
	}
	var t taints
	if ok {
		t = r.data(r.dataOf(fr, cmd, c.node()))
		t = t.union(r.runCommand(fr, c, f, cmd, site))
	}
	captured := f.Returns == "str" || f.Returns == "bytes" || f.Returns == "tuple" || f.Returns == "io.TextIOWrapper"
	dst, hasDst := c.kwarg("stdout")
	if co, ok := c.kwarg("capture_output"); ok {
		if b, known := co.truth(); !known || b {
			captured = true
		}
	}
	switch {
	case hasDst && dst.kind == kLib && dst.name == "subprocess.PIPE":
		captured = true
	case hasDst && dst.kind == kLib && dst.name == "subprocess.DEVNULL":
		t = nil
	case hasDst && dst.kind == kNone:
	case hasDst:
		r.writeTo(fr, dst, t)
		t = nil
	}
	if !captured && len(t) > 0 {
		// The child prints where the program's own output goes, its
		// file descriptor 1, whatever sys.stdout is.
		r.writeFile(r.special(stdoutFile).obj.file, t)
		t = nil
	}
	return r.returned(f.Returns, t, nil)
}

// runCommand hands the command of a call to the Runner and returns what
// reaches the command's standard output; what reaches the files it
// writes is the program's.
func (r *run) runCommand(fr *frame, c *call, f spec.Function, cmd value, site effect.Site) taints {
	lang := f.Runs
	shell := false
	if sh, ok := c.kwarg("shell"); ok {
		b, known := sh.truth()
		shell = !known || b
	}
	var script string
	var known bool
	switch {
	case lang == "argv" && !shell && (cmd.kind == kList || cmd.kind == kTuple) && cmd.obj.more == nil:
		var argv []code.Arg
		for _, a := range cmd.obj.items {
			s, ok := a.text()
			if !ok {
				s = "?"
			}
			argv = append(argv, code.Arg{Text: s, Known: ok})
		}
		script, known = code.CommandLine(argv), len(argv) > 0 && argv[0].Known
	case lang == "argv" && !shell && cmd.kind == kStr:
		s, ok := cmd.text()
		script, known = code.CommandLine([]code.Arg{{Text: s, Known: ok}}), ok
	case lang == "argv" || lang == code.Shell:
		if cmd.kind == kList || cmd.kind == kTuple {
			// shell=True with a list runs its first item.
			cmd = withTaints(cmd.obj.element(), cmd.obj.whole)
		}
		script, known = r.shellText(cmd)
		lang = code.Shell
	default:
		script, known = cmd.text()
	}
	if lang == "argv" {
		lang = code.Shell
	}
	if !known {
		r.note(fr.mod.lineText(c.node()) + ": python: " + fr.mod.text(c.node()) + " runs a command computed while the program runs, which is not followed")
		if script == "" {
			return nil
		}
	}
	if r.env.Runner == nil {
		r.note(fr.mod.lineText(c.node()) + ": python: the command " + fr.mod.text(c.node()) + " runs is not read here")
		return nil
	}
	p := code.Program{Language: lang, Text: script, Site: site, Env: r.envList(c), Outputs: r.p.Outputs, Depth: r.p.Depth + 1}
	out := r.env.Runner.Run(p)
	var t taints
	for _, x := range out.Stdout {
		t = t.add(r.reach(x.Value, x.Text, x.Because, x.Site, false))
	}
	for _, x := range out.Files {
		r.extra = r.extra.add(r.reach(x.Value, x.Text, x.Because, x.Site, false))
	}
	for _, u := range out.Unread {
		r.note(u)
	}
	return t
}

// shellText is a shell command line from a str whose unknown parts are
// variables no script sets, which the shell sees as words it cannot know.
func (r *run) shellText(v value) (string, bool) {
	if s, ok := v.text(); ok {
		return s, true
	}
	if v.kind != kStr {
		return "", false
	}
	var b strings.Builder
	for i, p := range v.parts {
		if p.sym == 0 {
			b.WriteString(p.text)
			continue
		}
		b.WriteString(`${__ahab_unknown_` + strconv.Itoa(i) + `}`)
	}
	return b.String(), true
}

// envList is the environment a subprocess gets: the program's, as it
// changed it, and the env= it is given.
func (r *run) envList(c *call) []string {
	env := map[string]string{}
	for k, v := range r.environ {
		if v.known {
			env[k] = v.text
		}
	}
	if e, ok := c.kwarg("env"); ok && e.kind == kDict {
		for i, k := range e.obj.keys {
			name, ok1 := k.text()
			val, ok2 := e.obj.items[i].text()
			if ok1 && ok2 {
				env[name] = val
			}
		}
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, k := range names {
		out[i] = k + "=" + env[k]
	}
	return out
}

// getenv is a variable of the environment: its value when known; when
// it may be unset, absent (nil: os.environ[NAME], which raises); else an
// unknown str, a variable the action may set, which varies only if the
// table says so of the whole environment.
func (r *run) getenv(name string, absent *value) value {
	e, ok := r.environ[name]
	switch {
	case ok && e.known:
		return str(e.text)
	case ok && e.unset && absent != nil:
		return *absent
	case absent != nil:
		return join(r.fresh(nil), *absent)
	}
	return r.fresh(nil)
}

func (r *run) setenv(name string, v value) {
	if s, ok := v.text(); ok {
		r.environ[name] = envValue{text: s, known: true}
		return
	}
	r.environ[name] = envValue{}
}
