package python

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The standard library as far as Python's own semantics go: the values
// path functions compute (so that a file named through os.path.join is
// known to be an output), the environment, file objects in memory, what
// serialising writes, modules run by name. What varies in any of them is
// the table's (os.getcwd the working directory, os.listdir an order).

func init() {
	for name, h := range map[string]handler{
		"os.getcwd": hCwd, "os.getcwdb": hCwd,
		"os.getenv": hGetenv, "os.environ.get": hGetenv, "os.environ.setdefault": hEnvSetdefault,
		"os.environ.pop": hEnvPop, "os.putenv": hPutenv, "os.unsetenv": hUnsetenv,
		"os.environ.update": hEnvUpdate, "os.environ.copy": hEnvAll, "os.environ.items": hEnvAll,
		"os.environ.keys": hEnvAll, "os.environ.values": hEnvAll,
		"os.fspath": hFspath, "os.fsencode": hFspath, "os.fsdecode": hFspath,
		"os.walk": hWalk, "os.path.join": hPathJoin, "os.path.dirname": hDirname, "os.path.basename": hBasename,
		"os.path.split": hPathSplit, "os.path.splitext": hSplitext, "os.path.normpath": hNormpath,
		"os.path.abspath": hAbspath, "os.path.realpath": hAbspath, "os.path.relpath": hRelpath,
		"pathlib.Path": hPath, "pathlib.PurePath": hPath, "pathlib.PosixPath": hPath, "pathlib.PurePosixPath": hPath,
		"pathlib.Path.cwd": hPathCwd, "pathlib.Path.joinpath": hPathMethod, "pathlib.Path.with_suffix": hPathMethod,
		"pathlib.Path.with_name": hPathMethod, "pathlib.Path.with_stem": hPathMethod, "pathlib.Path.resolve": hPathMethod,
		"pathlib.Path.absolute": hPathMethod, "pathlib.Path.__str__": hPathMethod, "pathlib.Path.as_posix": hPathMethod,
		"pathlib.Path.__fspath__": hPathMethod,
		"pathlib.Path.open":       hPathOpen, "pathlib.Path.read_text": hPathRead, "pathlib.Path.read_bytes": hPathRead,
		"pathlib.Path.write_text": hPathWrite, "pathlib.Path.write_bytes": hPathWrite,
		"pathlib.Path.iterdir": hPathList, "pathlib.Path.glob": hPathList, "pathlib.Path.rglob": hPathList,
		"io.StringIO": hMemory, "io.BytesIO": hMemory, "contextlib.redirect_stdout": hRedirect,
		"json.dump": hSerialise, "json.dumps": hSerialise, "pickle.dump": hSerialise, "pickle.dumps": hSerialise,
		"marshal.dump": hSerialise, "marshal.dumps": hSerialise,
		"shlex.quote": hQuote, "shlex.join": hShlexJoin,
		"runpy.run_module": hRunModule, "runpy.run_path": hRunPath, "importlib.import_module": hImportModule,
		"__import__":          hImportModule,
		"tarfile.TarFile.add": hTarAdd, "tarfile.TarInfo.replace": hReplaceAttrs,
		"shutil.copy": hKeepsMode, "shutil.copy2": hKeepsMode, "shutil.copymode": hKeepsMode,
		"shutil.copystat": hKeepsMode, "shutil.copytree": hKeepsMode, "shutil.move": hKeepsMode,
		"os.rename": hKeepsMode, "os.replace": hKeepsMode, "os.link": hKeepsMode,
		"os.chmod": hChmod, "pathlib.Path.chmod": hChmod,
	} {
		handlers[name] = h
	}
}

func hCwd(r *run, fr *frame, c *call) (value, bool) {
	return strOf([]part{{sym: cwdSym}}, nil), true
}

func hGetenv(r *run, fr *frame, c *call) (value, bool) {
	name, ok := argText(c, 0)
	if !ok {
		return r.fresh(r.callData(fr, c)), true
	}
	dflt := none
	if d, ok := c.arg(1, "default"); ok {
		dflt = d
	}
	return r.getenv(name, &dflt), true
}

func hEnvSetdefault(r *run, fr *frame, c *call) (value, bool) {
	name, ok := argText(c, 0)
	if !ok || len(c.args) < 2 {
		return r.fresh(nil), true
	}
	if e, ok := r.environ[name]; ok && e.known {
		return str(e.text), true
	}
	cur := r.getenv(name, &c.args[1])
	r.setenv(name, cur)
	return cur, true
}

func hEnvPop(r *run, fr *frame, c *call) (value, bool) {
	name, ok := argText(c, 0)
	if !ok {
		return r.fresh(nil), true
	}
	var v value
	if len(c.args) > 1 {
		v = r.getenv(name, &c.args[1])
	} else {
		v = r.getenv(name, nil)
	}
	r.environ[name] = envValue{unset: true}
	return v, true
}

func hPutenv(r *run, fr *frame, c *call) (value, bool) {
	if name, ok := argText(c, 0); ok && len(c.args) > 1 {
		r.setenv(name, c.args[1])
	}
	return none, true
}

func hUnsetenv(r *run, fr *frame, c *call) (value, bool) {
	if name, ok := argText(c, 0); ok {
		r.environ[name] = envValue{unset: true}
	}
	return none, true
}

func hEnvUpdate(r *run, fr *frame, c *call) (value, bool) {
	d := value{kind: kDict, obj: &object{}}
	for _, a := range c.args {
		r.mergeDict(fr, d, a, c.node())
	}
	for _, k := range c.kw {
		if k.name != "" {
			r.setItem(fr, d, str(k.name), k.v)
		}
	}
	for i, k := range d.obj.keys {
		if name, ok := k.text(); ok {
			r.setenv(name, d.obj.items[i])
		}
	}
	return none, true
}

// hEnvAll is the environment as a whole (os.environ.copy(), .items()):
// what the table's os.environ says of it.
func hEnvAll(r *run, fr *frame, c *call) (value, bool) {
	t := r.libData("os.environ", c.node(), fr)
	out := value{kind: kDict, obj: &object{whole: t}}
	if methodName(c.name) != "copy" {
		out.kind = kList
	}
	out.obj.addMore(r.fresh(nil))
	return out, true
}

// hWalk is os.walk: (dirpath, dirnames, filenames) for each directory.
// Each list comes in the file system's order (the table's effect); the
// order the directories are visited in is that of the dirnames, which the
// program may sort in place to fix it (Python's documented idiom), so it
// is a reach of its own that sorting a dirnames settles.
func hWalk(r *run, fr *frame, c *call) (value, bool) {
	var visit taints
	for _, id := range c.eff {
		visit = visit.add(r.reachPart(id, "visit"))
	}
	dirs := newList(kList, nil)
	dirs.obj.addMore(r.fresh(nil))
	dirs.obj.whole, dirs.obj.decides = c.eff.union(visit), visit
	files := newList(kList, nil)
	files.obj.addMore(r.fresh(nil))
	files.obj.whole = c.eff
	walk := newList(kList, nil)
	walk.obj.addMore(newList(kTuple, []value{r.joinPaths([]value{c.args0(), r.fresh(nil)}), dirs, files}))
	walk.obj.whole = visit
	c.placed = true
	return walk, true
}

// args0 is the first argument, or an unknown one.
func (c *call) args0() value {
	if len(c.args) > 0 {
		return c.args[0]
	}
	return unknown
}

// pathOf is the path a str or a pathlib.Path holds.
func pathOf(v value) (value, bool) {
	switch {
	case v.kind == kStr || v.kind == kBytes:
		return v, true
	case v.kind == kObject && v.obj.path != nil:
		return *v.obj.path, true
	}
	return value{}, false
}

func hFspath(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	if p, ok := pathOf(c.args[0]); ok {
		return p, true
	}
	return value{}, false
}

// joinPaths is os.path.join: a piece that starts with / starts again.
func (r *run) joinPaths(vs []value) value {
	var parts []part
	var t taints
	for i, v := range vs {
		p, ok := pathOf(v)
		if !ok {
			p = r.fresh(r.deep(v, true))
		}
		t = t.union(p.taints)
		if first := p.parts[0]; first.sym == 0 && strings.HasPrefix(first.text, "/") || first.sym == cwdSym {
			parts = nil
		}
		if i > 0 && len(parts) > 0 {
			last := parts[len(parts)-1]
			if last.sym != 0 || !strings.HasSuffix(last.text, "/") {
				parts = append(parts, part{text: "/"})
			}
		}
		parts = append(parts, p.parts...)
	}
	return strOf(parts, t)
}

func hPathJoin(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 || c.varargs {
		return value{}, false
	}
	return r.joinPaths(c.args), true
}

// lastSlash splits a path after its last known slash: the parts before
// it, the text after it, and whether there is such a slash after every
// unknown part.
func lastSlash(v value) (head []part, tail string, ok bool) {
	last := len(v.parts) - 1
	p := v.parts[last]
	if p.sym != 0 {
		return nil, "", false
	}
	i := strings.LastIndexByte(p.text, '/')
	if i < 0 {
		if last == 0 {
			return nil, p.text, true
		}
		return nil, "", false
	}
	head = append(append([]part(nil), v.parts[:last]...), part{text: p.text[:i+1]})
	return head, p.text[i+1:], true
}

func hDirname(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	return r.dirname(v), true
}

func (r *run) dirname(v value) value {
	head, _, ok := lastSlash(v)
	if !ok {
		return r.fresh(v.taints)
	}
	out := strOf(head, v.taints)
	// dirname keeps a lone /, and cuts the slashes after a name.
	if s, known := out.text(); known {
		if t := strings.TrimRight(s, "/"); t != "" {
			s = t
		} else if s != "" {
			s = "/"
		}
		out = str(s)
		out.taints = r.data(v.taints)
		return out
	}
	last := &out.parts[len(out.parts)-1]
	if last.sym == 0 {
		last.text = strings.TrimRight(last.text, "/")
	}
	return strOf(out.parts, v.taints)
}

func hBasename(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	return r.basename(v), true
}

func (r *run) basename(v value) value {
	if _, tail, ok := lastSlash(v); ok {
		out := str(tail)
		out.taints = r.data(v.taints)
		return out
	}
	if isCwd(v) {
		// The execution root is output_base/execroot/WORKSPACE: its
		// last part is the workspace's name, wherever the build runs.
		return r.fresh(r.data(v.taints))
	}
	return r.fresh(v.taints)
}

// pathRoot is the directory a path starts from, as a symbol: the working
// directory for a relative path, that of its first part when the reader
// cannot know it (a temporary directory), 0 for a known absolute path.
func pathRoot(v value) int32 {
	first := v.parts[0]
	switch {
	case first.sym != 0:
		return first.sym
	case strings.HasPrefix(first.text, "/"):
		return 0
	}
	return cwdSym
}

// isCwd says a path is the working directory itself.
func isCwd(v value) bool {
	if v.kind != kStr || len(v.parts) == 0 || v.parts[0].sym != cwdSym {
		return false
	}
	rest, ok := strOf(v.parts[1:], nil).text()
	return ok && strings.Trim(rest, "/.") == ""
}

// hRelpath is os.path.relpath: a path under the directory it is made
// relative to (the working directory unless start= says another) loses
// that directory, and with it the build's directory, which the table
// says the result varies with otherwise: a path outside it is written as
// many levels up as the directory is deep, and one the reader cannot
// know may be such a path.
func hRelpath(r *run, fr *frame, c *call) (value, bool) {
	p, ok := c.arg(0, "path")
	if !ok {
		return value{}, false
	}
	if v, ok := pathOf(p); ok {
		p = v
	} else {
		return value{}, false
	}
	start := str(".")
	if s, ok := c.arg(1, "start"); ok && s.kind != kNone {
		if v, ok := pathOf(s); ok {
			start = v
		} else {
			return value{}, false
		}
	}
	if s, ok := p.text(); ok && !strings.HasPrefix(s, "/") {
		if st, ok := start.text(); ok && !strings.HasPrefix(st, "/") {
			// Two paths under the working directory.
			if rel, err := filepath.Rel(path.Clean(st), path.Clean(s)); err == nil {
				c.eff = nil
				return withTaints(str(rel), r.data(p.taints.union(start.taints))), true
			}
		}
	}
	root := pathRoot(p)
	if root == 0 || pathRoot(start) != root {
		return r.fresh(p.taints.union(start.taints)), true
	}
	// Both under one directory the reader names by a symbol (the
	// working directory, a temporary one): the result does not depend
	// on where that is.
	c.eff = nil
	t := r.data(p.taints.union(start.taints))
	ap, as := r.absolute(p), r.absolute(start)
	pr, pk := strOf(ap.parts[1:], nil).text()
	sr, sk := strOf(as.parts[1:], nil).text()
	switch {
	case pk && sk:
		if rel, err := filepath.Rel(path.Clean("/"+sr), path.Clean("/"+pr)); err == nil {
			return withTaints(str(rel), t), true
		}
	case sk && strings.Trim(sr, "/.") == "" && len(ap.parts) > 1:
		rest := slices.Clone(ap.parts[1:])
		if rest[0].sym == 0 {
			rest[0].text = strings.TrimLeft(rest[0].text, "/")
		}
		return strOf(rest, t), true
	}
	return r.fresh(t), true
}

func hPathSplit(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	head, _, known := lastSlash(v)
	dir := r.dirname(v)
	if known && len(head) > 0 {
		if s, ok := strOf(head, nil).text(); ok && strings.Trim(s, "/") != "" {
			dir = str(strings.TrimRight(s, "/"))
			dir.taints = v.taints
		}
	}
	return newList(kTuple, []value{dir, r.basename(v)}), true
}

func hSplitext(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	last := v.parts[len(v.parts)-1]
	if last.sym == 0 {
		name := last.text[strings.LastIndexByte(last.text, '/')+1:]
		if i := strings.LastIndexByte(name, '.'); i > 0 && strings.TrimLeft(name[:i], ".") != "" {
			cut := len(last.text) - len(name) + i
			root := append(append([]part(nil), v.parts[:len(v.parts)-1]...), part{text: last.text[:cut]})
			ext := str(last.text[cut:])
			ext.taints = v.taints
			return newList(kTuple, []value{strOf(root, v.taints), ext}), true
		}
		if len(v.parts) == 1 || strings.Contains(last.text, "/") {
			return newList(kTuple, []value{v, withTaints(str(""), v.taints)}), true
		}
	}
	return newList(kTuple, []value{r.fresh(v.taints), r.fresh(v.taints)}), true
}

func hNormpath(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	if s, ok := v.text(); ok {
		out := str(path.Clean(s))
		out.taints = v.taints
		return out, true
	}
	return v, true
}

// hAbspath is os.path.abspath and realpath: a relative path under the
// working directory, which the table says varies.
func hAbspath(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	v, ok := pathOf(c.args[0])
	if !ok {
		return value{}, false
	}
	if first := v.parts[0].sym; methodName(c.name) == "abspath" && (first == cwdSym || first != 0 && r.temp[first]) {
		// Already absolute (__file__, os.getcwd(), a temporary
		// directory): abspath puts no directory before it, what it
		// holds stays; realpath still follows the links.
		c.eff = nil
	}
	return r.absolute(v), true
}

func (r *run) absolute(v value) value {
	first := v.parts[0]
	if first.sym == cwdSym || first.sym == 0 && strings.HasPrefix(first.text, "/") {
		if s, ok := v.text(); ok {
			out := str(path.Clean(s))
			out.taints = v.taints
			return out
		}
		return v
	}
	return strOf(append([]part{{sym: cwdSym}, {text: "/"}}, v.parts...), v.taints)
}

// A pathlib.Path is an object holding its path.

func (r *run) pathObject(p value) value {
	return value{kind: kObject, obj: &object{class: "pathlib.Path", path: &p}}
}

func hPath(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return r.pathObject(str(".")), true
	}
	return r.pathObject(r.joinPaths(c.args)), true
}

func hPathCwd(r *run, fr *frame, c *call) (value, bool) {
	return r.pathObject(strOf([]part{{sym: cwdSym}}, nil)), true
}

// pathAttr is an attribute of a pathlib.Path that is a path or a name.
func (r *run) pathAttr(base value, name string) (value, bool) {
	p := *base.obj.path
	switch name {
	case "parent":
		return r.pathObject(r.dirname(p)), true
	case "name":
		return r.basename(p), true
	case "stem", "suffix":
		b := r.basename(p)
		s, ok := b.text()
		if !ok {
			return r.fresh(p.taints), true
		}
		i := strings.LastIndexByte(s, '.')
		if i <= 0 {
			if name == "stem" {
				return b, true
			}
			return withTaints(str(""), p.taints), true
		}
		if name == "stem" {
			return withTaints(str(s[:i]), p.taints), true
		}
		return withTaints(str(s[i:]), p.taints), true
	}
	return value{}, false
}

func hPathMethod(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kObject || c.recv.obj.path == nil {
		return value{}, false
	}
	p := *c.recv.obj.path
	switch methodName(c.name) {
	case "joinpath":
		return r.pathObject(r.joinPaths(append([]value{p}, c.args...))), true
	case "with_suffix", "with_name", "with_stem":
		return r.pathObject(r.fresh(r.callData(fr, c))), true
	case "resolve", "absolute":
		return r.pathObject(r.absolute(p)), true
	}
	return p, true
}

func hPathOpen(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj.path == nil {
		return value{}, false
	}
	f, ok := r.lib.Function(Language, "open")
	if !ok {
		return value{}, false
	}
	oc := *c
	oc.args = append([]value{*c.recv.obj.path}, c.args...)
	oc.recv = nil
	v, _ := r.open(fr, &oc, f)
	return v, true
}

func hPathRead(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj.path == nil {
		return value{}, false
	}
	text, site := fr.at(c.node())
	v := r.fresh(r.readFile(*c.recv.obj.path, text, site))
	if methodName(c.name) == "read_bytes" {
		v.kind = kBytes
	}
	return v, true
}

func hPathWrite(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj.path == nil || len(c.args) == 0 {
		return value{}, false
	}
	r.writeFile(r.fileOf(*c.recv.obj.path), r.dataOf(fr, c.args[0], c.node()))
	return value{kind: kInt}, true
}

// hPathList is what iterdir() and glob() list: paths under the directory,
// in an order the table says varies.
func hPathList(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.obj.path == nil {
		return value{}, false
	}
	child := r.joinPaths([]value{*c.recv.obj.path, r.fresh(nil)})
	out := newList(kList, nil)
	out.obj.addMore(r.pathObject(child))
	return out, true
}

// hMemory is io.StringIO and io.BytesIO: a file in memory, which writes.
func hMemory(r *run, fr *frame, c *call) (value, bool) {
	f := r.memory()
	if len(c.args) > 0 {
		f.content = r.dataOf(fr, c.args[0], c.node())
	}
	return value{kind: kObject, obj: &object{class: c.name, file: f, writer: true}}, true
}

// hRedirect is contextlib.redirect_stdout(f): in its with, sys.stdout is f.
func hRedirect(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	target := c.args[0]
	return value{kind: kObject, obj: &object{class: "contextlib.redirect_stdout", redirect: &target}}, true
}

// hSerialise is json, pickle and marshal writing a value: everything in
// it, in its order. JSON has no sets: json.dump of one raises, and writes
// nothing (unless a default= says how); sort_keys=True puts a dict's
// keys in order.
func hSerialise(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) == 0 {
		return value{}, false
	}
	obj := c.args[0]
	json := strings.HasPrefix(c.name, "json.")
	_, hasDefault := c.kwarg("default")
	sortKeys := false
	if sk, ok := c.kwarg("sort_keys"); ok {
		b, known := sk.truth()
		sortKeys = !known || b
	}
	t, ok := r.serialTaints(fr, obj, json && !hasDefault, sortKeys, 0, c.node())
	if !ok {
		return unknown, true
	}
	if strings.HasSuffix(c.name, "s") {
		v := r.fresh(t)
		if !json {
			v.kind = kBytes
		}
		return v, true
	}
	if len(c.args) > 1 {
		r.write(c.args[1], t)
	} else if fp, ok := c.kwarg("fp"); ok {
		r.write(fp, t)
	} else if f, ok := c.kwarg("file"); ok {
		r.write(f, t)
	}
	return none, true
}

// serialTaints is what serialising v writes; ok is false when JSON would
// raise on a set in it.
func (r *run) serialTaints(fr *frame, v value, json, sortKeys bool, depth int, at node) (taints, bool) {
	if depth > maxDeep {
		return r.deep(v, true), true
	}
	switch v.kind {
	case kSet:
		if json {
			return nil, false
		}
		return r.deep(v, true), true
	case kUnion:
		var t taints
		ok := false
		for _, a := range v.alts {
			at, aok := r.serialTaints(fr, a, json, sortKeys, depth+1, at)
			t, ok = t.union(at), ok || aok
		}
		return t, ok
	case kList, kTuple, kDict:
		t := v.obj.whole
		if sortKeys && v.kind == kDict {
			t = nil
		}
		t = t.union(v.taints)
		for i, it := range v.obj.items {
			it, ok := r.serialTaints(fr, it, json, sortKeys, depth+1, at)
			if !ok {
				return nil, false
			}
			t = t.union(it)
			if i < len(v.obj.keys) {
				t = t.union(r.deep(v.obj.keys[i], true))
			}
		}
		if v.obj.more != nil {
			mt, ok := r.serialTaints(fr, *v.obj.more, json, sortKeys, depth+1, at)
			if !ok {
				return nil, false
			}
			t = t.union(mt)
		}
		return t, true
	}
	return r.dataOf(fr, v, at), true
}

// hQuote is shlex.quote: known text quoted as the shell reads it, unknown
// text kept in quotes, so that a command line built with it keeps its
// words.
func hQuote(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 || c.args[0].kind != kStr {
		return value{}, false
	}
	return r.quote(c.args[0]), true
}

func (r *run) quote(v value) value {
	if s, ok := v.text(); ok {
		if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_") == "" {
			return withTaints(str(s), v.taints)
		}
		return withTaints(str("'"+strings.ReplaceAll(s, "'", `'"'"'`)+"'"), v.taints)
	}
	return v
}

func hShlexJoin(r *run, fr *frame, c *call) (value, bool) {
	if len(c.args) != 1 {
		return value{}, false
	}
	items, exact := r.iterate(fr, c.args[0], c.node())
	if !exact {
		return r.fresh(r.callData(fr, c)), true
	}
	var parts []part
	var t taints
	for i, it := range items {
		if i > 0 {
			parts = append(parts, part{text: " "})
		}
		q := r.quote(it)
		if q.kind != kStr {
			q = r.fresh(r.deep(it, true))
		}
		parts = append(parts, q.parts...)
		t = t.union(q.taints)
	}
	return strOf(parts, t), true
}

// hRunModule is runpy.run_module(name): the module of the workspace,
// followed as __main__ (python3 -m name).
func hRunModule(r *run, fr *frame, c *call) (value, bool) {
	name, ok := argText(c, 0)
	if !ok {
		r.note(fr.mod.lineText(c.node()) + ": python: runs a module named while the program runs, which is not followed")
		return unknown, true
	}
	runName := name
	if rn, ok := c.kwarg("run_name"); ok {
		if s, ok := rn.text(); ok {
			runName = s
		}
	}
	if isStdlib(name) {
		return value{kind: kDict, obj: &object{}}, true
	}
	if m := r.findModule(fr, name, runName); m == nil {
		r.note(fr.mod.lineText(c.node()) + ": python: module " + name + " is not in the standard library and was not found beside the program or among the action's inputs, so it was not followed")
	}
	return value{kind: kDict, obj: &object{}}, true
}

func hRunPath(r *run, fr *frame, c *call) (value, bool) {
	p, ok := argText(c, 0)
	if !ok {
		r.note(fr.mod.lineText(c.node()) + ": python: runs a file named while the program runs, which is not followed")
		return unknown, true
	}
	if m := r.loadModule(path.Clean(p), "__main__"); m == nil {
		r.note(fr.mod.lineText(c.node()) + ": python: " + p + " could not be read, so it was not followed")
	}
	return value{kind: kDict, obj: &object{}}, true
}

func hImportModule(r *run, fr *frame, c *call) (value, bool) {
	name, ok := argText(c, 0)
	if !ok {
		r.note(fr.mod.lineText(c.node()) + ": python: imports a module named while the program runs, which is not followed")
		return unknown, true
	}
	return r.importModule(fr, name, c.node()), true
}

// hTarAdd is TarFile.add: a filter= is called, as tarfile does, with the
// TarInfo of what is added, which carries what add records of it (the
// table's effects), and what it returns is what the archive gets. A
// filter that sets mtime, mode or the owners to fixed values takes them
// out, one that leaves them keeps them, and a filter the reader cannot
// see into (a library's, a str, which tarfile cannot call) passes them
// all on.
func hTarAdd(r *run, fr *frame, c *call) (value, bool) {
	filter, ok := c.kwarg("filter")
	if !ok || filter.kind == kNone || len(c.eff) == 0 {
		return value{}, false
	}
	ti := value{kind: kObject, obj: &object{class: "tarfile.TarInfo", whole: c.eff}}
	got := r.callValue(fr, filter, &call{fr: fr, x: c.x, args: []value{ti}})
	var left taints
	each(got, func(v value) {
		if v.kind != kNone {
			left = left.union(r.deep(v, true))
		}
	})
	c.eff = left
	return value{}, false
}

// hReplaceAttrs is TarInfo.replace(mtime=0, …): a copy of the object with
// the attributes given, whose fixed values take out what the table says
// each holds.
func hReplaceAttrs(r *run, fr *frame, c *call) (value, bool) {
	if c.recv == nil || c.recv.kind != kObject {
		return value{}, false
	}
	o := &object{class: c.recv.obj.class, whole: c.recv.obj.whole, facts: c.recv.obj.facts}
	for _, k := range c.kw {
		if f, ok := r.lib.Function(Language, o.class+"."+k.name); ok && len(f.Removes) > 0 && len(r.deep(k.v, true)) == 0 {
			o.whole = r.without(o.whole, f.Removes)
			continue
		}
		o.whole = o.whole.union(r.dataOf(fr, k.v, c.node()))
	}
	c.placed = true
	return value{kind: kObject, obj: o}, true
}

// hKeepsMode is a copy or a move that gives the file it makes the mode of
// the one it copies (shutil.copy, copy2, copymode, copystat, copytree,
// move; os.rename, replace, link): a copy of a source has the checkout's
// mode. shutil.copyfile makes its file under the action's umask, and so
// does copytree with another copy_function.
func hKeepsMode(r *run, fr *frame, c *call) (value, bool) {
	src, ok1 := c.arg(0, "src")
	dst, ok2 := c.arg(1, "dst")
	if !ok1 || !ok2 {
		return value{}, false
	}
	keeps := r.isSource(src)
	if fn, ok := c.kwarg("copy_function"); ok && !(fn.kind == kLib && (fn.name == "shutil.copy2" || fn.name == "shutil.copy")) {
		keeps = false
	}
	f := r.writtenFile(dst)
	f.made, f.source = true, keeps
	return value{}, false
}

// hChmod is os.chmod and Path.chmod: the file's mode is the one given,
// which varies only with what went into it.
func hChmod(r *run, fr *frame, c *call) (value, bool) {
	target, mode := c.recvPath(), value{}
	ok := target != nil
	if ok {
		mode, ok = c.arg(0, "mode")
	} else if t, has := c.arg(0, "path"); has {
		target = &t
		mode, ok = c.arg(1, "mode")
	}
	if !ok {
		return value{}, false
	}
	f := r.fileOf(*target)
	f.made, f.source = true, len(r.deep(mode, true)) > 0
	return none, true
}

// recvPath is the path a pathlib.Path method is called on, or nil.
func (c *call) recvPath() *value {
	if c.recv != nil && c.recv.kind == kObject && c.recv.obj.path != nil {
		return c.recv.obj.path
	}
	return nil
}
