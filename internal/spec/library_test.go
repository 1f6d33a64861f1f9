package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// libraryFromJSON builds a library from spec files given inline, added in
// order as file1.json, file2.json, ….
// libraryFromJSON is a library of Ahab 0.2's judgement holding files, in
// order: the tests of §5 pin the original's resolution.
func libraryFromJSON(t *testing.T, files ...string) *Library {
	t.Helper()
	return libraryFromJSONFor(t, mode.Ahab02, files...)
}

func libraryFromJSONFor(t *testing.T, m mode.Mode, files ...string) *Library {
	t.Helper()
	l := NewLibraryFor(m)
	for i, f := range files {
		name := fmt.Sprintf("file%d.json", i+1)
		entries, err := ParseFile(name, []byte(f), m)
		if err != nil {
			t.Fatalf("ParseFile: %v", err)
		}
		l.Add(name, entries...)
	}
	return l
}

func mustParseID(t *testing.T, name string) program.ID {
	t.Helper()
	id, err := program.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

type resolveCase struct {
	name  string
	files []string
	argv  []string

	program  string   // display form of what finally runs
	wrappers []string // display forms, outermost first
	args     []string // checked when not nil
	noSpec   bool
	synonym  string // display form, "" for none
	outcome  Outcome
}

func (c resolveCase) run(t *testing.T) {
	t.Helper()
	l := libraryFromJSON(t, c.files...)
	r := l.Resolve(program.Of(c.argv[0]), c.argv[1:])
	// ResolveArgv answers alike, whether it remembers argv[0] or not.
	for i := range 2 {
		if got := l.ResolveArgv(c.argv); !reflect.DeepEqual(got, r) {
			t.Errorf("ResolveArgv, call %d = %+v, want Resolve's %+v", i+1, got, r)
		}
	}
	if got := r.Program.String(); got != c.program {
		t.Errorf("program = %q, want %q", got, c.program)
	}
	var wrappers []string
	for _, w := range r.Wrappers {
		wrappers = append(wrappers, w.String())
	}
	if !slices.Equal(wrappers, c.wrappers) {
		t.Errorf("wrappers = %q, want %q", wrappers, c.wrappers)
	}
	if c.args != nil && !slices.Equal(r.Args, c.args) {
		t.Errorf("args = %q, want %q", r.Args, c.args)
	}
	if c.noSpec {
		if r.Spec != nil {
			t.Errorf("a spec answered, carried by %s; want none", r.Carrier)
		}
		if _, ok := r.Synonym(); ok {
			t.Error("a resolution without a spec reports a synonym")
		}
		return
	}
	if r.Spec == nil {
		t.Fatal("no spec answered")
	}
	synonym := ""
	if s, ok := r.Synonym(); ok {
		synonym = s.String()
	}
	if synonym != c.synonym {
		t.Errorf("synonym = %q, want %q", synonym, c.synonym)
	}
	if got := r.Spec.Assess(r.Args).Outcome; got != c.outcome {
		t.Errorf("outcome = %v, want %v", got, c.outcome)
	}
}

const (
	alwaysSpec      = `{"spec": {"reproducibility": "always"}}`
	neverSpec       = `{"spec": {"reproducibility": "never"}}`
	hostDerivedSpec = `{"spec": {"reproducibility": "host_derived"}}`
)

func programs(entries ...string) string {
	return `{"programs": {` + strings.Join(entries, ", ") + `}}`
}

func entry(key, value string) string { return fmt.Sprintf("%q: %s", key, value) }

func sameAs(target string) string { return fmt.Sprintf(`{"same_as": %q}`, target) }

const wrapsSeparator = `{"wraps": {"after_separator": "--"}}`

// §12 reproducibility_spec/library.rs, the cases that are about the
// mechanism rather than the built-in data (§5.5, §5.6).
func TestResolve(t *testing.T) {
	rustcPatterns := programs(
		entry("@r+toolchains//*/bin/rustc", `{"spec": {"reproducibility": "sometimes", "required_flags": ["--remap"]}}`),
	)
	chain := func(links int) string {
		var es []string
		for i := range links {
			es = append(es, entry(fmt.Sprintf("//l%d", i), sameAs(fmt.Sprintf("//l%d", i+1))))
		}
		es = append(es, entry(fmt.Sprintf("//l%d", links), neverSpec))
		return programs(es...)
	}
	cases := []resolveCase{
		{name: "a_program_the_library_does_not_name_has_no_spec",
			files: []string{programs(entry("//a", alwaysSpec))}, argv: []string{"external/llvm+/bin/clang"},
			program: "@llvm//bin/clang", noSpec: true},
		{name: "a_pattern_answers_for_every_program_whose_path_it_matches/linux_toolchain",
			files: []string{rustcPatterns}, argv: []string{"external/r++toolchains+tc/linux_x86_64_1_86_0/bin/rustc"},
			program: "@r+toolchains//linux_x86_64_1_86_0/bin/rustc", synonym: "@r+toolchains//*/bin/rustc", outcome: Conditional},
		{name: "a_pattern_answers_for_every_program_whose_path_it_matches/macos_toolchain_with_its_flag",
			files: []string{rustcPatterns}, argv: []string{"external/r++toolchains+tc/macos_arm64_1_99_0/bin/rustc", "--remap"},
			program: "@r+toolchains//macos_arm64_1_99_0/bin/rustc", synonym: "@r+toolchains//*/bin/rustc", outcome: Reproducible},
		{name: "a_pattern_does_not_reach_across_repositories/another_repository",
			files: []string{rustcPatterns}, argv: []string{"external/other++toolchains+tc/x/bin/rustc"},
			program: "@other+toolchains//x/bin/rustc", noSpec: true},
		{name: "a_pattern_does_not_reach_across_repositories/a_shorter_repository_name",
			files: []string{rustcPatterns}, argv: []string{"external/r+/x/bin/rustc"},
			program: "@r//x/bin/rustc", noSpec: true},
		{name: "naming_a_program_outright_beats_a_pattern_that_covers_it",
			files: []string{programs(entry("//tools/x", neverSpec)), programs(entry("//tools/*", alwaysSpec))},
			argv:  []string{"tools/x"}, program: "//tools/x", outcome: NotReproducible},
		{name: "a_later_pattern_wins_over_an_earlier_one/in_a_later_file",
			files: []string{programs(entry("@r+t//*/bin/rustc", neverSpec)), programs(entry("@r+t//*/rustc", alwaysSpec))},
			argv:  []string{"external/r++t+x/a/bin/rustc"}, program: "@r+t//a/bin/rustc", synonym: "@r+t//*/rustc", outcome: Reproducible},
		{name: "a_later_pattern_wins_over_an_earlier_one/when_redeclared",
			// Re-declaring a pattern moves it to the end.
			files: []string{programs(entry("@r+t//*/bin/rustc", neverSpec)), programs(entry("@r+t//*/rustc", alwaysSpec)),
				programs(entry("@r+t//*/bin/rustc", hostDerivedSpec))},
			argv: []string{"external/r++t+x/a/bin/rustc"}, program: "@r+t//a/bin/rustc", synonym: "@r+t//*/bin/rustc", outcome: HostDerivedProgram},
		{name: "a_later_pattern_wins_over_an_earlier_one/in_sorted_key_order_within_a_file",
			// Within one file, keys apply in sorted order: "//t/*" < "//t/?".
			files: []string{programs(entry("//t/?", neverSpec), entry("//t/*", alwaysSpec))},
			argv:  []string{"t/x"}, program: "//t/x", synonym: "//t/?", outcome: NotReproducible},
		{name: "a_pattern_reports_the_key_that_answered",
			files: []string{programs(entry("//gen/*", neverSpec))}, argv: []string{"bazel-out/k8-fastbuild/bin/gen/a"},
			program: "//gen/a", synonym: "//gen/*", outcome: NotReproducible},
		{name: "a_pattern_can_stand_in_for_a_synonym",
			files: []string{programs(
				entry("@rules_rust//bin/rustc", `{"spec": {"reproducibility": "sometimes", "required_flags": ["--remap"]}}`),
				entry("@r+toolchains//*/bin/rustc", sameAs("@rules_rust//bin/rustc")))},
			argv:    []string{"external/r++toolchains+tc/v1/bin/rustc"},
			program: "@r+toolchains//v1/bin/rustc", synonym: "@rules_rust//bin/rustc", outcome: Conditional},
		{name: "a_program_outside_the_execution_root_is_the_machines/by_absolute_path",
			files: []string{programs(entry("/usr/bin/gcc", alwaysSpec), entry("gcc", alwaysSpec))},
			argv:  []string{"/usr/bin/gcc", "a.c"}, program: "/usr/bin/gcc", noSpec: true},
		{name: "a_program_outside_the_execution_root_is_the_machines/by_bare_name",
			files: []string{programs(entry("/usr/bin/gcc", alwaysSpec), entry("gcc", alwaysSpec))},
			argv:  []string{"gcc", "a.c"}, program: "gcc", noSpec: true},
		{name: "a_declared_program_is_the_machines_wherever_it_sits",
			files:   []string{programs(entry("@acme+configure//toolchain/cc", hostDerivedSpec))},
			argv:    []string{"external/acme++configure+local/toolchain/cc", "-c", "x.c"},
			program: "@acme+configure//toolchain/cc", outcome: HostDerivedProgram},
		{name: "its_neighbours_in_the_same_repository_are_not",
			files: []string{programs(entry("@acme+configure//toolchain/cc", hostDerivedSpec))},
			argv:  []string{"external/acme++configure+local/toolchain/ar"}, program: "@acme+configure//toolchain/ar", noSpec: true},
		{name: "a_synonym_may_point_at_a_host_derived_program",
			files: []string{programs(entry("@acme+configure//toolchain/cc", hostDerivedSpec), entry("//cc", sameAs("@acme+configure//toolchain/cc")))},
			argv:  []string{"bazel-out/k8-opt-exec/bin/cc"}, program: "//cc", synonym: "@acme+configure//toolchain/cc", outcome: HostDerivedProgram},
		{name: "a_program_with_its_own_spec_resolves_to_it",
			files: []string{programs(entry("//a", neverSpec))}, argv: []string{"bazel-out/k8-fastbuild/bin/a", "x"},
			program: "//a", args: []string{"x"}, outcome: NotReproducible},
		{name: "an_unknown_program_resolves_to_no_spec",
			files: []string{programs(entry("//a", neverSpec))}, argv: []string{"bazel-out/k8-fastbuild/bin/b", "x"},
			program: "//b", args: []string{"x"}, noSpec: true},
		{name: "a_synonym_resolves_to_its_targets_spec/not_for_an_unclean_path",
			files: []string{programs(entry("//a", neverSpec), entry("//b", sameAs("//a")))}, argv: []string{"b/x/../../b"},
			program: "//b/x/../../b", noSpec: true},
		{name: "a_synonym_resolves_to_its_targets_spec/for_a_built_program",
			files: []string{programs(entry("//a", neverSpec), entry("//b", sameAs("//a")))}, argv: []string{"bazel-out/k8/bin/b"},
			program: "//b", synonym: "//a", outcome: NotReproducible},
		{name: "synonyms_may_chain/across_packages",
			files: []string{programs(entry("//a", neverSpec), entry("//d/b", sameAs("//a")), entry("//c", sameAs("d/b")))},
			argv:  []string{"bazel-out/k8/bin/c"}, program: "//c", synonym: "//a", outcome: NotReproducible},
		{name: "synonyms_may_chain/fifteen_links_deep",
			files: []string{chain(15)}, argv: []string{"bazel-out/k8/bin/l0"}, program: "//l0", synonym: "//l15", outcome: NotReproducible},
		{name: "a_synonym_pointing_nowhere_resolves_to_no_spec",
			files: []string{programs(entry("//b", sameAs("//a")))}, argv: []string{"bazel-out/k8/bin/b"}, program: "//b", noSpec: true},
		{name: "a_synonym_cycle_terminates",
			files: []string{programs(entry("//a", sameAs("//b")), entry("//b", sameAs("//a")))}, argv: []string{"bazel-out/k8/bin/a"},
			program: "//a", noSpec: true},
		{name: "a_self_referential_synonym_terminates",
			files: []string{programs(entry("//a", sameAs("//a")))}, argv: []string{"bazel-out/k8/bin/a"}, program: "//a", noSpec: true},
		{name: "a_chain_longer_than_the_step_limit_gives_up",
			files: []string{chain(16)}, argv: []string{"bazel-out/k8/bin/l0"}, program: "//l0", noSpec: true},
		{name: "a_synonym_does_not_change_the_program_the_action_ran",
			files: []string{programs(entry("@llvm+t//bin/clang", neverSpec), entry("@llvm+t//bin/clang++", sameAs("@llvm+t//bin/clang")))},
			argv:  []string{"external/llvm++t+x/bin/clang++", "-c"}, program: "@llvm+t//bin/clang++", args: []string{"-c"},
			synonym: "@llvm+t//bin/clang", outcome: NotReproducible},
		{name: "a_program_with_its_own_spec_reports_no_synonym",
			files: []string{programs(entry("//a", neverSpec), entry("//b", sameAs("//a")))}, argv: []string{"bazel-out/k8/bin/a"},
			program: "//a", outcome: NotReproducible},
		{name: "an_unknown_program_reports_no_synonym",
			files: []string{programs(entry("//a", neverSpec))}, argv: []string{"bazel-out/k8/bin/z"}, program: "//z", noSpec: true},
	}

	wrapperLib := programs(entry("//a", wrapsSeparator), entry("@b//bin/b", neverSpec))
	cases = append(cases, []resolveCase{
		{name: "a_wrapper_resolves_to_the_command_it_runs",
			files: []string{wrapperLib}, argv: []string{"bazel-out/k8/bin/a", "--arg-file", "x", "--", "external/b+/bin/b", "--opt"},
			program: "@b//bin/b", wrappers: []string{"//a"}, args: []string{"--opt"}, outcome: NotReproducible},
		{name: "a_wrappers_own_flags_are_not_assessed",
			files: []string{wrapperLib}, argv: []string{"bazel-out/k8/bin/a", "--subst", "pwd=x", "--", "external/b+/bin/b"},
			program: "@b//bin/b", wrappers: []string{"//a"}, args: []string{}, outcome: NotReproducible},
		{name: "wrappers_may_nest",
			files: []string{programs(entry("//a", wrapsSeparator), entry("//b", `{"wraps": "first_argument"}`),
				entry("//c", `{"spec": {"reproducibility": "sometimes", "breaking_flags": ["-O1"]}}`))},
			argv:    []string{"bazel-out/k8/bin/a", "--x", "--", "bazel-out/k8/bin/b", "bazel-out/k8/bin/c", "-O2"},
			program: "//c", wrappers: []string{"//a", "//b"}, args: []string{"-O2"}, outcome: Reproducible},
		{name: "a_wrapper_can_unwrap_onto_a_system_program",
			files: []string{wrapperLib, programs(entry("/usr/bin/gcc", alwaysSpec))}, argv: []string{"bazel-out/k8/bin/a", "--", "/usr/bin/gcc", "x.c"},
			program: "/usr/bin/gcc", wrappers: []string{"//a"}, args: []string{"x.c"}, noSpec: true},
		{name: "a_transition_that_does_not_fire_leaves_the_wrapper_in_place/flag_absent",
			files: []string{wrapperLib}, argv: []string{"bazel-out/k8/bin/a", "--arg-file", "x"},
			program: "//a", args: []string{"--arg-file", "x"}, noSpec: true},
		{name: "a_transition_that_does_not_fire_leaves_the_wrapper_in_place/first_argument_null",
			files: []string{programs(entry("//p", `{"wraps": {"first_argument": null}}`))}, argv: []string{"bazel-out/k8/bin/p", "-c", "print(1)"},
			program: "//p", args: []string{"-c", "print(1)"}, noSpec: true},
		{name: "a_transition_that_does_not_fire_leaves_the_wrapper_in_place/no_first_argument",
			files: []string{programs(entry("//p", `{"wraps": "first_argument"}`))}, argv: []string{"bazel-out/k8/bin/p"},
			program: "//p", noSpec: true},
		{name: "a_separator_with_nothing_after_it_does_not_fire",
			files: []string{wrapperLib}, argv: []string{"bazel-out/k8/bin/a", "--"}, program: "//a", args: []string{"--"}, noSpec: true},
		{name: "only_the_first_separator_splits_the_command",
			files:   []string{programs(entry("//a", wrapsSeparator), entry("//b", alwaysSpec))},
			argv:    []string{"bazel-out/k8/bin/a", "--", "bazel-out/k8/bin/b", "--", "tail"},
			program: "//b", wrappers: []string{"//a"}, args: []string{"--", "tail"}, outcome: Reproducible},
		{name: "a_wrapper_cycle_terminates",
			files:   []string{programs(entry("//a", wrapsSeparator))},
			argv:    append([]string{"bazel-out/k8/bin/a"}, slices.Repeat([]string{"--", "bazel-out/k8/bin/a"}, 20)...),
			program: "//a", noSpec: true,
			wrappers: slices.Repeat([]string{"//a"}, 16)},
		{name: "the_wrapper_recorded_is_the_name_the_action_used/unclean_path",
			files: []string{programs(entry("@rules_rust//pw", wrapsSeparator), entry("@rules_rs+rules_rust//pw", sameAs("@rules_rust//pw")),
				entry("//b", neverSpec))},
			argv:    []string{"external/rules_rs++rules_rust+rules_rust/pw", "--", "b/c/../../b"},
			program: "//b/c/../../b", wrappers: []string{"@rules_rs+rules_rust//pw"}, noSpec: true},
		{name: "the_wrapper_recorded_is_the_name_the_action_used/built_program",
			files: []string{programs(entry("@rules_rust//pw", wrapsSeparator), entry("@rules_rs+rules_rust//pw", sameAs("@rules_rust//pw")),
				entry("//b", neverSpec))},
			argv:    []string{"external/rules_rs++rules_rust+rules_rust/pw", "--", "bazel-out/k8/bin/b"},
			program: "//b", wrappers: []string{"@rules_rs+rules_rust//pw"}, outcome: NotReproducible},
	}...)

	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

// §5.5.
func TestLibraryPrecedence(t *testing.T) {
	t.Run("a_later_file_overrides_an_earlier_exact_entry", func(t *testing.T) {
		l := libraryFromJSON(t, programs(entry("//a", wrapsSeparator)), programs(entry("//a", alwaysSpec)))
		e, ok := l.Lookup(mustParseID(t, "//a"))
		if !ok || e.Kind != SpecEntry || e.Origin != "file2.json" {
			t.Errorf("Lookup(//a) = %+v, %v; want file2.json's spec", e, ok)
		}
	})
	t.Run("two_spellings_of_one_key_keep_the_later_in_sorted_order", func(t *testing.T) {
		// "//a/b" sorts before "a/b", so a/b's entry is applied last.
		l := libraryFromJSON(t, programs(entry("a/b", neverSpec), entry("//a/b", alwaysSpec)))
		e, ok := l.Lookup(mustParseID(t, "//a/b"))
		if !ok || e.Key != "a/b" || e.Spec.Reproducibility != Never {
			t.Errorf("Lookup(//a/b) = %+v, %v; want a/b's never", e, ok)
		}
	})
	t.Run("a_user_pattern_cannot_override_an_exact_key", func(t *testing.T) {
		l := libraryFromJSON(t, programs(entry("//t/x", neverSpec)), programs(entry("//t/*", alwaysSpec)))
		if e, _ := l.Lookup(mustParseID(t, "//t/x")); e.Key != "//t/x" {
			t.Errorf("Lookup(//t/x) answered by %q", e.Key)
		}
		if e, _ := l.Lookup(mustParseID(t, "//t/y")); e.Key != "//t/*" {
			t.Errorf("Lookup(//t/y) answered by %q", e.Key)
		}
	})
	t.Run("a_pattern_like_same_as_target_is_looked_up_literally", func(t *testing.T) {
		l := libraryFromJSON(t, programs(entry("//x", sameAs("//t/*")), entry("//t/*", neverSpec)))
		r := l.Resolve(mustParseID(t, "//x"), nil)
		if r.Spec == nil || r.Carrier != mustParseID(t, "//t/*") {
			t.Errorf("Resolve(//x) = %+v, want the //t/* spec", r)
		}
	})
	t.Run("the_zero_library_is_empty", func(t *testing.T) {
		var l Library
		if r := l.Resolve(mustParseID(t, "//a"), []string{"x"}); r.Spec != nil || r.Program != mustParseID(t, "//a") {
			t.Errorf("Resolve on the zero Library = %+v", r)
		}
		l.Add("x.json", Entry{Key: "//a", Program: mustParseID(t, "//a"), Kind: SpecEntry, Spec: &Spec{Reproducibility: Never}})
		if r := l.Resolve(mustParseID(t, "//a"), nil); r.Spec == nil {
			t.Error("an entry added to the zero Library is not found")
		}
		if got := l.Entries(); len(got) != 1 || got[0].Origin != "x.json" {
			t.Errorf("Entries() = %+v", got)
		}
	})
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(programs(entry("//tools/gen", neverSpec))), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad-program.json")
	if err := os.WriteFile(bad, []byte(programs(entry("@rules_rust", neverSpec))), 0o644); err != nil {
		t.Fatal(err)
	}
	l := NewLibrary()
	if err := l.LoadFile(good); err != nil {
		t.Fatal(err)
	}
	if e, ok := l.Lookup(mustParseID(t, "//tools/gen")); !ok || e.Origin != good {
		t.Errorf("Lookup after LoadFile = %+v, %v", e, ok)
	}

	err := l.LoadFile(bad)
	want := bad + ": @rules_rust: program: \"@rules_rust\" names a repository but no program: expected `@repository//path`"
	if err == nil || err.Error() != want {
		t.Errorf("LoadFile(bad) = %v, want %q", err, want)
	}
	if len(l.Entries()) != 1 {
		t.Errorf("a failing file added entries: %+v", l.Entries())
	}

	missing := filepath.Join(dir, "missing.json")
	err = l.LoadFile(missing)
	want = "failed to read specs from " + missing + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("LoadFile(missing) = %v, want %q", err, want)
	}
}

func TestBuiltinLoads(t *testing.T) {
	l, err := LoadBuiltin(mode.Ahab02)
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]bool{}
	for _, e := range l.Entries() {
		origins[e.Origin] = true
	}
	for _, name := range builtinOrder {
		if !origins["library/"+name+".json"] {
			t.Errorf("no entry came from library/%s.json", name)
		}
	}
	// Each call gives a library of its own.
	l.Add("user.json", Entry{Key: "//mine", Program: mustParseID(t, "//mine"), Kind: SpecEntry, Spec: &Spec{}})
	if _, ok := Builtin().Lookup(mustParseID(t, "//mine")); ok {
		t.Error("adding to one built-in library changed another")
	}
}

// The memo keeps nothing of the caller's argv: the analysis reuses the
// buffer command lines are decoded from, so a remembered program must not
// change when its bytes do.
func TestResolveArgvCopiesWhatItRemembers(t *testing.T) {
	l := Builtin()
	buf := []byte("external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh")
	argv0 := unsafe.String(unsafe.SliceData(buf), len(buf))
	first := l.ResolveArgv([]string{argv0, "-c", "f.cc"})
	want := first.Program.String()
	copy(buf, strings.Repeat("x", len(buf)))
	again := l.ResolveArgv([]string{"external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh", "-c", "f.cc"})
	if got := again.Program.String(); got != want {
		t.Errorf("after the caller's buffer changed, the program is %q, want %q", got, want)
	}
}

// Adding entries forgets what was remembered, and the memo stops growing
// at its limit.
func TestResolveArgvMemo(t *testing.T) {
	l := NewLibrary()
	argv := []string{"external/llvm+/bin/clang", "-c", "f.c"}
	if r := l.ResolveArgv(argv); r.Spec != nil {
		t.Fatalf("an empty library has a spec for clang: %+v", r)
	}
	entries, err := ParseFile("more.json", []byte(programs(entry("@llvm//bin/clang", alwaysSpec))), mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	l.Add("more.json", entries...)
	if r := l.ResolveArgv(argv); r.Spec == nil {
		t.Error("ResolveArgv still answers as before an entry for the program was added")
	}
	for i := range memoLimit + 10 {
		l.ResolveArgv([]string{"bazel-out/k8-fastbuild/bin/gen/script_" + strconv.Itoa(i) + ".sh"})
	}
	if n := l.memoLen.Load(); n != memoLimit {
		t.Errorf("the memo holds %d programs, want its limit %d", n, memoLimit)
	}
}

// A same_as that leads nowhere is refused when the file loads, naming the
// file and the key, instead of making the program unknown at every use.
func TestLoadFileChecksSameAs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file, entry, want string
	}{
		{"self_reference", `{"programs": {"//a": {"same_as": "//a"}}}`,
			"//a", `same_as: "//a" refers back to itself`},
		{"cycle", `{"programs": {"//a": {"same_as": "//b"}, "//b": {"same_as": "//a"}}}`,
			"//a", `same_as: the chain "//a" → "//b" comes back to "//a"`},
		{"missing_target", `{"programs": {"//a": {"same_as": "//nowhere"}}}`,
			"//a", `same_as: "//nowhere" has no entry, expected a program with a spec, a same_as or a wraps entry`},
		{"too_long", longChain(17),
			"//p00", `is longer than the 16 steps resolution follows`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			l := NewLibrary()
			err := l.LoadFile(path)
			e, ok := errors.AsType[*jsonfile.Error](err)
			if !ok || e.Path != path || e.Entry != tc.entry || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %s: %s: …%s…", err, path, tc.entry, tc.want)
			}
			if len(l.Entries()) != 0 {
				t.Errorf("a refused file added entries")
			}
		})
	}
	t.Run("targets_in_the_library_and_chains_of_fifteen_are_fine", func(t *testing.T) {
		path := filepath.Join(dir, "ok.json")
		file := strings.Replace(longChain(15), `{"programs": {`,
			`{"programs": {"@rules_rs+rules_rust//x": {"same_as": "@rules_rust//util/process_wrapper/process_wrapper"}, `, 1)
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Builtin().LoadFile(path); err != nil {
			t.Fatal(err)
		}
	})
}

// longChain is a file where //p00 same_as //p01 … same_as //p(n-1), which
// has a spec: n-1 links.
func longChain(n int) string {
	var b strings.Builder
	b.WriteString(`{"programs": {`)
	for i := range n - 1 {
		fmt.Fprintf(&b, `"//p%02d": {"same_as": "//p%02d"}, `, i, i+1)
	}
	fmt.Fprintf(&b, `"//p%02d": {"spec": {"reproducibility": "always"}}}}`, n-1)
	return b.String()
}

// The built-in library's own same_as entries all lead somewhere.
func TestBuiltinSameAsChecks(t *testing.T) {
	l := Builtin()
	for _, e := range l.Entries() {
		if err := l.CheckSameAs(e); err != nil {
			t.Errorf("%s: %v", e.Key, err)
		}
	}
}
