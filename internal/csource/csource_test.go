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

// TestRead: what a program compiled from a source gives when it runs, by
// what it calls of the C library, each case beside its twin that does not
// vary.
func TestRead(t *testing.T) {
	lib := spec.Builtin()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"the time printed", "#include <time.h>\nint main(void) {\n  printf(\"%ld\\n\", (long)time(NULL));\n}\n", []string{"clock time() gen.c:3"}},
		{"a fixed text printed", "int main(void) { puts(\"hello\"); }\n", nil},
		{"a member named like a function", "struct s { long time; };\nlong f(struct s *p, struct s q) { return p->time + q.time; }\n", nil},
		{"a variable named like a function", "int main(void) { long time = 0; return time; }\n", nil},
		{"in a comment and a string", "/* time() */ const char *s = \"getpid()\";\n", nil},
		{"rand unseeded gives the same numbers", "int main(void) { return rand(); }\n", nil},
		{"rand seeded with a constant", "int main(void) { srand(42); return rand(); }\n", nil},
		{"rand seeded from the clock", "int main(void) {\n  srand(time(NULL));\n  return rand();\n}\n", []string{"clock time() gen.c:2", "random rand() gen.c:3"}},
		{"rand seeded from the process id", "int main(void) { srand(getpid() ^ 7); return rand(); }\n", []string{"pid getpid() gen.c:1", "random rand() gen.c:1"}},
		{"a directory listed", "int main(void) { DIR *d = opendir(\".\"); struct dirent *e;\n  while ((e = readdir(d))) puts(e->d_name);\n}\n", []string{"order readdir() gen.c:2"}},
		{"the host and the user", "int main(void) { char h[64]; gethostname(h, 64); printf(\"%s %d\", h, getuid()); }\n", []string{"hostname gethostname() gen.c:1", "user getuid() gen.c:1"}},
		{"the working directory", "int main(void) { char b[4096]; puts(getcwd(b, sizeof b)); }\n", []string{"pwd getcwd() gen.c:1"}},
		{"a local time", "int main(void) { time_t t = 0; puts(ctime(&t)); }\n", []string{"timezone ctime() gen.c:1"}},
		{"lines counted across a splice", "#define X \\\n  1\nint main(void) { return time(0); }\n", []string{"clock time() gen.c:3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := codetest.Inputs{"gen.c": tt.src}
			out := Reader{}.Read(code.Program{Language: code.C, File: "gen.c"}, code.Env{Library: lib, Files: files})
			var got []string
			for _, r := range out.Stdout {
				got = append(got, r.Value.String()+" "+r.Text+" "+r.Site.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s\n got %q\nwant %q", tt.src, got, tt.want)
			}
			if len(out.Files) != len(out.Stdout) {
				t.Errorf("the files get %d values, standard output %d: both get every one", len(out.Files), len(out.Stdout))
			}
		})
	}
}
