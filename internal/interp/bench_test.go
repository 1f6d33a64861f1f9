package interp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/spec"
)

// programs are build scripts of a realistic size (about a thousand
// lines: a code generator with helpers, tables and loops), one per
// language, for BenchmarkRead.
func programs() map[string]string {
	var perl, awk, js, c strings.Builder
	perl.WriteString("use strict;\nuse warnings;\nuse POSIX qw(strftime);\nmy %table;\nmy $out = shift;\nopen(my $fh, '>', $out) or die;\n")
	awk.WriteString("BEGIN { FS = \",\" }\n")
	js.WriteString("const fs = require('fs');\nconst path = require('path');\nconst out = [];\n")
	for i := range 100 {
		fmt.Fprintf(&perl, "sub gen%d {\n  my ($name, @rest) = @_;\n  my %%h = (name => $name, n => %d, rest => [@rest]);\n  for my $k (sort keys %%h) {\n    $table{\"$name.$k\"} = $h{$k};\n  }\n  return sprintf(\"%%s_%%d\", $name, %d);\n}\nprint $fh gen%d(\"x%d\", 1, 2), \"\\n\";\n", i, i, i, i, i)
		fmt.Fprintf(&awk, "$1 == \"k%d\" {\n  count[$2]++\n  total += $3 * %d\n  names[NR] = $2 \"_%d\"\n  if (length($4) > %d) printf \"%%s %%d\\n\", $4, NR > \"out\"\n}\n", i, i, i, i)
		fmt.Fprintf(&js, "function gen%d(name, ...rest) {\n  const o = { name, n: %d, rest };\n  for (const k of Object.keys(o).sort()) {\n    out.push(`${name}.${k}=${o[k]}`);\n  }\n  return path.join('gen', name + '_%d');\n}\nout.push(gen%d('x%d', 1, 2));\n", i, i, i, i, i)
		fmt.Fprintf(&c, "/* generated %d */\n#include \"gen%d.h\"\nstatic const char *name%d = \"x%d\"; // note\nint f%d(int a) {\n  return a * %d + sizeof(name%d);\n}\n", i, i, i, i, i, i, i)
	}
	perl.WriteString("close $fh;\n")
	awk.WriteString("END { for (k in count) print k, count[k] > \"out\"; print total }\n")
	js.WriteString("fs.writeFileSync(process.argv[2], out.join('\\n'));\n")
	return map[string]string{code.Perl: perl.String(), code.Awk: awk.String(), code.JavaScript: js.String(), code.C: c.String()}
}

func BenchmarkRead(b *testing.B) {
	lib := spec.Builtin()
	for _, lang := range []string{code.Perl, code.Awk, code.JavaScript, code.C} {
		text := programs()[lang]
		b.Run(lang, func(b *testing.B) {
			r := New(lib, nil, Readers())
			p := code.Program{Language: lang, Text: text, File: "tools/gen", Site: effect.Site{File: "tools/gen", Line: 1}, Outputs: []string{"out"}, Args: []code.Arg{{Text: "out", Known: true}}}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				var o code.Outcome
				if lang == code.C {
					o.Unread = r.Uses(lang, text)
				} else {
					o = r.Run(p)
				}
				if len(o.Unread) > 0 && lang != code.C {
					b.Fatalf("unread: %q", o.Unread)
				}
			}
		})
	}
}
