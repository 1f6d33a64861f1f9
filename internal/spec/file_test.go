package spec

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// The README's conditions example (§5.4).
const conditionsExample = `{
  "programs": {
    "@llvm_toolchain//bin/cc_wrapper.sh": {
      "spec": {
        "reproducibility": "sometimes",
        "requirements": [
          {
            "because": "a source mentioning __DATE__ records when it was compiled",
            "when": {"family": ["-c"]},
            "any_of": ["-D__DATE__=*"]
          },
          {
            "because": "debugging information records the directory it was compiled in",
            "when": {"family": ["-g", "-gsplit-dwarf"], "off": ["-g0"]},
            "any_of": ["-ffile-prefix-map=*", "-fdebug-compilation-dir=*"]
          }
        ]
      }
    }
  }
}`

func TestParseFileAccepts(t *testing.T) {
	t.Run("the_readme_conditions_example", func(t *testing.T) {
		entries, err := ParseFile("specs.json", []byte(conditionsExample), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Kind != SpecEntry || entries[0].Program.String() != "@llvm_toolchain//bin/cc_wrapper.sh" {
			t.Fatalf("entries = %+v", entries)
		}
		date := Unmet{Because: "a source mentioning __DATE__ records when it was compiled", AnyOf: []string{"-D__DATE__=*"}}
		debug := Unmet{Because: "debugging information records the directory it was compiled in",
			AnyOf: []string{"-fdebug-compilation-dir=*", "-ffile-prefix-map=*"}}
		checkAssess(t, entries[0].Spec, []assessCase{
			{[]string{"-c", "x.c"}, verdictConditional(date)},
			{[]string{"x.c"}, verdictReproducible},
			{[]string{"-g", "-g0", "-c", `-D__DATE__="redacted"`}, verdictReproducible},
			{[]string{"-g0", "-g", "-c", `-D__DATE__="redacted"`}, verdictConditional(debug)},
			{[]string{"-g", "-fdebug-compilation-dir=.", "-c", `-D__DATE__="redacted"`}, verdictReproducible},
			{[]string{"-gsplit-dwarf", "-c"}, verdictConditional(date, debug)},
		})
	})

	t.Run("a_synonym_names_its_target", func(t *testing.T) {
		entries, err := ParseFile("", []byte(`{"programs": {"@llvm+t//bin/clang++": {"same_as": "@llvm+t//bin/clang"}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		want := program.ID{Origin: program.Origin{Kind: program.Module, Module: "llvm", Extension: "t", HasExtension: true}, Path: "bin/clang"}
		if len(entries) != 1 || entries[0].Kind != SameAsEntry || entries[0].SameAs != want {
			t.Errorf("entries = %+v, want same_as %+v", entries, want)
		}
	})

	t.Run("a_host_derived_program_needs_nothing_else", func(t *testing.T) {
		entries, err := ParseFile("", []byte(`{"programs": {"@acme+configure//toolchain/cc": {"spec": {"reproducibility": "host_derived"}}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Spec.Reproducibility != HostDerived {
			t.Errorf("entries = %+v", entries)
		}
	})

	t.Run("a_bare_spec_has_no_clauses_and_the_identity_recognizer", func(t *testing.T) {
		entries, err := ParseFile("", []byte(`{"programs": {"//tools/gen": {"spec": {"reproducibility": "never"}}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		want := &Spec{Reproducibility: Never}
		if len(entries) != 1 || !entries[0].Spec.Equal(want) {
			t.Errorf("entries = %+v, want %+v", entries, want)
		}
	})

	t.Run("every_spelling_of_a_transition", func(t *testing.T) {
		entries, err := ParseFile("", []byte(`{"programs": {
			"//a": {"wraps": {"after_separator": "--"}},
			"//b": {"wraps": "first_argument"},
			"//c": {"wraps": {"first_argument": null}}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		want := []Transition{{Kind: AfterSeparator, Separator: "--"}, {Kind: FirstArgument}, {Kind: FirstArgument}}
		var got []Transition
		for _, e := range entries {
			if e.Kind != WrapsEntry {
				t.Errorf("%s: kind %v, want wraps", e.Key, e.Kind)
			}
			got = append(got, e.Wraps)
		}
		if !slices.Equal(got, want) {
			t.Errorf("transitions = %+v, want %+v", got, want)
		}
	})

	t.Run("entries_come_in_sorted_key_order", func(t *testing.T) {
		entries, err := ParseFile("x.json", []byte(`{"programs": {
			"b/c": {"spec": {"reproducibility": "always"}},
			"//z": {"spec": {"reproducibility": "never"}},
			"//a": {"spec": {"reproducibility": "always"}}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, e := range entries {
			keys = append(keys, e.Key)
			if e.Origin != "x.json" {
				t.Errorf("%s: origin %q", e.Key, e.Origin)
			}
		}
		if !slices.Equal(keys, []string{"//a", "//z", "b/c"}) {
			t.Errorf("keys = %q", keys)
		}
		if entries[1].Spec.Reproducibility != Never {
			t.Error("//z lost its spec")
		}
	})

	t.Run("optional_fields_may_be_empty_or_null", func(t *testing.T) {
		entries, err := ParseFile("", []byte(`{"programs": {"//a": {"spec": {"reproducibility": "sometimes",
			"required_flags": [], "breaking_flags": [], "takes_value": [], "declared_paths": [], "recognize": {},
			"requirements": [{"because": "b", "any_of": ["-x"], "when": null}],
			"prohibitions": [{"because": "b", "any_of": ["-y"], "when": {"family": ["-c"]}}],
			"recognize_with": "rustc_codegen"}}}}`), mode.Default)
		if err != nil {
			t.Fatal(err)
		}
		s := entries[0].Spec
		if len(s.Requirements) != 1 || s.Requirements[0].When != nil || len(s.Prohibitions) != 1 || s.Prohibitions[0].When == nil {
			t.Errorf("spec = %+v", s)
		}
	})
}

func TestParseFileRejects(t *testing.T) {
	expectedSpecFields := "expected one of `reproducibility`, `required_flags`, `breaking_flags`, `requirements`, " +
		"`prohibitions`, `takes_value`, `declared_paths`, `recognize`, `recognize_with`, `options`, `bundle_first`, `operands`, `stdin`, `stdout`, `effects`, `sets`, `removes`, `cases`, `computes`, `writes_elsewhere`, `keeps`"
	cases := []struct {
		name  string
		file  string
		want  string // the whole message
		entry string // jsonfile.Error.Entry
	}{
		{"a_file_without_programs", `{}`,
			"s.json: missing field `programs` at line 1 column 2", ""},
		// Other top-level fields, ignored by Ahab 0.2, are refused: a
		// misspelt "programs" would otherwise load an empty library.
		{"an_unknown_top_level_field", `{"violations": [], "programs": {}}`,
			"s.json: unknown field `violations`, expected one of `programs`, `files`, `functions` at line 1 column 13", ""},
		// A program given twice, whose first entry Ahab 0.2 dropped
		// silently, is refused.
		{"a_program_given_twice", `{"programs": {"//a": {"same_as": "//b"}, "//a": {"same_as": "//c"}}}`,
			"s.json: duplicate field `//a` at line 1 column 42", ""},
		{"a_file_that_is_not_an_object", `[]`,
			"s.json: invalid type: sequence, expected an object with a `programs` field at line 1 column 1", ""},
		{"programs_given_twice", `{"programs": {}, "programs": {}}`,
			"s.json: duplicate field `programs` at line 1 column 18", ""},
		{"a_syntax_error", "{\n  \"programs\": {\n    \"//a\" {}\n  }\n}",
			"s.json: //a: invalid character '{' after object name (expecting ':') at line 3 column 11", "//a"},
		{"a_truncated_file", `{"programs": {"//a": `,
			"s.json: //a: unexpected end of the document at line 1 column 22", "//a"},
		{"trailing_characters", `{"programs": {}} x`,
			"s.json: trailing characters after the document at line 1 column 18", ""},
		{"an_empty_file", ``, "s.json: unexpected end of the document at line 1 column 0", ""},
		{"invalid_utf8", "{\"programs\": {\"//\xff\": {}}}", "s.json: invalid UTF-8 at line 1 column 18", ""},
		{"a_bad_program_name", `{"programs": {"@rules_rust": {"spec": {"reproducibility": "always"}}}}`,
			"s.json: @rules_rust: program: \"@rules_rust\" names a repository but no program: expected `@repository//path`", "@rules_rust"},
		{"a_bad_same_as_target", `{"programs": {"//a": {"same_as": "@nope"}}}`,
			"s.json: //a: same_as: \"@nope\" names a repository but no program: expected `@repository//path`", "//a"},
		{"the_first_bad_name_in_sorted_order_is_reported", `{"programs": {"@b": {"same_as": "//x"}, "//a": {"same_as": "@rules_rust+//x"}}}`,
			"s.json: //a: same_as: \"@rules_rust+//x\" has an empty extension name", "//a"},
		{"an_unknown_entry_kind", `{"programs": {"//a": {"alias": "//b"}}}`,
			"s.json: //a: unknown variant `alias`, expected one of `spec`, `same_as`, `wraps` at line 1 column 29", "//a"},
		{"an_empty_entry", `{"programs": {"//a": {}}}`,
			"s.json: //a: an entry needs one of `spec`, `same_as`, `wraps` at line 1 column 23", "//a"},
		{"an_entry_with_two_kinds", `{"programs": {"//a": {"same_as": "//b", "wraps": "first_argument"}}}`,
			"s.json: //a: an entry has exactly one of `spec`, `same_as`, `wraps`, found `wraps` after `same_as` at line 1 column 47", "//a"},
		{"an_entry_that_is_not_an_object", `{"programs": {"//a": "//b"}}`,
			"s.json: //a: invalid type: string \"//b\", expected an entry, one of `spec`, `same_as`, `wraps` at line 1 column 26", "//a"},
		{"an_unknown_spec_field", `{"programs": {"//a": {"spec": {"reproducibility": "always", "required_flag": []}}}}`,
			"s.json: //a: unknown field `required_flag`, " + expectedSpecFields + " at line 1 column 75", "//a"},
		{"field_names_are_case_sensitive", `{"programs": {"//a": {"spec": {"Reproducibility": "always"}}}}`,
			"s.json: //a: unknown field `Reproducibility`, " + expectedSpecFields + " at line 1 column 48", "//a"},
		{"a_spec_without_reproducibility", `{"programs": {"//a": {"spec": {"required_flags": ["-x"]}}}}`,
			"s.json: //a: missing field `reproducibility` at line 1 column 56", "//a"},
		{"an_unknown_reproducibility", `{"programs": {"//a": {"spec": {"reproducibility": "sometime"}}}}`,
			"s.json: //a: unknown variant `sometime`, expected one of `always`, `never`, `sometimes`, `host_derived` at line 1 column 60", "//a"},
		{"a_field_given_twice", `{"programs": {"//a": {"spec": {"reproducibility": "always", "reproducibility": "never"}}}}`,
			"s.json: //a: duplicate field `reproducibility` at line 1 column 61", "//a"},
		{"flags_that_are_not_a_list", `{"programs": {"//a": {"spec": {"reproducibility": "always", "required_flags": "-x"}}}}`,
			"s.json: //a: invalid type: string \"-x\", expected a sequence at line 1 column 82", "//a"},
		{"a_flag_that_is_not_a_string", `{"programs": {"//a": {"spec": {"reproducibility": "always", "takes_value": [1.5]}}}}`,
			"s.json: //a: invalid type: floating point `1.5`, expected a string at line 1 column 79", "//a"},
		{"an_unknown_clause_field", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "requirements": [{"because": "b", "anyof": []}]}}}}`,
			"s.json: //a: unknown field `anyof`, expected one of `because`, `any_of`, `when` at line 1 column 104", "//a"},
		{"a_clause_without_because", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "prohibitions": [{"any_of": []}]}}}}`,
			"s.json: //a: missing field `because` at line 1 column 94", "//a"},
		{"a_clause_without_any_of", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "prohibitions": [{"because": "b"}]}}}}`,
			"s.json: //a: missing field `any_of` at line 1 column 96", "//a"},
		{"an_unknown_guard_field", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "requirements": [{"because": "b", "any_of": [], "when": {"family": [], "on": []}}]}}}}`,
			"s.json: //a: unknown field `on`, expected one of `family`, `off` at line 1 column 138", "//a"},
		{"a_guard_without_family", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "requirements": [{"because": "b", "any_of": [], "when": {"off": ["-g0"]}}]}}}}`,
			"s.json: //a: missing field `family` at line 1 column 135", "//a"},
		{"a_recognize_value_that_is_not_a_string", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "recognize": {"-x": null}}}}}`,
			"s.json: //a: invalid type: null, expected a string at line 1 column 87", "//a"},
		{"an_unknown_recognizer", `{"programs": {"//a": {"spec": {"reproducibility": "sometimes", "recognize_with": "ar_operation"}}}}`,
			"s.json: //a: unknown recognizer `ar_operation`, expected one of `ar_modifiers`, `coreutils_applet`, `rustc_codegen` at line 1 column 95", "//a"},
		{"a_separator_without_its_value", `{"programs": {"//a": {"wraps": "after_separator"}}}`,
			"s.json: //a: `after_separator` needs a separator, expected {\"after_separator\": \"<separator>\"} at line 1 column 48", "//a"},
		{"an_unknown_transition", `{"programs": {"//a": {"wraps": {"last_argument": null}}}}`,
			"s.json: //a: unknown variant `last_argument`, expected one of `after_separator`, `first_argument` at line 1 column 47", "//a"},
		{"first_argument_with_a_value", `{"programs": {"//a": {"wraps": {"first_argument": true}}}}`,
			"s.json: //a: invalid type: boolean `true`, expected null at line 1 column 54", "//a"},
		{"a_derived_operand_without_its_suffix", `{"programs": {"//a": {"spec": {"operands": ["derives..."]}}}}`,
			"s.json: //a: operands: role \"derives\" needs the suffix of what it writes, as in derives:.o at line 1 column 57", "//a"},
		{"a_copy_keeping_what_no_copy_keeps", `{"programs": {"//a": {"spec": {"keeps": [{"value": "clock"}]}}}}`,
			"s.json: //a: keeps: `clock` is not kept by a copy, expected one of `mode` at line 1 column 59", "//a"},
		{"a_control_character_in_a_key_is_quoted", `{"programs": {"//a\n": {"spec": {}}}}`,
			"s.json: \"//a\\n\": missing field `reproducibility` at line 1 column 34", "//a\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries, err := ParseFile("s.json", []byte(c.file), mode.Default)
			if err == nil {
				t.Fatalf("ParseFile accepted it: %+v", entries)
			}
			if err.Error() != c.want {
				t.Errorf("error:\n got %s\nwant %s", err, c.want)
			}
			var fe *jsonfile.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not a *jsonfile.Error", err)
			}
			if fe.Path != "s.json" || fe.Entry != c.entry {
				t.Errorf("jsonfile.Error{Path: %q, Entry: %q}, want s.json and %q", fe.Path, fe.Entry, c.entry)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Error("the message spans lines")
			}
		})
	}
}

// FuzzParseFile checks that no input makes the parser panic or hang, that
// every error it returns is a one-line *jsonfile.Error, and that whatever it
// accepts resolves without trouble.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(conditionsExample))
	f.Add([]byte(`{"programs": {"//a": {"wraps": {"after_separator": "--"}}, "//b": {"same_as": "//a"}}}`))
	for _, name := range []string{"rust", "cc", "pkg", "container"} {
		if data, err := builtinFS.ReadFile("library/" + name + ".json"); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseFile("fuzz.json", data, mode.Default)
		if err != nil {
			var fe *jsonfile.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not a *jsonfile.Error: %v", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		l := NewLibrary()
		l.Add("fuzz.json", entries...)
		for _, e := range entries {
			r := l.Resolve(e.Program, []string{"--", "-c", "x"})
			if r.Spec != nil {
				r.Spec.Assess(r.Args)
				r.Spec.DeclaredPathArgs(r.Args)
			}
		}
	})
}

func TestFuzzCorpusIsCommitted(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParseFile", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed corpus in testdata/fuzz/FuzzParseFile: %v", err)
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}
