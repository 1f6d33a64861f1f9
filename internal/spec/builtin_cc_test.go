package spec

import (
	"slices"
	"testing"
)

// toolchains_llvm's wrapper and archiver under their WORKSPACE names, as a
// Bazel 7 aquery shows them (§6.2).
const (
	llvmCcWrapperPath = "external/llvm_toolchain/bin/cc_wrapper.sh"
	llvmArPath        = "external/llvm_toolchain/bin/llvm-ar"
	llvmCcWrapper     = "@llvm_toolchain//bin/cc_wrapper.sh"
	llvmAr            = "@llvm_toolchain//bin/llvm-ar"
)

// clangCompile is the compile line of the reference's test; without
// removes the listed arguments and extra is appended.
func clangCompile(without []string, extra ...string) []string {
	argv := []string{llvmCcWrapperPath, "-MD", "-no-canonical-prefixes",
		`-D__DATE__="redacted"`, `-D__TIMESTAMP__="redacted"`, `-D__TIME__="redacted"`,
		"--sysroot=external/sysroot_linux_amd64/",
		"-frandom-seed=bazel-out/k8-fastbuild/bin/source/common/_objs/assert/assert.pic.o",
		"-c", "source/common/assert.cc",
		"-o", "bazel-out/k8-fastbuild/bin/source/common/_objs/assert/assert.pic.o"}
	argv = slices.DeleteFunc(argv, func(a string) bool { return slices.Contains(without, a) })
	return append(argv, extra...)
}

func macroUnmet(macro string) Unmet {
	return Unmet{
		Because: "a source mentioning " + macro + " records when it was compiled unless the macro is defined away",
		AnyOf:   []string{"-D" + macro + "=*"},
	}
}

// debugUnmet is the requirement on debugging information, its remedies
// sorted as a set.
var debugUnmet = Unmet{
	Because: "debugging information records the directory it was compiled in, which is the execution root",
	AnyOf:   []string{"-fdebug-compilation-dir=*", "-fdebug-prefix-map=*", "-ffile-prefix-map=*"},
}

func TestBuiltinCc(t *testing.T) {
	hostRepo := "external/rules_cc++cc_configure_extension+local_config_cc/"
	testInvocations(t, []invocation{
		{
			name:    "clang_as_the_llvm_toolchain_invokes_it_is_reproducible",
			argv:    clangCompile(nil),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "each_clang_requirement_is_load_bearing",
			argv:    clangCompile([]string{"-no-canonical-prefixes"}),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{missing("-no-canonical-prefixes")},
		},
		{
			name:    "a_compilation_must_define_the_date_macros_away/__DATE__",
			argv:    clangCompile([]string{`-D__DATE__="redacted"`}),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{macroUnmet("__DATE__")},
		},
		{
			name:    "a_compilation_must_define_the_date_macros_away/__TIME__",
			argv:    clangCompile([]string{`-D__TIME__="redacted"`}),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{macroUnmet("__TIME__")},
		},
		{
			name:    "a_compilation_must_define_the_date_macros_away/__TIMESTAMP__",
			argv:    clangCompile([]string{`-D__TIMESTAMP__="redacted"`}),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{macroUnmet("__TIMESTAMP__")},
		},
		{
			name:    "a_compilation_must_define_the_date_macros_away/all",
			argv:    clangCompile([]string{`-D__DATE__="redacted"`, `-D__TIME__="redacted"`, `-D__TIMESTAMP__="redacted"`}),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{macroUnmet("__DATE__"), macroUnmet("__TIME__"), macroUnmet("__TIMESTAMP__")},
		},
		{
			name:    "the_date_macros_are_only_asked_of_a_compilation",
			argv:    clangCompile([]string{`-D__DATE__="redacted"`, `-D__TIME__="redacted"`, `-D__TIMESTAMP__="redacted"`, "-c"}),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "debugging_information_must_have_its_paths_remapped",
			argv:    clangCompile(nil, "-g", "-gsplit-dwarf"),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{debugUnmet},
		},
		{
			name:    "debugging_information_must_have_its_paths_remapped/ffile-prefix-map",
			argv:    clangCompile(nil, "-g", "-gsplit-dwarf", "-ffile-prefix-map=/proc/self/cwd=."),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "debugging_information_must_have_its_paths_remapped/fdebug-prefix-map",
			argv:    clangCompile(nil, "-g", "-fdebug-prefix-map=/proc/self/cwd="),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "debugging_information_must_have_its_paths_remapped/fdebug-compilation-dir",
			argv:    clangCompile(nil, "-gdwarf-4", "-fdebug-compilation-dir=."),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "a_guard_is_decided_by_the_last_flag_that_speaks_to_it/off_last",
			argv:    clangCompile(nil, "-g", "-g0"),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "a_guard_is_decided_by_the_last_flag_that_speaks_to_it/on_last",
			argv:    clangCompile(nil, "-g0", "-g"),
			program: llvmCcWrapper, outcome: Conditional,
			unmet: []Unmet{debugUnmet},
		},
		{
			// -ggdb3 is not in the family the guard names.
			name:    "a_guard_is_decided_by_the_last_flag_that_speaks_to_it/outside_the_family",
			argv:    clangCompile(nil, "-ggdb3"),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name: "linking_is_not_asked_for_a_preprocessors_flags",
			argv: []string{llvmCcWrapperPath, "-no-canonical-prefixes", "-o", "bazel-out/k8-fastbuild/bin/source/exe/envoy",
				"-Wl,-S", "bazel-out/k8-fastbuild/bin/source/common/libassert.a", "-lm"},
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "the_host_compiler_and_the_downloaded_one_are_judged_apart/host",
			argv:    []string{hostRepo + "cc_wrapper.sh", "-U_FORTIFY_SOURCE", "-c", "native/host_shim.c"},
			program: "@rules_cc+cc_configure_extension//cc_wrapper.sh", outcome: HostDerivedProgram,
		},
		{
			name:    "the_host_compiler_and_the_downloaded_one_are_judged_apart/downloaded",
			argv:    clangCompile(nil),
			program: llvmCcWrapper, outcome: Reproducible,
		},
		{
			name:    "the host's static library validator is host-derived",
			argv:    []string{hostRepo + "validate_static_library.sh", "bazel-out/k8-fastbuild/bin/libx.a"},
			program: "@rules_cc+cc_configure_extension//validate_static_library.sh", outcome: HostDerivedProgram,
		},
		{
			name:    "the host's deps scanner is host-derived",
			argv:    []string{"external/rules_cc~~cc_configure_extension~local_config_cc/deps_scanner_wrapper.sh", "-c", "x.cc"},
			program: "@rules_cc+cc_configure_extension//deps_scanner_wrapper.sh", outcome: HostDerivedProgram,
		},
		{
			name:    "the host toolchain's other files are not known",
			argv:    []string{hostRepo + "armeabi_cc_toolchain_config.bzl"},
			program: "@rules_cc+cc_configure_extension//armeabi_cc_toolchain_config.bzl", unknown: true,
		},
		{
			// §4: the Bzlmod name of toolchains_llvm's repository is another
			// program than the WORKSPACE one the library names.
			name:    "toolchains_llvm under bzlmod is not the WORKSPACE toolchain",
			argv:    []string{"external/toolchains_llvm++llvm+llvm_toolchain_llvm/bin/cc_wrapper.sh", "-c", "x.c"},
			program: "@toolchains_llvm+llvm//bin/cc_wrapper.sh", unknown: true,
		},
		{
			name:    "a downloaded clang is not known",
			argv:    []string{"external/llvm+/bin/clang", "-c", "foo.c"},
			program: "@llvm//bin/clang", unknown: true,
		},
		{
			name:    "ar_is_reproducible_only_in_deterministic_mode/deterministic",
			argv:    []string{llvmArPath, "rcsD", "bazel-out/k8-fastbuild/bin/libx.a", "bazel-out/k8-fastbuild/bin/_objs/x/y.o"},
			program: llvmAr, outcome: Reproducible,
		},
		{
			name:    "ar_is_reproducible_only_in_deterministic_mode/not_deterministic",
			argv:    []string{llvmArPath, "rcs", "bazel-out/k8-fastbuild/bin/libx.a", "bazel-out/k8-fastbuild/bin/_objs/x/y.o"},
			program: llvmAr, outcome: Conditional,
			unmet: []Unmet{missing("modifiers:*D*")},
		},
		{
			name:    "the_order_of_ars_modifiers_does_not_matter/rDcs",
			argv:    []string{llvmArPath, "rDcs", "lib.lo", "y.o"},
			program: llvmAr, outcome: Reproducible,
		},
		{
			name:    "the_order_of_ars_modifiers_does_not_matter/Drcs",
			argv:    []string{llvmArPath, "Drcs", "lib.lo", "y.o"},
			program: llvmAr, outcome: Reproducible,
		},
		{
			name:    "the_order_of_ars_modifiers_does_not_matter/rcsDD",
			argv:    []string{llvmArPath, "rcsDD", "lib.lo", "y.o"},
			program: llvmAr, outcome: Reproducible,
		},
		{
			name:    "a_file_name_is_not_mistaken_for_ars_modifiers",
			argv:    []string{llvmArPath, "rcs", "bazel-out/x/D.o"},
			program: llvmAr, outcome: Conditional,
			unmet: []Unmet{missing("modifiers:*D*")},
		},
	})
}
