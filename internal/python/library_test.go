package python

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

const langDir = "../spec/library/lang"

// builtinNames are the names of Python's builtins and of its types'
// methods that the table describes, which no import qualifies.
var builtinNames = map[string]bool{
	"set": true, "frozenset": true, "sorted": true, "len": true, "min": true, "max": true,
	"sum": true, "any": true, "all": true, "hash": true, "open": true, "__file__": true, "list.sort": true,
}

var argSpec = regexp.MustCompile(`^([0-9]+|[a-z_]+)(\|([0-9]+|[a-z_]+))*$`)

// TestPythonLibraryShape: every function of python.json is named as a
// program would call it (a module of the standard library, then the
// name), says why it varies in words that finish "this is not
// reproducible because…", and gives its arguments and classes in the
// forms the reader reads.
func TestPythonLibraryShape(t *testing.T) {
	path := filepath.Join(langDir, "python.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := spec.Parse(path, data, mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Functions) < 100 {
		t.Fatalf("%d functions, expected the standard library's", len(f.Functions))
	}
	for _, fn := range f.Functions {
		if fn.Language != Language {
			t.Errorf("%s: language %q, expected %q", fn.Name, fn.Language, Language)
		}
		if !builtinNames[fn.Name] && !isStdlib(fn.Name) {
			t.Errorf("%s: not a name of the standard library nor a builtin", fn.Name)
		}
		for _, e := range fn.Effects {
			if e.Because == "" || e.Because != strings.ToLower(e.Because[:1])+e.Because[1:] || strings.HasSuffix(e.Because, ".") {
				t.Errorf("%s: reason %q does not finish the sentence", fn.Name, e.Because)
			}
		}
		switch r := fn.Returns; {
		case r == "", r == "path", isBuiltinType(r):
		case isStdlib(r) && strings.Contains(r, "."):
		default:
			t.Errorf("%s: returns %q, expected path, a builtin type or a class of the standard library", fn.Name, r)
		}
		for _, s := range []string{fn.Opens, fn.Writes} {
			if s != "" && !argSpec.MatchString(s) {
				t.Errorf("%s: argument %q, expected positions and keywords joined by |", fn.Name, s)
			}
		}
		if fn.Runs != "" && fn.Runs != "argv" && code.Interpreter(fn.Runs) == "" {
			t.Errorf("%s: runs %q, expected argv or a language", fn.Name, fn.Runs)
		}
	}
}

// TestBuiltinLibraryLoadsPython: the built-in library of Ahab's own
// judgement has the table, and Ahab 0.2's has none of it.
func TestBuiltinLibraryLoadsPython(t *testing.T) {
	if _, ok := spec.Builtin().Function(Language, "time.time"); !ok {
		t.Error("time.time is not in the built-in library")
	}
	if _, ok := spec.BuiltinFor(mode.Ahab02).Function(Language, "time.time"); ok {
		t.Error("time.time is in Ahab 0.2's library")
	}
}

// TestUserSpecsExtendTheTable: a --repro-specs file can describe a
// function of a library the table does not know, and a program that
// calls it is judged by it.
func TestUserSpecsExtendTheTable(t *testing.T) {
	dir := t.TempDir()
	specs := filepath.Join(dir, "specs.json")
	data := `{"functions": {"python": {"buildinfo.stamp": {"effects": [{"value": "clock", "because": "it returns the build's start time"}]}}}}`
	if err := os.WriteFile(specs, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := spec.LoadBuiltin(mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.LoadFile(specs); err != nil {
		t.Fatal(err)
	}
	prog := code.Program{Language: code.Python, Text: "from buildinfo import stamp\nprint(stamp())\n"}
	out := Reader{}.Read(prog, code.Env{Library: lib})
	if got := found(out); len(got) != 1 || got[0] != "stdout clock stamp()" {
		t.Errorf("got %q", got)
	}
	if len(out.Unread) != 1 || !strings.Contains(out.Unread[0], "import buildinfo") {
		t.Errorf("unread %q: the module itself was not read", out.Unread)
	}
}
