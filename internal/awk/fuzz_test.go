package awk_test

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/spec"
)

// FuzzRead: any program is read to an outcome without a panic, and each
// value it reports is placed on a line of the program.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		`BEGIN { srand(); print rand() }`,
		`{ a[$1] = systime() } END { for (k in a) print k, a[k] > "out" }`,
		`function f(x) { return f(x) } BEGIN { print f(1) }`,
		`BEGIN { "date" | getline d; print d | "sort" }`,
		`BEGIN { print ( ( ( ( (`,
		`BEGIN { print "unterminated`,
		`/unterminated regex`,
		`BEGIN { x = 1 / 2 / 3; y = /re/ }`,
		strings.Repeat("{", 1000),
	} {
		f.Add(seed)
	}
	lib := spec.Builtin()
	f.Fuzz(func(t *testing.T, prog string) {
		if len(prog) > 1<<16 {
			return // the size bound is tested in TestUnread
		}
		r := interp.New(lib, nil, interp.Readers())
		o := r.Run(code.Program{Language: code.Awk, Text: prog, File: "x.awk", Site: effect.Site{File: "x.awk", Line: 1}})
		lines := strings.Count(prog, "\n") + 1
		for _, rs := range [][]effect.Reach{o.Stdout, o.Files} {
			for _, r := range rs {
				if r.Site.File != "x.awk" || r.Site.Line < 1 || r.Site.Line > lines {
					t.Fatalf("reach %+v outside the program's %d lines", r, lines)
				}
			}
		}
	})
}
