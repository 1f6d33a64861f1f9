package interp

import (
	"bufio"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestEveryReaderIsRegistered: each language of code is read by a reader,
// the shell's by the Runner itself.
func TestEveryReaderIsRegistered(t *testing.T) {
	readers := Readers()
	for _, lang := range []string{code.Awk, code.C, code.Perl, code.JavaScript, code.Make, code.Python} {
		if _, ok := readers[lang]; !ok {
			t.Errorf("no reader of %s", lang)
		}
	}
	r := New(spec.Builtin(), nil, readers)
	o := r.Run(code.Program{Language: code.Ruby, Text: "puts Time.now", File: "tools/x.rb"})
	if len(o.Unread) != 1 || !strings.Contains(o.Unread[0], "ruby is a language Ahab does not read") {
		t.Errorf("a language nobody reads: %q", o.Unread)
	}
}

// workspace reads the files of a workspace directory by exec path.
type workspace string

func (w workspace) Program(p string) (code.Source, error) { return w.Read(p) }
func (w workspace) Read(p string) (code.Source, error) {
	if path.IsAbs(p) || strings.HasPrefix(path.Clean(p), "..") {
		return code.Source{}, errors.New(p + ": not in the workspace")
	}
	data, err := os.ReadFile(filepath.Join(string(w), filepath.FromSlash(p)))
	if err != nil {
		return code.Source{}, err
	}
	return code.Source{Path: p, Text: string(data), Language: code.Language(p, string(data))}, nil
}
func (w workspace) Inputs() []string { return nil }

// TestHostToolsWithReaders predicts, with the readers of every language,
// the cases of the real double builds (testdata/hosttools) whose actions
// run code in a language besides the shell's: inline Perl, awk and
// JavaScript, and C sources compiled by hand. A case is predicted to
// differ when a varying value reaches one of its outputs, and every case
// must come out as the builds showed.
func TestHostToolsWithReaders(t *testing.T) {
	t.Run("tuned", func(t *testing.T) {
		hostTools(t, "../../testdata/hosttools", map[string]bool{
			"perl_time": true, "awk_srand": true, "awk_srand_seeded": true, "node_fixed": true,
			"text_tools": true, "file_more": true, "gcc_date": true, "gcc_date_defined": true,
			"gcc_date_sde": true, "gcc_plain": true, "clang_plain": true,
		})
	})
	t.Run("held-out", func(t *testing.T) {
		hostTools(t, "../../testdata/hosttools/heldout", map[string]bool{"h_gcc_O2": true, "h_gcc_g_debug_map": true})
	})
}

func hostTools(t *testing.T, dir string, cases map[string]bool) {
	results := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, r, ok := strings.Cut(sc.Text(), "\t"); ok {
			results[name] = r
		}
	}
	dump, err := os.Open(filepath.Join(dir, "aquery.pb"))
	if err != nil {
		t.Fatal(err)
	}
	defer dump.Close()
	var actions []*aquery.Action
	g, err := aquery.Decode(dump, "aquery.pb", aquery.Options{ArtifactPaths: true}, func(_ int, a *aquery.Action) error {
		actions = append(actions, a)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lib := spec.Builtin()
	seen := map[string]bool{}
	for _, a := range actions {
		name, ok := strings.CutPrefix(g.Target(a.TargetID), "//gen:")
		if !ok || !cases[name] {
			continue
		}
		seen[name] = true
		var outputs []string
		for _, id := range a.OutputIDs {
			if p, ok := g.ArtifactPath(id); ok {
				outputs = append(outputs, p)
			}
		}
		inv, ok := shell.Recognize(a.Arguments)
		if !ok {
			t.Errorf("%s: not a shell: %q", name, a.Arguments)
			continue
		}
		ws := workspace(filepath.Join(dir, "ws"))
		s, err := shell.Analyze(inv, shell.Options{Library: lib, Outputs: outputs, Files: ws, Runner: New(lib, ws, Readers())})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := "same"
		var why []string
		for _, src := range s.Sources {
			got = "differs"
			why = append(why, src.Value.String()+" "+src.Text+" at "+src.Site.String())
		}
		if got != results[name] {
			t.Errorf("%s: predicted %s, the builds say %s\n\tscript: %s\n\tsources: %q\n\tunread: %q", name, got, results[name], inv.Script, why, s.Unread)
		}
		t.Logf("%-18s builds %-7s predicted %-7s %s", name, results[name], got, strings.Join(why, "; "))
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("%s: not in aquery.pb", name)
		}
	}
}

// files is a workspace held in memory.
type files map[string]string

func (f files) Program(p string) (code.Source, error) { return f.Read(p) }
func (f files) Read(p string) (code.Source, error) {
	text, ok := f[path.Clean(p)]
	if !ok {
		return code.Source{}, errors.New(p + ": not an input of the action")
	}
	return code.Source{Path: p, Text: text, Language: code.Language(p, text)}, nil
}
func (f files) Inputs() []string { return nil }

// TestUsesFile: a C source's headers are followed when the source is
// named by its path.
func TestUsesFile(t *testing.T) {
	ws := files{
		"src/stamp.c": "#include \"when.h\"\nconst char *s = WHEN;\n",
		"src/when.h":  "#define WHEN __DATE__\n",
		"src/plain.c": "int x;\n",
	}
	r := New(spec.Builtin(), ws, Readers())
	if got := r.UsesFile(code.C, "src/stamp.c"); !slices.Equal(got, []string{"source:__DATE__"}) {
		t.Errorf("UsesFile(src/stamp.c) = %q, want source:__DATE__ from its header", got)
	}
	if got := r.UsesFile(code.C, "src/plain.c"); len(got) != 0 {
		t.Errorf("UsesFile(src/plain.c) = %q, want nothing", got)
	}
	if got := New(spec.Builtin(), nil, Readers()).UsesFile(code.C, "src/stamp.c"); len(got) != 0 {
		t.Errorf("with no workspace: %q, want nothing", got)
	}
}

// TestThroughTheShell: the ways a shell script hands code to the readers:
// inline, bundled options, here-documents, script files, sources compiled.
func TestThroughTheShell(t *testing.T) {
	ws := files{
		"tools/stamp.pl":  "#!/usr/bin/perl\nprint scalar localtime, \"\\n\";\n",
		"tools/fixed.pl":  "print \"fixed\\n\";\n",
		"tools/stamp.awk": "BEGIN { print systime() }\n",
		"tools/stamp.js":  "console.log(Date.now())\n",
		"tools/fixed.js":  "console.log(42)\n",
		"src/stamp.c":     "#include \"when.h\"\nconst char *s = WHEN;\n",
		"src/when.h":      "#define WHEN __DATE__\n",
		"src/plain.c":     "int x;\n",
		"src/dated.c":     "const char *d = __DATE__;\n",
	}
	tests := []struct {
		name, script string
		want         []string
	}{
		{"perl -e", `perl -e 'print time' > out`, []string{"clock time"}},
		{"perl -e to stderr", `perl -e 'print STDERR time' > out`, nil},
		{"perl -ne", `perl -ne 'print time, $_' in.txt > out`, []string{"clock time"}},
		{"perl -lane", `perl -lane 'print $F[0]' in.txt > out`, nil},
		{"perl -pe", `perl -pe 's/x/y/' in.txt > out`, nil},
		{"perl here-document", "perl <<'EOF' > out\nprint time;\nEOF", []string{"clock time"}},
		{"perl script", `perl tools/stamp.pl > out`, []string{"clock localtime"}},
		{"perl fixed script", `perl tools/fixed.pl > out`, nil},
		{"perl writing its output itself", `perl -e 'open(my $f, ">", $ARGV[0]); print $f time' out`, []string{"clock time"}},
		{"awk", `awk 'BEGIN { print systime() }' > out`, []string{"clock systime()"}},
		{"awk -f", `awk -f tools/stamp.awk > out`, []string{"clock systime()"}},
		{"gawk seeded", `gawk 'BEGIN { srand(1); print rand() }' > out`, nil},
		{"awk running date", `awk 'BEGIN { "date" | getline d; print d }' > out`, []string{"clock date"}},
		{"node -e", `node -e 'console.log(Date.now())' > out`, []string{"clock Date.now()"}},
		{"node fixed", `node -e 'console.log(6 * 7)' > out`, nil},
		{"node script", `node tools/stamp.js > out`, []string{"clock Date.now()"}},
		{"node fixed script", `node tools/fixed.js > out`, nil},
		{"gcc of a source using __DATE__", `gcc -c src/dated.c -o out`, []string{"clock gcc"}},
		// The headers a source includes are read too.
		{"gcc of a source using __DATE__ through a header", `gcc -c src/stamp.c -o out`, []string{"clock gcc"}},
		{"gcc of a source using __DATE__ defined away", `gcc -D__DATE__='"x"' -c src/dated.c -o out`, nil},
		{"gcc of a plain source", `gcc -c src/plain.c -o out`, nil},
	}
	lib := spec.Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := shell.Analyze(shell.Invocation{Shell: "/bin/bash", Script: tt.script}, shell.Options{Library: lib, Outputs: []string{"out"}, Files: ws, Runner: New(lib, ws, Readers())})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, src := range s.Sources {
				got = append(got, src.Value.String()+" "+src.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s\n got %q (unread %q)\nwant %q", tt.script, got, s.Unread, tt.want)
			}
		})
	}
}
