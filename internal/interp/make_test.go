package interp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestShellHandsMakeOver: genrules run make the ways builds do, its
// makefile among the action's inputs (those of the directory the case
// names), and what varies is found where the recipes put it and the
// script keeps it.
func TestShellHandsMakeOver(t *testing.T) {
	const lib = "CC ?= cc\nCFLAGS ?= -O2\nOBJS = a.o b.o\n\nall: liblite.a\n\nliblite.a: $(OBJS)\n\tar rcs $@ $^\n\n%.o: %.c lite.h\n\t$(CC) $(CFLAGS) -c -o $@ $<\n"
	ws := codetest.Inputs{
		"account/Makefile":             "JOBS := one two three\nall: $(JOBS)\n$(JOBS):\n\t@for i in 1 2 3; do echo \"$@ step $$i\" >> $(OUT); done\n.PHONY: all $(JOBS)\n",
		"vendor/lite/Makefile":         lib,
		"vendor/lite/a.c":              "int a;\n",
		"vendor/lite/b.c":              "int b;\n",
		"vendor/lite/lite.h":           "",
		"gen/Makefile":                 "stamp.txt:\n\tdate > $@\nlog.txt:\n\t@echo one; echo two\nprinters: p1 p2\np1 p2:\n\t@echo $@\nall:\n\t$(MAKE) -C sub\n",
		"gen/sub/Makefile":             "all:\n\tdate > when.txt\n",
		"external/minijson/Makefile":   "CC = cc\nCFLAGS = -g -O2 -Wall -Wextra -fPIC\nAR = ar\nPREFIX = /usr/local\n\nlibminijson.a: minijson.o\n\t$(AR) rcs $@ $^\n\nminijson.o: minijson.c minijson.h\n\t$(CC) $(CFLAGS) -c minijson.c\n\ninstall: libminijson.a\n\tinstall -D -m 0644 libminijson.a $(DESTDIR)$(PREFIX)/lib/libminijson.a\n\tinstall -D -m 0644 minijson.h $(DESTDIR)$(PREFIX)/include/minijson.h\n\n.PHONY: install\n",
		"external/minijson/minijson.c": "int x;\n",
		"external/minijson/minijson.h": "",
	}
	copyLite := "build=$(mktemp -d)\ncp vendor/lite/Makefile vendor/lite/a.c vendor/lite/b.c vendor/lite/lite.h $build/\n"
	tests := []struct {
		name, inputs, script string
		want                 []string
	}{
		{"jobs appending to the output", "account/", `make -s -j8 -f account/Makefile OUT=$PWD/out`, []string{"parallel make account/Makefile:4"}},
		{"the same log, sorted", "account/", `make -s -j8 -f account/Makefile OUT=$PWD/out.unsorted && LC_ALL=C sort out.unsorted > out && rm out.unsorted`, nil},
		{"the same jobs one at a time", "account/", `make -s -f account/Makefile OUT=$PWD/out`, nil},
		{"a library built in a copy, each object by one job", "vendor/lite/", copyLite + "make -s -C $build -j$(nproc) CFLAGS='-O2 -fPIC' liblite.a\ncp $build/liblite.a out", nil},
		{"a library built in a copy with -g", "vendor/lite/", copyLite + "make -s -C $build -j$(nproc) CFLAGS='-g -O2' liblite.a\ncp $build/liblite.a out", []string{"pwd cc vendor/lite/Makefile:11"}},
		{"a library built with -g in a copy, not kept", "vendor/lite/", copyLite + "make -s -C $build CFLAGS=-g\necho done > out", nil},
		{"a library built in the script's directory", "vendor/lite/", copyLite + "cd $build && make -s CFLAGS=-g && cd - && cp $build/liblite.a out", []string{"pwd cc vendor/lite/Makefile:11"}},
		{"an external library installed from a copy", "external/minijson/", "set -e\nbuild=$(mktemp -d)\ntrap 'rm -rf \"$build\"' EXIT\ncp external/minijson/Makefile external/minijson/minijson.c external/minijson/minijson.h $build/\nmake -s -C $build install DESTDIR=$build/destdir PREFIX=/usr\ncp $build/destdir/usr/lib/libminijson.a out\n", []string{"pwd cc external/minijson/Makefile:10"}},
		{"the library built without -g", "external/minijson/", "set -e\nbuild=$(mktemp -d)\ncp external/minijson/Makefile external/minijson/minijson.c external/minijson/minijson.h $build/\nmake -s -C $build install DESTDIR=$build/destdir PREFIX=/usr CFLAGS=-O2\ncp $build/destdir/usr/lib/libminijson.a out\n", nil},
		{"a recipe's date copied out", "gen/", "d=$(mktemp -d)\ncp gen/Makefile $d/\nmake -C $d stamp.txt\ncp $d/stamp.txt out", []string{"clock date gen/Makefile:2"}},
		{"make printing its jobs' lines into the output", "gen/", `make -s -j4 -f gen/Makefile printers > out`, []string{"parallel make gen/Makefile:7"}},
		{"make printing its jobs' lines nowhere kept", "gen/", `make -s -j4 -f gen/Makefile printers; echo done > out`, nil},
		{"one job printing two lines", "gen/", `make -s -j4 -f gen/Makefile log.txt > out`, nil},
		{"a make a recipe runs", "gen/", `make -s -C gen all; cp gen/sub/when.txt out`, []string{"clock date gen/sub/Makefile:2"}},
		{"a makefile the script writes: its command line", "none/", `m=$(mktemp -d) && printf 'all: a b\na:\n\t@echo a\nb:\n\t@echo b\n' > $m/Makefile && make -s -C $m -j$(nproc) > out`, []string{"parallel make line 1"}},
		{"a makefile the script writes, one job", "none/", `m=$(mktemp -d) && printf 'all: a b\na:\n\t@echo a\nb:\n\t@echo b\n' > $m/Makefile && make -s -C $m -j1 > out`, nil},
	}
	l := spec.Builtin()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inputs := codetest.Inputs{}
			for p, text := range ws {
				if strings.HasPrefix(p, tc.inputs) {
					inputs[p] = text
				}
			}
			s, err := shell.Analyze(shell.Invocation{Shell: "/bin/bash", Script: tc.script}, shell.Options{
				Library: l, Outputs: []string{"out"}, Files: inputs, Runner: interp.New(l, inputs, interp.Readers())})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, src := range s.Sources {
				g := src.Value.String() + " " + src.Text
				if src.Site != (effect.Site{}) {
					g += " " + src.Site.String()
				}
				got = append(got, g)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s\ngot  %q\nwant %q\nunread %q", tc.script, got, tc.want, s.Unread)
			}
		})
	}
}
