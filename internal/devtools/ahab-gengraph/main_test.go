package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/cli"
)

// The generator's three formats hold one graph: ahab reads each into the
// same report, and the report has something of every kind.
func TestEveryFormatGivesTheSameReport(t *testing.T) {
	dir := t.TempDir()
	var reports [][]byte
	for _, format := range []string{"proto", "streamed_proto", "jsonproto"} {
		dump := filepath.Join(dir, "dump."+format)
		var stderr bytes.Buffer
		if code := run([]string{"-actions", "2000", "-seed", "3", "-format", format, "-o", dump}, nil, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, &stderr)
		}
		if !strings.Contains(stderr.String(), "2000 actions") {
			t.Errorf("%s: statistics %q", format, &stderr)
		}
		out := filepath.Join(dir, format+".json")
		sys := cli.System{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
			LookupEnv: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
		if code := cli.Main([]string{"--aquery-file", dump, "--write-json", out, "--no-fail"}, sys); code != 0 {
			t.Fatalf("%s: ahab exited %d: %s", format, code, sys.Stderr)
		}
		report, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, report)
	}
	for i := 1; i < len(reports); i++ {
		if !bytes.Equal(reports[0], reports[i]) {
			t.Errorf("the reports of proto and format %d differ", i)
		}
	}
	for _, kind := range []string{"environment_leak", "bad_path", "execution_requirement", "absolute_path",
		"system_program", "host_derived_program", "unknown_program", "workspace_status", "conditional_reproducibility"} {
		if !bytes.Contains(reports[0], []byte(`"kind": "`+kind+`"`)) {
			t.Errorf("no %s in the report of a generated graph", kind)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-actions", "-1"}, {"-format", "xml"}, {"extra"}} {
		if code := run(args, nil, &bytes.Buffer{}); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// Copies of a real dump report the real dump's findings: repeated when the
// copies are left as they are, once per copy when they are renumbered.
func TestAmplify(t *testing.T) {
	dir := t.TempDir()
	report := func(args ...string) string {
		t.Helper()
		dump := filepath.Join(dir, "amp.pb")
		var stderr bytes.Buffer
		if code := run(append([]string{"-q", "-o", dump}, args...), nil, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, &stderr)
		}
		var stdout, errs bytes.Buffer
		sys := cli.System{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &errs,
			LookupEnv: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
		cli.Main([]string{"--compat", "0.2", "--aquery-file", dump, "--no-fail", "--shut-up"}, sys)
		return stdout.String() + errs.String()
	}
	real := "../../../testdata/conformance/real/webapp.pb"
	one := report("-amplify", real, "-copies", "1")
	repeated := report("-amplify", real, "-copies", "4")
	renumbered := report("-amplify", real, "-copies", "4", "-renumber")
	heading := func(s string) string { return strings.SplitN(strings.TrimSpace(s), "\n", 2)[0] }
	if !strings.HasPrefix(heading(one), "found 31 distinct") || !strings.HasPrefix(heading(repeated), "found 31 distinct") {
		t.Errorf("copies as they are: %q, then %q; want the real dump's 31 findings both times", heading(one), heading(repeated))
	}
	if !strings.HasPrefix(heading(renumbered), "found 124 distinct") {
		t.Errorf("renumbered copies: %q, want 4×31 distinct findings", heading(renumbered))
	}
	for _, args := range [][]string{{"-amplify", filepath.Join(dir, "missing.pb")}, {"-amplify", real, "-format", "jsonproto"}} {
		if code := run(args, nil, &bytes.Buffer{}); code == 0 {
			t.Errorf("%q: exit 0, want a failure", args)
		}
	}
}
