package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestPathResolution(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		set        bool
		in, want   string
	}{
		{"a_relative_output_path_lands_where_the_user_ran_ahab", "/home/mark/project", true, "out.json", "/home/mark/project/out.json"},
		{"an_absolute_output_path_is_left_alone", "/home/mark/project", true, "/tmp/out.json", "/tmp/out.json"},
		{"without_an_invocation_directory_the_path_is_used_as_given", "", false, "out.json", "out.json"},
		{"an_empty_invocation_directory_still_counts", "", true, "out.json", "out.json"},
		{"stdin_is_never_resolved", "/w", true, "-", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := resolver{base: tc.base, isSet: tc.set}
			if got := r.path(tc.in); got != tc.want {
				t.Errorf("path(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a_label_is_required_unless_a_report_is_being_explained", nil, ExitUsage, "a LABEL to analyze is required"},
		{"no_fail_is_refused_together_with_expect_json", []string{"//...", "--no-fail", "--expect-json", "base.json"}, ExitUsage, "--no-fail cannot be used with --expect-json"},
		{"a_saved_dump_takes_no_label", []string{"--aquery-file", "x.pb", "//b"}, ExitUsage, `unexpected LABEL "//b"`},
		{"a_single_valued_flag_is_refused_twice", []string{"//a", "--write-json", "a", "--write-json", "b"}, ExitUsage, `invalid argument "b" for "--write-json" flag: already given as "a"`},
		{"a_bool_flag_is_refused_two_values", []string{"//a", "--no-fail", "--no-fail=false"}, ExitUsage, `invalid argument "false" for "--no-fail" flag: already given as "true"`},
		{"the_same_value_twice_is_said_once", []string{"--shut-up", "--help", "--shut-up=true"}, ExitOK, ""},
		{"an_unknown_flag_is_refused", []string{"--nope"}, ExitUsage, "unknown flag: --nope"},
		{"a_label_with_a_control_character_is_refused", []string{"//a\x1b[2J"}, ExitUsage, `LABEL "//a\u{1b}[2J" holds a control character`},
		{"aquery_format_needs_a_file", []string{"//a", "--aquery-format", "proto"}, ExitUsage, "--aquery-format needs --aquery-file"},
		{"a_saved_dump_takes_no_bazel_flags", []string{"--aquery-file", "x.pb", "--bazel-flag=--keep_going"}, ExitUsage, "do not apply"},
		{"help_is_not_an_error", []string{"--help"}, ExitOK, ""},
		{"version_is_not_an_error", []string{"-V"}, ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _, stderr := testSystem(nil)
			if code := Main(tc.args, sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

func TestFlagsAreKeptVerbatim(t *testing.T) {
	o, _, err := parseAnalysis([]string{"--compilation-mode", "dbg", "--output-base=/tmp/somewhere", "//...", "--config=a", "--config", "b,c"})
	if err != nil {
		t.Fatal(err)
	}
	if o.compilationMode != "dbg" || o.outputBase != "/tmp/somewhere" || o.query() != "//..." {
		t.Errorf("got %+v", o)
	}
	// A config name with a comma is one config, not two.
	if strings.Join(o.configs, "|") != "a|b,c" {
		t.Errorf("configs = %q", o.configs)
	}
	o, _, err = parseAnalysis([]string{"--explain-json", "saved.json"})
	if err != nil || o.compilationMode != "" || o.outputBase != "" {
		t.Errorf("explain alone: %+v, %v", o, err)
	}
}

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte("{\"violations\": []}\n"), 0o644)
	nonEmpty := filepath.Join(conformanceDir, "synthetic", "c.expected.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"explaining_an_empty_report_passes", []string{"--explain-json", empty}, ExitOK},
		{"explaining_findings_fails", []string{"--explain-json", nonEmpty}, ExitFindings},
		{"explaining_findings_with_no_fail_passes", []string{"--explain-json", nonEmpty, "--no-fail"}, ExitOK},
		{"findings_fail_a_run", []string{"--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json")}, ExitFindings},
		{"no_fail_passes_a_run_with_findings", []string{"--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json"), "--no-fail"}, ExitOK},
		{"a_matching_expectation_passes", []string{"--compat", "0.2", "--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json"), "--expect-json", nonEmpty}, ExitOK},
		{"a_differing_expectation_fails", []string{"--compat", "0.2", "--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json"), "--expect-json", empty}, ExitFindings},
		// A failure to run is not a finding: a CI can tell them apart.
		{"an_expectation_of_another_judgement_cannot_be_compared", []string{"--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json"), "--expect-json", nonEmpty}, ExitFailure},
		{"a_missing_dump_is_a_failure", []string{"--aquery-file", filepath.Join(dir, "missing.pb")}, ExitFailure},
		// §1.4: Ahab 0.2 exits 1 for any runtime error.
		{"a_missing_dump_under_compat_is_1", []string{"--compat", "0.2", "--aquery-file", filepath.Join(dir, "missing.pb")}, ExitFindings},
		{"a_usage_mistake_is_2_in_every_mode", []string{"--compat", "0.2", "--aquery-file", filepath.Join(dir, "missing.pb"), "//x"}, ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _, stderr := testSystem(nil)
			if code := Main(tc.args, sys); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
		})
	}
}

func TestColorAndSignOffFollowTheStream(t *testing.T) {
	nonEmpty := filepath.Join(conformanceDir, "synthetic", "c.expected.json")
	sys, stdout, _ := testSystem(nil)
	sys.StdoutIsTerminal = true
	Main([]string{"--explain-json", nonEmpty}, sys)
	if !strings.Contains(stdout.String(), "\x1b[") {
		t.Errorf("no colour on a terminal:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "  \x1b[2m") {
		t.Errorf("no sign-off on a terminal; last line %q", last)
	}

	// no-color.org: a set NO_COLOR turns colour off, an empty one does
	// not; neither has a dumb terminal.
	for _, tc := range []struct {
		env   map[string]string
		color bool
	}{
		{map[string]string{"NO_COLOR": "1"}, false},
		{map[string]string{"NO_COLOR": ""}, true},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{"TERM": "xterm-256color"}, true},
	} {
		sys, stdout, _ = testSystem(tc.env)
		sys.StdoutIsTerminal = true
		Main([]string{"--explain-json", nonEmpty, "--shut-up"}, sys)
		if got := strings.Contains(stdout.String(), "\x1b["); got != tc.color {
			t.Errorf("%v: colour %v, want %v", tc.env, got, tc.color)
		}
	}
	// The sign-off would follow the list after a blank line.
	if strings.Contains(strings.TrimPrefix(stdout.String(), "\n"), "\n\n") {
		t.Errorf("sign-off despite --shut-up:\n%s", stdout)
	}
}

// Several labels are one query, as bazel build takes them; the macros'
// label is a default that one on the command line replaces.
func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"//a/...", "//b/..."}, "//a/... + //b/..."},
		{[]string{"//... - //x/..."}, "//... - //x/..."},
		{[]string{"--default-label=//...", "//app/..."}, "//app/..."},
		{[]string{"--default-label=//..."}, "//..."},
	} {
		o, _, err := parseAnalysis(tc.args)
		if err != nil || o.query() != tc.want {
			t.Errorf("%q: query %q, %v; want %q", tc.args, o.query(), err, tc.want)
		}
	}
}

// Flag values are checked before Bazel runs, as usage mistakes or with
// what to do.
func TestValuesAreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"//...", "--compilation-mode=fast"}, ExitUsage, `--compilation-mode "fast", expected one of: fastbuild, dbg, opt`},
		{[]string{"//...", "--output-base=" + filepath.Join(dir, "no", "such")}, ExitFailure, "neither it nor its parent directory exists"},
		{[]string{"//...", "--output-base=" + filepath.Join(dir, "file")}, ExitFailure, "is not a directory"},
		{[]string{"//...", "--write-json=" + filepath.Join(dir, "nope", "r.json")}, ExitFailure, "does not exist, expected an existing directory"},
		{[]string{"//...", "--write-json="}, ExitUsage, "--write-json needs a file name"},
		{[]string{"//...", "--compat=0.3"}, ExitUsage, `--compat: unknown version "0.3"`},
	} {
		sys, _, stderr := testSystem(map[string]string{"PATH": ""})
		if code := Main(tc.args, sys); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

// A dump with no sentinel anywhere may have been taken without them, so on
// a terminal Ahab says that environment leaks cannot show; a dump where
// one shows needs no such warning, and neither does a pipe.
func TestSentinelWarning(t *testing.T) {
	for _, tc := range []struct {
		name     string
		dump     string
		flags    []string
		terminal bool
		warned   bool
	}{
		{"a_dump_without_sentinels_on_a_terminal", "synthetic/a.json", nil, true, true},
		{"a_dump_with_a_leak", "real/webapp.pb", nil, true, false},
		{"a_dump_without_sentinels_on_a_pipe", "synthetic/a.json", nil, false, true},
		{"a_matching_expectation_stays_silent", "synthetic/a.json", []string{"--compat", "0.2", "--expect-json", filepath.Join(conformanceDir, "synthetic/a.expected.json")}, false, false},
		{"a_mismatch_warns", "synthetic/a.json", []string{"--compat", "0.2", "--expect-json", filepath.Join(conformanceDir, "synthetic/b.expected.json")}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _, stderr := testSystem(nil)
			sys.StderrIsTerminal = tc.terminal
			args := append([]string{"--aquery-file", filepath.Join(conformanceDir, tc.dump), "--shut-up"}, tc.flags...)
			if tc.flags == nil {
				args = append(args, "--no-fail")
			}
			Main(args, sys)
			if got := strings.Contains(stderr.String(), "no USER or HOSTNAME sentinel appears"); got != tc.warned {
				t.Errorf("warned %v, want %v; stderr:\n%s", got, tc.warned, stderr)
			}
		})
	}
}

// Reports written to a FIFO reach its reader, and the FIFO stays one: a
// report is never renamed over what is not a regular file (issue #26;
// internal/atomicfile tests devices, sockets and /dev/null).
func TestReportsToAFIFO(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) (string, <-chan string) {
		path := filepath.Join(dir, name)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			b, err := os.ReadFile(path) // waits for the writer
			if err != nil {
				b = []byte(err.Error())
			}
			got <- string(b)
		}()
		return path, got
	}
	jsonPath, jsonGot := read("report.json")
	sarifPath, sarifGot := read("report.sarif")
	sys, _, stderr := testSystem(nil)
	args := []string{"--compat", "0.2", "--aquery-file", filepath.Join(conformanceDir, "synthetic", "c.json"),
		"--write-json", jsonPath, "--sarif", sarifPath, "--no-fail"}
	if code := Main(args, sys); code != ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, p := range []string{jsonPath, sarifPath} {
		if info, err := os.Lstat(p); err != nil || info.Mode().Type() != os.ModeNamedPipe {
			t.Fatalf("%s is no longer a FIFO: %v, %v", p, info, err)
		}
	}
	want, _ := os.ReadFile(filepath.Join(conformanceDir, "synthetic", "c.expected.json"))
	if got := <-jsonGot; got != string(want) {
		t.Errorf("the JSON report's reader got:\n%s", got)
	}
	if got := <-sarifGot; !strings.Contains(got, `"version": "2.1.0"`) {
		t.Errorf("the SARIF log's reader got:\n%s", got)
	}
}
