package spec

import (
	"testing"
)

func TestBuiltinPython(t *testing.T) {
	const (
		python3         = "@rules_python//python/private/python3"
		python3Path     = "bazel-out/k8-opt-exec/bin/external/rules_python+/python/private/python3"
		precompiler     = "@rules_python//tools/precompiler/precompiler"
		precompilerPath = "bazel-out/k8-opt-exec/bin/external/rules_python+/tools/precompiler/precompiler"
	)
	precompile := func(mode ...string) []string {
		argv := append([]string{python3Path, precompilerPath}, mode...)
		return append(argv, "--optimize", "0", "--src", "svc/api/main.py", "--pyc", "bazel-out/k8-fastbuild/bin/svc/api/__pycache__/main.cpython-311.pyc")
	}
	modeUnmet := missing("--invalidation_mode=*hash*")
	testInvocations(t, []invocation{
		{
			name:    "the_interpreter_hands_the_question_to_the_script",
			argv:    precompile("--invalidation_mode", "unchecked_hash"),
			program: precompiler, wrappers: []string{python3}, outcome: Reproducible,
			args: precompile("--invalidation_mode", "unchecked_hash")[2:],
		},
		{
			name:    "the_interpreter_hands_the_question_to_the_script/checked_hash",
			argv:    precompile("--invalidation_mode", "checked_hash"),
			program: precompiler, wrappers: []string{python3}, outcome: Reproducible,
		},
		{
			name:    "precompiling_against_the_clock_is_reported",
			argv:    precompile("--invalidation_mode", "timestamp"),
			program: precompiler, wrappers: []string{python3}, outcome: Conditional,
			unmet: []Unmet{modeUnmet},
		},
		{
			name:    "precompiling_without_choosing_a_mode_is_reported",
			argv:    precompile(),
			program: precompiler, wrappers: []string{python3}, outcome: Conditional,
			unmet: []Unmet{modeUnmet},
		},
		{
			name: "the_precompiler_answers_under_either_of_its_file_names",
			argv: []string{python3Path, "external/rules_python~/tools/precompiler/precompiler_.py",
				"--invalidation_mode", "checked_hash", "--src", "a.py", "--pyc", "a.pyc"},
			program: "@rules_python//tools/precompiler/precompiler_.py", wrappers: []string{python3},
			synonym: precompiler, outcome: Reproducible,
		},
		{
			name:    "writing_build_data_is_vouched_for",
			argv:    []string{"external/rules_python~/python/private/build_data_writer.sh"},
			program: "@rules_python//python/private/build_data_writer.sh", outcome: Reproducible,
		},
		{
			name:    "an_interpreter_given_no_script_is_not_vouched_for/-c",
			argv:    []string{python3Path, "-c", "print(1)"},
			program: python3, unknown: true,
		},
		{
			name:    "an_interpreter_given_no_script_is_not_vouched_for/-m",
			argv:    []string{python3Path, "-m", "grpc_tools.protoc", "-Iproto"},
			program: python3, unknown: true,
		},
		{
			name:    "a script the interpreter runs is judged on its own",
			argv:    []string{python3Path, "tools/gen.py", "--out=x"},
			program: "//tools/gen.py", wrappers: []string{python3}, unknown: true,
		},
	})
}
