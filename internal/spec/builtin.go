package spec

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/ahab-go/ahab/internal/mode"
)

// The built-in library, in the format users write plus recognize_with:
//   - library/*.json is Ahab 0.2's (§6), which both judgements use;
//   - library/host/*.json judges the machine's own tools by name (tar,
//     gzip, date, gcc…), every verdict confirmed by two real builds
//     (testdata/hosttools);
//   - library/lang/*.json says what the functions and builtins of each
//     language a build runs give (Python's time.time, bash's $RANDOM,
//     Perl's keys…), for the readers of those languages;
//   - library/fixes/*.json corrects what Ahab 0.2's library misses, such as
//     the same toolchains under bzlmod's repository names.
//
// The last two belong to Ahab's own judgement only: --compat 0.2 must
// judge exactly as the original did.
//
//go:embed library/*.json library/host/*.json library/fixes/*.json library/lang/*.json
var builtinFS embed.FS

// builtinOrder is the order the files of library/ are added in (§6). It
// matters only for patterns, where a later one wins.
var builtinOrder = []string{"rust", "cc", "container", "go", "java", "js", "kotlin", "pkg", "python", "general"}

type builtinFile struct {
	name string
	file *File
}

// builtinFiles lists the files mode m loads, in order.
func builtinFiles(m mode.Mode) ([]string, error) {
	var names []string
	for _, base := range builtinOrder {
		names = append(names, "library/"+base+".json")
	}
	// A file missing from builtinOrder would otherwise be silently unused.
	present, err := fs.Glob(builtinFS, "library/*.json")
	if err != nil {
		return nil, err
	}
	for _, p := range present {
		if !slices.Contains(names, p) {
			return nil, fmt.Errorf("built-in library: %s is not in the load order", p)
		}
	}
	if m == mode.Ahab02 {
		return names, nil
	}
	for _, dir := range []string{"library/host/*.json", "library/lang/*.json", "library/fixes/*.json"} {
		more, err := fs.Glob(builtinFS, dir)
		if err != nil {
			return nil, err
		}
		names = append(names, more...)
	}
	return names, nil
}

// The embedded files never change, so they are parsed once per mode.
var parseBuiltin = map[mode.Mode]func() ([]builtinFile, error){
	mode.Default: sync.OnceValues(func() ([]builtinFile, error) { return parseBuiltinFiles(mode.Default) }),
	mode.Ahab02:  sync.OnceValues(func() ([]builtinFile, error) { return parseBuiltinFiles(mode.Ahab02) }),
}

func parseBuiltinFiles(m mode.Mode) ([]builtinFile, error) {
	names, err := builtinFiles(m)
	if err != nil {
		return nil, err
	}
	files := make([]builtinFile, 0, len(names))
	for _, name := range names {
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("built-in library: %w", err)
		}
		file, err := Parse(name, data, m)
		if err != nil {
			return nil, fmt.Errorf("built-in library: %w", err)
		}
		files = append(files, builtinFile{name: name, file: file})
	}
	return files, nil
}

// LoadBuiltin returns a new library of mode m holding the built-in
// entries (§6, and for Ahab's own judgement the host tools and fixes),
// which the caller may extend with its own files.
func LoadBuiltin(m mode.Mode) (*Library, error) {
	files, err := parseBuiltin[m]()
	if err != nil {
		return nil, err
	}
	l := NewLibraryFor(m)
	for _, f := range files {
		l.AddFile(f.name, f.file)
	}
	return l, nil
}

// Builtin is LoadBuiltin(mode.Default) for callers that cannot handle an
// error: the embedded files are tested, so a failure is a bug in this
// package and panics.
func Builtin() *Library { return BuiltinFor(mode.Default) }

// BuiltinFor is Builtin for mode m.
func BuiltinFor(m mode.Mode) *Library {
	l, err := LoadBuiltin(m)
	if err != nil {
		panic(err)
	}
	return l
}
