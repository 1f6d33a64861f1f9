package python

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
)

// file is a file the program writes or reads, by the path it names it
// with: what went into it, and whether it counts (an output of the
// action, or a file whose name cannot be known and is not temporary).
type file struct {
	key     string
	output  bool
	content taints
	special specialFile
	// made says the program made the file or set its mode, which is then
	// the action's (its umask, a chmod) unless source says it is a
	// checkout file's, kept by a copy of one (shutil.copy2).
	made, source bool
}

// specialFile is a file that is not a file of the build.
type specialFile uint8

const (
	plainFile  specialFile = iota
	stdoutFile             // the program's standard output
	stderrFile             // its standard error, which no build keeps
	nullFile               // /dev/null
	memoryFile             // an io.StringIO or io.BytesIO
)

// special is a file object for one of the special files.
func (r *run) special(s specialFile) value {
	key := map[specialFile]string{stdoutFile: "\x00stdout", stderrFile: "\x00stderr", nullFile: "/dev/null"}[s]
	f, ok := r.files[key]
	if !ok {
		f = &file{key: key, special: s}
		r.files[key] = f
	}
	return value{kind: kObject, obj: &object{class: "io.TextIOWrapper", file: f, writer: true}}
}

// memory is a new in-memory file (io.StringIO, io.BytesIO).
func (r *run) memory() *file {
	return &file{key: "\x00memory" + strconv.Itoa(int(r.newSym())), special: memoryFile}
}

// pathKey is the identity of the file a value names: its path, cleaned,
// relative to the execution root when it starts there; unknown pieces are
// written as their symbols. temp says the path lies under a temporary
// directory; known says every piece is known.
func (r *run) pathKey(v value) (key string, known, temp bool) {
	switch v.kind {
	case kStr, kBytes:
	case kObject:
		if v.obj.path != nil {
			return r.pathKey(*v.obj.path)
		}
		return r.symKey(r.newSym()), false, false
	case kUnknown:
		if v.sym == 0 {
			v.sym = r.newSym()
		}
		return r.symKey(v.sym), false, false
	default:
		return r.symKey(r.newSym()), false, false
	}
	known = true
	var b strings.Builder
	for i, p := range v.parts {
		switch {
		case p.sym == 0:
			b.WriteString(p.text)
		case p.sym == cwdSym && i == 0:
			b.WriteString("\x00cwd")
			known = false
		default:
			sym := p.sym
			if sym < 0 {
				sym = r.newSym()
			}
			temp = temp || r.temp[sym]
			b.WriteString(r.symKey(sym))
			known = false
		}
	}
	key = b.String()
	if rest, ok := strings.CutPrefix(key, "\x00cwd"); ok {
		// The execution root's absolute path: the same file as the
		// path relative to it.
		key = strings.TrimPrefix(rest, "/")
		if key == "" {
			key = "."
		}
		known = !strings.Contains(key, "\x00")
	}
	if key == "" {
		key = "."
	}
	return path.Clean(key), known, temp
}

func (r *run) symKey(sym int32) string { return "\x00" + strconv.Itoa(int(sym)) + "\x00" }

// fileOf is the file a value names, made when first named.
func (r *run) fileOf(v value) *file {
	key, known, temp := r.pathKey(v)
	switch key {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return r.special(stdoutFile).obj.file
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		return r.special(stderrFile).obj.file
	case "/dev/null":
		return r.special(nullFile).obj.file
	}
	if f, ok := r.files[key]; ok {
		return f
	}
	f := &file{key: key}
	switch {
	case known:
		f.output = code.IsOutput(r.p.Outputs, key)
	default:
		// A name that cannot be known may be an output, unless it is
		// under a temporary directory.
		f.output = !temp
	}
	r.files[key] = f
	return f
}

// write puts what t carries into the file dst writes: standard output,
// a file, or for a value that is no file object, a file that may be any.
func (r *run) write(dst value, t taints) {
	if len(t) == 0 {
		return
	}
	each(dst, func(d value) {
		if d.kind == kObject && d.obj.file != nil {
			r.writeFile(d.obj.file, t)
			return
		}
		if d.kind == kNone {
			r.writeFile(r.special(stdoutFile).obj.file, t)
			return
		}
		// A file object the reader lost track of may be an output.
		r.writeFile(r.fileOf(value{kind: kUnknown, sym: d.sym}), t)
	})
}

func (r *run) writeFile(f *file, t taints) {
	f.made = true
	switch f.special {
	case stdoutFile:
		r.stdout = r.stdout.union(t)
	case stderrFile, nullFile:
	default:
		f.content = f.content.union(t)
	}
}

// contentOf is what the files under a path hold: the file itself, the
// files in it when it is a directory, and what was copied into a
// directory above it.
func (r *run) contentOf(v value) taints {
	key, _, _ := r.pathKey(v)
	var t taints
	for _, k := range sortedFileKeys(r.files) {
		f := r.files[k]
		if f.special != plainFile {
			continue
		}
		if k == key || key == "." || strings.HasPrefix(k, key+"/") || strings.HasPrefix(key, k+"/") {
			t = t.union(f.content)
		}
	}
	return t
}

// readFile is what reading the file a value names gives: what the program
// wrote there, and what the library says a file of the machine holds
// (/dev/urandom random bytes).
func (r *run) readFile(v value, text string, site effect.Site) taints {
	t := r.contentOf(v)
	if s, ok := v.text(); ok && path.IsAbs(s) {
		if e, ok := r.lib.File(path.Clean(s)); ok {
			for _, ef := range e.Effects {
				if applies, by := ef.Apply(r.envFacts()); applies && by == "" {
					t = t.add(r.reach(ef.Value, text, ef.Because, site, false))
				}
			}
		}
	}
	return t
}

func sortedFileKeys(m map[string]*file) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// isSource says whether a value names, or may name, a file of the
// checkout, whose mode is the one the checkout gave it (0644 under one
// umask, 0664 under another): a source the action reads, a directory
// above one or a file under one, or a path the reader cannot know. A file
// the program made or whose mode it set has the action's mode, and so
// has a file Bazel made (under bazel-out/, read-only), a file of the
// machine and one under a temporary directory; a copy that keeps the
// mode of what it copies (shutil.copy2) is a source when that is.
func (r *run) isSource(v value) bool {
	switch v.kind {
	case kUnion:
		return slices.ContainsFunc(v.alts, r.isSource)
	case kInt, kUnknown:
		// A file descriptor, or a name the reader cannot know.
		return v.kind == kUnknown || !v.known || v.n > 2
	case kStr, kBytes:
	case kObject:
		switch {
		case v.obj.path != nil:
			return r.isSource(*v.obj.path)
		case v.obj.file != nil:
			return r.fileIsSource(v.obj.file.key, !strings.Contains(v.obj.file.key, "\x00"), false)
		}
		return false
	default:
		return false
	}
	key, known, temp := r.pathKey(v)
	return r.fileIsSource(key, known, temp)
}

func (r *run) fileIsSource(key string, known, temp bool) bool {
	if temp {
		return false
	}
	for k := key; ; k = path.Dir(k) {
		if f, ok := r.files[k]; ok && f.made {
			return f.source
		}
		if k == "." || k == "/" || !strings.Contains(k, "/") {
			break
		}
	}
	if !known {
		return true
	}
	if strings.HasPrefix(key, "bazel-out/") || path.IsAbs(key) {
		return false
	}
	if r.env.Files == nil {
		// Nothing says what the inputs are.
		return true
	}
	srcs := r.sourceInputs()
	if srcs[key] != 0 {
		return true
	}
	for k := path.Dir(key); k != "."; k = path.Dir(k) {
		if srcs[k]&sourceInput != 0 {
			return true
		}
	}
	return false
}

// The marks of sourceInputs: a source input of the action, and a
// directory above one.
const (
	sourceInput uint8 = 1 << iota
	sourceAbove
)

// sourceInputs are the action's inputs that are files of the checkout
// (not under bazel-out/), and the directories above them, read once.
func (r *run) sourceInputs() map[string]uint8 {
	if r.srcs != nil {
		return r.srcs
	}
	r.srcs = map[string]uint8{}
	for _, in := range r.env.Files.Inputs() {
		if strings.HasPrefix(in, "bazel-out/") || path.IsAbs(in) {
			continue
		}
		in = path.Clean(in)
		r.srcs[in] |= sourceInput
		for d := path.Dir(in); ; d = path.Dir(d) {
			if r.srcs[d]&sourceAbove != 0 {
				break
			}
			r.srcs[d] |= sourceAbove
			if d == "." {
				break
			}
		}
	}
	return r.srcs
}
