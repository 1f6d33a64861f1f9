package interp_test

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestShellHandsPythonOver: a genrule's script runs Python every way
// actions do, and what varies is found where the Python writes it.
func TestShellHandsPythonOver(t *testing.T) {
	ws := codetest.Inputs{
		"tools/gen.py":              "import sys, time\nfrom stamp import label\nwith open(sys.argv[1], 'w') as out:\n    out.write(label() + '\\n')\n",
		"tools/stamp.py":            "import time\n\ndef label():\n    return 'built at %d' % time.time()\n",
		"tools/fixed.py":            "#!/usr/bin/env python3\nimport sys\nopen(sys.argv[1], 'w').write('v1\\n')\n",
		"tools/shell.py":            "import os\nos.system('date > ' + os.environ['OUT'])\n",
		"tools/version/__main__.py": "import sys, time\nopen(sys.argv[1], 'w').write(time.strftime('%Y%m%d'))\n",
		"tools/version/__init__.py": "",
	}
	tests := []struct {
		name, script string
		want         []string
	}{
		{"a script file", "python3 tools/gen.py out", []string{"clock time.time() tools/stamp.py:4"}},
		{"a script file writing elsewhere", "python3 tools/gen.py /tmp/x; echo done > out", nil},
		{"a fixed script file", "python3 tools/fixed.py out", nil},
		{"a tool run by its path", "tools/fixed.py out", nil},
		{"inline code", "python3 -c 'import os; print(os.getpid())' > out", []string{"pid os.getpid() line 1"}},
		{"inline code to stderr", "python3 -c 'import os, sys; print(os.getpid(), file=sys.stderr)' > out", nil},
		{"inline code importing the workspace", "cd tools && python3 -c 'from stamp import label; print(label())' > ../out", []string{"clock time.time() tools/stamp.py:4"}},
		// A here-document's code starts on the line after its command:
		// line 2 of the code is line 3 of the script.
		{"a here-document", "python3 > out <<'EOF'\nimport random\nprint(random.random())\nEOF", []string{"random random.random() line 3"}},
		{"a here-document seeded", "python3 > out <<'EOF'\nimport random\nrandom.seed(7)\nprint(random.random())\nEOF", nil},
		{"a here-document given to python3 -", "python3 - > out <<'EOF'\nimport time\nprint(time.time())\nEOF", []string{"clock time.time() line 3"}},
		{"a here-document given to python3 - with arguments", "python3 - in.txt > out <<'EOF'\nimport os, sys\nprint(os.path.realpath(sys.argv[1]))\nEOF", []string{"pwd os.path.realpath(sys.argv[1]) line 3"}},
		{"a here-document given to python3 - normalising a path", "python3 - in.txt > out <<'EOF'\nimport os, sys\nprint(os.path.normpath(sys.argv[1]))\nEOF", nil},
		{"a here-document given to a module as data", "python3 -m json.tool > out <<'EOF'\nimport time\nprint(time.time())\nEOF", nil},
		{"python running the shell", "OUT=out python3 tools/shell.py", []string{"clock date tools/shell.py:2"}},
		{"python running the shell elsewhere", "OUT=/tmp/x python3 tools/shell.py; echo ok > out", nil},
		{"a fixed environment for python", "SOURCE_DATE_EPOCH=0 python3 -c 'import py_compile; py_compile.compile(\"tools/fixed.py\", cfile=\"out\")'", nil},
		{"a module of the workspace run by name", "python3 -m tools.version out", []string{"clock time.strftime('%Y%m%d') tools/version/__main__.py:2"}},
		{"a module of the workspace writing elsewhere", "python3 -m tools.version /tmp/v; echo ok > out", nil},
		{"the standard library's zipfile creating an archive", "python3 -m zipfile -c out tools/fixed.py", []string{"mtime -m zipfile line 1"}},
		{"the standard library's zipfile listing one", "python3 -m zipfile -t out.zip; echo ok > out", nil},
		{"py_compile without it", "python3 -c 'import py_compile; py_compile.compile(\"tools/fixed.py\", cfile=\"out\")'", []string{`mtime py_compile.compile("tools/fixed.py", cfile="out") line 1`}},
	}
	lib := spec.Builtin()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shell.Analyze(shell.Invocation{Shell: "/bin/bash", Script: tc.script}, shell.Options{
				Library: lib, Outputs: []string{"out"}, Files: ws, Runner: interp.New(lib, ws, interp.Readers())})
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
