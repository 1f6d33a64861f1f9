package javascript_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/javascript"
	"github.com/ahab-go/ahab/internal/spec"
)

func run(t *testing.T, p code.Program, ws code.Files) code.Outcome {
	t.Helper()
	r := interp.New(spec.Builtin(), ws, interp.Readers())
	p.Language = code.JavaScript
	if p.Outputs == nil {
		p.Outputs = []string{"out"}
	}
	return r.Run(p)
}

// TestSources is the semantics: which varying values reach what a
// program prints or writes. One row per construct, each beside its twin
// that does not vary.
func TestSources(t *testing.T) {
	tests := []struct {
		name, prog string
		want       []string
	}{
		{"fixed arithmetic", `console.log(6 * 7)`, nil},
		{"Date.now printed", `console.log(Date.now())`, []string{"stdout clock Date.now()"}},
		{"Date.now to stderr", `console.error(Date.now())`, nil},
		{"Date.now only compared", `if (Date.now() > 0) console.log("ok")`, nil},
		{"new Date", `console.log(new Date().toISOString())`, []string{"stdout clock new Date()"}},
		{"new Date of a fixed time", `console.log(new Date(0).toISOString())`, nil},
		{"new Date of a variable's fixed time", `const t = 1700000000000; console.log(new Date(t).getFullYear())`, nil},
		{"Date called", `console.log(Date())`, []string{"stdout clock Date()"}},
		{"performance.now", `console.log(performance.now())`, []string{"stdout clock performance.now()"}},
		{"Math.random", `console.log(Math.random())`, []string{"stdout random Math.random()"}},
		{"Math.random only compared", `console.log(Math.random() < 2 ? "a" : "b")`, nil},
		{"randomUUID", "const crypto = require('crypto');\nconsole.log(crypto.randomUUID())", []string{"stdout random crypto.randomUUID()"}},
		{"randomBytes destructured", "const { randomBytes } = require('node:crypto');\nconsole.log(randomBytes(8).toString('hex'))", []string{"stdout random randomBytes(8)"}},
		{"a hash is fixed", "const crypto = require('crypto');\nconsole.log(crypto.createHash('sha256').update('x').digest('hex'))", nil},
		{"pid", `console.log(process.pid)`, []string{"stdout pid process.pid"}},
		{"ppid", "process.stdout.write(`${process.ppid}\\n`)", []string{"stdout pid process.ppid"}},
		{"cwd", `console.log(process.cwd())`, []string{"stdout pwd process.cwd()"}},
		{"dirname", `console.log(__dirname)`, []string{"stdout pwd __dirname"}},
		{"dirname in a path only", "const path = require('path');\nconst fs = require('fs');\nfs.writeFileSync(path.join(__dirname, 'x.txt'), 'hi')", nil},
		{"hostname", "const os = require('os');\nconsole.log(os.hostname())", []string{"stdout hostname os.hostname()"}},
		{"user name", "import os from 'node:os';\nconsole.log(os.userInfo().username)", []string{"stdout user os.userInfo()"}},
		{"cpus counted", "const os = require('os');\nconsole.log(os.cpus().length)", []string{"stdout cpus os.cpus()"}},
		{"platform is fixed", "const os = require('os');\nconsole.log(os.platform(), process.platform)", nil},
		{"uptime", "const { uptime } = require('os');\nconsole.log(uptime())", []string{"stdout clock uptime()"}},
		{"the whole environment", `console.log(JSON.stringify(process.env))`, []string{"stdout environment process.env"}},
		{"the environment's names", `for (const k in process.env) console.log(k)`, []string{"stdout environment process.env"}},
		{"one environment variable", `console.log(process.env.LANG)`, nil},
		{"one environment variable by subscript", `console.log(process.env["LANG"])`, nil},
		{"readdirSync", "const fs = require('fs');\nconsole.log(fs.readdirSync('.').join('\\n'))", []string{"stdout order fs.readdirSync('.')"}},
		{"readdirSync sorted", "const fs = require('fs');\nconsole.log(fs.readdirSync('.').sort().join('\\n'))", nil},
		{"readdirSync in a loop", "const fs = require('fs');\nfor (const f of fs.readdirSync('d')) console.log(f)", []string{"stdout order fs.readdirSync('d')"}},
		{"readdirSync through forEach", "const fs = require('fs');\nfs.readdirSync('d').forEach(f => console.log(f))", []string{"stdout order fs.readdirSync('d')"}},
		{"readdir with a callback", "const fs = require('fs');\nfs.readdir('d', (err, files) => { console.log(files.join()) })", []string{"stdout order fs.readdir('d', (err, files) => { console.log(files.join()) })"}},
		{"statSync's time", "const fs = require('fs');\nconsole.log(fs.statSync('a').mtimeMs)", []string{"stdout filemeta fs.statSync('a')"}},

		// Where the output goes.
		{"writeFileSync to an output", "const fs = require('fs');\nfs.writeFileSync('out', String(Date.now()))", []string{"file clock Date.now()"}},
		{"writeFileSync to a scratch file", "const fs = require('fs');\nfs.writeFileSync('/tmp/x', String(Date.now()))", nil},
		// node -e CODE x $(date): process.argv is [node, x, $(date)].
		{"writeFileSync to a file named at run time", "const fs = require('fs');\nfs.writeFileSync(process.argv[2], `${Date.now()}`)", []string{"file clock Date.now()"}},
		{"writeFileSync to a file named by an argument", "const fs = require('fs');\nfs.writeFileSync(process.argv[1], `${Date.now()}`)", nil},
		{"the arguments after the code", "const [name, when] = process.argv.slice(1);\nconsole.log(name)", nil},
		{"a callback's return value is the method's", "const path = require('path');\nconsole.log(['a.js'].map(f => path.resolve(f)).join())", []string{"stdout pwd path.resolve(f)"}},
		{"a callback's value returned nowhere", "const path = require('path');\n['a.js'].forEach(f => { path.resolve(f) });\nconsole.log('x')", nil},
		{"appendFileSync", "import { appendFileSync } from 'fs';\nappendFileSync('out', Math.random() + '\\n')", []string{"file random Math.random()"}},
		{"a stream to an output", "const fs = require('fs');\nconst s = fs.createWriteStream('out');\ns.write(`${Date.now()}`);\ns.end()", []string{"file clock Date.now()"}},
		{"a stream to a scratch file", "const fs = require('fs');\nconst s = fs.createWriteStream('/tmp/log');\ns.write(`${Date.now()}`)", nil},
		{"stderr stream", `process.stderr.write(String(Date.now()))`, nil},
		{"console.warn", `console.warn(Math.random())`, nil},

		// Commands.
		{"execSync's output printed", "const { execSync } = require('child_process');\nconsole.log(execSync('date').toString())", []string{"stdout clock date"}},
		{"execSync's output not printed", "const { execSync } = require('child_process');\nexecSync('date');\nconsole.log('done')", nil},
		{"execSync inheriting its output", "const cp = require('child_process');\ncp.execSync('date', { stdio: 'inherit' })", []string{"stdout clock date"}},
		{"a fixed command", "const cp = require('child_process');\nconsole.log(cp.execSync('echo hi').toString())", nil},
		{"spawnSync with arguments", "const cp = require('child_process');\nconst r = cp.spawnSync('date', ['+%s']);\nconsole.log(r.stdout.toString())", []string{"stdout clock date"}},
		{"exec with a callback", "const { exec } = require('child_process');\nexec('date', (err, out) => { console.log(out) })", []string{"stdout clock date"}},

		// Flow through the language.
		{"through a variable", `const t = Date.now(); const s = "built " + t; console.log(s)`, []string{"stdout clock Date.now()"}},
		{"overwritten before printing", `let t = Date.now(); t = 0; console.log(t)`, nil},
		{"assigned in a branch", `let t = 0; if (process.argv.length > 3) t = Date.now(); console.log(t)`, []string{"stdout clock Date.now()"}},
		{"assigned in a loop", `let s = ""; for (let i = 0; i < 3; i++) { s += Math.random() } console.log(s)`, []string{"stdout random Math.random()"}},
		{"through an object", `const o = { t: Date.now(), n: 1 }; console.log(o.t)`, []string{"stdout clock Date.now()"}},
		{"another property of the object", `const o = { t: Date.now(), n: 1 }; console.log(o.n)`, nil},
		{"an object printed whole", `const o = { t: Date.now() }; console.log(JSON.stringify(o))`, []string{"stdout clock Date.now()"}},
		{"through an array", `const a = [1, Date.now()]; console.log(a[1])`, []string{"stdout clock Date.now()"}},
		{"another element of the array", `const a = [1, Date.now()]; console.log(a[0])`, nil},
		{"pushed into an array", `const a = []; a.push(Math.random()); console.log(a.join(","))`, []string{"stdout random Math.random()"}},
		{"destructured", `const { t } = { t: Date.now() }; console.log(t)`, []string{"stdout clock Date.now()"}},
		{"through a function", `function now() { return Date.now() } console.log(now())`, []string{"stdout clock Date.now()"}},
		{"a function called before it is defined", `console.log(now()); function now() { return Date.now() }`, []string{"stdout clock Date.now()"}},
		{"a function returning a constant", `function one() { return 1 } console.log(one(Date.now()))`, nil},
		{"an arrow function", `const now = () => Date.now(); console.log(now())`, []string{"stdout clock Date.now()"}},
		{"a closure", `function make() { const t = Date.now(); return () => t } console.log(make()())`, []string{"stdout clock Date.now()"}},
		{"recursion ends", `function f(n) { return n ? f(n - 1) : Date.now() } console.log(f(3))`, []string{"stdout clock Date.now()"}},
		{"a class", "class Stamp {\n  constructor() { this.at = Date.now() }\n  show() { return `at ${this.at}` }\n}\nconsole.log(new Stamp().show())", []string{"stdout clock Date.now()"}},
		{"a class with a fixed field", "class Stamp {\n  constructor() { this.at = 0 }\n  show() { return `at ${this.at}` }\n}\nconsole.log(new Stamp().show())", nil},
		{"a template literal", "console.log(`built at ${new Date().toISOString()} by ${process.pid}`)", []string{"stdout clock new Date()", "stdout pid process.pid"}},
		{"a nested template literal", "console.log(`a ${`b ${Date.now()}`}`)", []string{"stdout clock Date.now()"}},
		{"division is not a regular expression", `const n = 10; console.log(n / 2 / 1, Date.now())`, []string{"stdout clock Date.now()"}},
		{"a regular expression", `console.log("a/b".replace(/\//g, "-"))`, nil},
		{"a comment", "// console.log(Date.now())\n/* Date.now() */ console.log(1)", nil},
		{"a promise", `Promise.resolve(Date.now()).then(t => console.log(t))`, []string{"stdout clock Date.now()"}},
		{"async and await", `async function f() { return Date.now() } (async () => { console.log(await f()) })()`, []string{"stdout clock Date.now()"}},
		{"try and catch", `try { console.log(Date.now()) } catch (e) { console.error(e) }`, []string{"stdout clock Date.now()"}},
		{"switch", `switch (process.argv[2]) { case "x": console.log(Date.now()); break; default: console.log(1) }`, []string{"stdout clock Date.now()"}},
		{"a shebang", "#!/usr/bin/env node\nconsole.log(Date.now())", []string{"stdout clock Date.now()"}},
		{"optional chaining", `const o = { a: { t: Date.now() } }; console.log(o?.a?.t ?? 0)`, []string{"stdout clock Date.now()"}},
		{"spread", `const a = [Date.now()]; console.log(...a)`, []string{"stdout clock Date.now()"}},
		{"rest parameters", `function f(...xs) { return xs[0] } console.log(f(Date.now()))`, []string{"stdout clock Date.now()"}},
		{"a class field named set", "class A {\n  set;\n  get = 1;\n  m() { return Date.now() }\n}\nconsole.log(new A().m())", []string{"stdout clock Date.now()"}},
		{"an export list over lines", "const a = 1;\nexport {\n  a as b,\n};\nconsole.log(Date.now())", []string{"stdout clock Date.now()"}},
		{"for-in over a sequence", `for (var k in (0, {a: 1})) console.log(k)`, nil},
		{"minified", `!function(f){"function"==typeof define&&define.amd?define(["x"],f):f(Date)}(function(D){console.log(D.now())})`, []string{"stdout clock D.now()"}},
		{"no semicolons", "const t = Date.now()\nconst u = t\nconsole.log(u)", []string{"stdout clock Date.now()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, code.Program{Text: tt.prog, Site: effect.Site{File: "gen/BUILD", Line: 1}, Args: []code.Arg{{Text: "x", Known: true}, {Text: "$(date)"}}}, nil)
			if len(o.Unread) > 0 {
				t.Errorf("unread: %q", o.Unread)
			}
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("%s\n got %q\nwant %q", tt.prog, got, tt.want)
			}
		})
	}
}

func TestUsesNothing(t *testing.T) {
	if got := (javascript.Reader{}).Uses(`console.log(Date.now())`, spec.Builtin()); len(got) != 0 {
		t.Errorf("Uses = %q, want nothing", got)
	}
}

// TestSites: each value is placed where it is produced: the program's
// file and line, the line of inline code, a required module's own file.
func TestSites(t *testing.T) {
	prog := "'use strict';\nconst x = 1;\nconsole.log(Date.now());\n"
	o := run(t, code.Program{Text: prog, File: "tools/stamp.js", Site: effect.Site{File: "tools/stamp.js", Line: 1}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "tools/stamp.js", Line: 3}) || o.Stdout[0].Because == "" {
		t.Errorf("in a file: %+v, want Date.now() at tools/stamp.js:3 with a reason", o.Stdout)
	}
	o = run(t, code.Program{Text: prog, Site: effect.Site{File: "gen/BUILD", Line: 10}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "gen/BUILD", Line: 12}) {
		t.Errorf("inline: %+v, want Date.now() at gen/BUILD:12", o.Stdout)
	}
	o = run(t, code.Program{Text: "console.log(Date.now())", Site: effect.Site{Line: 1}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{Line: 1}) {
		t.Errorf("on the command line: %+v, want Date.now() at line 1", o.Stdout)
	}
	prog = "console.log(`a\n${\n  Date.now()}`)"
	o = run(t, code.Program{Text: prog, File: "t.js", Site: effect.Site{File: "t.js", Line: 1}}, nil)
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "t.js", Line: 3}) || o.Stdout[0].Text != "Date.now()" {
		t.Errorf("in a template: %+v, want Date.now() at t.js:3", o.Stdout)
	}
}

// TestModules: a module of Node is named by the library; one of the
// workspace is read, or said to be unread.
func TestModules(t *testing.T) {
	ws := codetest.Files{
		"tools/stamp.js": "const os = require('os');\nmodule.exports = { now: () => Date.now(), host: os.hostname };\n",
		"tools/fixed.js": "exports.now = function () { return 0 };\n",
		"tools/esm.mjs":  "export const x = 1;\n",
	}
	tests := []struct {
		name, prog string
		want       []string
		unread     string
	}{
		{"a module's function", "const s = require('./stamp');\nconsole.log(s.now())", []string{"stdout clock Date.now()"}, ""},
		{"a module's function of a library module", "const s = require('./stamp.js');\nconsole.log(s.host())", []string{"stdout hostname s.host()"}, ""},
		{"a module's fixed function", "const { now } = require('./fixed');\nconsole.log(now())", nil, ""},
		{"an ES module", "import { x } from './esm.mjs';\nconsole.log(x)", nil, ""},
		{"a module that is not there", "const m = require('./missing');\nconsole.log(m.x)", nil, "require of ./missing: it could not be read"},
		{"a module named at run time", "const m = require(process.argv[3]);", nil, "requires a module named while it runs"},
		// node tools/gen.js a $x: process.argv is [node, tools/gen.js, a, $x].
		{"a module named by the first argument", "const m = require('./' + process.argv[2]);\nconsole.log(1)", nil, "require of ./a: it could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, code.Program{Text: tt.prog, File: "tools/gen.js", Site: effect.Site{File: "tools/gen.js", Line: 1}, Args: []code.Arg{{Text: "a", Known: true}, {Text: "$x"}}}, ws)
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			switch {
			case tt.unread == "" && len(o.Unread) > 0:
				t.Errorf("unread %q, want none", o.Unread)
			case tt.unread != "" && !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, tt.unread) }):
				t.Errorf("unread %q, want one containing %q", o.Unread, tt.unread)
			}
		})
	}
	o := run(t, code.Program{Text: "require('./stamp')", Site: effect.Site{File: "gen/BUILD", Line: 1}}, nil)
	if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, "the workspace is not known") }) {
		t.Errorf("with no workspace: unread %q, want it said", o.Unread)
	}
}

// TestUnread: what cannot be followed is said, not guessed.
func TestUnread(t *testing.T) {
	tests := []struct {
		name, prog, want string
	}{
		{"syntax error", "console.log((;", "javascript: line 1:"},
		{"unterminated string", "console.log('abc)\n", "unterminated string"},
		{"unterminated template", "console.log(`abc ${1}", "unterminated template"},
		{"a command computed at run time", "require('child_process').execSync(process.argv[3])", "computed while it runs"},
		{"deep nesting", "x = " + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500), "nested deeper than"},
		{"deep templates", strings.Repeat("`${", 300) + "1" + strings.Repeat("}`", 300), "nested deeper than"},
		{"too big", "console.log(1)\n" + strings.Repeat("/", 2<<20), "more than the"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, code.Program{Text: tt.prog, Site: effect.Site{File: "gen/BUILD", Line: 1}, Args: []code.Arg{{Text: "a", Known: true}, {Text: "$x"}}}, nil)
			if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, tt.want) }) {
				t.Errorf("unread %q, want one containing %q", o.Unread, tt.want)
			}
		})
	}
}

func TestWorkIsBounded(t *testing.T) {
	prog := strings.Repeat("for (let i = 0; i < 9; i++) { ", 40) + "console.log(Date.now())" + strings.Repeat(" }", 40)
	o := run(t, code.Program{Text: prog}, nil)
	if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, "stopped after") }) {
		t.Errorf("unread %q, want the work bound", o.Unread)
	}
}
