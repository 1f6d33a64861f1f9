package perl_test

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/interp"
	"github.com/ahab-go/ahab/internal/spec"
)

// FuzzRead: any program is read to an outcome without a panic, and each
// value it reports is placed on a line of the program.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		`print time, "\n";`,
		"my %h = (a => 1); print join(',', sort keys %h);",
		"print <<EOF . <<'E2';\n$$\nEOF\n@{[ time ]}\nE2\n",
		`my $s = "x"; $s =~ s{x}{time}e; $s =~ tr/a-z/A-Z/; print $s / 2;`,
		"=pod\n\nprint time;\n\n=cut\nprint q(a(b)c), qw/x y/, m#x#i;",
		"sub f { f(@_) } f(1);",
		"print (((((",
		"print \"unterminated",
		"print <<EOF;\nno end",
		"s{a}",
		strings.Repeat("{", 1000),
	} {
		f.Add(seed)
	}
	lib := spec.Builtin()
	f.Fuzz(func(t *testing.T, prog string) {
		if len(prog) > 1<<16 {
			return // the size bound is tested in TestUnread
		}
		r := interp.New(lib, nil, interp.Readers())
		o := r.Run(code.Program{Language: code.Perl, Text: prog, File: "x.pl", Site: effect.Site{File: "x.pl", Line: 1}})
		lines := strings.Count(prog, "\n") + 1
		for _, rs := range [][]effect.Reach{o.Stdout, o.Files} {
			for _, r := range rs {
				if r.Site.File != "x.pl" || r.Site.Line < 1 || r.Site.Line > lines {
					t.Fatalf("reach %+v outside the program's %d lines", r, lines)
				}
			}
		}
	})
}
