package csource

import (
	"strings"
	"testing"

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
