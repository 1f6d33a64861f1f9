package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

var (
	escapes  = regexp.MustCompile("\x1b\\[[0-9;]*m")
	numbered = regexp.MustCompile(`^  [0-9]+\. `)
)

func TestTextGolden(t *testing.T) {
	opts := TextOptions{Note: "(3 violations suppressed by 2 exceptions)", SignOff: true}
	plain := Text(oneOfEachKind(), opts)
	checkGolden(t, "testdata/kinds.txt", []byte(plain+"\n"))
	opts.Color = true
	colored := Text(oneOfEachKind(), opts)
	if colored == plain {
		t.Fatal("colour changed nothing")
	}
	if got := escapes.ReplaceAllString(colored, ""); got != plain {
		t.Errorf("stripping the colours does not give the plain report:\n%s", got)
	}
}

func leak(n int) finding.Counted {
	return finding.Counted{Count: n, Finding: finding.Finding{Kind: finding.BadPath, Action: ref("CppCompile", "//test:t3"), Actual: "/bin"}}
}

func TestText(t *testing.T) {
	abs := finding.Counted{Count: 4, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref("CppLink", "//x"), Path: "/opt/lib",
		Site: finding.Site{Location: finding.Argument, Value: "-L/opt/lib"}}}
	tests := []struct {
		name     string
		findings []finding.Counted
		opts     TextOptions
		want     string
	}{
		{"single_violation_uses_singular_noun_and_is_numbered", []finding.Counted{leak(1)}, TextOptions{},
			"found 1 hermeticity violation:\n  1. hermeticity violation [bad_path]: CppCompile action for target //test:t3 sets PATH to \"/bin\", expected \"/bin:/usr/bin:/usr/local/bin\""},
		{"a_repeated_violation_is_listed_once_with_its_count", []finding.Counted{leak(342)}, TextOptions{},
			"found 1 distinct hermeticity violation (342 occurrences):\n  1. ×342 hermeticity violation [bad_path]: CppCompile action for target //test:t3 sets PATH to \"/bin\", expected \"/bin:/usr/bin:/usr/local/bin\""},
		{"the_header_totals_occurrences_across_distinct_violations", []finding.Counted{leak(3), abs}, TextOptions{},
			"found 2 distinct hermeticity violations (7 occurrences):\n  1. ×3 hermeticity violation [bad_path]: CppCompile action for target //test:t3 sets PATH to \"/bin\", expected \"/bin:/usr/bin:/usr/local/bin\"\n  2. ×4 hermeticity violation [absolute_path]: CppLink action for target //x references absolute path \"/opt/lib\" in an argument: -L/opt/lib"},
		{"the_report_notes_what_exceptions_suppressed", []finding.Counted{leak(1)}, TextOptions{Note: "(3 violations suppressed by 1 exception)"},
			"found 1 hermeticity violation:\n  1. hermeticity violation [bad_path]: CppCompile action for target //test:t3 sets PATH to \"/bin\", expected \"/bin:/usr/bin:/usr/local/bin\"\n  (3 violations suppressed by 1 exception)"},
		{"color_marks_the_kind_the_action_and_the_finding", []finding.Counted{leak(3)}, TextOptions{Color: true},
			"\x1b[1mfound 1 distinct hermeticity violation (3 occurrences):\x1b[0m\n  \x1b[2m1.\x1b[0m \x1b[33m×3\x1b[0m hermeticity violation [bad_path]: \x1b[35mCppCompile action for target //test:t3\x1b[0m sets PATH to \x1b[36m\"/bin\"\x1b[0m, expected \"/bin:/usr/bin:/usr/local/bin\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(Slice(tt.findings), tt.opts); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	t.Run("multiple_violations_are_pluralized_and_numbered", func(t *testing.T) {
		got := strings.Split(Text(Slice{leak(1), abs}, TextOptions{SignOff: true}), "\n")
		if !strings.HasPrefix(got[0], "found 2 distinct hermeticity violations") || !strings.HasPrefix(got[1], "  1. ") ||
			!strings.HasPrefix(got[2], "  2. ") || got[3] != "" || !strings.HasPrefix(got[4], "  ") {
			t.Errorf("lines = %q", got)
		}
	})
	t.Run("shut_up_suppresses_the_quote", func(t *testing.T) {
		if got := Text(Slice{leak(1)}, TextOptions{}); strings.Count(got, "\n") != 1 {
			t.Errorf("report without sign-off has extra lines: %q", got)
		}
	})
}

func TestSentence(t *testing.T) {
	gccSys := program.ID{Origin: program.Origin{Kind: program.System}, Path: "gcc"}
	tests := []struct {
		name string
		f    finding.Finding
		want string
	}{
		{"leak_in_param_file",
			finding.Finding{Kind: finding.EnvironmentLeak, Action: ref("CppLink", "//a"), Source: finding.Hostname,
				Site: finding.Site{Location: finding.ParamFile, ExecPath: "a-2.params", Value: "-DHOST=x"}},
			`hermeticity violation: HOSTNAME leaked into param file "a-2.params" of CppLink action for target //a: -DHOST=x`},
		{"leak_in_env_var_without_mnemonic",
			finding.Finding{Kind: finding.EnvironmentLeak, Action: ref("", "//test:t1"), Site: finding.Site{Location: finding.EnvVar, Key: "HOME", Value: "/home/u"}},
			`hermeticity violation: USER leaked into environment variable "HOME" of action for target //test:t1: /home/u`},
		{"execution_requirement",
			finding.Finding{Kind: finding.ExecutionRequirement, Action: ref("Genrule", "//n"), Requirement: "requires-network"},
			`hermeticity violation: Genrule action for target //n declares "requires-network", so the build itself says it cannot run like an ordinary action`},
		{"volatile_status",
			finding.Finding{Kind: finding.WorkspaceStatus, Action: ref("Genrule", "//s"), Path: "bazel-out/volatile-status.txt"},
			`hermeticity violation: Genrule action for target //s reads "bazel-out/volatile-status.txt", which carries generated and potentially volatile data which Bazel deliberately does not invalidate on`},
		{"stable_status",
			finding.Finding{Kind: finding.WorkspaceStatus, Action: ref("Genrule", "//s"), Path: "bazel-out/stable-status.txt"},
			`hermeticity violation: Genrule action for target //s reads "bazel-out/stable-status.txt", which carries generated and potentially volatile data`},
		{"system_program_never_shows_a_synonym",
			finding.Finding{Kind: finding.SystemProgram, Action: ref("Genrule", "//g"), Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}, Synonym: &clang},
			`hermeticity violation: Genrule action for target //g runs program "/bin/bash", which comes from outside the build`},
		{"host_derived",
			finding.Finding{Kind: finding.HostDerivedProgram, Action: ref("CppCompile", "//h"), Program: gccSys},
			`hermeticity violation: CppCompile action for target //h runs program "gcc", which Bazel generated by inspecting this machine`},
		{"unknown_with_wrapper",
			finding.Finding{Kind: finding.UnknownProgram, Action: ref("Rustc", "//r"), Program: rustc, Wrappers: []program.ID{wrapper, codegen}},
			`reproducibility unknown: Rustc action for target //r runs program "@rules_rust+rust//rust_toolchain/bin/rustc" (wrapped by "@rules_rust//util/process_wrapper/process_wrapper", then "//tools/codegen"), which has no known reproducibility spec`},
		{"never_with_synonym",
			finding.Finding{Kind: finding.NeverReproducible, Action: ref("CppCompile", "//c"), Program: clangpp, Synonym: &clang},
			`reproducibility violation: CppCompile action for target //c runs program "@+llvm//bin/clang++" (spec from synonym "@llvm//bin/clang"), which is never reproducible`},
		{"conditional_reasons",
			finding.Finding{Kind: finding.ConditionalReproducibility, Action: ref("CppCompile", "//c"), Program: gccSys, Unmet: []finding.Unmet{
				{Because: "it needs an option it was not given", AnyOf: []string{"--deterministic"}},
				{Because: "it was given an option that breaks it", Present: []string{"--timestamp"}},
				{Because: "both empty"},
			}},
			`reproducibility violation: CppCompile action for target //c runs program "gcc" non-reproducibly: it needs an option it was not given, but none of --deterministic was passed; it was given an option that breaks it, --timestamp; both empty, but none of  was passed`},
		// The value is shown as it is, but for what could break the line
		// or drive the terminal: a heredoc's newlines, an ESC.
		{"newline_and_quote_in_site_value",
			finding.Finding{Kind: finding.AbsolutePath, Action: ref("Genrule", "//g"), Path: "/etc/x\"y", Site: finding.Site{Location: finding.Argument, Value: "cat <<EOF\n/etc/x\"y\nEOF"}},
			`hermeticity violation: Genrule action for target //g references absolute path "/etc/x\"y" in an argument: cat <<EOF\n/etc/x"y\nEOF`},
		{"terminal_escapes_in_target_mnemonic_and_value",
			finding.Finding{Kind: finding.AbsolutePath, Action: ref("Gen\x1b[2J", "//g:\rforged"), Path: "/x", Site: finding.Site{Location: finding.Argument, Value: "/x\x1b]0;pwned\x07"}},
			`hermeticity violation: Gen\u{1b}[2J action for target //g:\rforged references absolute path "/x" in an argument: /x\u{1b}]0;pwned\u{7}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sentence(&tt.f, Palette{}); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestAllPassed(t *testing.T) {
	tests := []struct {
		name string
		opts TextOptions
		want string
	}{
		{"bare", TextOptions{Color: true}, "\nAll hermeticity checks passed.\n"},
		{"note", TextOptions{Note: "(1 violation suppressed by 1 exception)"}, "\nAll hermeticity checks passed.\n  (1 violation suppressed by 1 exception)\n"},
		{"note_in_faint", TextOptions{Note: "(n)", Color: true}, "\nAll hermeticity checks passed.\n  \x1b[2m(n)\x1b[0m\n"},
		{"note_then_scope", TextOptions{Note: "(n)", Scope: "(3 actions of 2 targets analysed)"}, "\nAll hermeticity checks passed.\n  (n)\n  (3 actions of 2 targets analysed)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AllPassed(tt.opts); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPalette(t *testing.T) {
	t.Run("a_plain_palette_leaves_text_alone", func(t *testing.T) {
		p := Palette{}
		for _, f := range []func(string) string{p.Heading, p.Caution, p.Finding, p.Faint, p.diffLine} {
			if got := f("-x"); got != "-x" {
				t.Errorf("got %q", got)
			}
		}
	})
	t.Run("a_color_palette_wraps_and_always_resets", func(t *testing.T) {
		p := Palette{Color: true}
		for code, f := range map[string]func(string) string{"1": p.Heading, "33": p.Caution, "36": p.Finding, "2": p.Faint} {
			if got, want := f("x"), "\x1b["+code+"mx\x1b[0m"; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		}
	})
	t.Run("diff_lines_are_colored_by_their_marker", func(t *testing.T) {
		p := Palette{Color: true}
		for line, want := range map[string]string{
			"-a": "\x1b[31m-a\x1b[0m", "+a": "\x1b[32m+a\x1b[0m", "@@ -1 +1 @@": "\x1b[36m@@ -1 +1 @@\x1b[0m",
			" a": " a", `\ No newline at end of file`: `\ No newline at end of file`,
		} {
			if got := p.diffLine(line); got != want {
				t.Errorf("diffLine(%q) = %q, want %q", line, got, want)
			}
		}
	})
}

// TestTextHintsGolden: --hints puts one indented line under each finding,
// its remedy, and changes nothing else.
func TestTextHintsGolden(t *testing.T) {
	opts := TextOptions{Note: "(3 violations suppressed by 2 exceptions)", Hints: true}
	plain := Text(oneOfEachKind(), opts)
	checkGolden(t, "testdata/kinds-hints.txt", []byte(plain+"\n"))
	lines := strings.Split(plain, "\n")
	var without []string
	hints := 0
	for i, line := range lines {
		if strings.HasPrefix(line, "     fix: ") {
			hints++
			if !numbered.MatchString(lines[i-1]) {
				t.Errorf("hint %q is not under a finding", line)
			}
			continue
		}
		without = append(without, line)
	}
	if n := oneOfEachKind().Len(); hints != n {
		t.Errorf("%d hints for %d findings", hints, n)
	}
	opts.Hints = false
	if strings.Join(without, "\n") != Text(oneOfEachKind(), opts) {
		t.Error("the report with its hints removed is not the report without hints")
	}
	opts.Hints, opts.Color = true, true
	if got := escapes.ReplaceAllString(Text(oneOfEachKind(), opts), ""); got != plain {
		t.Errorf("stripping the colours does not give the plain report:\n%s", got)
	}
}
