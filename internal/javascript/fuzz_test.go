package javascript_test

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
		`console.log(Date.now())`,
		"const fs = require('fs');\nfs.writeFileSync(process.argv[2], `${new Date()}`)",
		"class A { constructor() { this.x = Math.random() } } console.log(new A().x)",
		"const f = (a, {b, c = 1}, ...r) => a / b / c; f(1, {b: 2})",
		"x = `a${`b${`c${1}`}`}`",
		"function f() { return f() } f()",
		"console.log((((",
		"'unterminated",
		"`unterminated ${",
		"/unterminated regex",
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
		o := r.Run(code.Program{Language: code.JavaScript, Text: prog, File: "x.js", Site: effect.Site{File: "x.js", Line: 1}})
		lines := strings.Count(prog, "\n") + 1
		for _, rs := range [][]effect.Reach{o.Stdout, o.Files} {
			for _, r := range rs {
				if r.Site.File != "x.js" || r.Site.Line < 1 || r.Site.Line > lines {
					t.Fatalf("reach %+v outside the program's %d lines", r, lines)
				}
			}
		}
	})
}
