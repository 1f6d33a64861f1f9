package spec

import (
	"testing"
)

// Program paths as Bazel 8 aquery shows them for rules_rust and rules_rs.
const (
	processWrapperPath = "bazel-out/k8-opt-exec/bin/external/rules_rust+/util/process_wrapper/process_wrapper"
	rustToolsRepo      = "external/rules_rust++rust+rust_linux_x86_64__x86_64-unknown-linux-gnu__stable_tools/"
	rustcPath          = rustToolsRepo + "rust_toolchain/bin/rustc"

	processWrapper = "@rules_rust//util/process_wrapper/process_wrapper"
	rustc          = "@rules_rust+rust//rust_toolchain/bin/rustc"
	clippyDriver   = "@rules_rust+rust//rust_toolchain/bin/clippy-driver"
)

// The three remaps rules_rust passes (§6.1).
var (
	remapOutputBase = "--remap-path-prefix=${output_base}=."
	remapPwd        = "--remap-path-prefix=${pwd}=."
	remapExecRoot   = "--remap-path-prefix=${exec_root}=."
	missingPwd      = missing("--remap-path-prefix=${pwd}=*")
	missingOutput   = missing("--remap-path-prefix=${output_base}=*")
	missingExecRoot = missing("--remap-path-prefix=${exec_root}=*")
)

// rustcUnder is process_wrapper running rustc with rules_rust's flags,
// without the remaps, plus extra.
func rustcUnder(extra ...string) []string {
	argv := []string{processWrapperPath, "--subst", "pwd=${pwd}", "--", rustcPath,
		"src/lib.rs", "--crate-name=ahab", "--crate-type=rlib", "--codegen=opt-level=0",
		"--codegen=debuginfo=0", "--edition=2021", "-Cembed-bitcode=no"}
	return append(argv, extra...)
}

func withRemaps(extra ...string) []string {
	return rustcUnder(append([]string{remapOutputBase, remapPwd, remapExecRoot}, extra...)...)
}

func TestBuiltinRust(t *testing.T) {
	wrapped := []string{processWrapper}
	testInvocations(t, []invocation{
		{
			name:    "rustc_as_rules_rust_invokes_it_is_reproducible",
			argv:    withRemaps(),
			program: rustc, wrappers: wrapped, outcome: Reproducible,
			args: withRemaps()[5:],
		},
		{
			name:    "rustc_without_path_remapping_is_not",
			argv:    rustcUnder(),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{missingPwd, missingOutput, missingExecRoot},
		},
		{
			name:    "each_required_remapping_is_load_bearing/pwd",
			argv:    rustcUnder(remapOutputBase, remapExecRoot),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{missingPwd},
		},
		{
			name:    "each_required_remapping_is_load_bearing/output_base",
			argv:    rustcUnder(remapPwd, remapExecRoot),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{missingOutput},
		},
		{
			name:    "each_required_remapping_is_load_bearing/exec_root",
			argv:    rustcUnder(remapOutputBase, remapPwd),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{missingExecRoot},
		},
		{
			name:    "remapping_some_other_prefix_does_not_satisfy_the_requirement",
			argv:    rustcUnder("--remap-path-prefix=/nowhere=."),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{missingPwd, missingOutput, missingExecRoot},
		},
		{
			name:    "incremental_compilation_breaks_rustc_however_it_is_written/short",
			argv:    withRemaps("-Cincremental=/tmp/inc"),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{broken("-Cincremental=/tmp/inc")},
		},
		{
			name:    "incremental_compilation_breaks_rustc_however_it_is_written/long",
			argv:    withRemaps("--codegen=incremental=x"),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{broken("-Cincremental=x")},
		},
		{
			// §6.1: the recogniser turns `--codegen=X` into `-CX`, so
			// both spellings are one present option.
			name:    "the_rustc_recognizer_folds_both_codegen_spellings",
			argv:    withRemaps("--codegen=incremental=x", "-Cincremental=x"),
			program: rustc, wrappers: wrapped, outcome: Conditional,
			unmet: []Unmet{broken("-Cincremental=x")},
		},
		{
			name:    "a_merely_similar_option_does_not_break_rustc",
			argv:    withRemaps("-Cincrementalish=1"),
			program: rustc, wrappers: wrapped, outcome: Reproducible,
		},
		{
			name: "clippy_driver_is_judged_by_rustcs_spec",
			argv: []string{processWrapperPath, "--subst", "pwd=${pwd}", "--",
				rustToolsRepo + "rust_toolchain/bin/clippy-driver", "src/lib.rs", "--crate-name=ahab",
				remapPwd},
			program: clippyDriver, wrappers: wrapped, synonym: rustc, outcome: Conditional,
			unmet: []Unmet{missingOutput, missingExecRoot},
		},
		{
			name: "rustdoc_is_not_held_to_rustcs_remapping",
			argv: []string{processWrapperPath, "--subst", "pwd=${pwd}", "--",
				rustToolsRepo + "rust_toolchain/bin/rustdoc", "src/lib.rs", "--crate-name=ahab",
				"--codegen=opt-level=0", "--edition=2021", "--test"},
			program: "@rules_rust+rust//rust_toolchain/bin/rustdoc", wrappers: wrapped,
			outcome: Reproducible,
		},
		{
			name: "rustfmt_only_checks_and_so_writes_a_constant",
			argv: []string{processWrapperPath, "--", rustToolsRepo + "bin/rustfmt",
				"--config-path", "external/rules_rust+/.rustfmt.toml", "--edition", "2024",
				"--config", "skip_children=true", "--check", "src/lib.rs"},
			program: "@rules_rust+rust//bin/rustfmt", wrappers: wrapped, outcome: Reproducible,
		},
		{
			name: "the_rustdoc_zipper_answers_for_the_tool_it_is_handed",
			argv: []string{"bazel-out/k8-opt-exec/bin/external/rules_rust+/rust/private/rustdoc/dir_zipper/dir_zipper",
				"external/bazel_tools/tools/zip/zipper/zipper", "bazel-out/k8-fastbuild/bin/ahab_doc.zip",
				"bazel-out/k8-fastbuild/bin/ahab_doc.rustdoc"},
			program:  "@bazel_tools//tools/zip/zipper/zipper",
			wrappers: []string{"@rules_rust//rust/private/rustdoc/dir_zipper/dir_zipper"},
			outcome:  Reproducible,
			args:     []string{"bazel-out/k8-fastbuild/bin/ahab_doc.zip", "bazel-out/k8-fastbuild/bin/ahab_doc.rustdoc"},
		},
		{
			name: "the bootstrap wrapper unwraps like process_wrapper",
			argv: []string{"external/rules_rust+/util/process_wrapper/bootstrap_process_wrapper.sh",
				"--", rustcPath, "util/process_wrapper/main.rs", remapOutputBase, remapPwd, remapExecRoot},
			program:  rustc,
			wrappers: []string{"@rules_rust//util/process_wrapper/bootstrap_process_wrapper.sh"},
			outcome:  Reproducible,
		},
		{
			name:    "prost's protoc wrapper is vouched for",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_rust_prost+/private/protoc_wrapper", "--protoc=bazel-out/k8-opt-exec/bin/external/protobuf+/protoc", "--out_dir=bazel-out/k8-fastbuild/bin/x.out"},
			program: "@rules_rust_prost//private/protoc_wrapper", outcome: Reproducible,
		},
		{
			name:    "a process_wrapper with nothing to run is the program",
			argv:    []string{processWrapperPath, "--subst", "pwd=${pwd}"},
			program: processWrapper, unknown: true,
		},
		{
			name:    "the build script runner is not vouched for",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_rust+/cargo/cargo_build_script_runner/cargo_build_script_runner", "bazel-out/k8-opt-exec/bin/external/rules_rust++crate+crates__libc-0.2.169/_bs_"},
			program: "@rules_rust//cargo/cargo_build_script_runner/cargo_build_script_runner", unknown: true,
		},
		{
			name:    "a bare rustc is the machine's",
			argv:    []string{"rustc", "src/lib.rs"},
			program: "rustc", unknown: true,
		},
	})
}

// rules_rs copies rules_rust's tools under its own names (§6.1).
func TestBuiltinRulesRs(t *testing.T) {
	rsWrapper := "@rules_rs+rules_rust//util/process_wrapper/process_wrapper"
	rsWrapperPath := "bazel-out/k8-opt-exec/bin/external/rules_rs++rules_rust+rules_rust/util/process_wrapper/process_wrapper"
	rsTools := "external/rules_rs++toolchains+default_rust_toolchains_x86_64/"
	rsRustc := rsTools + "rustc/default_linux_x86_64_1_86_0_rust_toolchain/bin/rustc"
	testInvocations(t, []invocation{
		{
			// A pattern carrying same_as reports the concrete target (§5.6).
			name:     "a toolchain's rustc is judged by rules_rust's whatever its version",
			argv:     []string{rsWrapperPath, "--", rsRustc, "src/lib.rs", remapOutputBase, remapPwd, remapExecRoot},
			program:  "@rules_rs+toolchains//rustc/default_linux_x86_64_1_86_0_rust_toolchain/bin/rustc",
			wrappers: []string{rsWrapper}, synonym: rustc, outcome: Reproducible,
		},
		{
			name:     "a toolchain's rustc without remaps is not reproducible",
			argv:     []string{rsWrapperPath, "--", rsRustc, "src/lib.rs", remapPwd},
			program:  "@rules_rs+toolchains//rustc/default_linux_x86_64_1_86_0_rust_toolchain/bin/rustc",
			wrappers: []string{rsWrapper}, synonym: rustc, outcome: Conditional,
			unmet: []Unmet{missingOutput, missingExecRoot},
		},
		{
			name:     "a toolchain's clippy-driver is judged by rustc's spec",
			argv:     []string{"bazel-out/k8-opt-exec/bin/external/rules_rs++rules_rust+rules_rust/util/process_wrapper/bootstrap_process_wrapper.sh", "--", rsTools + "clippy/default_linux_x86_64_1_86_0_clippy/bin/clippy-driver", "src/lib.rs"},
			program:  "@rules_rs+toolchains//clippy/default_linux_x86_64_1_86_0_clippy/bin/clippy-driver",
			wrappers: []string{"@rules_rs+rules_rust//util/process_wrapper/bootstrap_process_wrapper.sh"},
			synonym:  rustc, outcome: Conditional,
			unmet: []Unmet{missingPwd, missingOutput, missingExecRoot},
		},
		{
			name:    "the toolchain's rustfmt is rules_rust's",
			argv:    []string{rsTools + "bin/rustfmt", "--check", "src/lib.rs"},
			program: "@rules_rs+toolchains//bin/rustfmt", synonym: "@rules_rust+rust//bin/rustfmt",
			outcome: Reproducible,
		},
		{
			name:    "the prost wrapper is rules_rust_prost's",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_rs+/rs/private/prost/protoc_wrapper", "--out_dir=x"},
			program: "@rules_rs//rs/private/prost/protoc_wrapper", synonym: "@rules_rust_prost//private/protoc_wrapper",
			outcome: Reproducible,
		},
		{
			// §4.1: a pattern never reaches across repositories.
			name:    "another module's rustc is not covered by the pattern",
			argv:    []string{"external/other++toolchains+tc/x/bin/rustc", "src/lib.rs"},
			program: "@other+toolchains//x/bin/rustc", unknown: true,
		},
	})
}
