// Package codetest holds what the tests of the readers of languages
// share: an action's workspace held in memory, and what an outcome says in
// a few words.
package codetest

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"

	"github.com/ahab-go/ahab/internal/code"
)

// Files is a workspace held in memory, by exec path, whose files the
// action reads without declaring them: Inputs lists none, as for a tool
// that opens what it likes.
type Files map[string]string

// Program reads the file of a program, as Read.
func (f Files) Program(p string) (code.Source, error) { return f.Read(p) }

// Read reads a file of the workspace; one it lacks does not exist.
func (f Files) Read(p string) (code.Source, error) {
	text, ok := f[p]
	if !ok {
		return code.Source{}, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return code.Source{Path: p, Text: text, Language: code.Language(p, text)}, nil
}

// Inputs lists nothing.
func (f Files) Inputs() []string { return nil }

// Inputs is a workspace held in memory whose every file is an input the
// action declares: a source of the checkout.
type Inputs map[string]string

// Program reads the file of a program, as Read.
func (w Inputs) Program(p string) (code.Source, error) { return Files(w).Read(p) }

// Read reads a file of the workspace; one it lacks does not exist.
func (w Inputs) Read(p string) (code.Source, error) { return Files(w).Read(p) }

// Inputs lists every file, sorted.
func (w Inputs) Inputs() []string { return slices.Sorted(maps.Keys(w)) }

// Reaches renders an outcome as "stdout VALUE TEXT" and "file VALUE TEXT",
// what reaches standard output first.
func Reaches(o code.Outcome) []string {
	var out []string
	for _, r := range o.Stdout {
		out = append(out, "stdout "+r.Value.String()+" "+r.Text)
	}
	for _, r := range o.Files {
		out = append(out, "file "+r.Value.String()+" "+r.Text)
	}
	return out
}
