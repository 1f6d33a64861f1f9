package awk_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/awk"
	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/spec"
)

func read(t *testing.T, prog string, env ...string) code.Outcome {
	t.Helper()
	lib := spec.Builtin()
	r := interp.New(lib, nil, interp.Readers())
	return r.Run(code.Program{Language: code.Awk, Text: prog, Site: effect.Site{Line: 1}, Outputs: []string{"out"}, Env: env})
}

// TestSources is the semantics: which varying values reach what an awk
// program prints or writes. One row per construct, each beside its twin
// that does not vary.
func TestSources(t *testing.T) {
	tests := []struct {
		name, prog string
		want       []string
	}{
		{"srand then rand", `BEGIN { srand(); print rand() }`, []string{"stdout random rand()"}},
		{"srand with a constant then rand", `BEGIN { srand(42); print rand() }`, nil},
		{"srand with a constant expression", `BEGIN { s = 6 * 7; srand(s); print rand() }`, nil},
		{"srand with the time", `BEGIN { srand(systime()); print rand() }`, []string{"stdout random rand()"}},
		{"rand with no srand", `BEGIN { print rand() }`, []string{"stdout random rand()"}},
		{"rand only compared", `BEGIN { if (rand() < 0.5) print "heads" }`, nil},
		{"rand into a variable then printed", `BEGIN { x = int(rand() * 6); print "die", x }`, []string{"stdout random rand()"}},
		{"rand into a variable never printed", `BEGIN { x = rand(); print "fixed" }`, nil},
		{"srand's previous seed printed", `BEGIN { print srand() }`, []string{"stdout clock srand()"}},
		{"srand's value not printed", `BEGIN { srand(); print "x" }`, nil},
		{"systime", `BEGIN { print systime() }`, []string{"stdout clock systime()"}},
		{"systime only compared", `BEGIN { if (systime() > 0) print "ok" }`, nil},
		{"strftime of now", `BEGIN { print strftime("%Y") }`, []string{"stdout clock strftime(\"%Y\")"}},
		{"strftime with no argument", `BEGIN { print strftime() }`, []string{"stdout clock strftime()"}},
		{"strftime of a fixed time", `BEGIN { print strftime("%Y", 0) }`, nil},
		{"strftime of systime", `BEGIN { print strftime("%Y", systime()) }`, []string{"stdout clock systime()"}},
		{"environ as a whole", `BEGIN { for (k in ENVIRON) print k "=" ENVIRON[k] }`, []string{"stdout environment ENVIRON", "stdout environment ENVIRON[k]"}},
		{"one environment variable", `BEGIN { print ENVIRON["LANG"] }`, nil},
		{"environ counted", `BEGIN { n = 0; for (k in ENVIRON) n++; if (n > 0) print "some" }`, nil},
		{"pid", `BEGIN { print PROCINFO["pid"] }`, []string{`stdout pid PROCINFO["pid"]`}},
		{"procinfo's version does not vary", `BEGIN { print PROCINFO["version"] }`, nil},
		{"date through getline", `BEGIN { "date" | getline d; print d }`, []string{"stdout clock date"}},
		{"a fixed date through getline", `BEGIN { "date -u -d @0" | getline d; print d }`, nil},
		{"getline into $0", `BEGIN { "date +%s" | getline; print }`, []string{"stdout clock date"}},
		{"getline's value only compared", `BEGIN { if (("date" | getline d) > 0) print "read" }`, nil},
		{"system's output is the program's", `BEGIN { system("date") }`, []string{"stdout clock date"}},
		{"system with a fixed command", `BEGIN { system("echo hi") }`, nil},
		{"urandom through getline", `BEGIN { getline r < "/dev/urandom"; print r }`, []string{"stdout urandom /dev/urandom"}},
		{"a workspace file through getline", `BEGIN { getline r < "data.txt"; print r }`, nil},

		// Where the output goes.
		{"to stderr", `BEGIN { print systime() > "/dev/stderr" }`, nil},
		{"to a command on stderr", `BEGIN { print systime() | "cat 1>&2" }`, []string{"stdout clock systime()"}},
		{"to an output file", `BEGIN { print systime() > "out" }`, []string{"file clock systime()"}},
		{"appended to an output file", `BEGIN { print systime() >> "out" }`, []string{"file clock systime()"}},
		{"to a file that is not an output", `BEGIN { print systime() > "/tmp/scratch" }`, nil},
		{"to a file named at run time", `{ print systime() > $1 }`, []string{"file clock systime()"}},
		{"to stdout by name", `BEGIN { print systime() > "/dev/stdout" }`, []string{"stdout clock systime()"}},
		{"print's > is not a comparison", `BEGIN { print 1 > "out"; print 2 }`, nil},
		{"a comparison in parentheses is printed", `BEGIN { print (systime() > 0) }`, nil},
		{"printf", `BEGIN { printf "%d\n", systime() }`, []string{"stdout clock systime()"}},
		{"printf with parentheses", `BEGIN { printf("%s %d\n", "t", systime()) }`, []string{"stdout clock systime()"}},

		// Flow through the language.
		{"a field assigned then the record printed", `{ $2 = systime(); print }`, []string{"stdout clock systime()"}},
		{"input printed", `{ print $1, NR, NF }`, nil},
		{"through an array", `BEGIN { a["t"] = systime(); print a["t"] }`, []string{"stdout clock systime()"}},
		{"another element of the array", `BEGIN { a["t"] = systime(); a["u"] = 1; print a["u"] }`, nil},
		{"array subscripts in a for-in loop", `BEGIN { a[systime()] = 1; for (k in a) print k }`, []string{"stdout clock systime()"}},
		{"for-in order is the implementation's, fixed", `BEGIN { a["x"]; a["y"]; for (k in a) print k }`, nil},
		{"through a function", `function now() { return systime() } BEGIN { print now() }`, []string{"stdout clock systime()"}},
		{"a function returning a constant", `function f(x) { return 1 } BEGIN { print f(systime()) }`, nil},
		{"through a function's argument", `function id(x) { return x } BEGIN { print id(systime()) }`, []string{"stdout clock systime()"}},
		{"an array filled by a function", `function fill(arr) { arr[1] = systime() } BEGIN { fill(a); print a[1] }`, []string{"stdout clock systime()"}},
		{"recursion ends", `function f(n) { return n ? f(n-1) : systime() } BEGIN { print f(3) }`, []string{"stdout clock systime()"}},
		{"split carries the value", `BEGIN { split(strftime(), parts, " "); print parts[1] }`, []string{"stdout clock strftime()"}},
		{"sub into the record", `{ sub(/x/, systime()); print }`, []string{"stdout clock systime()"}},
		{"assigned in a branch that may not run", `BEGIN { x = 1; if ($1) x = systime(); print x }`, []string{"stdout clock systime()"}},
		{"overwritten before printing", `BEGIN { x = systime(); x = 1; print x }`, nil},
		{"assigned in a loop", `BEGIN { for (i = 0; i < 3; i++) s = s systime(); print s }`, []string{"stdout clock systime()"}},
		{"carried from one record to the next", `{ print prev; prev = systime() }`, []string{"stdout clock systime()"}},
		{"a pattern only tests", `systime() > 0 { print "x" }`, nil},
		{"a pattern alone prints the record", `/x/`, nil},
		{"in END", `END { print NR, systime() }`, []string{"stdout clock systime()"}},
		{"division is not a regular expression", `BEGIN { n = 10; print n / 2 / 1; print systime() }`, []string{"stdout clock systime()"}},
		{"sprintf", `BEGIN { s = sprintf("%d", systime()); print s }`, []string{"stdout clock systime()"}},
		{"gawk's switch", `{ switch ($1) { case "t": print systime(); break; default: print 1 } }`, []string{"stdout clock systime()"}},
		{"gawk's switch of constants", "{ switch ($1) {\ncase /x/:\n  print 1\n  break\ndefault:\n  print 2\n} }", nil},
		{"gawk's arrays of arrays", `BEGIN { a["x"]["y"] = systime(); for (k in a["x"]) print a["x"][k] }`, []string{"stdout clock systime()"}},
		{"gawk's coprocess", `BEGIN { print "x" |& "cat"; "date" |& getline d; print d }`, []string{"stdout clock date"}},
		{"gawk's indirect call", `function f(x) { return x } BEGIN { g = "f"; print @g(1) }`, nil},
		{"gawk's typed regular expression", `BEGIN { re = @/x+/; if ("xx" ~ re) print "m" }`, nil},
		{"getline from a file in a loop", `BEGIN { while ((getline line < "in.txt") > 0) print line }`, nil},
		{"ENVIRON's PWD is the shell's directory", `BEGIN { print ENVIRON["PWD"] }`, []string{"stdout pwd ENVIRON[\"PWD\"]"}},
		{"a constant condition picks its branch", `BEGIN { if (1) print "x"; else print systime() }`, nil},
		{"a constant condition's other branch", `BEGIN { if (0) print "x"; else print systime() }`, []string{"stdout clock systime()"}},
		{"a variable nothing assigned is empty", `BEGIN { cmd = (sorted ? "ls " : "ls -f ") "d"; print systime() > "/dev/null"; if (sorted) print systime() }`, nil},
		{"a condition on the input goes both ways", `{ if ($1 == "x") print "x"; else print systime() }`, []string{"stdout clock systime()"}},
		{"recursion decides nothing", `function f(n) { return n ? f(n-1) : systime() } BEGIN { print f(3) }`, []string{"stdout clock systime()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := read(t, tt.prog)
			if len(o.Unread) > 0 {
				t.Errorf("unread: %q", o.Unread)
			}
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("%s\n got %q\nwant %q", tt.prog, got, tt.want)
			}
		})
	}
}

// TestSites: each value is placed at the line of the program it is
// produced on, in the program's file or, inline, where it is written.
func TestSites(t *testing.T) {
	lib := spec.Builtin()
	r := interp.New(lib, nil, interp.Readers())
	prog := "BEGIN {\n  x = 1\n  print systime()\n}\n"
	o := r.Run(code.Program{Language: code.Awk, Text: prog, File: "tools/stamp.awk", Site: effect.Site{File: "tools/stamp.awk", Line: 1}})
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "tools/stamp.awk", Line: 3}) || o.Stdout[0].Because == "" {
		t.Errorf("in a file: %+v, want systime() at tools/stamp.awk:3 with a reason", o.Stdout)
	}
	o = r.Run(code.Program{Language: code.Awk, Text: prog, Site: effect.Site{File: "gen/run.sh", Line: 10}})
	if len(o.Stdout) != 1 || o.Stdout[0].Site != (effect.Site{File: "gen/run.sh", Line: 12}) {
		t.Errorf("inline: %+v, want systime() at gen/run.sh:12", o.Stdout)
	}
}

func TestEnvironmentFacts(t *testing.T) {
	o := read(t, `BEGIN { print ENVIRON["SOURCE_DATE_EPOCH"] }`, "SOURCE_DATE_EPOCH=0")
	if got := codetest.Reaches(o); len(got) != 0 {
		t.Errorf("a variable the program is given: %q, want nothing", got)
	}
}

// TestUnread: what cannot be followed is said, not guessed.
func TestUnread(t *testing.T) {
	tests := []struct {
		name, prog, want string
	}{
		{"syntax error", "BEGIN { print ( }", "awk: line 1:"},
		{"unterminated string", "BEGIN { print \"abc }", "unterminated string"},
		{"a command computed at run time", `{ $1 | getline x; print x }`, "computed while it runs"},
		{"system of a computed command", `{ system($0) }`, "computed while it runs"},
		{"deep nesting", "BEGIN { x = " + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500) + " }", "nested deeper than"},
		{"gawk's @include", "@include \"lib.awk\"\nBEGIN { print 1 }", "gawk's @include \"lib.awk\" is not followed"},
		{"too big", "BEGIN { x = 1 }\n" + strings.Repeat("#", 2<<20), "more than the"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := read(t, tt.prog)
			if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, tt.want) }) {
				t.Errorf("unread %q, want one containing %q", o.Unread, tt.want)
			}
		})
	}
}

func TestWorkIsBounded(t *testing.T) {
	// Nested loops run twice each: 2^40 iterations if nothing bounded them.
	prog := "BEGIN { " + strings.Repeat("for (i = 0; i < 9; i++) ", 40) + "x = x systime(); print x }"
	o := read(t, prog)
	if !slices.ContainsFunc(o.Unread, func(u string) bool { return strings.Contains(u, "stopped after") }) {
		t.Errorf("unread %q, want the work bound", o.Unread)
	}
}

func TestUsesNothing(t *testing.T) {
	if got := (awk.Reader{}).Uses(`BEGIN { print systime() }`, spec.Builtin()); len(got) != 0 {
		t.Errorf("Uses = %q, want nothing", got)
	}
}

// TestVariables: what awk -v sets is known before BEGIN, so a condition
// on it picks a branch, and a command made of it is read.
func TestVariables(t *testing.T) {
	prog := "BEGIN {\n\t\"id -un\" | getline user\n\tif (quiet) {\n\t\tprint \"by \" user > \"/dev/stderr\"\n\t\tprint \"by the build\"\n\t} else {\n\t\tprint \"by \" user\n\t}\n}\n"
	for _, tt := range []struct {
		name string
		vars []code.Arg
		want []string
	}{
		{"quiet", []code.Arg{{Text: "quiet=1", Known: true}}, nil},
		{"not quiet", nil, []string{"stdout user id"}},
		{"quiet not known", []code.Arg{{Text: "quiet=$(x)"}}, []string{"stdout user id"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := interp.New(spec.Builtin(), nil, interp.Readers())
			o := r.Run(code.Program{Language: code.Awk, Text: prog, Site: effect.Site{Line: 1}, Outputs: []string{"out"}, Vars: tt.vars})
			if got := codetest.Reaches(o); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	o := read(t, `BEGIN { print ENVIRON["PWD"] }`, "PWD=/proc/self/cwd")
	if got := codetest.Reaches(o); len(got) != 0 {
		t.Errorf("with PWD given: %q, want nothing", got)
	}
}
