package check

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// genrule is the command line Bazel gives a genrule whose cmd is script.
func genrule(script string) []string {
	return []string{"/bin/bash", "-c", "source external/bazel_tools/tools/genrule/genrule-setup.sh; " + script}
}

// brief is a finding in a few words: its kind, then its program or its
// variation, then the script command it is about, if any.
func brief(f finding.Finding) string {
	s := f.Kind.String()
	switch {
	case f.Kind == finding.VariationSource:
		s += " " + f.Variation
	case f.Kind.HasProgram():
		s += " " + f.Program.String()
	case f.Kind == finding.AbsolutePath:
		s += " " + f.Path
	}
	if f.Command != "" {
		s += " | " + f.Command
	}
	return s
}

// TestDefaultJudgement covers what Ahab's own judgement sees that Ahab
// 0.2's does not, next to the traps it must not fall into; each case also
// runs under --compat 0.2, which must see only what the original saw.
func TestDefaultJudgement(t *testing.T) {
	libs := map[mode.Mode]*spec.Library{mode.Default: spec.BuiltinFor(mode.Default), mode.Ahab02: spec.BuiltinFor(mode.Ahab02)}
	const bash = "system_program /bin/bash"
	for _, tc := range []struct {
		name     string
		mnemonic string
		argv     []string
		params   []action.ParamFile
		want     []string // of Ahab's own judgement
		ahab02   []string // of --compat 0.2
	}{
		{name: "a_clock_written_into_an_output", argv: genrule("date > bazel-out/k8-fastbuild/bin/t.txt"),
			want: []string{bash, "variation_source clock | date > bazel-out/k8-fastbuild/bin/t.txt"}, ahab02: []string{bash}},
		{name: "a_random_number", argv: genrule("echo $RANDOM > out"),
			want: []string{bash, "variation_source random | echo $RANDOM > out"}, ahab02: []string{bash}},
		{name: "the_process_id", argv: genrule("echo build-$$ > out"),
			want: []string{bash, "variation_source pid | echo build-$$ > out"}, ahab02: []string{bash}},
		{name: "the_directory", argv: genrule("pwd > out"),
			want: []string{bash, "variation_source pwd | pwd > out"}, ahab02: []string{bash}},
		{name: "an_archive_without_fixed_times", argv: genrule("tar -cf out.tar src"),
			want: []string{bash, "variation_source mode | tar -cf out.tar src", "variation_source mtime | tar -cf out.tar src",
				"variation_source order | tar -cf out.tar src", "variation_source owner | tar -cf out.tar src"}, ahab02: []string{bash}},
		{name: "a_compiler_run_by_hand_with_debugging_information", argv: genrule("gcc -g -c a.c -o out.o"),
			want: []string{bash, "variation_source pwd | gcc -g -c a.c -o out.o"}, ahab02: []string{bash}},
		{name: "a_workspace_tool_in_a_script_is_unknown", argv: genrule("bazel-out/k8-opt-exec/bin/tools/gen --x > out"),
			want: []string{bash, "unknown_program //tools/gen | bazel-out/k8-opt-exec/bin/tools/gen --x > out"}, ahab02: []string{bash}},
		{name: "inline_python_is_read", argv: genrule("python3 -c 'import time; print(time.time())' > out"),
			want: []string{bash, "variation_source clock | python3 -c 'import time; print(time.time())' > out"}, ahab02: []string{bash}},
		{name: "inline_python_printing_a_constant_is_clean", argv: genrule("python3 -c 'print(1)' > out"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "a_language_nobody_reads_is_unknown", argv: genrule("ruby -e 'puts Time.now' > out"),
			want: []string{bash, "unknown_program ruby | ruby -e 'puts Time.now' > out"}, ahab02: []string{bash}},

		// The traps: deterministic look-alikes.
		{name: "a_fixed_date", argv: genrule("export SOURCE_DATE_EPOCH=0; date -u -d @$SOURCE_DATE_EPOCH > out"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "the_clock_only_on_the_scripts_own_output", argv: genrule("date; echo hi > out"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "a_seeded_random", argv: genrule("RANDOM=42; echo $RANDOM > out"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "a_pid_thrown_away", argv: genrule("echo $$ > /dev/null; cp a out"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "the_word_date_in_a_string", argv: genrule(`echo "date" > out # date`),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "an_archive_with_fixed_metadata", argv: genrule("tar --mtime=@0 --sort=name --owner=0 --group=0 --numeric-owner --mode=u+rw,go+r -cf out.tar src"),
			want: []string{bash}, ahab02: []string{bash}},
		{name: "text_tools", argv: genrule("cat a b | sed s/x/y/ | sort > out"),
			want: []string{bash}, ahab02: []string{bash}},

		// The machine's own programs, judged by name.
		{name: "the_cpp_rules_compile_in_proc_self_cwd", mnemonic: "CppCompile", argv: []string{"/usr/bin/gcc", "-g", "-c", "a.c", "-o", "a.o"},
			want: []string{"system_program /usr/bin/gcc"}, ahab02: []string{"system_program /usr/bin/gcc"}},
		{name: "a_tool_run_directly", argv: []string{"/usr/bin/gzip", "-k", "in"},
			want: []string{"system_program /usr/bin/gzip", "variation_source mtime"}, ahab02: []string{"system_program /usr/bin/gzip"}},
		{name: "a_tool_run_directly_whose_standard_output_bazel_drops", argv: []string{"/usr/bin/gzip", "-c", "in"},
			want: []string{"system_program /usr/bin/gzip"}, ahab02: []string{"system_program /usr/bin/gzip"}},

		// What Ahab 0.2 misjudged.
		{name: "a_prefix_map_onto_proc_self_cwd_is_no_absolute_path", argv: []string{"external/llvm+/bin/clang", "-ffile-prefix-map=/proc/self/cwd/="},
			want: []string{"unknown_program @llvm//bin/clang"}, ahab02: []string{"absolute_path /proc/self/cwd/", "unknown_program @llvm//bin/clang"}},
		{name: "the_coreutils_applet_is_its_first_argument", argv: []string{"external/bazel_lib++toolchains+coreutils_linux_amd64/coreutils", "echo", "date"},
			want: nil, ahab02: []string{"conditional_reproducibility @bazel_lib+toolchains//coreutils"}},
		{name: "the_sibling_repository_layout", argv: []string{"bazel-out/rules_rust+/k8-opt-exec/bin/util/process_wrapper/process_wrapper", "--", "external/rules_rust++rust+rust_linux/rust_toolchain/bin/rustdoc", "x.rs"},
			want: nil, ahab02: []string{"unknown_program //bin/util/process_wrapper/process_wrapper"}},
		{name: "toolchains_llvm_under_bzlmod", argv: []string{"external/toolchains_llvm++llvm+llvm_toolchain/bin/cc_wrapper.sh", "-no-canonical-prefixes", "-c", "a.c", "-D__DATE__=x", "-D__TIME__=x", "-D__TIMESTAMP__=x"},
			want: nil, ahab02: []string{"unknown_program @toolchains_llvm+llvm//bin/cc_wrapper.sh"}},
		{name: "bazel_7s_autoconfigured_toolchain", argv: []string{"external/bazel_tools~cc_configure_extension~local_config_cc/cc_wrapper.sh", "-c", "a.c"},
			want: []string{"host_derived_program @bazel_tools+cc_configure_extension//cc_wrapper.sh"}, ahab02: []string{"unknown_program @bazel_tools+cc_configure_extension//cc_wrapper.sh"}},
		// rules_pkg 0.7's pkg_zip, as it calls build_zip (testdata/builds/rulesets:
		// //pkg:zip_package_dir, identical in both builds): -d is a path
		// inside the archive, -o the archive.
		{name: "rules_pkg_build_zip_short_options", mnemonic: "PackageZip", argv: []string{"bazel-out/k8-opt-exec/bin/external/rules_pkg/pkg/private/zip/build_zip",
			"-o", "bazel-out/k8-fastbuild/bin/pkg/x.zip", "-d", "/usr/share/ledger", "-t", "315532800", "-m", "0555"},
			want: nil, ahab02: []string{"absolute_path /usr/share/ledger"}},
		{name: "rules_go_param_files", argv: []string{"external/rules_go++go_sdk+go_sdk/builder_reset/builder", "-param=bazel-out/k8/bin/x.params"},
			params: []action.ParamFile{{ExecPath: "bazel-out/k8/bin/x.params", Lines: []string{"compilepkg", "-src", "/abs/x.go"}}},
			want:   []string{"absolute_path /abs/x.go"}, ahab02: []string{"absolute_path /abs/x.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for m, want := range map[mode.Mode][]string{mode.Default: tc.want, mode.Ahab02: tc.ahab02} {
				a := &action.Action{Mnemonic: cmp.Or(tc.mnemonic, "Genrule"), TargetID: 1, Arguments: tc.argv, ParamFiles: tc.params}
				var got []string
				for _, stage := range []Stage{CommandLine, Inputs} {
					Run(All(libs[m]), stage, a, func(f finding.Finding) { got = append(got, brief(f)) })
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%v judgement:\n got %s\nwant %s", m, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
				}
			}
		})
	}
}
