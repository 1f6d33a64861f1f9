package interp_test

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestProgramsTheScriptMakes: a generator compiled by hand and run in the
// same script (heldout2's //stamp:version_banner) prints what its source
// used of the compiler's varying values and what it calls of the C
// library when it runs; a program made of what the script cannot trace to
// a source is not read, and the finding says so.
func TestProgramsTheScriptMakes(t *testing.T) {
	ws := codetest.Inputs{
		"stamp/banner.c":   "#include <stdio.h>\nint main(int c, char **v) { printf(\"%s %s %s\\n\", v[1], __DATE__, __TIME__); }\n",
		"stamp/fixed.c":    "#include <stdio.h>\nint main(int c, char **v) { printf(\"%s\\n\", v[1]); }\n",
		"stamp/clock.c":    "#include <stdio.h>\n#include <time.h>\nint main(void) {\n  printf(\"built %ld\\n\", (long)time(NULL));\n}\n",
		"stamp/seeded.c":   "#include <stdlib.h>\nint main(void) {\n  srand(1234);\n  printf(\"%d\\n\", rand());\n}\n",
		"stamp/salt.c":     "#include <stdlib.h>\n#include <time.h>\nint main(void) {\n  srand(time(NULL));\n  printf(\"%d\\n\", rand());\n}\n",
		"stamp/prebuilt.o": "\x7fELF",
	}
	lib := spec.Builtin()
	const out = "bazel-out/k8-fastbuild/bin/stamp/banner.h"
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"a generator using __DATE__", "${CC:-gcc} -O2 -o bazel-out/k8-fastbuild/bin/stamp/gen stamp/banner.c\nbazel-out/k8-fastbuild/bin/stamp/gen 1.0 > " + out, []string{"clock gcc"}},
		{"the same compiled with the dates defined away", "gcc -D__DATE__='\"x\"' -D__TIME__='\"y\"' -o gen stamp/banner.c && ./gen 1.0 > " + out, nil},
		{"a generator that uses none", "gcc -o gen stamp/fixed.c && ./gen 1.0 > " + out, nil},
		{"a generator printing time()", "gcc -o gen stamp/clock.c && ./gen > " + out, []string{"clock time()"}},
		{"compiled, linked, copied, then run", "gcc -c stamp/clock.c -o clock.o && gcc -o gen clock.o && cp gen tool && ./tool > " + out, []string{"clock time()"}},
		{"compiled without -o into an object, then linked", "gcc -c stamp/clock.c && gcc -o gen clock.o && ./gen > " + out, []string{"clock time()"}},
		// gcc's operands are names it may record (a source's, in the
		// object's symbols), so the link is taken to record the object's.
		{"compiled and linked in a temporary directory", "d=$(mktemp -d) && gcc -c stamp/clock.c -o $d/clock.o && gcc -o $d/gen $d/clock.o && $d/gen > " + out, []string{"tempname mktemp", "clock time()"}},
		{"rand seeded with a constant", "gcc -o gen stamp/seeded.c && ./gen > " + out, nil},
		{"rand seeded from the clock", "gcc -o gen stamp/salt.c && ./gen > " + out, []string{"clock time()", "random rand()"}},
		{"a program linked from an object of the action's", "gcc -o gen stamp/prebuilt.o && ./gen > " + out, []string{"unread"}},
		{"the generator compiled and never run", "gcc -o gen stamp/banner.c; echo ok > " + out, nil},
		// Its code unread, a program may write any file.
		{"the generator's standard output not kept", "gcc -o gen stamp/banner.c && ./gen 1.0 > /dev/null; echo ok > " + out, []string{"clock gcc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shell.Analyze(shell.Invocation{Shell: "/bin/bash", Script: tc.script}, shell.Options{
				Library: lib, Outputs: []string{out}, Files: ws, Runner: interp.New(lib, ws, interp.Readers()), Env: []string{"PATH=/bin:/usr/bin"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, src := range s.Sources {
				got = append(got, src.Value.String()+" "+src.Text)
			}
			if slices.ContainsFunc(s.Commands, func(c shell.Command) bool { return c.Unreadable != "" }) {
				got = append(got, "unread")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s\n got %q\nwant %q", tc.script, got, tc.want)
			}
		})
	}
}
