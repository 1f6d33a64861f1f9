package python

import (
	_ "embed"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/ahab-go/ahab/internal/effect"
)

//go:embed stdlib.txt
var stdlibText string

var stdlib = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(stdlibText, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m
})

// isStdlib says a module is of the standard library, whose names the
// table describes and which is never read.
func isStdlib(name string) bool {
	top, _, _ := strings.Cut(name, ".")
	return stdlib()[top]
}

func (r *run) importStmt(fr *frame, s *importStmt) {
	for _, a := range s.names {
		m := r.importModule(fr, a.name, s)
		if a.asName != "" {
			r.setName(fr, a.asName, m)
			continue
		}
		// import a.b binds a, whose attribute b the import set.
		top, _, _ := strings.Cut(a.name, ".")
		if top == a.name {
			r.setName(fr, top, m)
			continue
		}
		r.setName(fr, top, r.importModule(fr, top, s))
	}
}

// importModule is the module a name imports: a name of the library, or a
// module of the workspace, read and run once. A module that is neither is
// said so, and its names are taken as a library's the table may know.
func (r *run) importModule(fr *frame, name string, at node) value {
	if isStdlib(name) {
		return value{kind: kLib, name: name}
	}
	if m := r.findModule(fr, name, name); m != nil {
		return value{kind: kModule, mod: m}
	}
	if fr.fallback == 0 {
		// A module imported where another failed to import is one
		// Python tries only then.
		top, _, _ := strings.Cut(name, ".")
		r.note(fr.mod.lineText(at) + ": python: import " + top + ": not in the standard library and not found beside the program or among the action's inputs, so what it does is not followed")
	}
	return value{kind: kLib, name: name}
}

func (r *run) importFrom(fr *frame, s *importFromStmt) {
	base := s.module
	if s.level > 0 {
		pkg := strings.Split(fr.mod.pkg, ".")
		if fr.mod.pkg == "" {
			pkg = nil
		}
		pkg = pkg[:max(0, len(pkg)-(s.level-1))]
		base = strings.Join(append(pkg, splitDotted(s.module)...), ".")
	}
	var m *module
	switch {
	case base == "":
	case isStdlib(base) && s.level == 0:
	default:
		if mv := r.importModule(fr, base, s); mv.kind == kModule {
			m = mv.mod
		}
	}
	for _, a := range s.names {
		if a.name == "*" {
			if m == nil {
				fr.mod.stars = append(fr.mod.stars, base)
				continue
			}
			for _, k := range sortedKeys(m.globals.vars) {
				if !strings.HasPrefix(k, "_") {
					r.setName(fr, k, m.globals.vars[k])
				}
			}
			continue
		}
		bind := a.asName
		if bind == "" {
			bind = a.name
		}
		if m != nil {
			if v, ok := m.globals.vars[a.name]; ok {
				r.setName(fr, bind, v)
				continue
			}
		}
		if m != nil || base == "" {
			// A submodule: from pkg import mod, from . import mod.
			full := strings.TrimPrefix(base+"."+a.name, ".")
			if sub := r.findModule(fr, full, full); sub != nil {
				r.setName(fr, bind, value{kind: kModule, mod: sub})
				continue
			}
			if m != nil {
				r.setName(fr, bind, unknown)
				continue
			}
		}
		// A name of the library: sys.stdout, os.environ and sys.argv are
		// what Python gives for them, the rest names the table looks up.
		v := r.libAttr(fr, strings.TrimPrefix(base+"."+a.name, "."), s)
		if v.kind == kLib || v.kind == kObject && v.obj.environ {
			v.at = s
		}
		r.setName(fr, bind, v)
	}
}

func splitDotted(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ".")
}

// findModule finds and runs a module of the workspace: beside the program
// (Python's sys.path[0]), at the execution root, or among the action's
// inputs under any root (a py_binary's runfiles, another repository). A
// package's module runs after the package's __init__.
func (r *run) findModule(fr *frame, dotted, runName string) *module {
	if r.env.Files == nil {
		return nil
	}
	rel := strings.ReplaceAll(dotted, ".", "/")
	dirs := []string{"."}
	if r.p.File != "" {
		dirs = []string{path.Dir(r.p.File), "."}
	}
	if fr.mod.file != "" && fr.mod.file != r.p.File {
		dirs = append([]string{path.Dir(fr.mod.file)}, dirs...)
	}
	var cands []string
	for _, d := range dirs {
		cands = append(cands, path.Join(d, rel+".py"), path.Join(d, rel, "__init__.py"))
	}
	for _, in := range r.env.Files.Inputs() {
		if strings.HasSuffix(in, "/"+rel+".py") || strings.HasSuffix(in, "/"+rel+"/__init__.py") {
			cands = append(cands, in)
		}
	}
	for _, c := range cands {
		if m := r.loadModule(c, runName); m != nil {
			if parent, last, ok := cutLast(dotted); ok {
				if p := r.findModule(fr, parent, parent); p != nil {
					p.globals.vars[last] = value{kind: kModule, mod: m}
				}
			}
			return m
		}
	}
	// A directory of modules without an __init__.py: a namespace package.
	for _, d := range dirs {
		prefix := path.Join(d, rel) + "/"
		for _, in := range r.env.Files.Inputs() {
			if strings.HasPrefix(in, prefix) && strings.HasSuffix(in, ".py") {
				key := "\x00ns:" + path.Join(d, rel)
				if m, ok := r.modules[key]; ok {
					return m
				}
				m := &module{name: dotted, globals: &scope{vars: map[string]value{}}, pkg: dotted, site: r.mainSite}
				r.modules[key] = m
				return m
			}
		}
	}
	return nil
}

func cutLast(dotted string) (string, string, bool) {
	i := strings.LastIndexByte(dotted, '.')
	if i < 0 {
		return "", "", false
	}
	return dotted[:i], dotted[i+1:], true
}

// loadModule reads and runs the module in a file, once; nil when it
// cannot be read.
func (r *run) loadModule(execPath, name string) *module {
	if m, ok := r.modules[execPath]; ok {
		return m
	}
	if r.env.Files == nil || r.nmods >= maxModules {
		return nil
	}
	src, err := r.env.Files.Read(execPath)
	if err != nil {
		return nil
	}
	r.nmods++
	file := src.Path
	if file == "" {
		file = execPath
	}
	pkg := name
	if !strings.HasSuffix(execPath, "/__init__.py") {
		pkg, _, _ = cutLast(name)
	}
	m := &module{name: name, file: file, src: src.Text, pkg: pkg, globals: &scope{vars: map[string]value{}}}
	m.site = func(line int) effect.Site { return effect.Site{File: file, Line: line} }
	r.modules[execPath] = m
	body, err := parse(src.Text)
	if err != nil {
		r.note(file + ": python: " + err.Error())
		return m
	}
	if len(r.stack) >= maxCallDepth {
		r.note(file + ": python: imported more than " + strconv.Itoa(maxCallDepth) + " calls deep, not followed")
		return m
	}
	r.runModule(m, body)
	return m
}
