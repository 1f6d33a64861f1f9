package make

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// recorder is a Runner that keeps what it is given: the recipe lines and
// $(shell) commands, as the shell's reader would get them.
type recorder struct{ programs []code.Program }

func (r *recorder) Run(p code.Program) code.Outcome {
	r.programs = append(r.programs, p)
	return code.Outcome{}
}
func (*recorder) Uses(string, string) []string     { return nil }
func (*recorder) UsesFile(string, string) []string { return nil }

// newTestReader is a reader of make run with argv (a word written after
// a ? is one the script cannot know) over a workspace of inputs.
func newTestReader(ws codetest.Inputs, env []string, argv ...string) (*reader, *recorder) {
	rec := &recorder{}
	var as []code.Arg
	for _, a := range argv {
		text, unknown := strings.CutPrefix(a, "?")
		as = append(as, code.Arg{Text: text, Known: !unknown})
	}
	p := code.Program{Language: code.Make, Args: as, Env: env, Site: effect.Site{Line: 1}}
	return &reader{p: p, env: code.Env{Library: spec.Builtin(), Files: ws, Runner: rec}, unknowns: map[string]int{}, shells: map[string]value{}}, rec
}

// readWorlds reads a makefile as make with argv would, without running
// it.
func readWorlds(t *testing.T, makefile string, argv ...string) []*world {
	t.Helper()
	ws := codetest.Inputs{"Makefile": makefile, "inc.mk": "INC = included\n", "x.c": "", "sub/y.c": "", "z.h": ""}
	r, _ := newTestReader(ws, []string{"HOME=/home/u", "CFLAGS=-O1"}, argv...)
	cl, ok := r.commandLine()
	if !ok {
		t.Fatal("no behaviour of make")
	}
	r.cl = cl
	files, found := r.makefiles()
	if !found || len(files) == 0 {
		t.Fatalf("no makefile: %q", r.out.Unread)
	}
	worlds := r.read(files)
	if len(r.out.Unread) > 0 {
		t.Errorf("unread %q", r.out.Unread)
	}
	return worlds
}

// TestRead is the reading of each construct of a makefile: what its
// variables hold once it is read, written as keys (a word not known as
// its placeholder for the shell).
func TestRead(t *testing.T) {
	tests := []struct {
		name, makefile string
		argv           []string
		want           map[string]string
	}{
		{"= is expanded when used", "A = $(B)\nB = x\n", nil, map[string]string{"A": "x"}},
		{":= is expanded at once", "B = 1\nA := $(B)\nB = 2\n", nil, map[string]string{"A": "1"}},
		{"::= is :=", "B = 1\nA ::= $(B)\nB = 2\n", nil, map[string]string{"A": "1"}},
		{"?= sets what is not set", "A = 1\nA ?= 2\nB ?= 3\n", nil, map[string]string{"A": "1", "B": "3"}},
		{"+= of a recursive variable keeps it recursive", "A = a\nA += $(B)\nB = b\n", nil, map[string]string{"A": "a b"}},
		{"+= of a simple variable expands at once", "A := a\nA += $(B)\nB = b\n", nil, map[string]string{"A": "a"}},
		{"!= is a shell command's output", "A != echo hi\n", nil, map[string]string{"A": "$(echo hi)"}},
		{"the command line beats the makefile", "X = 2\n", []string{"X=1"}, map[string]string{"X": "1"}},
		{"override beats the command line", "override X = 2\n", []string{"X=1"}, map[string]string{"X": "2"}},
		{"the makefile beats the environment", "CFLAGS = -O2\n", nil, map[string]string{"CFLAGS": "-O2"}},
		{"-e: the environment beats the makefile", "CFLAGS = -O2\n", []string{"-e"}, map[string]string{"CFLAGS": "-O1"}},
		{"the command line's :=", "B = 1\n", []string{"A:=$(B)"}, map[string]string{"A": ""}},
		{"a default variable", "", nil, map[string]string{"CC": "cc", "COMPILE.c": "cc -O1   -c"}},
		{"no default variables with -R", "", []string{"-R"}, map[string]string{"CC": ""}},
		{"a line continued", "A = a \\\n    b\n", nil, map[string]string{"A": "a b"}},
		{"a comment ends a value, its space kept", "A = a # c\n", nil, map[string]string{"A": "a "}},
		{"an escaped #", "A = a\\#b\n", nil, map[string]string{"A": "a#b"}},
		{"define", "define A\nline 1\nline 2\nendef\n", nil, map[string]string{"A": "line 1\nline 2"}},
		{"define :=", "B = 1\ndefine A :=\n$(B)\nendef\nB = 2\n", nil, map[string]string{"A": "1"}},
		{"undefine", "A = 1\nundefine A\n", nil, map[string]string{"A": ""}},
		{"a computed name", "N = A\n$(N)_X = 1\n", nil, map[string]string{"A_X": "1"}},
		{"include", "include inc.mk\n", nil, map[string]string{"INC": "included"}},
		{"include of a computed name", "F = inc\ninclude $(F).mk\n", nil, map[string]string{"INC": "included"}},

		{"ifeq that holds", "ifeq (a,a)\nX = 1\nelse\nX = 2\nendif\n", nil, map[string]string{"X": "1"}},
		{"ifeq with quotes", "ifeq \"a\" 'b'\nX = 1\nelse\nX = 2\nendif\n", nil, map[string]string{"X": "2"}},
		{"ifneq", "ifneq ($(V),)\nX = 1\nendif\n", []string{"V=1"}, map[string]string{"X": "1"}},
		{"ifdef of a variable set empty", "E =\nifdef E\nX = 1\nendif\n", nil, map[string]string{"X": ""}},
		{"ifdef of one set to an empty expansion", "E = $(NOTHING)\nifdef E\nX = 1\nendif\n", nil, map[string]string{"X": "1"}},
		{"ifndef", "ifndef U\nX = 1\nendif\n", nil, map[string]string{"X": "1"}},
		{"else ifdef", "ifdef A\nX = a\nelse ifdef B\nX = b\nelse\nX = c\nendif\n", []string{"B=1"}, map[string]string{"X": "b"}},
		{"nested conditionals", "ifdef A\nifdef B\nX = ab\nelse\nX = a\nendif\nendif\n", []string{"A=1"}, map[string]string{"X": "a"}},
		{"a branch not read, with a define holding endif", "ifdef U\ndefine D\nendif\nendef\nX = 1\nendif\nY = 2\n", nil, map[string]string{"X": "", "Y": "2"}},

		{"subst", "A := $(subst a,o,banana)\n", nil, map[string]string{"A": "bonono"}},
		{"patsubst", "A := $(patsubst %.c,%.o,a.c b.h c.c)\n", nil, map[string]string{"A": "a.o b.h c.o"}},
		{"a substitution reference", "S = a.c b.c\nA := $(S:.c=.o) $(S:%.c=x/%.o)\n", nil, map[string]string{"A": "a.o b.o x/a.o x/b.o"}},
		{"strip", "A := $(strip  a   b  )\n", nil, map[string]string{"A": "a b"}},
		{"findstring", "A := $(findstring an,banana)-$(findstring x,banana)\n", nil, map[string]string{"A": "an-"}},
		{"filter and filter-out", "L = a.c b.h c.s\nA := $(filter %.c %.s,$(L))|$(filter-out %.c,$(L))\n", nil, map[string]string{"A": "a.c c.s|b.h c.s"}},
		{"sort", "A := $(sort c a b a)\n", nil, map[string]string{"A": "a b c"}},
		{"word, wordlist, words, firstword, lastword", "L = a b c d\nA := $(word 2,$(L)) $(wordlist 2,3,$(L)) $(words $(L)) $(firstword $(L)) $(lastword $(L))\n", nil, map[string]string{"A": "b b c 4 a d"}},
		{"dir and notdir", "A := $(dir src/a.c b.c) $(notdir src/a.c b.c)\n", nil, map[string]string{"A": "src/ ./ a.c b.c"}},
		{"suffix and basename", "A := $(suffix src/a.c b) $(basename src/a.c b.d/c)\n", nil, map[string]string{"A": ".c src/a b.d/c"}},
		{"addsuffix, addprefix, join", "A := $(addsuffix .o,a b) $(addprefix x/,a b) $(join a b,1 2)\n", nil, map[string]string{"A": "a.o b.o x/a x/b a1 b2"}},
		{"wildcard of the directory's files", "A := $(wildcard *.c) $(wildcard sub/*) $(wildcard z.h missing.h)\n", nil, map[string]string{"A": "x.c sub/y.c z.h"}},
		{"abspath is under the build's directory", "A := $(abspath x.c)\n", nil, map[string]string{"A": "$PWD/x.c"}},
		{"if, or, and", "A := $(if x,yes,no) $(if ,yes,no) $(or ,b,c) $(and a,b) $(and a,,c)\n", nil, map[string]string{"A": "yes no b b "}},
		{"foreach", "A := $(foreach x,1 2 3,<$(x)>)\n", nil, map[string]string{"A": "<1> <2> <3>"}},
		{"call", "F = $(1)-$(2)\nA := $(call F,a,b)\n", nil, map[string]string{"A": "a-b"}},
		{"value", "F = $(X)\nA := $(value F)\n", nil, map[string]string{"A": "$(X)"}},
		{"origin and flavor", "R = 1\nS := 1\nA := $(origin R) $(origin CC) $(origin HOME) $(origin U) $(flavor R) $(flavor S)\n", nil, map[string]string{"A": "file default environment undefined recursive simple"}},
		{"eval", "$(eval X = 1)\n$(foreach v,A B,$(eval $(v)_F = $(v)))\n", nil, map[string]string{"X": "1", "A_F": "A", "B_F": "B"}},
		{"shell", "A := $(shell uname -s)\n", nil, map[string]string{"A": "$(uname -s)"}},
		{"a computed reference", "X = A\nA_Y = 1\nB := $($(X)_Y) ${$(X)_Y}\n", nil, map[string]string{"B": "1 1"}},
		{"a one-letter reference", "x = 1\nA := $x$$x\n", nil, map[string]string{"A": "1$x"}},

		{"a word the script computes", "A := $(DIR)/x.c\n", []string{"?DIR=$build"}, map[string]string{"A": "${__ahab_unknown_0}/x.c"}},
		{"functions of a word the script computes", "F = $(DIR)/x.c\nA := $(notdir $(F)) $(patsubst %.c,%.o,$(F)) $(dir $(F))\n", []string{"?DIR=$build"},
			map[string]string{"A": "x.c ${__ahab_unknown_0}/x.o ${__ahab_unknown_0}/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := readWorlds(t, tc.makefile, tc.argv...)[0]
			for name, want := range tc.want {
				if got := w.ctx(effect.Site{}).variable(name).key(); got != want {
					t.Errorf("$(%s) = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestForks: a condition the reader cannot decide is read both ways, one
// world each; conditions decided in a world stay decided.
func TestForks(t *testing.T) {
	worlds := readWorlds(t, "OS := $(shell uname -s)\nifeq ($(OS),Darwin)\nX = mac\nelse ifeq ($(OS),Linux)\nX = linux\nelse\nX = other\nendif\nifdef X\nY = set\nendif\n")
	var got []string
	for _, w := range worlds {
		c := w.ctx(effect.Site{})
		got = append(got, c.variable("X").key()+" "+c.variable("Y").key())
	}
	if want := []string{"mac set", "linux set", "other set"}; !slices.Equal(got, want) {
		t.Errorf("worlds %q, want %q", got, want)
	}
}

// TestRules is the reading of each kind of rule and the walk of the goals
// through them: the recipe lines the shell is given, in make's order,
// with where each is written.
func TestRules(t *testing.T) {
	tests := []struct {
		name, makefile string
		argv           []string
		want           []string
	}{
		{"explicit rules, prerequisites first", "all: b a\na:\n\techo a\nb: a\n\techo b\n", nil, []string{"Makefile:3: echo a", "Makefile:5: echo b"}},
		{"each target once", "all: a b\na: c\n\techo a\nb: c\n\techo b\nc:\n\techo c\n", nil, []string{"Makefile:7: echo c", "Makefile:3: echo a", "Makefile:5: echo b"}},
		{"the first target is the default goal", ".PHONY: all\nall:\n\techo all\nother:\n\techo other\n", nil, []string{"Makefile:3: echo all"}},
		{"goals on the command line, in order", "a:\n\techo a\nb:\n\techo b\n", []string{"b", "a"}, []string{"Makefile:4: echo b", "Makefile:2: echo a"}},
		{"a recipe after ;", "all: ; echo all\n", nil, []string{"Makefile:1: echo all"}},
		{"prefixes off", "Q = @\nall:\n\t@echo a\n\t-echo b\n\t+echo c\n\t$(Q)echo d\n", nil, []string{"Makefile:3: echo a", "Makefile:4: echo b", "Makefile:5: echo c", "Makefile:6: echo d"}},
		{"a recipe line continued", "all:\n\techo a \\\n\t  b\n", nil, []string{"Makefile:2: echo a \\\n  b"}},
		{"a conditional inside a recipe", "all:\n\techo a\nifdef V\n\techo v\nendif\n\techo b\n", nil, []string{"Makefile:2: echo a", "Makefile:6: echo b"}},
		{"automatic variables", "sub/x.o: sub/y.c z.h z.h | dir\n\techo $@ $< $^ $+ $| $(@D) $(@F) $(<D) $(^F)\ndir:\n", nil,
			[]string{"Makefile:2: echo sub/x.o sub/y.c sub/y.c z.h sub/y.c z.h z.h dir sub x.o sub y.c z.h"}},
		{"a pattern rule, its stem in the target's directory", "%.o: %.c\n\techo $* $< $@\n", []string{"sub/y.o"}, []string{"Makefile:2: echo sub/y sub/y.c sub/y.o"}},
		{"the shortest stem", "%.o: %.c\n\techo short\nsu%.o: su%.c\n\techo long\n", []string{"sub/y.o"}, []string{"Makefile:2: echo short"}},
		{"a pattern rule whose prerequisite is not there", "%.o: %.cpp\n\techo cpp\n%.o: %.c\n\techo c\n", []string{"x.o"}, []string{"Makefile:4: echo c"}},
		{"a chain of pattern rules", "%.o: %.c\n\techo o\n%.c: %.y\n\techo c\n", []string{"w.o", "W=1"}, nil},
		{"a chain to a file the makefile names", "all: w.y\n%.o: %.c\n\techo o $<\n%.c: %.y\n\techo c $<\nw.y:\n\techo y\n", []string{"w.o"}, []string{"Makefile:7: echo y", "Makefile:5: echo c w.y", "Makefile:3: echo o w.c"}},
		{"the built-in rule", "all: x.o\n", nil, []string{"Makefile:1: cc    -c -o x.o x.c"}},
		{"the built-in rule cancelled", "%.o: %.c\nall: x.o\n", nil, nil},
		{"a static pattern rule", "OBJS = x.o q.o\n$(OBJS): %.o: %.c\n\techo $* $<\n", nil, []string{"Makefile:3: echo x x.c"}},
		{"a suffix rule", ".c.o:\n\techo $< $@\nall: x.o\n", []string{"all"}, []string{"Makefile:2: echo x.c x.o"}},
		{"double-colon rules in order", "all:: a\n\techo 1\nall::\n\techo 2\na:\n\techo a\n", nil, []string{"Makefile:6: echo a", "Makefile:2: echo 1", "Makefile:4: echo 2"}},
		{"prerequisites of a target's rules merged", "all: a\nall: b\n\techo all\na b:\n\techo $@\n", nil, []string{"Makefile:5: echo a", "Makefile:5: echo b", "Makefile:3: echo all"}},
		{".PHONY", ".PHONY: x.o\nall: x.o\n", nil, nil},
		{"a file of the directory is up to date", "all: z.h\n", nil, nil},
		{"a target's variable", "all: CFLAGS = -g\nall:\n\techo $(CFLAGS)\n", nil, []string{"Makefile:3: echo -g"}},
		{".ONESHELL", ".ONESHELL:\nall:\n\tx=1\n\t@echo $$x\n", nil, []string{"Makefile:3: x=1\necho $x"}},
		{"-n runs what + or $(MAKE) marks", "all:\n\techo a\n\t+echo b\n\t$(MAKE) -C sub\n", []string{"-n"}, []string{"Makefile:3: echo b", "Makefile:4: make -C sub"}},
		{"-C: recipes run in the directory", "all:\n\techo a\n", []string{"-C", "."}, []string{"Makefile:2: echo a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := codetest.Inputs{"Makefile": tc.makefile, "x.c": "", "q.c": "", "sub/y.c": "", "z.h": ""}
			r, rec := newTestReader(ws, nil, tc.argv...)
			r.cl, _ = r.commandLine()
			files, _ := r.makefiles()
			r.run(files)
			var got []string
			for _, p := range rec.programs {
				got = append(got, p.Site.String()+": "+p.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q\nunread %q", got, tc.want, r.out.Unread)
			}
		})
	}
}

// TestRecipeShell: a recipe runs in make's directory, with what make
// exports, and a word nobody knows is one the shell cannot know either,
// in quotes or not.
func TestRecipeShell(t *testing.T) {
	tests := []struct {
		name, makefile string
		argv           []string
		text           string
		env            []string
	}{
		{"in the execution root", "all:\n\techo\n", nil, "echo", nil},
		{"in a directory", "all:\n\techo\n", []string{"-C", "sub"}, "cd 'sub' || exit 1\necho", nil},
		{"in a directory nobody can name", "all:\n\techo\n", []string{"-C", "?$build/sub"}, "cd \"${__ahab_unknown_0}\" || exit 1\necho", nil},
		{"a word nobody knows", "all:\n\techo $(D) '$(D)' \"$(D)\"\n", []string{"?D=$d"}, "echo ${__ahab_unknown_0} ''\"${__ahab_unknown_0}\"'' \"${__ahab_unknown_0}\"", nil},
		{"a command's output where it is used", "V := $(shell git describe)\nall:\n\techo '-DV=\"$(V)\"'\n", nil, "echo '-DV=\"'\"$(git describe)\"'\"'", nil},
		{"what make exports", "export A = 1\nB = 2\nunexport HOME\nall:\n\techo\n", []string{"-s", "C=3"}, "echo", []string{"A=1", "C=3", "MAKEFLAGS=s C=3", "MAKELEVEL=1", "PATH=/bin"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := codetest.Inputs{"Makefile": tc.makefile, "sub/Makefile": tc.makefile}
			r, rec := newTestReader(ws, []string{"HOME=/home/u", "PATH=/bin"}, tc.argv...)
			r.cl, _ = r.commandLine()
			files, _ := r.makefiles()
			r.run(files)
			var recipes []code.Program
			for _, p := range rec.programs {
				if strings.HasSuffix(p.Text, "echo") || strings.Contains(p.Text, "echo ") {
					recipes = append(recipes, p)
				}
			}
			if len(recipes) != 1 {
				t.Fatalf("programs %+v, want one recipe (unread %q)", rec.programs, r.out.Unread)
			}
			if recipes[0].Text != tc.text {
				t.Errorf("shell given %q, want %q", recipes[0].Text, tc.text)
			}
			if tc.env != nil && !slices.Equal(recipes[0].Env, tc.env) {
				t.Errorf("environment %q, want %q", recipes[0].Env, tc.env)
			}
		})
	}
}
