package exception

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/savedreport"
)

func mustParse(t *testing.T, name, data string) []Exception {
	t.Helper()
	exs, err := Parse(name, []byte(data), mode.Ahab02)
	if err != nil {
		t.Fatal(err)
	}
	return exs
}

func one(t *testing.T, entry string) *Exception {
	t.Helper()
	return &mustParse(t, "test.json", `{"exceptions": [`+entry+`]}`)[0]
}

var (
	clang   = program.ID{Origin: program.Origin{Kind: program.Module, Module: "llvm"}, Path: "bin/clang"}
	wrapper = program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_rust"}, Path: "util/process_wrapper/process_wrapper"}
)

func act(m, t string) finding.ActionRef { return finding.ActionRef{Mnemonic: m, Target: t} }

func absPath(m, path string) finding.Finding {
	return finding.Finding{Kind: finding.AbsolutePath, Action: act(m, "//src:main"), Path: path,
		Site: finding.Site{Location: finding.Argument, Value: "-I" + path}}
}

func envLeak(key string) finding.Finding {
	return finding.Finding{Kind: finding.EnvironmentLeak, Action: act("Genrule", "//g"), Source: finding.User, Sentinel: "s",
		Site: finding.Site{Location: finding.EnvVar, Key: key, Value: "s"}}
}

func programFinding(k finding.Kind, p program.ID) finding.Finding {
	return finding.Finding{Kind: k, Action: act("Rustc", "//r"), Program: p}
}

func TestMatches(t *testing.T) {
	badPath := finding.Finding{Kind: finding.BadPath, Action: act("CppCompile", "//src:main"), Actual: "/bin"}
	tests := []struct {
		name  string
		entry string
		yes   []finding.Finding
		no    []finding.Finding
	}{
		{"a_lone_mnemonic_excuses_every_violation_of_that_action", `{"mnemonic": "CppCompile"}`,
			[]finding.Finding{absPath("CppCompile", "/usr/include"), badPath},
			[]finding.Finding{absPath("CppCompiler", "/usr/include")}},
		{"a_mnemonic_and_a_path_excuse_only_that_path_there", `{"mnemonic": "CppCompile", "path": "/usr/include/*"}`,
			[]finding.Finding{absPath("CppCompile", "/usr/include/stdio.h")},
			[]finding.Finding{absPath("CppCompile", "/opt/include"), absPath("CppLink", "/usr/include/x"), badPath}},
		{"a_facet_the_violation_lacks_never_matches", `{"path": "*"}`,
			[]finding.Finding{absPath("X", "/"), {Kind: finding.WorkspaceStatus, Path: "bazel-out/stable-status.txt"}},
			[]finding.Finding{badPath, envLeak("HOME"), programFinding(finding.UnknownProgram, clang)}},
		{"a_program_is_matched_by_its_label_form", `{"program": "@rules_rust//util/*"}`,
			[]finding.Finding{programFinding(finding.UnknownProgram, wrapper), programFinding(finding.NeverReproducible, wrapper)},
			[]finding.Finding{programFinding(finding.UnknownProgram, clang),
				// Only the program counts, not its wrappers or synonym.
				{Kind: finding.ConditionalReproducibility, Program: clang, Wrappers: []program.ID{wrapper}, Synonym: &wrapper}}},
		{"a_target_glob_selects_a_subtree", `{"target": "//third_party/*"}`,
			[]finding.Finding{{Kind: finding.BadPath, Action: act("M", "//third_party/zlib:zlib")}, {Kind: finding.BadPath, Action: act("M", "//third_party/a/b:c")}},
			[]finding.Finding{{Kind: finding.BadPath, Action: act("M", "//src:main")}}},
		{"an_env_var_predicate_matches_the_variable_name", `{"env_var": "HOME"}`,
			[]finding.Finding{envLeak("HOME"), {Kind: finding.AbsolutePath, Path: "/h", Site: finding.Site{Location: finding.EnvVar, Key: "HOME", Value: "/h"}}},
			[]finding.Finding{envLeak("TMPDIR"), {Kind: finding.AbsolutePath, Path: "/h", Site: finding.Site{Location: finding.Argument, Key: "HOME", Value: "/h"}}}},
		{"a_kind_predicate_restricts_to_that_variant", `{"kind": "unknown_program"}`,
			[]finding.Finding{programFinding(finding.UnknownProgram, clang)},
			[]finding.Finding{programFinding(finding.SystemProgram, clang), badPath}},
		{"source_and_location_are_exact", `{"source": "hostname", "location": "env_var"}`,
			[]finding.Finding{{Kind: finding.EnvironmentLeak, Source: finding.Hostname, Site: finding.Site{Location: finding.EnvVar}}},
			[]finding.Finding{envLeak("HOME"), {Kind: finding.EnvironmentLeak, Source: finding.Hostname, Site: finding.Site{Location: finding.Argument}}}},
		{"actual_and_requirement", `{"actual": "/bin*"}`, []finding.Finding{badPath},
			[]finding.Finding{{Kind: finding.ExecutionRequirement, Requirement: "/bin"}}},
		{"requirement", `{"requirement": "no-*"}`, []finding.Finding{{Kind: finding.ExecutionRequirement, Requirement: "no-sandbox"}},
			[]finding.Finding{{Kind: finding.ExecutionRequirement, Requirement: "local"}, {Kind: finding.BadPath, Actual: "no-x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := one(t, tt.entry)
			for _, f := range tt.yes {
				if !e.Matches(&f) {
					t.Errorf("%s does not match %+v", tt.entry, f)
				}
			}
			for _, f := range tt.no {
				if e.Matches(&f) {
					t.Errorf("%s matches %+v", tt.entry, f)
				}
			}
		})
	}
}

func TestEveryFieldAppliesToExactlyTheKindsThatCarryIt(t *testing.T) {
	// every_field_applies_to_exactly_the_kinds_that_carry_it
	want := map[string][]string{
		"program":     {"system_program", "host_derived_program", "unknown_program", "never_reproducible", "conditional_reproducibility"},
		"path":        {"absolute_path", "workspace_status"},
		"actual":      {"bad_path"},
		"requirement": {"execution_requirement"},
		"source":      {"environment_leak"},
		"location":    {"environment_leak", "absolute_path"},
		"env_var":     {"environment_leak", "absolute_path"},
		"variation":   {"variation_source"},
		"command":     {"system_program", "host_derived_program", "unknown_program", "never_reproducible", "conditional_reproducibility", "variation_source"},
	}
	values := map[string]string{"source": "user", "location": "env_var"}
	for field, kinds := range want {
		for _, k := range finding.Kinds() {
			v := values[field]
			if v == "" {
				v = "*"
			}
			_, err := Parse("x.json", []byte(`{"exceptions": [{"kind": "`+k.String()+`", "`+field+`": "`+v+`"}]}`), mode.Default)
			applies := strings.Contains(" "+strings.Join(kinds, " ")+" ", " "+k.String()+" ")
			if applies && err != nil {
				t.Errorf("%s on %s rejected: %v", field, k, err)
			}
			if !applies && (err == nil || !strings.HasSuffix(err.Error(), `"`+field+`" does not apply to a "`+k.String()+`" violation`)) {
				t.Errorf("%s on %s: err = %v", field, k, err)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	const kinds = "environment_leak, bad_path, execution_requirement, absolute_path, workspace_status, system_program, host_derived_program, unknown_program, never_reproducible, conditional_reproducibility"
	tests := []struct {
		name, data, want string
	}{
		{"an_exception_with_no_conditions_is_rejected", `{"exceptions": [{"reason": "why"}]}`,
			`x.json: exception 1: no conditions, so it would suppress every violation; give it at least one field besides "reason"`},
		{"an_empty_exception_is_rejected", `{"exceptions": [{"mnemonic": "M"}, {"kind": null}]}`,
			`x.json: exception 2: no conditions, so it would suppress every violation; give it at least one field besides "reason"`},
		{"an_unknown_field_is_rejected", `{"exceptions": [{"mnemonics": "CppCompile"}]}`,
			"x.json: exception 1: unknown field `mnemonics`, expected one of `reason`, `kind`, `mnemonic`, `target`, `program`, `path`, `actual`, `requirement`, `source`, `location`, `env_var` at line 1 column 28"},
		{"an_unknown_kind_lists_the_known_ones", `{"exceptions": [{"kind": "abs_path"}]}`,
			`x.json: exception 1: unknown kind "abs_path", expected one of: ` + kinds},
		{"a_predicate_that_the_kind_cannot_carry_is_rejected", `{"exceptions": [{"kind": "bad_path", "path": "/usr/*"}]}`,
			`x.json: exception 1: "path" does not apply to a "bad_path" violation`},
		{"a_program_predicate_needs_a_kind_that_has_one", `{"exceptions": [{"kind": "bad_path", "program": "*"}]}`,
			`x.json: exception 1: "program" does not apply to a "bad_path" violation`},
		{"env_var_contradicting_location_is_rejected", `{"exceptions": [{"env_var": "HOME", "location": "argument"}]}`,
			`x.json: exception 1: "env_var" needs location "env_var", not "argument"`},
		{"an_unknown_source_is_rejected", `{"exceptions": [{"source": "uid"}]}`,
			`x.json: exception 1: unknown source "uid", expected one of: user, hostname`},
		{"an_unknown_location_is_rejected", `{"exceptions": [{"location": "stdin"}]}`,
			`x.json: exception 1: unknown location "stdin", expected one of: argument, param_file, env_var`},
		{"errors_name_the_exception_by_position", `{"exceptions": [{"mnemonic": "A"}, {"target": "//b"}, {"kind": "x"}]}`,
			`x.json: exception 3: unknown kind "x", expected one of: ` + kinds},
		{"the_checks_run_in_order", `{"exceptions": [{"kind": "bad_path", "source": "x", "path": "p"}]}`,
			`x.json: exception 1: unknown source "x", expected one of: user, hostname`},
		{"the_kind_is_quoted_as_the_reports_quote", `{"exceptions": [{"kind": "a\u001bb"}]}`,
			`x.json: exception 1: unknown kind "a\u{1b}b", expected one of: ` + kinds},
		{"missing_exceptions", `{}`, "x.json: missing field `exceptions` at line 1 column 2"},
		{"unknown_top_level_field", `{"exceptions": [], "version": 1}`, "x.json: unknown field `version`, expected `exceptions` at line 1 column 28"},
		{"exceptions_not_a_list", `{"exceptions": null}`, "x.json: invalid type: null, expected a sequence of exceptions at line 1 column 19"},
		{"a_value_that_is_not_a_string", `{"exceptions": [{"mnemonic": 3}]}`, "x.json: exception 1: invalid type: integer `3`, expected a string or null at line 1 column 30"},
		{"a_repeated_field", `{"exceptions": [{"mnemonic": "a", "mnemonic": "b"}]}`, "x.json: exception 1: duplicate field `mnemonic` at line 1 column 35"},
		{"an_entry_that_is_not_an_object", `{"exceptions": ["x"]}`, `x.json: exception 1: invalid type: string "x", expected an exception object at line 1 column 19`},
		{"trailing_data", `{"exceptions": []} []`, "x.json: trailing characters after the document at line 1 column 20"},
		{"truncated", `{"exceptions": [`, "x.json: exception 1: unexpected end of the document at line 1 column 17"},
		// Invalid UTF-8 and lone surrogates are refused, as spec files
		// refuse them (Ahab 0.2 refused both).
		{"invalid_utf8", "{\"exceptions\": [{\"mnemonic\": \"\xff\"}]}", "x.json: exception 1: invalid UTF-8 at line 1 column 31"},
		{"a_lone_surrogate", `{"exceptions": [{"mnemonic": "\ud800"}]}`, "x.json: exception 1: invalid surrogate pair `\\ud800\"}]}` in string at line 1 column 31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.json", []byte(tt.data), mode.Ahab02)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v\nwant  %s", err, tt.want)
			}
			if _, ok := errors.AsType[*jsonfile.Error](err); err != nil && !ok {
				t.Errorf("%T is not a *jsonfile.Error", err)
			}
		})
	}
}

func TestParseAcceptsNullAsAbsent(t *testing.T) {
	e := one(t, `{"reason": null, "kind": "bad_path", "path": null, "actual": "/bin"}`)
	if e.Reason != nil || e.Path != nil || *e.Actual != "/bin" {
		t.Errorf("got %+v", e)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	if _, err := LoadFile(missing, mode.Ahab02); err == nil || err.Error() != "failed to read exceptions from "+missing+": no such file or directory" {
		t.Errorf("err = %v", err)
	}
	path := filepath.Join(dir, "mine.json")
	os.WriteFile(path, []byte(`{"exceptions": [{"mnemonic": "M"}, {"kind": "nope"}]}`), 0o644)
	if _, err := LoadFile(path, mode.Ahab02); err == nil || !strings.HasPrefix(err.Error(), path+": exception 2: unknown kind") {
		t.Errorf("err = %v", err)
	}
	os.WriteFile(path, []byte(`{"exceptions": [{"mnemonic": "M"}]}`), 0o644)
	exs, err := LoadFile(path, mode.Ahab02)
	if err != nil || len(exs) != 1 || exs[0].Origin != "mine.json" {
		t.Errorf("exs = %+v, err = %v", exs, err)
	}
}

func setOf(fs ...finding.Counted) *finding.Set {
	s := finding.NewSet()
	for _, f := range fs {
		s.Add(f.Finding, f.Count)
	}
	return s
}

func TestFilter(t *testing.T) {
	usr := finding.Counted{Finding: absPath("CppCompile", "/usr/include"), Count: 3}
	opt := finding.Counted{Finding: absPath("CppLink", "/opt/lib"), Count: 2}
	t.Run("filtering_keeps_what_no_exception_excuses", func(t *testing.T) {
		exs := mustParse(t, "test.json", `{"exceptions": [{"path": "/usr/*"}]}`)
		kept, s, unused := Filter(setOf(usr, opt), exs)
		if s != (Summary{Distinct: 1, Occurrences: 3, Exceptions: 1}) || len(unused) != 0 {
			t.Errorf("summary %+v, unused %v", s, unused)
		}
		if !kept.Equal(setOf(opt)) {
			t.Errorf("kept %+v", kept.Sorted())
		}
	})
	t.Run("an_exception_that_matches_nothing_is_reported_unused", func(t *testing.T) {
		exs := mustParse(t, "dir/test.json", `{"exceptions": [{"path": "/usr/*"}, {"reason": "stale", "mnemonic": "Nope"}]}`)
		_, _, unused := Filter(setOf(usr), exs)
		w := StaleWarning(unused)
		if w != "warning: 1 exception matched nothing:\n  - \"stale\" (test.json)" {
			t.Errorf("warning = %q", w)
		}
	})
	t.Run("overlapping_exceptions_are_all_credited", func(t *testing.T) {
		exs := mustParse(t, "test.json", `{"exceptions": [{"path": "/usr/*"}, {"mnemonic": "CppCompile"}, {"mnemonic": "Other"}]}`)
		_, s, unused := Filter(setOf(usr, opt), exs)
		if s.Exceptions != 2 || s.Distinct != 1 || len(unused) != 1 || *unused[0].Mnemonic != "Other" {
			t.Errorf("summary %+v, unused %v", s, unused)
		}
	})
	t.Run("no_exceptions_means_nothing_is_filtered", func(t *testing.T) {
		kept, s, unused := Filter(setOf(usr, opt), nil)
		if !kept.Equal(setOf(usr, opt)) || s != (Summary{}) || unused != nil || s.Note() != "" || StaleWarning(unused) != "" {
			t.Errorf("kept %v, summary %+v, unused %v", kept.Sorted(), s, unused)
		}
	})
	t.Run("files_compose_by_union", func(t *testing.T) {
		a := mustParse(t, "a.json", `{"exceptions": [{"path": "/usr/*"}]}`)
		b := mustParse(t, "b.json", `{"exceptions": [{"path": "/opt/*"}, {"path": "/nix/*"}]}`)
		kept, s, unused := Filter(setOf(usr, opt), append(a, b...))
		if kept.Len() != 0 || s.Exceptions != 2 || len(unused) != 1 || unused[0].Origin != "b.json" {
			t.Errorf("kept %v, summary %+v, unused %v", kept.Sorted(), s, unused)
		}
	})
}

func TestNote(t *testing.T) {
	// the_note_counts_occurrences_and_exceptions
	for s, want := range map[Summary]string{
		{Distinct: 2, Occurrences: 3, Exceptions: 2}: "(3 violations suppressed by 2 exceptions)",
		{Distinct: 1, Occurrences: 1, Exceptions: 1}: "(1 violation suppressed by 1 exception)",
		{Distinct: 1, Occurrences: 3, Exceptions: 1}: "(3 violations suppressed by 1 exception)",
		{}: "",
	} {
		if got := s.Note(); got != want {
			t.Errorf("%+v.Note() = %q, want %q", s, got, want)
		}
	}
}

func TestString(t *testing.T) {
	// an_exception_without_a_reason_is_named_by_its_predicates
	exs := mustParse(t, "/tmp/x/test.json", `{"exceptions": [
		{"path": "/usr/*", "mnemonic": "Cpp*"},
		{"reason": "r\"q", "kind": "bad_path"},
		{"env_var": "A", "location": "env_var", "source": "user", "requirement": "x", "actual": "y", "program": "p", "target": "t", "kind": null}]}`)
	for i, want := range []string{
		`{mnemonic: "Cpp*", path: "/usr/*"} (test.json)`,
		`"r\"q" (test.json)`,
		`{target: "t", program: "p", actual: "y", requirement: "x", source: "user", location: "env_var", env_var: "A"} (test.json)`,
	} {
		if got := exs[i].String(); got != want {
			t.Errorf("exception %d = %s, want %s", i+1, got, want)
		}
	}
	if got := StaleWarning(exs[:2]); got != "warning: 2 exceptions matched nothing:\n  - "+exs[0].String()+"\n  - "+exs[1].String() {
		t.Errorf("warning = %q", got)
	}
}

// TestConformance applies the conformance set's exception file. With the
// specs of f.specs.json, 8 of its 10 exceptions match and two are stale
// (conformance README); without the analyzer we check what follows from
// the recorded reports: the exceptions excuse nothing the original kept in
// f.with-specs.expected.json, and the retired-toolchain one matches
// nothing in the spec-less report either.
func TestConformance(t *testing.T) {
	const dir = "../../testdata/conformance/synthetic/"
	exs, err := LoadFile(dir+"f.exceptions.json", mode.Ahab02)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 10 {
		t.Fatalf("%d exceptions, want 10", len(exs))
	}
	rep, err := savedreport.ReadFile(dir + "f.with-specs.expected.json")
	if err != nil {
		t.Fatal(err)
	}
	kept := rep.Findings
	after, s, unused := Filter(kept, exs)
	if s.Distinct != 0 || !after.Equal(kept) || len(unused) != 10 {
		t.Errorf("exceptions excuse findings the original kept: %+v", s)
	}

	all, err := savedreport.ReadFile(dir + "f.expected.json")
	if err != nil {
		t.Fatal(err)
	}
	_, s, unused = Filter(all.Findings, exs)
	var stale []string
	for _, e := range unused {
		stale = append(stale, e.String())
	}
	// Without the specs the codegen is unknown, so its exception matches;
	// and /usr/bin/clang is only an argument, since nothing unwraps the
	// `--` wrapper that runs it, so the system_program exception is stale.
	want := []string{
		`"the bridge is built with the system clang on purpose" (f.exceptions.json)`,
		`"retired toolchain" (f.exceptions.json)`,
	}
	if strings.Join(stale, "\n") != strings.Join(want, "\n") {
		t.Errorf("stale = %q, want %q", stale, want)
	}
	if s.Exceptions != 8 || s.Distinct == 0 {
		t.Errorf("summary = %+v", s)
	}
}

// What only Ahab's own judgement reports can be excused by its kind and
// fields; an exception file of Ahab 0.2's judgement knows neither, as the
// original did not.
func TestExceptionsOfEachMode(t *testing.T) {
	const file = `{"exceptions": [{"kind": "variation_source", "variation": "clock", "command": "date *"}]}`
	exs, err := Parse("x.json", []byte(file), mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	clock := finding.Finding{Kind: finding.VariationSource, Variation: "clock", Command: "date > out"}
	random := finding.Finding{Kind: finding.VariationSource, Variation: "random", Command: "date > out"}
	if !exs[0].Matches(&clock) || exs[0].Matches(&random) {
		t.Errorf("the exception does not match exactly the clock")
	}
	t.Run("a_command_pattern_matches_only_findings_in_a_script", func(t *testing.T) {
		exs, _ := Parse("x.json", []byte(`{"exceptions": [{"command": "*"}]}`), mode.Default)
		inScript := finding.Finding{Kind: finding.UnknownProgram, Command: "python3 -c x"}
		direct := finding.Finding{Kind: finding.UnknownProgram}
		if !exs[0].Matches(&inScript) || exs[0].Matches(&direct) {
			t.Error(`{"command": "*"} must match a command of a script, and nothing else`)
		}
	})
	_, err = Parse("x.json", []byte(`{"exceptions": [{"kind": "variation_source"}]}`), mode.Ahab02)
	if err == nil || !strings.Contains(err.Error(), `unknown kind "variation_source", expected one of: environment_leak,`) || strings.Contains(err.Error(), "expected one of: environment_leak, bad_path, execution_requirement, absolute_path, workspace_status, system_program, host_derived_program, unknown_program, never_reproducible, conditional_reproducibility, variation_source") {
		t.Errorf("Ahab 0.2: err = %v", err)
	}
	_, err = Parse("x.json", []byte(`{"exceptions": [{"command": "x"}]}`), mode.Ahab02)
	if err == nil || !strings.Contains(err.Error(), "unknown field `command`") {
		t.Errorf("Ahab 0.2: err = %v", err)
	}
}

// Under --compat 0.2 an exception's globs match as the original's did, so
// a user's exceptions excuse the same findings in both: the simple shapes
// (`*`, `lit*`, `*lit`, `*lit*`) by prefix, suffix or substring whatever
// the text holds (issue #26), the others with the original's literal-`*`
// quirk.
func TestExceptionGlobsOfAhab02(t *testing.T) {
	for _, tc := range []struct {
		name            string
		exception       string
		finding         finding.Finding
		matches, ahab02 bool
	}{
		{"any_mnemonic_matches_one_with_a_star", `{"mnemonic": "*"}`,
			finding.Finding{Kind: finding.UnknownProgram, Action: finding.ActionRef{Mnemonic: "*Gen"}}, true, true},
		{"a_mnemonic_suffix_after_a_star", `{"mnemonic": "*Gen"}`,
			finding.Finding{Kind: finding.UnknownProgram, Action: finding.ActionRef{Mnemonic: "*GenGen"}}, true, true},
		{"a_path_prefix_before_a_star", `{"path": "/opt/*"}`,
			finding.Finding{Kind: finding.AbsolutePath, Path: "/opt/*/bin"}, true, true},
		{"a_target_substring_around_a_star", `{"target": "*:gen*"}`,
			finding.Finding{Kind: finding.UnknownProgram, Action: finding.ActionRef{Target: "//a:gen*x"}}, true, true},
		{"an_inner_star_keeps_the_quirk", `{"path": "a*c"}`,
			finding.Finding{Kind: finding.AbsolutePath, Path: "a*bc"}, true, false},
		{"a_prefix_and_a_suffix_keep_the_quirk", `{"path": "/opt/*/bin"}`,
			finding.Finding{Kind: finding.AbsolutePath, Path: "/opt/*x/bin"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := `{"exceptions": [` + tc.exception + `]}`
			def, err := Parse("x.json", []byte(file), mode.Default)
			if err != nil {
				t.Fatal(err)
			}
			old, err := Parse("x.json", []byte(file), mode.Ahab02)
			if err != nil {
				t.Fatal(err)
			}
			if got := def[0].Matches(&tc.finding); got != tc.matches {
				t.Errorf("%s: matches %v, want %v", tc.exception, got, tc.matches)
			}
			if got := old[0].Matches(&tc.finding); got != tc.ahab02 {
				t.Errorf("%s under --compat 0.2: matches %v, want %v", tc.exception, got, tc.ahab02)
			}
		})
	}
}
