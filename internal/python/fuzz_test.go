package python

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// maxFuzzInput bounds the programs the fuzz target reads: what it looks
// for shows in a few hundred bytes, and bigger ones are tested in
// TestHostilePrograms.
const maxFuzzInput = 4 << 10

// FuzzRead: any text either fails to parse with a *SyntaxError or is read
// to an outcome whose reaches name lines of the program and say what they
// are, the same outcome every time.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"import time\nprint(time.time())",
		"import os, sys\nwith open(sys.argv[1], 'w') as out:\n    print(os.getpid(), file=out)",
		"import random\nrandom.seed(0)\nprint(random.random())",
		"print(' '.join({'a', 'b'}))",
		"from lib import stamp\nprint(stamp())",
		"import tarfile\nwith tarfile.open('out', 'w:gz') as t:\n    t.add('d', filter=lambda i: i)",
		"import subprocess\nsubprocess.run(['date'], stdout=open('out', 'w'))",
		"def f(n):\n    return f(n - 1) if n else __import__('time').time()\nprint(f(9))",
		"class A:\n    def __str__(self):\n        return str(A())\nprint(A())",
		"x = f'{1:{2:{3}}}' + '%s %(a)s' % (1,) + '{}{0}'.format(1)",
		"match x:\n    case [a, *b] | {'k': a} as c if a:\n        pass",
	} {
		f.Add(seed, "arg")
	}
	lib := spec.Builtin()
	files := codetest.Inputs{"lib.py": "import lib\nimport time\ndef stamp():\n    return time.time()\n"}
	f.Fuzz(func(t *testing.T, src, arg string) {
		if len(src) > maxFuzzInput {
			return
		}
		p := code.Program{Language: code.Python, Text: src, Args: []code.Arg{{Text: arg, Known: true}, {Text: "?"}}, Outputs: []string{"out"}, File: "gen.py"}
		env := code.Env{Library: lib, Files: files, Runner: &fakeRunner{}}
		if _, err := parse(src); err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 {
				t.Fatalf("error %T %v, want a *SyntaxError with a line", err, err)
			}
		}
		out := Reader{}.Read(p, env)
		lines := strings.Count(src, "\n") + 1
		for _, rs := range [][]effect.Reach{out.Stdout, out.Files} {
			for _, r := range rs {
				if r.Text == "" || r.Because == "" {
					t.Fatalf("reach %+v does not say what it is", r)
				}
				if r.Site.File == "gen.py" && (r.Site.Line < 1 || r.Site.Line > lines) {
					t.Fatalf("reach %+v at a line the program does not have (%d lines)", r, lines)
				}
			}
		}
		if again := (Reader{}).Read(p, env); !reflect.DeepEqual(out, again) {
			t.Fatalf("two reads differ:\n%+v\n%+v", out, again)
		}
	})
}

// maxFuzzArgv bounds the command lines FuzzArgparse reads: argparse's
// cases show in a few words.
const maxFuzzArgv = 1 << 10

// argparseProgram declares an argument of every kind the model reads.
const argparseProgram = `import argparse, time
p = argparse.ArgumentParser()
p.add_argument('-t', '--time', action='store_true')
p.add_argument('-q', '--quiet', action='count')
p.add_argument('--seed', type=int)
p.add_argument('--tag', action='append', default=[])
p.add_argument('--opt', nargs='?', const='c')
p.add_argument('--two', nargs=2)
p.add_argument('--many', nargs='*')
p.add_argument('--flag', action=argparse.BooleanOptionalAction)
p.add_argument('--no-x', dest='x', action='store_false')
p.add_argument('-o', '--output')
p.add_argument('out')
p.add_argument('rest', nargs='*')
a = p.parse_args()
print(time.time() if a.time else a.rest, a.out, a.seed, a.tag, a.opt, a.two, a.many, a.flag, a.x, a.output, a.quiet)
`

// FuzzArgparse: any known command line, words split at spaces, is read
// through argparse to the same outcome every time, whose reaches say
// what they are and name lines of the program.
func FuzzArgparse(f *testing.F) {
	for _, seed := range []string{
		"out", "-t out", "--time out a b", "-qqt out", "--ti out", "--seed=3 out", "--seed -3 out",
		"--tag a --tag b out", "--opt out", "--opt x out", "--two a b out", "--many a b -- out c",
		"--no-flag out", "--no-x out", "-oOUT out", "--output=x out", "-- -t", "--bogus out", "-h",
		"--tw a b out", "--seed out", "-t=1 out", "",
	} {
		f.Add(seed)
	}
	lib := spec.Builtin()
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > maxFuzzArgv {
			return
		}
		p := code.Program{Language: code.Python, Text: argparseProgram, Outputs: []string{"out"}, File: "gen.py"}
		for _, w := range strings.Split(line, " ") {
			p.Args = append(p.Args, code.Arg{Text: w, Known: true})
		}
		env := code.Env{Library: lib}
		out := Reader{}.Read(p, env)
		lines := strings.Count(argparseProgram, "\n")
		for _, r := range out.Stdout {
			if r.Text == "" || r.Because == "" || r.Site.Line < 1 || r.Site.Line > lines {
				t.Fatalf("reach %+v does not say what it is or where", r)
			}
		}
		if len(out.Files) > 0 || len(out.Unread) > 0 {
			t.Fatalf("the program writes no file and is read whole: %+v", out)
		}
		if again := (Reader{}).Read(p, env); !reflect.DeepEqual(out, again) {
			t.Fatalf("two reads differ:\n%+v\n%+v", out, again)
		}
	})
}

// TestHostilePrograms: programs made to cost end quickly, with a note
// when they were not followed to the end.
func TestHostilePrograms(t *testing.T) {
	tests := []struct {
		name, src string
		note      string // a note they must leave, or "" for none
	}{
		{"a long program", strings.Repeat("x = x + 1\n", 60000), "steps to follow"},
		{"a loop that never ends", "while True:\n    pass\n", ""},
		{"recursion without end", "def f():\n    return f()\nf()\n", ""},
		{"two calls per level", "def fib(n):\n    return fib(n - 1) + fib(n - 2) if n > 1 else n\nprint(fib(30))\n", ""},
		{"calls nested deep", deepCalls(40), "calls nest more than"},
		{"a big list", "x = [" + strings.Repeat("1, ", 50000) + "]\nprint(x)\n", ""},
		{"strings multiplied", "s = 'a' * 1000000\nfor c in s:\n    print(c)\n", ""},
		{"a list that holds itself", "a = []\na.append(a)\nprint(a)\n", ""},
		{"a list that holds itself sorted", "a = []\na.append(a)\na.sort()\nprint(sorted(a))\n", ""},
		{"a class that is its own base", "class A(A):\n    pass\n", ""},
		{"an f-string in an f-string", "x = " + strings.Repeat("f'{", 7) + "1" + strings.Repeat("}'", 7), ""},
		{"nesting too deep", "x = " + strings.Repeat("[", 200) + strings.Repeat("]", 200), "brackets nested more than"},
		{"an unterminated string", "x = '''" + strings.Repeat("a", 100000), "unterminated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := read(t, tc.src, program{})
			if tc.note == "" {
				return
			}
			for _, u := range out.Unread {
				if strings.Contains(u, tc.note) {
					return
				}
			}
			t.Errorf("unread %q, want a note containing %q", out.Unread, tc.note)
		})
	}
}

func deepCalls(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("def f" + itoa(i) + "():\n    return f" + itoa(i+1) + "()\n")
	}
	b.WriteString("def f" + itoa(n) + "():\n    return 1\nprint(f0())\n")
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
