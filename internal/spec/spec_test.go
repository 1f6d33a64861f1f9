package spec

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/mode"
)

// specFrom reads one spec object written as in a spec file.
func specFromJSON(t *testing.T, specJSON string) *Spec {
	t.Helper()
	entries, err := ParseFile("test.json", []byte(`{"programs": {"//tool": {"spec": `+specJSON+`}}}`), mode.Default)
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	if len(entries) != 1 || entries[0].Spec == nil {
		t.Fatalf("ParseFile gave %+v, want one spec entry", entries)
	}
	return entries[0].Spec
}

func unmetMissing(pattern ...string) Unmet {
	return Unmet{Because: RequiredFlagBecause, AnyOf: pattern}
}

func unmetBreaking(present ...string) Unmet {
	return Unmet{Because: BreakingFlagBecause, Present: present}
}

type assessCase struct {
	args []string
	want Verdict
}

var verdictReproducible = Verdict{Outcome: Reproducible}

func verdictConditional(unmet ...Unmet) Verdict {
	return Verdict{Outcome: Conditional, Unmet: unmet}
}

func checkAssess(t *testing.T, s *Spec, cases []assessCase) {
	t.Helper()
	for _, c := range cases {
		got := s.Assess(c.args)
		if got.Outcome != c.want.Outcome || !slices.EqualFunc(got.Unmet, c.want.Unmet, unmetEqual) {
			t.Errorf("Assess(%q) = %+v, want %+v", c.args, got, c.want)
		}
	}
}

func unmetEqual(a, b Unmet) bool { return compareUnmet(a, b) == 0 }

func foldedOptions(s *Spec, args []string) []string {
	var out []string
	s.fold(args, func(option string, _ []string) { out = append(out, option) })
	return out
}

// §12 reproducibility_spec/mod.rs, with §5.3's cases.
func TestSpec(t *testing.T) {
	t.Run("new_collects_flag_sets_and_dedups", func(t *testing.T) {
		s, err := New(Definition{
			Reproducibility: Sometimes,
			RequiredFlags:   []string{"--b", "--a", "--b"},
			BreakingFlags:   []string{"--x", "--x"},
			TakesValue:      []string{"-t", "-o", "-t"},
			DeclaredPaths:   []string{"--p=*", "--p=*"},
		})
		if err != nil {
			t.Fatal(err)
		}
		var required []string
		for _, c := range s.Requirements {
			if c.When != nil || len(c.AnyOf) != 1 || c.Because != RequiredFlagBecause {
				t.Errorf("short-form requirement %+v, want one unguarded pattern", c)
			}
			required = append(required, patternTexts(c.AnyOf)...)
		}
		if !slices.Equal(required, []string{"--a", "--b"}) {
			t.Errorf("required = %q, want [--a --b]", required)
		}
		if len(s.Prohibitions) != 1 || s.Prohibitions[0].Because != BreakingFlagBecause {
			t.Errorf("prohibitions = %+v, want one for --x", s.Prohibitions)
		}
		if got := patternTexts(s.TakesValue); !slices.Equal(got, []string{"-o", "-t"}) {
			t.Errorf("takes_value = %q", got)
		}
		if got := patternTexts(s.DeclaredPaths); !slices.Equal(got, []string{"--p=*"}) {
			t.Errorf("declared_paths = %q", got)
		}
	})

	t.Run("a_value_in_the_next_argument_is_folded_onto_its_flag", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["--mode"], "required_flags": ["--mode=*hash*"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"--mode", "unchecked_hash", "--src", "x.py"}, verdictReproducible},
			{[]string{"--mode", "timestamp"}, verdictConditional(unmetMissing("--mode=*hash*"))},
		})
		if got := foldedOptions(s, []string{"--mode", "unchecked_hash", "--src", "x.py"}); !slices.Equal(got, []string{"--mode=unchecked_hash", "--src", "x.py"}) {
			t.Errorf("fold = %q", got)
		}
	})

	t.Run("both_spellings_of_a_value_come_out_the_same", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["-t"], "required_flags": ["-t=*"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-t", "5"}, verdictReproducible},
			{[]string{"-t=5"}, verdictReproducible},
			{[]string{"-t"}, verdictConditional(unmetMissing("-t=*"))},
		})
	})

	t.Run("a_value_already_joined_is_not_folded_again", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["--mode"]}`)
		if got := foldedOptions(s, []string{"--mode=x", "y"}); !slices.Equal(got, []string{"--mode=x", "y"}) {
			t.Errorf("fold = %q, want [--mode=x y]", got)
		}
		// A takes_value pattern is a glob: --mode* also takes --mode=x's
		// neighbour.
		s = specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["--mode*"]}`)
		if got := foldedOptions(s, []string{"--mode=x", "y"}); !slices.Equal(got, []string{"--mode=x=y"}) {
			t.Errorf("fold = %q, want [--mode=x=y]", got)
		}
	})

	t.Run("a_valued_flag_with_nothing_after_it_is_left_alone", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["-t"], "breaking_flags": ["-t=*"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-o", "out", "-t"}, verdictReproducible},
			{[]string{"-o", "out", "-t", "1"}, verdictConditional(unmetBreaking("-t=1"))},
		})
	})

	t.Run("a_valued_flag_takes_the_next_argument_even_if_it_looks_like_a_flag", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["-t"], "required_flags": ["--verbose"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-t", "--verbose"}, verdictConditional(unmetMissing("--verbose"))},
		})
		if got := foldedOptions(s, []string{"-t", "--verbose"}); !slices.Equal(got, []string{"-t=--verbose"}) {
			t.Errorf("fold = %q", got)
		}
	})

	t.Run("a_repeated_valued_flag_folds_each_occurrence", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["--src"]}`)
		if got := foldedOptions(s, []string{"--src", "a.py", "--src", "b.py"}); !slices.Equal(got, []string{"--src=a.py", "--src=b.py"}) {
			t.Errorf("fold = %q", got)
		}
	})

	t.Run("default_recognizer_takes_arguments_at_face_value", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "breaking_flags": ["*"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-d", "--x=1", "-d"}, verdictConditional(unmetBreaking("--x=1", "-d"))},
		})
	})

	t.Run("the_default_recognizer_matches_flag_sets_literally", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "required_flags": ["-O"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-O2"}, verdictConditional(unmetMissing("-O"))},
			{[]string{"-O"}, verdictReproducible},
		})
	})

	translations := `{"reproducibility": "sometimes", "breaking_flags": ["-O"], "recognize": {"-O1": "-O", "-O2": "-O", "-O3": "-O"}}`
	t.Run("a_translation_maps_an_argument_to_another_option", func(t *testing.T) {
		checkAssess(t, specFromJSON(t, translations), []assessCase{
			{[]string{"-O2"}, verdictConditional(unmetBreaking("-O"))},
			{[]string{"-O1", "x.c", "-O3"}, verdictConditional(unmetBreaking("-O"))},
		})
	})

	t.Run("translations_decide_whether_a_flag_counts_as_present", func(t *testing.T) {
		checkAssess(t, specFromJSON(t, translations), []assessCase{
			{[]string{"-O9"}, verdictReproducible},
			{[]string{}, verdictReproducible},
		})
		// A translation applies to the folded option, whole.
		s := specFromJSON(t, `{"reproducibility": "sometimes", "takes_value": ["-m"], "required_flags": ["--mode=fast"], "recognize": {"-m=f": "--mode=fast"}}`)
		checkAssess(t, s, []assessCase{
			{[]string{"-m", "f"}, verdictReproducible},
			{[]string{"-m", "fa"}, verdictConditional(unmetMissing("--mode=fast"))},
		})
	})

	t.Run("specs_compare_by_value", func(t *testing.T) {
		a := specFromJSON(t, `{"reproducibility": "sometimes", "required_flags": ["--b", "--a"], "takes_value": ["-t"]}`)
		b := specFromJSON(t, `{"takes_value": ["-t", "-t"], "required_flags": ["--a", "--b", "--a"], "reproducibility": "sometimes"}`)
		if !a.Equal(b) {
			t.Errorf("specs with the same sets in another order differ: %+v vs %+v", a, b)
		}
		for _, other := range []string{
			`{"reproducibility": "always", "required_flags": ["--b", "--a"], "takes_value": ["-t"]}`,
			`{"reproducibility": "sometimes", "required_flags": ["--b"], "takes_value": ["-t"]}`,
			`{"reproducibility": "sometimes", "required_flags": ["--b", "--a"]}`,
			`{"reproducibility": "sometimes", "required_flags": ["--b", "--a"], "takes_value": ["-t"], "recognize": {"-x": "--a"}}`,
			`{"reproducibility": "sometimes", "required_flags": ["--b", "--a"], "takes_value": ["-t"], "recognize_with": "rustc_codegen"}`,
			`{"reproducibility": "sometimes", "breaking_flags": ["--b", "--a"], "takes_value": ["-t"]}`,
		} {
			if a.Equal(specFromJSON(t, other)) {
				t.Errorf("%s compares equal to %+v", other, a)
			}
		}
	})

	t.Run("always_conforms_regardless_of_args", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "always", "required_flags": ["--deterministic"], "breaking_flags": ["--timestamp"]}`)
		checkAssess(t, s, []assessCase{{nil, verdictReproducible}, {[]string{"--timestamp"}, verdictReproducible}})
	})

	t.Run("never_is_always_non_reproducible", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "never", "required_flags": ["--deterministic"]}`)
		checkAssess(t, s, []assessCase{
			{nil, Verdict{Outcome: NotReproducible}},
			{[]string{"--deterministic"}, Verdict{Outcome: NotReproducible}},
		})
		h := specFromJSON(t, `{"reproducibility": "host_derived", "breaking_flags": ["*"]}`)
		checkAssess(t, h, []assessCase{{[]string{"x"}, Verdict{Outcome: HostDerivedProgram}}})
	})

	flags := `{"reproducibility": "sometimes", "required_flags": ["--deterministic"], "breaking_flags": ["--timestamp"]}`
	t.Run("sometimes_conforms_when_required_present_and_no_breaking", func(t *testing.T) {
		checkAssess(t, specFromJSON(t, flags), []assessCase{{[]string{"--deterministic", "input.c"}, verdictReproducible}})
	})
	t.Run("sometimes_reports_missing_required_flags", func(t *testing.T) {
		checkAssess(t, specFromJSON(t, flags), []assessCase{{[]string{"input.c"}, verdictConditional(unmetMissing("--deterministic"))}})
	})
	t.Run("sometimes_reports_present_breaking_flags", func(t *testing.T) {
		checkAssess(t, specFromJSON(t, flags), []assessCase{
			{[]string{"--deterministic", "--timestamp"}, verdictConditional(unmetBreaking("--timestamp"))},
		})
	})
	t.Run("sometimes_reports_both_kinds_at_once", func(t *testing.T) {
		// "it needs…" sorts before "it was…".
		checkAssess(t, specFromJSON(t, flags), []assessCase{
			{[]string{"--timestamp"}, verdictConditional(unmetMissing("--deterministic"), unmetBreaking("--timestamp"))},
		})
	})
}

// §5.3 beyond the mod.rs names: guards, ordering and de-duplication.
func TestAssessClauses(t *testing.T) {
	t.Run("duplicate_requirements_are_reported_once", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "required_flags": ["--deterministic"],
			"requirements": [{"because": "it needs an option it was not given", "any_of": ["--deterministic"]}]}`)
		checkAssess(t, s, []assessCase{{[]string{"x"}, verdictConditional(unmetMissing("--deterministic"))}})
	})

	t.Run("unmet_is_sorted_by_because_then_any_of_then_present", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "requirements": [
			{"because": "b", "any_of": ["--z"]},
			{"because": "a", "any_of": ["--y", "--x", "--y"]},
			{"because": "b", "any_of": ["--m"]}],
			"prohibitions": [{"because": "a", "any_of": ["-q*"]}]}`)
		checkAssess(t, s, []assessCase{{[]string{"-q2", "-q1", "-q2"}, verdictConditional(
			Unmet{Because: "a", Present: []string{"-q1", "-q2"}},
			Unmet{Because: "a", AnyOf: []string{"--x", "--y"}},
			Unmet{Because: "b", AnyOf: []string{"--m"}},
			Unmet{Because: "b", AnyOf: []string{"--z"}},
		)}})
	})

	t.Run("a_requirement_with_no_alternatives_is_always_unmet", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "requirements": [{"because": "never satisfied", "any_of": []}]}`)
		checkAssess(t, s, []assessCase{{[]string{"x"}, verdictConditional(Unmet{Because: "never satisfied"})}})
	})

	t.Run("a_guard_is_decided_by_the_last_argument_that_speaks", func(t *testing.T) {
		g := Guard{Family: Globs(mode.Default, "-g", "-gdwarf*", "-gx"), Off: Globs(mode.Default, "-g0", "-gx")}
		for _, c := range []struct {
			present []string
			want    bool
		}{
			{nil, false},
			{[]string{"-c"}, false},
			{[]string{"-g"}, true},
			{[]string{"-g", "-g0"}, false},
			{[]string{"-g0", "-g"}, true},
			{[]string{"-g0", "-gdwarf-4", "x.c"}, true},
			{[]string{"-g", "-gx"}, false}, // off is tried before family
		} {
			if got := g.Holds(c.present); got != c.want {
				t.Errorf("Holds(%q) = %v, want %v", c.present, got, c.want)
			}
		}
	})

	t.Run("a_guard_sees_recognized_options", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "recognize": {"--compile": "-c"},
			"prohibitions": [{"because": "b", "any_of": ["--stamp"], "when": {"family": ["-c"]}}]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"--compile", "--stamp"}, verdictConditional(Unmet{Because: "b", Present: []string{"--stamp"}})},
			{[]string{"--stamp"}, verdictReproducible},
		})
	})
}

func TestRecognizers(t *testing.T) {
	t.Run("rustc_codegen_spells_codegen_as_C", func(t *testing.T) {
		for in, want := range map[string]string{
			"--codegen=incremental=x": "-Cincremental=x",
			"--codegen=":              "-C",
			"-Copt-level=0":           "-Copt-level=0",
			"--codegen":               "--codegen",
			"x--codegen=y":            "x--codegen=y",
		} {
			if got, keep := recognizeRustcCodegen(0, in); got != want || !keep {
				t.Errorf("rustc_codegen(%q) = %q, %v, want %q, true", in, got, keep, want)
			}
		}
	})
	t.Run("ar_modifiers_sorts_and_dedups_the_operation_letters", func(t *testing.T) {
		for in, want := range map[string]string{
			"rcsD":             "modifiers:Dcrs",
			"rDcs":             "modifiers:Dcrs",
			"Drcs":             "modifiers:Dcrs",
			"rcsDD":            "modifiers:Dcrs",
			"a":                "modifiers:a",
			"":                 "",
			"rcs-":             "rcs-",
			"bazel-out/x/D.o":  "bazel-out/x/D.o",
			"rcé":              "rcé",
			"abcDdfhiLlNOoPpq": "modifiers:DLNOPabcdfhilopq",
		} {
			if got, keep := recognizeArModifiers(0, in); got != want || !keep {
				t.Errorf("ar_modifiers(%q) = %q, %v, want %q, true", in, got, keep, want)
			}
		}
	})
	t.Run("a_recognizer_runs_before_the_table", func(t *testing.T) {
		s := specFromJSON(t, `{"reproducibility": "sometimes", "recognize_with": "ar_modifiers",
			"recognize": {"modifiers:Dcrs": "deterministic"}, "required_flags": ["deterministic"]}`)
		checkAssess(t, s, []assessCase{
			{[]string{"rcsD", "lib.a", "x.o"}, verdictReproducible},
			{[]string{"rcs", "lib.a", "x.o"}, verdictConditional(unmetMissing("deterministic"))},
		})
	})
	t.Run("a_recognizer_that_drops_an_argument_hides_it", func(t *testing.T) {
		s := &Spec{Reproducibility: Sometimes, Recognize: map[string]string{"-x": "-y"}}
		drop := func(_ int, arg string) (string, bool) { return arg, arg != "-x" }
		if _, keep := s.recognize(drop, 0, "-x"); keep {
			t.Error("a dropped argument was kept")
		}
		if got, keep := s.recognize(drop, 1, "-z"); got != "-z" || !keep {
			t.Errorf("recognize(-z) = %q, %v", got, keep)
		}
	})
	t.Run("names_are_listed_sorted", func(t *testing.T) {
		if got := RecognizerNames(); !slices.Equal(got, []string{"ar_modifiers", "coreutils_applet", "rustc_codegen"}) {
			t.Errorf("RecognizerNames() = %q", got)
		}
	})
	t.Run("new_rejects_an_unknown_recognizer", func(t *testing.T) {
		_, err := New(Definition{Reproducibility: Sometimes, RecognizeWith: "ar_operation"})
		want := "unknown recognizer `ar_operation`, expected one of `ar_modifiers`, `coreutils_applet`, `rustc_codegen`"
		if err == nil || err.Error() != want {
			t.Errorf("New error = %v, want %q", err, want)
		}
	})
}

// §3.4.3.
func TestDeclaredPathArgs(t *testing.T) {
	s := specFromJSON(t, `{"reproducibility": "always", "takes_value": ["--working-dir", "--entrypoint"],
		"declared_paths": ["--working-dir=*", "--entrypoint=*"], "recognize": {"--wd=/x": "--working-dir=/x"}}`)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--working-dir", "/app"}, []string{"--working-dir", "/app"}},
		{[]string{"--entrypoint=/app/bin/server"}, []string{"--entrypoint=/app/bin/server"}},
		{[]string{"--output", "/tmp/out.tar"}, nil},
		{[]string{"manifest", "--working-dir", "/app", "--entrypoint"}, []string{"--working-dir", "/app"}},
		{[]string{"--wd=/x"}, nil}, // not passed through recognize
		{nil, nil},
	} {
		if got := s.DeclaredPathArgs(c.args); !slices.Equal(got, c.want) {
			t.Errorf("DeclaredPathArgs(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	none := specFromJSON(t, `{"reproducibility": "always", "takes_value": ["--working-dir"]}`)
	if got := none.DeclaredPathArgs([]string{"--working-dir", "/app"}); got != nil {
		t.Errorf("without declared_paths: %q, want none", got)
	}
}

func BenchmarkAssess(b *testing.B) {
	s, err := New(Definition{
		Reproducibility: Sometimes,
		RequiredFlags:   []string{"--remap-path-prefix=${pwd}=*", "--remap-path-prefix=${output_base}=*", "--remap-path-prefix=${exec_root}=*"},
		BreakingFlags:   []string{"-Cincremental=*"},
		RecognizeWith:   "rustc_codegen",
	})
	if err != nil {
		b.Fatal(err)
	}
	args := []string{"--crate-name=ahab", "--codegen=opt-level=0", "--codegen=debuginfo=0",
		"--remap-path-prefix=${output_base}=.", "--remap-path-prefix=${pwd}=.",
		"--remap-path-prefix=${exec_root}=.", "--edition=2021", "-Cembed-bitcode=no"}
	for b.Loop() {
		s.Assess(args)
	}
}
