package spec

import "testing"

func TestBuiltinKotlin(t *testing.T) {
	const build = "@rules_kotlin//src/main/kotlin/build"
	testInvocations(t, []invocation{
		{
			name:    "the_builder_is_reproducible_compiling_and_processing_alike/compile",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_kotlin+/src/main/kotlin/build", "--flagfile=bazel-out/k8-fastbuild/bin/app/app.jar-0.params"},
			program: build, outcome: Reproducible,
		},
		{
			name:    "the_builder_is_reproducible_compiling_and_processing_alike/kapt",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_kotlin+/src/main/kotlin/build", "--flagfile=bazel-out/k8-fastbuild/bin/app/app-kapt.jar-0.params"},
			program: build, outcome: Reproducible,
		},
		{
			name:    "the_jdeps_merger_is_reproducible",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_kotlin+/src/main/kotlin/jdeps_merger", "--flagfile=x.params"},
			program: "@rules_kotlin//src/main/kotlin/jdeps_merger", outcome: Reproducible,
		},
		{
			// §4.1: whatever the configuration, version or separator.
			name:    "the_tools_are_reached_through_the_module_that_builds_them",
			argv:    []string{"bazel-out/k8-opt-exec-ST-d57f/bin/external/rules_kotlin~1.9.6/src/main/kotlin/build", "--flagfile=x.params"},
			program: build, outcome: Reproducible,
		},
	})
}
