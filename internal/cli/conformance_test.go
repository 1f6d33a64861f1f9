package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// conformanceDir is the public conformance set: dumps with the report the
// original Ahab 0.2.0 wrote for each (testdata/conformance/README.md).
const conformanceDir = "../../testdata/conformance"

// testSystem is a System with no terminal and only the given environment.
func testSystem(env map[string]string) (System, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return System{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		LookupEnv: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		},
		Environ: func() []string {
			var out []string
			for k, v := range env {
				out = append(out, k+"="+v)
			}
			return out
		},
	}, &stdout, &stderr
}

// TestConformance runs every dump of the conformance set under --compat
// 0.2 and compares the JSON report with the original's byte for byte.
func TestConformance(t *testing.T) {
	dumps, _ := filepath.Glob(filepath.Join(conformanceDir, "real", "*.pb"))
	more, _ := filepath.Glob(filepath.Join(conformanceDir, "synthetic", "*.json"))
	for _, d := range more {
		if strings.Count(filepath.Base(d), ".") == 1 { // a.json, not a.expected.json
			dumps = append(dumps, d)
		}
	}
	if len(dumps) < 10 {
		t.Fatalf("found %d conformance dumps, want 10: %v", len(dumps), dumps)
	}
	for _, dump := range dumps {
		name := strings.TrimSuffix(filepath.Base(dump), filepath.Ext(dump))
		t.Run(name, func(t *testing.T) {
			want := strings.TrimSuffix(dump, filepath.Ext(dump)) + ".expected.json"
			compareReport(t, []string{"--aquery-file", dump}, want)
		})
	}
	t.Run("f.with-specs", func(t *testing.T) {
		dir := filepath.Join(conformanceDir, "synthetic")
		stderr := compareReport(t, []string{
			"--aquery-file", filepath.Join(dir, "f.json"),
			"--repro-specs", filepath.Join(dir, "f.specs.json"),
			"--exceptions-json", filepath.Join(dir, "f.exceptions.json"),
		}, filepath.Join(dir, "f.with-specs.expected.json"))
		for _, want := range []string{
			"warning: 2 exceptions matched nothing:\n",
			"  - \"the code generator is vouched for by f.specs.json now\" (f.exceptions.json)\n",
			"  - \"retired toolchain\" (f.exceptions.json)\n",
			"(13 violations suppressed by 8 exceptions)",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	})
}

// TestParity runs the reproducers of differences from the original that
// the differential test of issue #26 found (testdata/parity/README.md),
// as TestConformance runs the original's own reports.
func TestParity(t *testing.T) {
	const dir = "testdata/parity"
	for _, tc := range []struct {
		name string
		args []string
		want string
		text []string // in the text report
	}{
		{"an_action_without_a_target_and_a_required_prefix",
			[]string{"--repro-specs", filepath.Join(dir, "specs.json")}, "specs.expected.json",
			[]string{
				"Genrule action for target <unknown target> references absolute path \"/opt/x\"",
				"*Gen action for target //gen:star runs program \"//tools/pack\" non-reproducibly: it needs an option it was not given, but none of --mode=*-safe was passed",
			}},
		{"any_mnemonic_excuses_one_that_starts_with_a_star",
			[]string{"--repro-specs", filepath.Join(dir, "specs.json"), "--exceptions-json", filepath.Join(dir, "exceptions.json")},
			"exceptions.expected.json",
			[]string{"(1 violation suppressed by 1 exception)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := compareReport(t, append([]string{"--aquery-file", filepath.Join(dir, "dump.json")}, tc.args...), filepath.Join(dir, tc.want))
			for _, want := range tc.text {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "for target  ") || strings.Contains(out, "matched nothing") {
				t.Errorf("the report names no target, or an exception matched nothing:\n%s", out)
			}
		})
	}
}

// compareReport runs ahab --compat 0.2 and compares its JSON report with
// wantFile; it returns what ahab printed, stderr then stdout.
func compareReport(t *testing.T, args []string, wantFile string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	sys, stdout, stderr := testSystem(nil)
	code := Main(append(args, "--compat", "0.2", "--write-json", out, "--no-fail", "--shut-up"), sys)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(wantFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report differs from %s:\n%s", wantFile, lineDiff(string(want), string(got)))
	}
	return stderr.String() + stdout.String()
}

// lineDiff is a short, readable account of where two texts part ways.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			lo := max(0, i-8)
			return "first difference at line " + strconv.Itoa(i+1) + ":\nwant: " + strings.Join(w[lo:min(len(w), i+4)], "\n      ") + "\ngot:  " + strings.Join(g[lo:min(len(g), i+4)], "\n      ")
		}
	}
	return "(same lines)"
}
