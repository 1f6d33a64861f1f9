package make_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
)

// FuzzRead: any makefile is read without a panic, within the reader's
// bounds, to the same outcome every time, and each value it reports is
// placed on a line of the makefile or of the command line.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		parallelLog,
		"CC = cc\nCFLAGS = -g\nx.o: x.c\n\t$(CC) $(CFLAGS) -c x.c\n",
		"stamp:\n\tdate > $@\n",
		"A = $(A) x\nall:\n\techo $(A)\n",
		"B := $(B)$(B)\nB := $(B)$(B)\nall: ; @echo $(B)\n",
		"f = $(call f,$1)\nall:\n\t@echo $(call f,x)\n",
		"$(eval $(shell date))\nifeq ($(X),1)\nall: a\nelse\nall: b\nendif\na b:\n\t@echo $@\n",
		"%.o: %.c\n\tcc -c $<\n%: %.o\n\tcc -o $@ $^\nall: p\n",
		"a: b\nb: a\n\ttouch $@\n",
		"include Makefile\nall:\n",
		"define X\n\tdate\nendef\nall:\n\t$(X)\n",
		"all::\n\t@echo 1\nall::\n\t@echo 2\n",
		"ifeq (\n",
		"$(\n",
		strings.Repeat("$(x ", 500),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, makefile string) {
		ws := codetest.Inputs{"Makefile": makefile}
		first := run(t, ws, nil, "-s", "-j4", "-f", "Makefile", "OUT=out")
		second := run(t, ws, nil, "-s", "-j4", "-f", "Makefile", "OUT=out")
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("two readings differ:\n%v\n%v", reaches(first), reaches(second))
		}
		lines := strings.Count(makefile, "\n") + 1
		for _, r := range append(first.Stdout, first.Files...) {
			if r.Site.File == "Makefile" && (r.Site.Line < 1 || r.Site.Line > lines) {
				t.Fatalf("reach %+v outside the makefile's %d lines", r, lines)
			}
		}
	})
}
