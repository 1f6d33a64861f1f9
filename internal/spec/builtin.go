package spec

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"
)

// The built-in library (§6), in the format users write plus
// recognize_with.
//
//go:embed library/*.json
var builtinFS embed.FS

// builtinOrder is the order the built-in files are added in (§6). It
// matters only for patterns, where a later one wins.
var builtinOrder = []string{"rust", "cc", "container", "go", "java", "js", "kotlin", "pkg", "python", "general"}

type builtinFile struct {
	name    string
	entries []Entry
}

// The embedded files never change, so they are parsed once.
var parseBuiltin = sync.OnceValues(func() ([]builtinFile, error) {
	present, err := fs.Glob(builtinFS, "library/*.json")
	if err != nil {
		return nil, err
	}
	files := make([]builtinFile, 0, len(builtinOrder))
	for _, base := range builtinOrder {
		name := "library/" + base + ".json"
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("built-in library: %w", err)
		}
		entries, err := ParseFile(name, data)
		if err != nil {
			return nil, fmt.Errorf("built-in library: %w", err)
		}
		files = append(files, builtinFile{name: name, entries: entries})
		present = slices.DeleteFunc(present, func(p string) bool { return p == name })
	}
	// A file missing from builtinOrder would otherwise be silently unused.
	if len(present) > 0 {
		return nil, fmt.Errorf("built-in library: %s is not in the load order", present[0])
	}
	return files, nil
})

// LoadBuiltin returns a new library holding the built-in entries (§6),
// which the caller may extend with its own files.
func LoadBuiltin() (*Library, error) {
	files, err := parseBuiltin()
	if err != nil {
		return nil, err
	}
	l := NewLibrary()
	for _, f := range files {
		l.Add(f.name, f.entries...)
	}
	return l, nil
}

// Builtin is LoadBuiltin for callers that cannot handle an error: the
// embedded files are tested, so a failure is a bug in this package and
// panics.
func Builtin() *Library {
	l, err := LoadBuiltin()
	if err != nil {
		panic(err)
	}
	return l
}
