package python

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

// signatures is a CPython script that prints, for each .py file under a
// directory that CPython's own parser accepts, what this package's test
// computes of its tree (see goSignatures): each call with the dotted name
// it calls and its numbers of arguments, each f-string with its number
// of fields, each definition, assignment and compound statement, each
// string constant, by line. Annotations and match patterns are left out:
// the reader does not keep the first and reads the second as
// expressions.
const signatures = `
import ast, hashlib, os, sys

def dotted(n):
    parts = []
    while isinstance(n, ast.Attribute):
        parts.append(n.attr); n = n.value
    if isinstance(n, ast.Name):
        parts.append(n.id)
        return ".".join(reversed(parts))
    return "?"

SKIP = {"annotation", "returns", "type_params", "pattern", "type_comment"}
STMTS = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
         ast.Return, ast.Import, ast.ImportFrom, ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())

def walk(n, out, in_fstring=False):
    if isinstance(n, ast.Call):
        out.append("C%d:%s:%d:%d" % (n.func.lineno, dotted(n.func), len(n.args), len(n.keywords)))
    elif isinstance(n, ast.JoinedStr) and not in_fstring:
        out.append("F%d:%d" % (n.lineno, sum(isinstance(v, ast.FormattedValue) for v in n.values)))
    elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.append("D%d:%s" % (n.lineno, n.name))
    elif isinstance(n, ast.Assign):
        out.append("A%d:%d" % (n.lineno, len(n.targets)))
    elif hasattr(ast, "TypeAlias") and isinstance(n, ast.TypeAlias):
        out.append("A%d:1" % n.lineno)
    elif isinstance(n, STMTS):
        name = type(n).__name__.replace("Async", "").replace("TryStar", "Try")
        out.append("S%d:%s" % (n.lineno, name))
    elif isinstance(n, ast.Constant) and isinstance(n.value, str) and not in_fstring:
        out.append("K%d:%s" % (n.lineno, hashlib.md5(n.value.encode("utf-8", "surrogatepass")).hexdigest()[:8]))
    for field, value in ast.iter_fields(n):
        if field in SKIP or (isinstance(n, ast.AnnAssign) and field == "target"):
            continue
        inner = in_fstring or isinstance(n, ast.JoinedStr)
        if isinstance(n, ast.FormattedValue) and field == "value":
            inner = False
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                walk(child, out, inner)

for d, _, names in os.walk(sys.argv[1]):
    if "/test" in d or "/site-packages" in d or "/idlelib" in d or "/lib2to3" in d:
        continue
    for name in sorted(names):
        if not name.endswith(".py"):
            continue
        p = os.path.join(d, name)
        try:
            src = open(p, encoding="utf-8").read()
            tree = ast.parse(src)
        except Exception:
            continue
        out = []
        walk(tree, out)
        print("FILE", p)
        for s in sorted(out):
            print(s)
`

// TestParserAgreesWithCPython parses the standard library of the python3
// on PATH with this package and with CPython's own parser, and compares
// what each found, file by file.
func TestParserAgreesWithCPython(t *testing.T) {
	testenv.Slow(t, "parses CPython's standard library with CPython and with this package", "python3")
	dir, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("python3", "-c", signatures, strings.TrimSpace(string(dir))).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	var order []string
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "FILE "); ok {
			cur = p
			order = append(order, p)
			want[p] = nil
			continue
		}
		want[cur] = append(want[cur], line)
	}
	if len(order) < 100 {
		t.Fatalf("CPython parsed %d files of %s, expected its standard library", len(order), dir)
	}
	differ := 0
	for _, p := range order {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		body, err := parse(string(src))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if got := goSignatures(body); !slices.Equal(got, want[p]) {
			differ++
			if differ <= 5 {
				t.Errorf("%s: this package and CPython differ:\n%s", p, diffLines(got, want[p]))
			}
		}
	}
	t.Logf("%d files of %s parsed, %d differ from CPython", len(order), strings.TrimSpace(string(dir)), differ)
}

// goSignatures is what the CPython script prints of a file, computed from
// this package's tree.
func goSignatures(body []stmt) []string {
	var sigs []string
	add := func(format string, args ...any) { sigs = append(sigs, fmt.Sprintf(format, args...)) }
	var visit func(n node) bool
	visit = func(n node) bool {
		switch n := n.(type) {
		case *callExpr:
			add("C%d:%s:%d:%d", n.line, dottedName(n.fn), len(n.args), len(n.kw))
		case *fstringExpr:
			k := 0
			for _, p := range n.parts {
				if p.x != nil {
					k++
				}
			}
			add("F%d:%d", n.line, k)
		case *funcDef:
			add("D%d:%s", n.line, n.name)
		case *classDef:
			add("D%d:%s", n.line, n.name)
		case *assignStmt:
			add("A%d:%d", n.line, len(n.targets))
		case *annAssignStmt:
			if n.x != nil {
				walk(n.x, visit)
			}
			return false
		case *forStmt:
			add("S%d:For", n.line)
		case *whileStmt:
			add("S%d:While", n.line)
		case *ifStmt:
			add("S%d:If", n.line)
		case *withStmt:
			add("S%d:With", n.line)
		case *tryStmt:
			add("S%d:Try", n.line)
		case *returnStmt:
			add("S%d:Return", n.line)
		case *importStmt:
			add("S%d:Import", n.line)
		case *importFromStmt:
			add("S%d:ImportFrom", n.line)
		case *matchStmt:
			add("S%d:Match", n.line)
			walk(n.subject, visit)
			for _, c := range n.cases {
				if c.guard != nil {
					walk(c.guard, visit)
				}
				walkStmts(c.body, visit)
			}
			return false
		case *constExpr:
			if n.kind == cStr {
				add("K%d:%x", n.line, md5.Sum([]byte(n.s)))
				sigs[len(sigs)-1] = sigs[len(sigs)-1][:len(fmt.Sprint(n.line))+10]
			}
		}
		return true
	}
	walkStmts(body, visit)
	slices.Sort(sigs)
	return sigs
}

func dottedName(x expr) string {
	var parts []string
	for {
		switch n := x.(type) {
		case *attrExpr:
			parts = append(parts, n.name)
			x = n.x
			continue
		case *nameExpr:
			parts = append(parts, n.id)
			slices.Reverse(parts)
			return strings.Join(parts, ".")
		}
		return "?"
	}
}

func diffLines(got, want []string) string {
	count := func(xs []string) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x]++
		}
		return m
	}
	g, w := count(got), count(want)
	var b strings.Builder
	for _, x := range got {
		if g[x] > w[x] {
			fmt.Fprintf(&b, "\tonly here:    %s\n", x)
			g[x]--
		}
	}
	for _, x := range want {
		if w[x] > count(got)[x] {
			fmt.Fprintf(&b, "\tonly CPython: %s\n", x)
			w[x]--
		}
	}
	return b.String()
}
