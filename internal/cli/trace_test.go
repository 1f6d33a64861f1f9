package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/trace"
)

func TestTraceCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a_label_is_required", []string{"trace"}, ExitUsage, "ahab trace needs a LABEL to build\n\nRun 'ahab trace --help' for usage."},
		{"an_empty_label", []string{"trace", "//a", " "}, ExitUsage, "an empty LABEL"},
		{"a_bad_compilation_mode", []string{"trace", "//a", "--compilation-mode", "fast"}, ExitUsage, `--compilation-mode "fast", expected one of`},
		{"json_and_summary_on_stdout", []string{"trace", "//a", "--write-json", "-", "--summary"}, ExitUsage, "both write to standard output"},
		{"write_json_once", []string{"trace", "--write-json", "a", "--write-json", "b", "//a"}, ExitUsage, "already given as"},
		{"an_unknown_flag", []string{"trace", "--aquery-file", "x", "//a"}, ExitUsage, "unknown flag: --aquery-file"},
		{"help", []string{"trace", "--help"}, ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, stdout, stderr := testSystem(nil)
			if code := Main(tc.args, sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			if tc.code == ExitOK && !strings.Contains(stdout.String(), "Usage: ahab trace [flags] LABEL") {
				t.Errorf("help:\n%s", stdout)
			}
		})
	}
}

func TestTraceWithoutStrace(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": t.TempDir()})
	if code := Main([]string{"trace", "//a"}, sys); code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	want := "Error: strace not found (exec: \"strace\": executable file not found in $PATH): ahab trace runs the build under strace; install it with `apt-get install strace`\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

func TestTraceOutsideAWorkspace(t *testing.T) {
	dir := t.TempDir()
	// A fake strace: found on PATH, never run.
	if err := os.WriteFile(filepath.Join(dir, "strace"), []byte("#!/bin/sh\nexit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": dir})
	if code := Main([]string{"trace", "//a"}, sys); code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	if !strings.Contains(stderr.String(), ": not in a Bazel workspace, expected a WORKSPACE, WORKSPACE.bazel or MODULE.bazel file here or above\n") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestTraceChecksTheReportDirectoryFirst(t *testing.T) {
	// No strace on PATH: the directory is checked before anything runs.
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": dir})
	if code := Main([]string{"trace", "--write-json", "missing/r.json", "//a"}, sys); code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	want := "Error: --write-json " + quoteArg(filepath.Join(dir, "missing", "r.json")) + ": the directory " + quoteArg(filepath.Join(dir, "missing")) + " does not exist, expected an existing directory to write the report in\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

func TestTraceBadReproSpecs(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "specs.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	sys, _, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": dir})
	if code := Main([]string{"trace", "--repro-specs", "specs.json", "//a"}, sys); code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	if !strings.Contains(stderr.String(), "specs.json") || strings.Contains(stderr.String(), "strace") {
		t.Errorf("stderr %q, want an error naming the spec file, before strace is looked for", stderr)
	}
}

// presentTrace puts the reports where the analysis puts its own.
func TestPresentTrace(t *testing.T) {
	dirty := &trace.Report{
		Static: "bazel aquery //pkg:all",
		Actions: []trace.ActionReport{{
			ActionRef:  trace.ActionRef{Target: "//pkg:host_leak", Mnemonic: "Genrule", Outputs: []string{"bazel-out/bin/pkg/host_leak.txt"}},
			Undeclared: []trace.Undeclared{{Path: "/etc/os-release", Class: trace.HostFile}},
			Causes: []finding.Finding{{Kind: finding.AbsolutePath, Action: finding.ActionRef{Mnemonic: "Genrule", Target: "//pkg:host_leak"},
				Site: finding.Site{Location: finding.Argument, Value: "cat /etc/os-release"}, Path: "/etc/os-release"}},
		}},
	}
	clean := &trace.Report{Static: "bazel aquery //pkg:all", Actions: []trace.ActionReport{{ActionRef: trace.ActionRef{Target: "//pkg:honest", Mnemonic: "Genrule"}}}}
	const textMark = "  host_file          /etc/os-release\n"
	for _, tc := range []struct {
		name           string
		report         *trace.Report
		writeJSON      string
		summary        bool
		noFail         bool
		code           int
		stdout, stderr string // what each must contain ("" for nothing at all)
		file           bool   // the JSON report is written to report.json
	}{
		{"text_on_stdout", dirty, "", false, false, ExitFindings, textMark, "", false},
		{"clean", clean, "", false, false, ExitOK, "1 action traced; 0 read paths they had not declared.\n", "", false},
		{"json_to_a_file", dirty, "report.json", false, false, ExitFindings, textMark, "", true},
		{"json_on_stdout_text_on_stderr", dirty, "-", false, false, ExitFindings, `"class": "host_file"`, textMark, false},
		{"no_fail", dirty, "", false, true, ExitOK, textMark, "", false},
		{"summary", dirty, "", true, false, ExitFindings, "Paths read by the most actions:\n  1. /etc/os-release: 1 action\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sys, stdout, stderr := testSystem(map[string]string{"BUILD_WORKING_DIRECTORY": dir})
			code := finish(sys, command{Name: "ahab trace", Failure: ExitFailure}, presentTrace(sys, newResolver(sys), tc.writeJSON, tc.summary, tc.noFail, tc.report))
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, s := range []struct {
				name, got, want string
			}{{"stdout", stdout.String(), tc.stdout}, {"stderr", stderr.String(), tc.stderr}} {
				if s.want == "" && s.got != "" || !strings.Contains(s.got, s.want) {
					t.Errorf("%s %q, want it to hold %q", s.name, s.got, s.want)
				}
			}
			if tc.writeJSON == "-" {
				var doc struct {
					Actions []struct {
						Causes []map[string]any `json:"causes"`
					} `json:"actions"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Actions) != 1 || len(doc.Actions[0].Causes) != 1 || doc.Actions[0].Causes[0]["kind"] != "absolute_path" {
					t.Errorf("stdout is not the JSON report with its cause (%v):\n%s", err, stdout)
				}
			}
			data, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if tc.file != (err == nil) || tc.file && !strings.Contains(string(data), `"path": "/etc/os-release"`) {
				t.Errorf("report.json: %v\n%s", err, data)
			}
		})
	}
}
