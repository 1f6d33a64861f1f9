package csource

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/spec"
)

// FuzzUses: any text is scanned to its end without a panic, and what it
// uses are names of the library, each once and sorted.
func FuzzUses(f *testing.F) {
	for _, seed := range []string{
		`const char *s = __DATE__ " " __TIME__;`,
		"#include \"a.h\"\n#define X __FILE__\n",
		`R"abc(__DATE__)abc" L'x' u8"y" 0x1p-3 1'000`,
		"/* unterminated comment __DATE__",
		"\"unterminated string \\",
		"R\"(never closed",
		"#",
		"\\\n\\\n\\",
		strings.Repeat("(", 10000),
	} {
		f.Add(seed)
	}
	lib := spec.Builtin()
	f.Fuzz(func(t *testing.T, text string) {
		got := Reader{}.Uses(text, lib)
		for i, fact := range got {
			name, ok := strings.CutPrefix(fact, "source:")
			if !ok {
				t.Fatalf("fact %q is not source:NAME", fact)
			}
			if _, ok := lib.Function(Language, name); !ok {
				t.Fatalf("fact %q names no function of the library", fact)
			}
			if i > 0 && got[i-1] >= fact {
				t.Fatalf("facts %q not sorted and unique", got)
			}
		}
		for _, inc := range Includes(text) {
			if inc == "" || strings.ContainsAny(inc, "\"\n") {
				t.Fatalf("include %q of %q", inc, text)
			}
		}
	})
}

// FuzzRead: any source run as a program is read without a panic, and each
// value it reports is a call of the library's C functions placed on a line
// the source has.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"int main(void) { srand(time(NULL)); return rand(); }\n",
		"#define T \\\n time(0)\nlong x = T;\n",
		"p->time(); s.getpid(); getcwd(b, sizeof(b)",
		"srand(((((",
		"readdir)))(",
		strings.Repeat("time(", 5000),
	} {
		f.Add(seed)
	}
	lib := spec.Builtin()
	f.Fuzz(func(t *testing.T, text string) {
		out := Reader{}.Read(code.Program{Language: code.C, Text: text, File: "gen.c"}, code.Env{Library: lib})
		lines := strings.Count(text, "\n") + 1
		for _, r := range out.Stdout {
			name, ok := strings.CutSuffix(r.Text, "()")
			if _, known := lib.Function(Runtime, name); !ok || !known {
				t.Fatalf("reach %+v is not a call of the library", r)
			}
			if r.Site.File != "gen.c" || r.Site.Line < 1 || r.Site.Line > lines {
				t.Fatalf("reach %+v outside the source's %d lines", r, lines)
			}
		}
	})
}
