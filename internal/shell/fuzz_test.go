package shell

import (
	"strings"
	"testing"
)

// FuzzAnalyze checks that any script either fails to parse with a
// *ParseError or yields a model whose indexes and positions hold.
func FuzzAnalyze(f *testing.F) {
	for _, seed := range []string{
		"echo $RANDOM > out",
		"source external/bazel_tools/tools/genrule/genrule-setup.sh; d=$(mktemp -d); tar -cf out -C $d .",
		"f() { date; }; f | tee out",
		"cat > out <<EOF\n$(date)\nEOF",
		"eval 'bash -c \"date > out\"'",
		"find . -exec cat {} + | xargs -n1 echo > out",
		"x=${y:-$(pwd)}; echo ${x#/} ${#x} ${x/a/b} > out",
		"for i in a b; do case $i in a) date;; esac; done > out",
		"exec > out; echo $((RANDOM % 6)) <(uname -a) >(cat)",
	} {
		f.Add(seed, "arg")
	}
	f.Fuzz(func(t *testing.T, script, arg string) {
		if len(script) > 4096 {
			return // keep each run fast; size bounds are tested in TestHostileScripts
		}
		Recognize(append([]string{"/bin/bash"}, strings.Fields(script)...))
		s, err := Analyze(Invocation{Shell: "bash", Script: script, Args: []string{"zero", arg}}, Options{})
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T %v, want a *ParseError", err, err)
			}
			return
		}
		if len(s.Commands) > maxCommands {
			t.Fatalf("%d commands, more than %d", len(s.Commands), maxCommands)
		}
		for _, c := range s.Commands {
			if c.Pos.Offset < 0 || c.Pos.Offset > len(script) || c.Pos.Line < 1 || c.Pos.Column < 1 {
				t.Fatalf("command %q at %+v, outside the script", c.Text, c.Pos)
			}
			if len(c.Argv) == 0 {
				t.Fatalf("command %q has no argv", c.Text)
			}
			if strings.ContainsAny(c.Text, "\n") {
				t.Fatalf("command text %q is not one line", c.Text)
			}
		}
		for _, src := range s.Sources {
			if src.Command < 0 || src.Command >= len(s.Commands) {
				t.Fatalf("source %+v enters command %d of %d", src, src.Command, len(s.Commands))
			}
			if s.Commands[src.Command].Output != Sink {
				t.Fatalf("source %+v enters %q, whose output reaches no file", src, s.Commands[src.Command].Text)
			}
		}
	})
}
