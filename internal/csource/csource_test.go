package csource

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestUses: which of the compiler's varying names a source uses, one row
// per construct, each case that counts beside its twin that does not.
func TestUses(t *testing.T) {
	lib := spec.Builtin()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"date and time", `const char *built = __DATE__ " " __TIME__;`, []string{"source:__DATE__", "source:__TIME__"}},
		{"no macro", `const char *built = "today";`, nil},
		{"timestamp", `puts(__TIMESTAMP__);`, []string{"source:__TIMESTAMP__"}},
		{"file", `printf("%s\n", __FILE__);`, []string{"source:__FILE__"}},
		{"base file", `return __BASE_FILE__;`, []string{"source:__BASE_FILE__"}},
		{"in a line comment", "int x; // built on __DATE__\n", nil},
		{"in a block comment", "/* __TIME__\n __DATE__ */ int x;", nil},
		{"in a string", `const char *s = "__DATE__";`, nil},
		{"in a character literal", `int c = '__DATE__';`, nil},
		{"in a wide string", `const wchar_t *s = L"__DATE__";`, nil},
		{"in a raw string", `const char *s = R"x(__DATE__ ")" )x"; int d = 0;`, nil},
		{"after a raw string", `const char *s = R"(a)"; const char *d = __DATE__;`, []string{"source:__DATE__"}},
		{"in a define", "#define STAMP __DATE__\nconst char *s = STAMP;", []string{"source:__DATE__"}},
		{"a longer name", `int __DATE___x = 1;`, nil},
		{"a name beginning with it", `int x__TIME__ = 1;`, nil},
		{"spliced across lines", "const char *s = __DA\\\nTE__;", []string{"source:__DATE__"}},
		{"comment spliced onto the next line", "// note \\\n__DATE__\nint x;", nil},
		{"escaped quote in a string", `const char *s = "a\"__DATE__"; int y;`, nil},
		{"unterminated string ends at the line", "const char *s = \"abc\nconst char *d = __TIME__;", []string{"source:__TIME__"}},
		{"counter does not vary", `int n = __COUNTER__;`, nil},
		{"line does not vary", `int n = __LINE__;`, nil},
		{"number with an exponent", `double d = 1e__DATE__;`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Reader{}.Uses(tt.src, lib)
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Uses(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestIncludes(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"quoted", "#include \"stamp.h\"\n", []string{"stamp.h"}},
		{"angle brackets are the system's", "#include <stdio.h>\n", nil},
		{"spaces", "  #  include   \"a/b.h\" // why\n", []string{"a/b.h"}},
		{"import and include_next", "#import \"a.h\"\n#include_next \"b.h\"\n", []string{"a.h", "b.h"}},
		{"not at the start of a line", "int x; #include \"a.h\"\n", nil},
		{"in a comment", "/*\n#include \"a.h\"\n*/\n", nil},
		{"a define is not an include", "#define X \"a.h\"\n", nil},
		{"unterminated", "#include \"a.h\n", nil},
		{"a macro", "#include HEADER\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Includes(tt.src); !slices.Equal(got, tt.want) {
				t.Errorf("Includes(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestUsesFile(t *testing.T) {
	lib := spec.Builtin()
	ws := codetest.Files{
		"src/main.c":          "#include \"stamp.h\"\n#include <stdio.h>\n#include \"missing.h\"\nint main(void) { puts(STAMP); }\n",
		"src/stamp.h":         "#include \"inner/when.h\"\n#define STAMP WHEN\n",
		"src/inner/when.h":    "#include \"../stamp.h\"\n#define WHEN __TIME__\n",
		"src/plain.c":         "#include \"plain.h\"\nint f(void) { return 1; }\n",
		"src/plain.h":         "int f(void);\n",
		"src/loop.c":          "#include \"loop.c\"\n",
		"src/self_file.c":     "const char *f = __FILE__;\n",
		"src/include_dated.c": "#include \"inner/when.h\"\n",
	}
	tests := []struct {
		file string
		want []string
	}{
		{"src/main.c", []string{"source:__TIME__"}},
		{"src/plain.c", nil},
		{"src/loop.c", nil},
		{"src/self_file.c", []string{"source:__FILE__"}},
		{"src/include_dated.c", []string{"source:__TIME__"}},
		{"src/absent.c", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := UsesFile(tt.file, ws, lib)
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("UsesFile(%s) = %q, want %q", tt.file, got, tt.want)
			}
		})
	}
}

// TestUsesFileBound: a chain of includes longer than MaxFiles is read to
// MaxFiles files.
func TestUsesFileBound(t *testing.T) {
	ws := codetest.Files{}
	for i := range MaxFiles + 10 {
		ws[name(i)] = "#include \"" + strings.TrimPrefix(name(i+1), "src/") + "\"\n"
	}
	ws[name(MaxFiles+5)] = "const char *d = __DATE__;\n"
	if got := UsesFile(name(0), ws, spec.Builtin()); len(got) != 0 {
		t.Errorf("UsesFile read past %d files: %q", MaxFiles, got)
	}
}

func name(i int) string { return "src/h" + strings.Repeat("x", i) + ".h" }

func TestReadFindsNothing(t *testing.T) {
	out := Reader{}.Read(code.Program{Language: code.C, Text: "const char *d = __DATE__;"}, code.Env{Library: spec.Builtin()})
	if len(out.Stdout)+len(out.Files)+len(out.Unread) != 0 {
		t.Errorf("Read of a C source = %+v, want nothing: a source is compiled, not run", out)
	}
}
