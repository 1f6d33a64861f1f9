package make_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/spec"
)

// args is a command line of known words, with $name for a word the
// script cannot know (a directory mktemp made).
func args(words ...string) []code.Arg {
	out := make([]code.Arg, len(words))
	for i, w := range words {
		out[i] = code.Arg{Text: w, Known: !strings.Contains(w, "$")}
	}
	return out
}

// run reads make with a command line over a workspace whose files are
// the action's inputs.
func run(t *testing.T, ws codetest.Inputs, env []string, argv ...string) code.Outcome {
	t.Helper()
	lib := spec.Builtin()
	r := interp.New(lib, ws, interp.Readers())
	return r.Run(code.Program{Language: code.Make, Args: args(argv...), Env: env, Site: effect.Site{Line: 1}, Outputs: []string{"out"}})
}

// reaches renders an outcome as the readers' tests do, with where each
// value is made.
func reaches(o code.Outcome) []string {
	var out []string
	for _, r := range o.Stdout {
		out = append(out, "stdout "+r.Value.String()+" "+r.Text+" "+r.Site.String())
	}
	for _, r := range o.Files {
		out = append(out, "file "+r.Value.String()+" "+r.Text+" "+r.Site.String())
	}
	return out
}

const parallelLog = `JOBS := one two three
all: $(JOBS)
$(JOBS):
	@for i in 1 2 3; do echo "$@ $$i" >> $(OUT); done
.PHONY: all $(JOBS)
`

// TestSemantics is what a make run puts into what make prints and the
// files it writes: one row per construct, each beside its twin that does
// not vary.
func TestSemantics(t *testing.T) {
	compile := "x.o: x.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n"
	tests := []struct {
		name     string
		makefile string
		argv     []string
		env      []string
		want     []string
	}{
		{"a recipe writing the date into its target", "out:\n\tdate > $@\n", nil, nil, []string{"file clock date Makefile:2"}},
		{"a recipe writing a fixed text into its target", "out:\n\techo fixed > $@\n", nil, nil, nil},
		{"a recipe printing the date", "all:\n\t@date\n", nil, nil, []string{"stdout clock date Makefile:2"}},
		{"a recipe printing the date nowhere", "all:\n\t@date > /dev/null\n", nil, nil, nil},

		{"CFLAGS from the command line", "CFLAGS = -O2\n" + compile, []string{"CFLAGS=-g -O2", "x.o"}, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"the makefile's CFLAGS", "CFLAGS = -O2\n" + compile, []string{"x.o"}, nil, nil},
		{"the command line over the makefile's -g", "CFLAGS = -g\n" + compile, []string{"CFLAGS=-O2"}, nil, nil},
		{"override beats the command line", "override CFLAGS += -g\n" + compile, []string{"CFLAGS=-O2"}, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"the environment under the makefile's", "CFLAGS = -O2\n" + compile, nil, []string{"CFLAGS=-g"}, nil},
		{"the environment over the makefile's with -e", "CFLAGS = -O2\n" + compile, []string{"-e"}, []string{"CFLAGS=-g"}, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"?= leaves the environment's", "CFLAGS ?= -O2\n" + compile, nil, []string{"CFLAGS=-g"}, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},

		{"a conditional that holds", "ifeq ($(DEBUG),1)\nCFLAGS += -g\nendif\n" + compile, []string{"DEBUG=1"}, nil, []string{"stdout pwd cc Makefile:5", "file pwd cc Makefile:5"}},
		{"a conditional that does not", "ifeq ($(DEBUG),1)\nCFLAGS += -g\nendif\n" + compile, nil, nil, nil},
		{"ifdef and else", "ifdef RELEASE\nCFLAGS = -O2\nelse\nCFLAGS = -g\nendif\n" + compile, []string{"RELEASE=1"}, nil, nil},
		{"else ifeq", "ifeq ($(M),a)\nCFLAGS = -O1\nelse ifeq ($(M),b)\nCFLAGS = -g\nelse\nCFLAGS = -O3\nendif\n" + compile, []string{"M=b"}, nil, []string{"stdout pwd cc Makefile:9", "file pwd cc Makefile:9"}},
		{"a condition not decided reads both branches", "ifeq ($(shell uname -s),Darwin)\nCFLAGS = -g\nelse\nCFLAGS = -O2\nendif\n" + compile, nil, nil, []string{"stdout pwd cc Makefile:7", "file pwd cc Makefile:7"}},

		{"a pattern rule", "CFLAGS = -g\n%.o: %.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n", []string{"x.o"}, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"the built-in rule", "CFLAGS = -g\nall: x.o\n", nil, nil, []string{"stdout pwd cc Makefile:2", "file pwd cc Makefile:2"}},
		{"no built-in rules with -r", "CFLAGS = -g\nall: x.o\n", []string{"-r"}, nil, nil},
		{"a static pattern rule", "OBJS = x.o\n$(OBJS): %.o: %.c\n\tcc -g -c $< -o $@\n", nil, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"a suffix rule", ".c.o:\n\tcc -g -c $< -o $@\nall: x.o\n", []string{"all"}, nil, []string{"stdout pwd cc Makefile:2", "file pwd cc Makefile:2"}},
		{"double-colon rules each run", "all:: \n\techo one > one\nall::\n\tdate > two\n", nil, nil, []string{"file clock date Makefile:4"}},

		{"a recipe the goal needs", "all: a\na:\n\tdate > a\nb:\n\techo b > b\n", nil, nil, []string{"file clock date Makefile:3"}},
		{"a recipe no goal needs", "all: b\na:\n\tdate > a\nb:\n\techo b > b\n", nil, nil, nil},
		{"the goal on the command line", "all:\n\techo all > all\nstamp:\n\tdate > stamp\n", []string{"stamp"}, nil, []string{"file clock date Makefile:4"}},
		{".DEFAULT_GOAL", ".DEFAULT_GOAL := stamp\nall:\n\techo all > all\nstamp:\n\tdate > stamp\n", nil, nil, []string{"file clock date Makefile:5"}},

		{"$(shell date) written into a file", "STAMP := $(shell date)\nout:\n\t@echo '$(STAMP)' > $@\n", nil, nil, []string{"file clock date Makefile:3"}},
		{"$(shell date) in a quoted define", "STAMP := $(shell date +%s)\nx.o: x.c\n\t@cc -DSTAMP='\"$(STAMP)\"' -c $< -o $@\n", nil, nil, []string{"stdout clock date Makefile:3", "file clock date Makefile:3"}},
		{"$(shell) of a fixed date", "STAMP := $(shell date -u -d @0)\nout:\n\techo '$(STAMP)' > $@\n", nil, nil, nil},
		{"make prints the line it runs", "STAMP := $(shell date)\nout:\n\techo '$(STAMP)' > $@\n", nil, nil, []string{"stdout clock date Makefile:1", "file clock date Makefile:3"}},
		{"$(shell date) never used", "STAMP := $(shell date)\nout:\n\techo fixed > $@\n", nil, nil, nil},
		{"$(shell date) printed by $(info)", "$(info built $(shell date))\nall:\n\t@true\n", nil, nil, []string{"stdout clock date Makefile:1"}},
		{"a recipe line make prints", "STAMP := $(shell date)\nall:\n\ttrue $(STAMP)\n", nil, nil, []string{"stdout clock date Makefile:1"}},
		{"a silent recipe line", "STAMP := $(shell date)\nall:\n\t@true $(STAMP)\n", nil, nil, nil},
		{"$(CURDIR) in a recipe", "out:\n\techo $(CURDIR) > $@\n", nil, nil, []string{"file pwd $PWD Makefile:2"}},

		{"-j: jobs appending to one file", parallelLog, []string{"-s", "-j8", "OUT=log"}, nil, []string{"file parallel make Makefile:4"}},
		{"-j1: the same jobs one at a time", parallelLog, []string{"-s", "-j1", "OUT=log"}, nil, nil},
		{"-j: jobs writing a file each", "all: one two\none two:\n\t@echo $@ > $@.txt\n", []string{"-j4"}, nil, nil},
		{"-j: jobs ordered by their prerequisites", "all: two\none:\n\t@echo $@ >> log\ntwo: one\n\t@echo $@ >> log\n", []string{"-j4"}, nil, nil},
		{"-j: order-only prerequisites order too", "all: two\none:\n\t@echo $@ >> log\ntwo: | one\n\t@echo $@ >> log\n", []string{"-j4"}, nil, nil},
		{"-j: jobs printing", "all: one two\none:\n\t@echo one\ntwo:\n\t@echo two\n", []string{"-j4"}, nil, []string{"stdout parallel make Makefile:5"}},
		{"-j: jobs whose lines make prints", "all: one two\none:\n\ttouch one\ntwo:\n\ttouch two\n", []string{"-j4"}, nil, []string{"stdout parallel make Makefile:5"}},
		{"-j -s: jobs that print nothing", "all: one two\none:\n\ttouch one\ntwo:\n\ttouch two\n", []string{"-j4", "-s"}, nil, nil},
		{"-O keeps each job's output, not their order", "all: one two\none:\n\t@echo one\ntwo:\n\t@echo two\n", []string{"-j4", "--output-sync=target"}, nil, []string{"stdout parallel make Makefile:5"}},
		{"-j with no number", "all: one two\none:\n\t@echo one\ntwo:\n\t@echo two\n", []string{"-j"}, nil, []string{"stdout parallel make Makefile:5"}},
		{"-j from MAKEFLAGS", "all: one two\none:\n\t@echo one\ntwo:\n\t@echo two\n", nil, []string{"MAKEFLAGS=-j4"}, []string{"stdout parallel make Makefile:5"}},
		{".NOTPARALLEL", ".NOTPARALLEL:\nall: one two\none:\n\t@echo one\ntwo:\n\t@echo two\n", []string{"-j4"}, nil, nil},
		{"-j of one job", "all:\n\t@echo one; echo two\n", []string{"-j4"}, nil, nil},

		{"include", "include flags.mk\n" + compile, nil, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"-include of nothing", "-include missing.mk\n" + compile, nil, nil, nil},
		{"$(wildcard) of the directory's files", "SRCS := $(wildcard *.c)\nall: $(SRCS:.c=.o)\n%.o: %.c\n\tcc -g -c $< -o $@\n", nil, nil, []string{"stdout pwd cc Makefile:4", "stdout clock cc Makefile:4", "file pwd cc Makefile:4", "file clock cc Makefile:4"}},
		{"$(foreach) and $(call) into $(eval)", "define PROG\n$(1).o: $(1).c\n\tcc $(2) -c $$< -o $$@\nendef\n$(foreach p,x,$(eval $(call PROG,$(p),-g)))\n", []string{"x.o"}, nil, []string{"stdout pwd cc Makefile:5", "file pwd cc Makefile:5"}},
		{"a target's own variable", "x.o: CFLAGS = -g\n" + compile, nil, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"a pattern's variable", "%.o: CFLAGS += -g\n" + compile, nil, nil, []string{"stdout pwd cc Makefile:3", "file pwd cc Makefile:3"}},
		{"a target's variable inherited by its prerequisites", "all: x.o\nall: CFLAGS = -g\n" + compile, nil, nil, []string{"stdout pwd cc Makefile:4", "file pwd cc Makefile:4"}},
		{"an exported SOURCE_DATE_EPOCH", "export SOURCE_DATE_EPOCH := 0\nstamp.o: stamp.c\n\tcc -c $< -o $@\n", nil, nil, nil},
		{"a source using __DATE__", "stamp.o: stamp.c\n\tcc -c $< -o $@\n", nil, nil, []string{"stdout clock cc Makefile:2", "file clock cc Makefile:2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := codetest.Inputs{"Makefile": tc.makefile, "x.c": "int x;\n", "stamp.c": "const char *d = __DATE__;\n", "flags.mk": "CFLAGS = -g\n"}
			o := run(t, ws, tc.env, tc.argv...)
			if got := reaches(o); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q\nunread %q", got, tc.want, o.Unread)
			}
		})
	}
}

// TestFindingTheMakefile: make reads the file -f names, else GNUmakefile,
// makefile or Makefile in its -C directory; a directory the script made
// (a copy of the inputs) is read as the input of that name; a makefile
// that is none of the action's files leaves make to its command line.
func TestFindingTheMakefile(t *testing.T) {
	dated := "out:\n\tdate > $@\n"
	tests := []struct {
		name   string
		ws     codetest.Inputs
		argv   []string
		want   []string
		unread []string
	}{
		{"Makefile in the execution root", codetest.Inputs{"Makefile": dated}, nil, []string{"file clock date Makefile:2"}, nil},
		{"GNUmakefile before Makefile", codetest.Inputs{"GNUmakefile": dated, "Makefile": "out:\n\techo > $@\n"}, nil, []string{"file clock date GNUmakefile:2"}, nil},
		{"-f", codetest.Inputs{"tools/build.mk": dated}, []string{"-f", "tools/build.mk"}, []string{"file clock date tools/build.mk:2"}, nil},
		{"-C", codetest.Inputs{"vendor/lib/Makefile": dated}, []string{"-C", "vendor/lib"}, []string{"file clock date vendor/lib/Makefile:2"}, nil},
		{"-C and -f relative to it", codetest.Inputs{"vendor/lib/build.mk": dated}, []string{"-C", "vendor/lib", "-f", "build.mk"}, []string{"file clock date vendor/lib/build.mk:2"}, nil},
		{"-C of a copy: the input of the makefile's name", codetest.Inputs{"external/lib/Makefile": dated, "external/lib/lib.c": ""}, []string{"-C", "$build"}, []string{"file clock date external/lib/Makefile:2"}, nil},
		{"-C of a subdirectory of a copy", codetest.Inputs{"external/lib/src/Makefile": dated, "external/lib/Makefile": "out:\n\techo > $@\n"}, []string{"-C", "$build/src"}, []string{"file clock date external/lib/src/Makefile:2"}, nil},
		{"-C of a copy of a tree: the makefile at its top", codetest.Inputs{"lib/Makefile": dated, "lib/src/Makefile": "out:\n\techo > $@\n"}, []string{"-C", "$build"}, []string{"file clock date lib/Makefile:2"}, nil},
		{"two inputs that may be the copy's makefile", codetest.Inputs{"a/Makefile": dated, "b/Makefile": dated}, []string{"-C", "$build"}, nil,
			[]string{"line 1: make: several of the action's inputs may be the makefile it reads: a/Makefile, b/Makefile"}},
		{"a makefile the script writes itself: -j is parallel", codetest.Inputs{}, []string{"-C", "$m", "-j4"}, []string{"stdout parallel make line 1", "file parallel make line 1"}, nil},
		{"a makefile the script writes itself, one job", codetest.Inputs{}, []string{"-C", "$m", "-j1"}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, tc.ws, nil, tc.argv...)
			if got := reaches(o); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q\nunread %q", got, tc.want, o.Unread)
			}
			if !slices.Equal(o.Unread, tc.unread) {
				t.Errorf("unread %q, want %q", o.Unread, tc.unread)
			}
		})
	}
}

// TestUnread: what the reader cannot follow is said, with the makefile's
// line, never taken for clean.
func TestUnread(t *testing.T) {
	tests := []struct {
		name, makefile string
		argv           []string
		want           string
	}{
		{"a command not known", "all:\n\t$(TOOL) > out\n", []string{"TOOL=$tool"}, "Makefile:2: make: the command of a recipe line is not known: $(TOOL) > out"},
		{"$(eval) in a recipe", "all:\n\t$(eval X := 1)echo > out\n", nil, "Makefile:2: make: $(eval X := 1) in a recipe is not followed"},
		{"an include that is none of the action's files", "include gen.mk\nall:\n\techo > out\n", nil, "Makefile:1: make: include of gen.mk, which is none of the action's files"},
		{"a missing endif", "ifdef X\nall:\n\techo > out\n", nil, "Makefile:4: make: missing 'endif'"},
		{"a missing separator", "all\n\techo > out\n", nil, "Makefile:1: make: missing separator"},
		{"a variable referring to itself", "X = $(X) y\nall:\n\techo $(X) > out\n", nil, "Makefile:3: make: recursive variable X references itself"},
		{"a goal the script computes", "all:\n\techo > out\n", []string{"$goal"}, "line 1: make: a goal named while the script runs: $goal"},
		{".SECONDEXPANSION", ".SECONDEXPANSION:\nall:\n\techo > out\n", nil, "Makefile:1: make: .SECONDEXPANSION is not followed: prerequisites are expanded once"},
		{"a makefile too long", "X = " + strings.Repeat("x", 1<<20) + "\n", nil, "Makefile: make: makefile of 1048581 bytes, more than the 1048576 read"},
		{"expansions without end", "T = 0 1 2 3 4 5 6 7 8 9\nY = $(foreach a,$(T),$(foreach b,$(T),$(foreach c,$(T),$(foreach d,$(T),$(foreach e,$(T),$(foreach f,$(T),x))))))\nall:\n\techo $(Y) > out\n", nil,
			"line 1: make: the makefile is too long to follow to its end: stopped after 200000 steps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, codetest.Inputs{"Makefile": tc.makefile}, nil, tc.argv...)
			if !slices.Contains(o.Unread, tc.want) {
				t.Errorf("unread %q, want %q among them", o.Unread, tc.want)
			}
		})
	}
}
