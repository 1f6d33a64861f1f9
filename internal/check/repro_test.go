package check

import (
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

// prog parses a program name as a report displays it.
func prog(t *testing.T, name string) program.ID {
	t.Helper()
	id, err := program.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func progs(t *testing.T, names ...string) []program.ID {
	t.Helper()
	var ids []program.ID
	for _, n := range names {
		ids = append(ids, prog(t, n))
	}
	return ids
}

// programFinding is a finding of one of the five program kinds about the
// test action.
func programFinding(t *testing.T, kind finding.Kind, name string, wrappers ...string) finding.Finding {
	t.Helper()
	return finding.Finding{Kind: kind, Action: testRef, Program: prog(t, name), Wrappers: progs(t, wrappers...)}
}

func withSynonym(t *testing.T, f finding.Finding, name string) finding.Finding {
	t.Helper()
	s := prog(t, name)
	f.Synonym = &s
	return f
}

func withUnmet(f finding.Finding, unmet ...finding.Unmet) finding.Finding {
	f.Unmet = unmet
	return f
}

func requiredFlag(pattern string) finding.Unmet {
	return finding.Unmet{Because: "it needs an option it was not given", AnyOf: []string{pattern}}
}

const (
	processWrapperArgv0 = "bazel-out/k8-opt-exec/bin/external/rules_rust+/util/process_wrapper/process_wrapper"
	rustcArgv0          = "external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools/rust_toolchain/bin/rustc"
	processWrapperName  = "@rules_rust//util/process_wrapper/process_wrapper"
	rustcName           = "@rules_rust+rust//rust_toolchain/bin/rustc"
	hostCcWrapperArgv0  = "external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh"
	hostCcWrapperName   = "@rules_cc+cc_configure_extension//cc_wrapper.sh"
)

// TestRepro covers §3.6 with the built-in library; the names are the
// original's where it had the case (§12 Reproducibility, Param files).
func TestRepro(t *testing.T) {
	repro := Repro(spec.BuiltinFor(mode.Ahab02))
	remaps := []string{"--remap-path-prefix=${pwd}=.", "--remap-path-prefix=${output_base}=.", "--remap-path-prefix=${exec_root}=."}
	tests := []struct {
		name string
		a    *action.Action
		want []finding.Finding
	}{
		{
			name: "a_host_derived_program_reads_differently_from_a_system_one/system",
			a:    act("/usr/bin/gcc", "a.c"),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "/usr/bin/gcc")},
		},
		{
			name: "a_host_derived_program_reads_differently_from_a_system_one/host_derived",
			a:    act(hostCcWrapperArgv0, "a.c"),
			want: []finding.Finding{programFinding(t, finding.HostDerivedProgram, hostCcWrapperName)},
		},
		{
			name: "unknown_program_is_flagged_by_its_normalized_identity",
			a:    act("external/llvm+/bin/clang", "-c", "foo.c"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, "@llvm//bin/clang")},
		},
		{
			name: "unknown_program_is_flagged_by_its_normalized_identity/crate_universe",
			a:    act("external/rules_rust++crate+crates__anyhow-1.0.104/_bs.out_dir"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, "@rules_rust+crate//_bs.out_dir")},
		},
		{
			name: "a_program_named_by_an_absolute_path_is_a_system_program",
			a:    act("/usr/bin/gcc", "-c", "a.c"),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "/usr/bin/gcc")},
		},
		{
			// §3.6: the script is not parsed, so the shell is the program.
			name: "a_program_named_by_an_absolute_path_is_a_system_program/shell",
			a:    act("/bin/bash", "-c", "external/llvm+/bin/clang -c foo.c"),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "/bin/bash")},
		},
		{
			name: "a_bare_command_name_is_a_system_program",
			a:    act("gcc", "-c", "a.c"),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "gcc")},
		},
		{
			// The library's spec for rustc does not reach a rustc on PATH.
			name: "a_bare_command_name_is_a_system_program/rustc",
			a:    act(append([]string{"rustc", "src/lib.rs"}, remaps...)...),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "rustc")},
		},
		{
			name: "actions_without_arguments_have_no_program_to_check",
			a:    &action.Action{Mnemonic: "FileWrite", TargetID: tid("//test:t1"), Env: []action.EnvVar{{Key: "PATH", Value: "/bin"}}},
		},
		{
			// An empty param file spliced in leaves nothing to run either.
			name: "actions_without_arguments_have_no_program_to_check/empty_param_file",
			a:    withParamFile(act("@out/empty.params"), "out/empty.params"),
		},
		{
			name: "the_program_is_identified_through_an_expanded_command_line",
			a:    withParamFile(act("external/llvm+/bin/clang", "@out/foo.params"), "out/foo.params", "-c", "foo.c"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, "@llvm//bin/clang")},
		},
		{
			name: "the_program_is_identified_through_an_expanded_command_line/argv0_in_the_param_file",
			a:    withParamFile(act("@out/foo.params"), "out/foo.params", "external/llvm+/bin/clang", "-c", "foo.c"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, "@llvm//bin/clang")},
		},
		{
			// The archiver's modifiers are in the param file; judging the
			// raw argv would miss them.
			name: "the_program_is_identified_through_an_expanded_command_line/args_in_the_param_file",
			a:    withParamFile(act("external/llvm_toolchain/bin/llvm-ar", "@out/lib.a-2.params"), "out/lib.a-2.params", "rcsD", "out/lib.a", "out/x.o"),
		},
		{
			name: "the_program_is_identified_through_an_expanded_command_line/args_in_the_param_file_not_deterministic",
			a:    withParamFile(act("external/llvm_toolchain/bin/llvm-ar", "@out/lib.a-2.params"), "out/lib.a-2.params", "rcs", "out/lib.a", "out/x.o"),
			want: []finding.Finding{withUnmet(programFinding(t, finding.ConditionalReproducibility, "@llvm_toolchain//bin/llvm-ar"),
				requiredFlag("modifiers:*D*"))},
		},
		{
			name: "a reproducible invocation is not reported",
			a:    act(append([]string{processWrapperArgv0, "--subst", "pwd=${pwd}", "--", rustcArgv0, "src/lib.rs"}, remaps...)...),
		},
		{
			name: "renders_the_wrappers_a_program_was_reached_through",
			a:    act(processWrapperArgv0, "--subst", "pwd=${pwd}", "--", rustcArgv0, "src/lib.rs", remaps[0]),
			want: []finding.Finding{withUnmet(programFinding(t, finding.ConditionalReproducibility, rustcName, processWrapperName),
				requiredFlag("--remap-path-prefix=${exec_root}=*"), requiredFlag("--remap-path-prefix=${output_base}=*"))},
		},
		{
			name: "renders_the_synonym_that_provided_the_spec",
			a: act(processWrapperArgv0, "--", "external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools/rust_toolchain/bin/clippy-driver",
				"src/lib.rs", remaps[0], remaps[1]),
			want: []finding.Finding{withUnmet(withSynonym(t,
				programFinding(t, finding.ConditionalReproducibility, "@rules_rust+rust//rust_toolchain/bin/clippy-driver", processWrapperName), rustcName),
				requiredFlag("--remap-path-prefix=${exec_root}=*"))},
		},
		{
			name: "renders_never_reproducible",
			a:    act("bazel-out/k8-opt-exec/bin/external/aspect_rules_js+/npm/private/lifecycle/min/bin_/bin", "sharp", "pkg", "lc.json"),
			want: []finding.Finding{programFinding(t, finding.NeverReproducible, "@aspect_rules_js//npm/private/lifecycle/min/bin_/bin")},
		},
		{
			name: "renders_never_reproducible/through_a_synonym",
			a:    act("bazel-out/k8-opt-exec/bin/npm/private/lifecycle/min/bin_/bin", "sharp"),
			want: []finding.Finding{withSynonym(t, programFinding(t, finding.NeverReproducible, "//npm/private/lifecycle/min/bin_/bin"),
				"@aspect_rules_js//npm/private/lifecycle/min/bin_/bin")},
		},
		{
			// §5.6: unwrapping can land outside the execution root.
			name: "a wrapper can unwrap onto a system program",
			a:    act(processWrapperArgv0, "--", "/usr/bin/gcc", "-c", "a.c"),
			want: []finding.Finding{programFinding(t, finding.SystemProgram, "/usr/bin/gcc", processWrapperName)},
		},
		{
			name: "a wrapper with nothing to run is the unknown program",
			a:    act(processWrapperArgv0, "--subst", "pwd=${pwd}"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, processWrapperName)},
		},
		{
			name: "an unknown program under a wrapper keeps the wrapper",
			a:    act(processWrapperArgv0, "--", "bazel-out/k8-opt-exec/bin/tools/codegen/codegen_/codegen", "--lang=rust"),
			want: []finding.Finding{programFinding(t, finding.UnknownProgram, "//tools/codegen/codegen_/codegen", processWrapperName)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, repro, tt.a, tt.want) })
	}
}

func TestReproViolationsRetainTheProgramsStructure(t *testing.T) {
	got := findingsOf(t, Repro(spec.BuiltinFor(mode.Ahab02)), act("external/rules_rust++crate+crates__anyhow-1.0.104/_bs.out_dir"))
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1", len(got))
	}
	want := program.ID{
		Origin: program.Origin{Kind: program.Module, Module: "rules_rust", Extension: "crate", HasExtension: true},
		Path:   "_bs.out_dir",
	}
	if got[0].Kind != finding.UnknownProgram || got[0].Program != want {
		t.Errorf("got %s %+v, want unknown_program %+v", got[0].Kind, got[0].Program, want)
	}
}

func TestReproEachActionWithAnUnknownProgramIsReported(t *testing.T) {
	repro := Repro(spec.BuiltinFor(mode.Ahab02))
	actions := []*action.Action{
		{Mnemonic: "CppCompile", TargetID: tid("//src:a"), Arguments: []string{"external/llvm+/bin/clang", "-I/opt/include", "a.c"}},
		{Mnemonic: "CppCompile", TargetID: tid("//src:a"), Arguments: []string{"external/llvm+/bin/clang", "-I/opt/include", "b.c"}},
		{Mnemonic: "CppCompile", TargetID: tid("//src:b"), Arguments: []string{"external/llvm+/bin/clang", "c.c"}},
	}
	set := finding.NewSet()
	for _, a := range actions {
		n := 0
		repro.Run(a, func(f finding.Finding) {
			n++
			if f.Kind != finding.UnknownProgram || f.Program != prog(t, "@llvm//bin/clang") {
				t.Errorf("target %d: got %s %s", a.TargetID, f.Kind, f.Program)
			}
			set.Add(f, 1)
		})
		if n != 1 {
			t.Errorf("target %d: %d findings, want 1", a.TargetID, n)
		}
	}
	// The two actions of //src:a cannot be told apart, so they merge.
	if set.Len() != 2 || set.Occurrences() != 3 {
		t.Errorf("%d distinct, %d occurrences; want 2 and 3", set.Len(), set.Occurrences())
	}
}

// §3.6 step 4: resolution never looks a system program up, so a user's
// spec naming one changes nothing.
func TestReproNoSpecRedeemsASystemProgram(t *testing.T) {
	lib := spec.BuiltinFor(mode.Ahab02)
	entries, err := spec.ParseFile("user.json", []byte(`{"programs": {
		"/usr/bin/gcc": {"spec": {"reproducibility": "always"}},
		"gcc": {"spec": {"reproducibility": "always"}}}}`), mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	lib.Add("user.json", entries...)
	repro := Repro(lib)
	for _, argv0 := range []string{"/usr/bin/gcc", "gcc"} {
		checkFindings(t, repro, act(argv0, "-c", "a.c"), []finding.Finding{programFinding(t, finding.SystemProgram, argv0)})
	}
}

// A user's spec answers for a program the built-ins do not know, and a
// user's wrapper unwraps like a built-in one (§5.5, §5.6).
func TestReproWithUserSpecs(t *testing.T) {
	lib := spec.BuiltinFor(mode.Ahab02)
	entries, err := spec.ParseFile("user.json", []byte(`{"programs": {
		"@my_rules//tools/wrap/wrap": {"wraps": {"after_separator": "--"}},
		"@toolchains_llvm+llvm//bin/clang": {"spec": {"reproducibility": "sometimes", "required_flags": ["-no-canonical-prefixes"]}},
		"@toolchains_llvm+llvm//bin/clang++": {"same_as": "@toolchains_llvm+llvm//bin/clang"},
		"//tools/stamp/stamp_/stamp": {"spec": {"reproducibility": "never"}},
		"@+local_env//bin/python3": {"spec": {"reproducibility": "host_derived"}}}}`), mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	lib.Add("user.json", entries...)
	repro := Repro(lib)
	wrap := "bazel-out/k8-opt-exec/bin/external/my_rules+/tools/wrap/wrap"
	checkFindings(t, repro, act(wrap, "--quiet", "--", "external/toolchains_llvm++llvm+llvm_toolchain_llvm/bin/clang++", "-c", "x.cc"),
		[]finding.Finding{withUnmet(withSynonym(t,
			programFinding(t, finding.ConditionalReproducibility, "@toolchains_llvm+llvm//bin/clang++", "@my_rules//tools/wrap/wrap"),
			"@toolchains_llvm+llvm//bin/clang"), requiredFlag("-no-canonical-prefixes"))})
	checkFindings(t, repro, act(wrap, "--quiet", "--", "external/toolchains_llvm++llvm+llvm_toolchain_llvm/bin/clang", "-no-canonical-prefixes", "-c", "x.c"), nil)
	checkFindings(t, repro, act("bazel-out/k8-opt-exec/bin/tools/stamp/stamp_/stamp", "--out=x"),
		[]finding.Finding{programFinding(t, finding.NeverReproducible, "//tools/stamp/stamp_/stamp")})
	checkFindings(t, repro, act("external/+local_env+python_host/bin/python3", "tools/host_info.py"),
		[]finding.Finding{programFinding(t, finding.HostDerivedProgram, "@+local_env//bin/python3")})
}

// Without a library every program inside the execution root is unknown,
// and the machine's programs are still the machine's.
func TestReproWithoutALibrary(t *testing.T) {
	repro := Repro(ahab02)
	checkFindings(t, repro, act(hostCcWrapperArgv0, "-c", "a.c"),
		[]finding.Finding{programFinding(t, finding.UnknownProgram, hostCcWrapperName)})
	checkFindings(t, repro, act("/usr/bin/gcc", "-c", "a.c"),
		[]finding.Finding{programFinding(t, finding.SystemProgram, "/usr/bin/gcc")})
}
