package spec

// The file is not named builtin_js_test.go: the _js suffix would make it a
// GOOS=js-only file.

import (
	"testing"
)

func TestBuiltinJs(t *testing.T) {
	const (
		lifecycle = "@aspect_rules_js//npm/private/lifecycle/min/bin_/bin"
		tsc       = "@+typescript//tsc_/tsc"
		tscPath   = "bazel-out/k8-opt-exec/bin/external/+typescript+npm_typescript/tsc_/tsc"
	)
	testInvocations(t, []invocation{
		{
			name: "running_a_packages_install_scripts_is_never_reproducible",
			argv: []string{"bazel-out/k8-opt-exec-ST-d57f47055a04/bin/external/aspect_rules_js~/npm/private/lifecycle/min/bin_/bin",
				"sharp", "../../../external/npm__sharp__0.33.5/package", "bazel-out/k8-fastbuild/bin/node_modules/.aspect_rules_js/sharp@0.33.5/lc.json"},
			program: lifecycle, outcome: NotReproducible,
		},
		{
			name:    "the_runner_answers_to_both_of_its_names",
			argv:    []string{"bazel-out/k8-opt-exec/bin/npm/private/lifecycle/min/bin_/bin", "esbuild", "pkg", "lc.json"},
			program: "//npm/private/lifecycle/min/bin_/bin", synonym: lifecycle, outcome: NotReproducible,
		},
		{
			name:    "compiling_typescript_is_reproducible",
			argv:    []string{tscPath, "--project", "tsconfig.json", "--outDir", "bazel-out/k8-fastbuild/bin/web", "--declaration"},
			program: tsc, outcome: Reproducible,
		},
		{
			// §6.6: diagnostics go to the console, not into the outputs.
			name: "compiling_typescript_is_reproducible/with_diagnostics",
			argv: []string{tscPath, "--project", "tsconfig.json", "--diagnostics", "--extendedDiagnostics",
				"--listFiles", "--listEmittedFiles", "--traceResolution"},
			program: tsc, outcome: Reproducible,
		},
		{
			name:    "asking_the_compiler_for_a_trace_records_the_clock",
			argv:    []string{tscPath, "--project", "tsconfig.json", "--generateTrace", "bazel-out/k8-fastbuild/bin/trace"},
			program: tsc, outcome: Conditional,
			unmet: []Unmet{broken("--generateTrace")},
		},
		{
			name:    "the_options_validator_is_vouched_for",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/+typescript+npm_typescript/validator_/validator", "tsconfig.json", "bazel-out/k8-fastbuild/bin/_validated"},
			program: "@+typescript//validator_/validator", outcome: Reproducible,
		},
		{
			name:    "closure_compilation_and_validation_are_reproducible",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_closure+/java/io/bazel/rules/closure/ClosureWorker", "JsCompiler", "@bazel-out/k8-fastbuild/bin/app.js-0.params"},
			program: "@rules_closure//java/io/bazel/rules/closure/ClosureWorker", outcome: Reproducible,
		},
		{
			name:    "j2cl_tools_are_reproducible/stripper",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/j2cl+/tools/java/com/google/j2cl/tools/gwtincompatible/GwtIncompatibleStripper_worker", "@x.params"},
			program: "@j2cl//tools/java/com/google/j2cl/tools/gwtincompatible/GwtIncompatibleStripper_worker", outcome: Reproducible,
		},
		{
			name:    "j2cl_tools_are_reproducible/transpiler",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/j2cl+/transpiler/java/com/google/j2cl/transpiler/BazelJ2clBuilder", "@x.params"},
			program: "@j2cl//transpiler/java/com/google/j2cl/transpiler/BazelJ2clBuilder", outcome: Reproducible,
		},
	})
}
