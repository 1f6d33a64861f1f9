package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/execlog/protolog"
)

// diffReport is the part of `ahab diff --write-json` the tests read.
type diffReport struct {
	Counts map[string]int `json:"counts"`
	Static *struct {
		Source     string `json:"source"`
		RootCauses int    `json:"root_causes"`
		Explained  int    `json:"explained"`
	} `json:"static"`
	Actions []struct {
		Outputs  []string `json:"outputs"`
		Mnemonic string   `json:"mnemonic"`
		Target   string   `json:"target"`
		Verdict  string   `json:"verdict"`
		Causes   []struct {
			Kind string `json:"kind"`
		} `json:"causes"`
		Explained  *bool      `json:"explained"`
		RootCauses [][]string `json:"root_causes"`
		Inside     []struct {
			Path        string `json:"path"`
			Format      string `json:"format"`
			Class       string `json:"class"`
			Differences []struct {
				At   string `json:"at"`
				What string `json:"what"`
			} `json:"differences"`
			Diffoscope string `json:"diffoscope"`
		} `json:"inside"`
	} `json:"actions"`
}

// compactOf converts a real binary log into the compact format Bazel 7.1+
// writes, which Bazel 4.2.3 cannot.
func compactOf(t *testing.T, binlog, dir string) string {
	t.Helper()
	in, err := os.Open(binlog)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	w, err := protolog.NewCompact(&out, protolog.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := protolog.ReadBinary(in, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.Base(binlog)+".compact")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDiffAgainstRealBuilds runs `ahab diff` on the logs of every workspace
// of testdata/builds, which a real Bazel built twice, in every format and
// a mix of them, and requires each spawn's verdict to be the one the two
// builds showed (truth.tsv), and every stamped action to carry its
// workspace_status cause.
func TestDiffAgainstRealBuilds(t *testing.T) {
	names, err := buildcorpus.Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		c, err := buildcorpus.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		formats := map[string][2]string{
			"json":        {c.OldLog, c.NewLog},
			"binary":      {c.OldBinlog, c.NewBinlog},
			"compact":     {compactOf(t, c.OldBinlog, dir), compactOf(t, c.NewBinlog, dir)},
			"binary+json": {c.OldBinlog, c.NewLog},
		}
		for format, logs := range formats {
			t.Run(name+"/"+format, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "diff.json")
				sys, stdout, stderr := testSystem(nil)
				code := Main([]string{"diff", logs[0], logs[1], "--aquery-file", c.Aquery, "--write-json", out}, sys)
				if code != ExitFindings {
					t.Fatalf("exit %d, want %d (the builds diverge); stderr:\n%s", code, ExitFindings, stderr)
				}
				rep := readDiffReport(t, out)
				checkVerdicts(t, rep, c)
				for _, a := range rep.Actions {
					// The dumps are of //..., which leaves out the
					// actions of external repositories.
					if a.Target == "" && !strings.Contains(a.Outputs[0], "/bin/external/") {
						t.Errorf("%s: no target, though the aquery dump names it", a.Outputs)
					}
				}
				for _, a := range rep.Actions {
					if !slices.ContainsFunc(c.Truth, func(r buildcorpus.Row) bool { return slices.Contains(a.Outputs, r.Output) }) {
						t.Errorf("%s %s: verdict %s for a spawn the truth table does not know", a.Mnemonic, a.Outputs, a.Verdict)
					}
				}
				for _, row := range c.Truth {
					if row.Cause != "stamp" || row.Verdict != buildcorpus.InputChanged {
						continue
					}
					for _, a := range rep.Actions {
						if slices.Contains(a.Outputs, row.Output) && !slices.ContainsFunc(a.Causes, func(f struct {
							Kind string `json:"kind"`
						}) bool {
							return f.Kind == "workspace_status"
						}) {
							t.Errorf("%s: stamped, but its causes %v have no workspace_status", row.Target, a.Causes)
						}
					}
				}
				if rep.Static == nil || rep.Static.RootCauses == 0 {
					t.Errorf("static: %+v, want the root causes counted", rep.Static)
				}
				if !strings.Contains(stdout.String(), "root cause") {
					t.Errorf("text report:\n%s", stdout)
				}
			})
		}
	}
}

// readDiffReport reads the JSON report of ahab diff or reprotest.
func readDiffReport(t *testing.T, path string) diffReport {
	t.Helper()
	var rep diffReport
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkVerdicts requires every spawn of c the verdict its two real builds
// showed (truth.tsv) in rep.
func checkVerdicts(t *testing.T, rep diffReport, c buildcorpus.Corpus) {
	t.Helper()
	verdicts := map[string]string{}
	for _, a := range rep.Actions {
		for _, o := range a.Outputs {
			verdicts[o] = a.Verdict
		}
	}
	for _, row := range c.Truth {
		got, ok := verdicts[row.Output]
		if !ok {
			got = "identical"
		}
		if got != string(row.Verdict) {
			t.Errorf("%s (%s %s): %s, the builds showed %s (%s)", row.Output, row.Target, row.Mnemonic, got, row.Verdict, row.Note)
		}
	}
}

// TestDiffCommandLine checks the exit statuses and messages of ahab diff.
func TestDiffCommandLine(t *testing.T) {
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.log")
	os.WriteFile(garbage, []byte("{\"commandArgs\": [\"a\"], "), 0o644)
	for _, tc := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"diverging_builds_exit_1", []string{c.OldLog, c.NewLog}, ExitFindings, "5 root causes: 1 nondeterministic, 4 input_changed", ""},
		{"no_fail_exits_0", []string{c.OldLog, c.NewLog, "--no-fail"}, ExitOK, "9 actions diverge", ""},
		{"a_log_compared_with_itself_agrees", []string{c.OldLog, c.OldBinlog}, ExitOK, "0 actions diverge, 11 identical", ""},
		{"causes_from_a_dump", []string{c.OldLog, c.NewLog, "--aquery-file", c.Aquery}, ExitFindings, "predicts 5 of 5 root causes; 0 unexplained", ""},
		{"the_summary_counts_by_mnemonic", []string{c.OldLog, c.NewLog, "--summary"}, ExitFindings, "Root causes with the largest cascades:\n  1. nondeterministic Genrule bazel-out/k8-fastbuild/bin/cascade/clock.txt: 2 downstream, 1 absorbed", ""},
		{"json_on_stdout_puts_the_text_on_stderr", []string{c.OldLog, c.NewLog, "--write-json", "-"}, ExitFindings, `"verdict":"nondeterministic"`, "Root causes, producers first:"},
		{"one_log_is_a_usage_error", []string{c.OldLog}, ExitUsage, "", "ahab diff needs two execution logs"},
		{"two_analyses_are_a_usage_error", []string{c.OldLog, c.NewLog, "//...", "--aquery-file", c.Aquery}, ExitUsage, "", "give one static analysis"},
		{"bazel_flags_need_a_label", []string{c.OldLog, c.NewLog, "--bazel-flag=--config=ci"}, ExitUsage, "", "and none is given"},
		{"an_unknown_log_format", []string{c.OldLog, c.NewLog, "--log-format", "xml"}, ExitUsage, "", "--log-format: unknown execution log format"},
		{"a_missing_log_names_the_file", []string{c.OldLog, filepath.Join(dir, "nope.log")}, ExitFailure, "", "nope.log"},
		{"a_broken_log_names_file_and_entry", []string{c.OldLog, garbage}, ExitFailure, "", "garbage.log: spawn 1"},
		{"a_missing_json_directory_fails_before_reading", []string{c.OldLog, c.NewLog, "--write-json", filepath.Join(dir, "no", "x.json")}, ExitFailure, "", "does not exist"},
		{"help", []string{"--help"}, ExitOK, "Usage: ahab diff", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, stdout, stderr := testSystem(nil)
			if code := Main(append([]string{"diff"}, tc.args...), sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// A saved report matches by target and mnemonic, which logs of Bazel 4
// do not name: the user is told, rather than shown no causes silently.
func TestDiffReportNeedsTargets(t *testing.T) {
	c, err := buildcorpus.Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "report.json")
	sys, _, stderr := testSystem(nil)
	if code := Main([]string{"--aquery-file", c.Aquery, "--write-json", saved, "--no-fail"}, sys); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sys, _, stderr = testSystem(nil)
	if code := Main([]string{"diff", c.OldLog, c.NewLog, "--report", saved}, sys); code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "the logs name no targets") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestReprotestCommandLine checks what ahab reprotest refuses before it
// builds anything.
func TestReprotestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a_label_is_required", nil, ExitUsage, "ahab reprotest needs a LABEL to build"},
		{"an_unknown_variation", []string{"//...", "--vary", "path,moon"}, ExitUsage, "--vary: "},
		{"specs_need_the_static_analysis", []string{"//...", "--no-static", "--repro-specs", "s.json"}, ExitUsage, "--no-static leaves out"},
		{"json_and_summary_on_stdout", []string{"//...", "--write-json", "-", "--summary"}, ExitUsage, "both write to standard output"},
		{"a_missing_json_directory_fails_first", []string{"//...", "--write-json", "/nonexistent/dir/x.json"}, ExitFailure, "does not exist"},
		{"vary_env_needs_a_value", []string{"//...", "--vary-env", "FLAVOR"}, ExitUsage, `--vary-env "FLAVOR": expected NAME=VALUE`},
		{"vary_env_without_the_env_variation", []string{"//...", "--vary=-env", "--vary-env", "A=b"}, ExitUsage, "--vary-env sets variables of the env variation"},
		{"user_without_the_user_variation", []string{"//...", "--vary", "path,tz", "--user", "bob"}, ExitUsage, "--user names the account of the user variation"},
		{"keep_and_keep_logs", []string{"//...", "--keep", "a", "--keep-logs", "b"}, ExitUsage, "--keep keeps the logs with the outputs"},
		{"help", []string{"--help"}, ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _, stderr := testSystem(nil)
			if code := Main(append([]string{"reprotest"}, tc.args...), sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}
