package spec

import (
	"testing"
)

func TestBuiltinJava(t *testing.T) {
	const (
		java       = "@rules_java+toolchains//bin/java"
		javaPath   = "external/rules_java++toolchains+remotejdk21_linux/bin/java"
		tools      = "external/rules_java++toolchains+remote_java_tools/java_tools/"
		singlejar  = "@rules_java+toolchains//java_tools/src/tools/singlejar/singlejar_local"
		turbineJar = "@rules_java+toolchains//java_tools/turbine_direct_binary_deploy.jar"
	)
	singlejarPath := "external/rules_java~~toolchains~remote_java_tools_linux/java_tools/src/tools/singlejar/singlejar_local"
	testInvocations(t, []invocation{
		{
			name: "java_hands_the_question_to_the_jar_it_runs",
			argv: []string{javaPath, "--add-opens=java.base/java.lang=ALL-UNNAMED", "-Xlog:disable",
				"-jar", tools + "JavaBuilder_deploy.jar", "--output", "libx.jar"},
			program: "@rules_java+toolchains//java_tools/JavaBuilder_deploy.jar", wrappers: []string{java},
			outcome: Reproducible, args: []string{"--output", "libx.jar"},
		},
		{
			name:    "a_java_invoked_without_a_jar_is_not_vouched_for",
			argv:    []string{javaPath, "-cp", "x.jar:y.jar", "com.example.Main"},
			program: java, unknown: true,
		},
		{
			name: "singlejar_as_rules_java_invokes_it_is_reproducible",
			argv: []string{singlejarPath, "--output", "bazel-out/k8-fastbuild/bin/svc/billing/libbilling-src.jar",
				"--compression", "--normalize", "--exclude_build_data", "--warn_duplicate_resources"},
			program: singlejar, outcome: Reproducible,
		},
		{
			name:    "singlejar_without_its_normalizing_flags_is_not",
			argv:    []string{singlejarPath, "--output", "bazel-out/k8-fastbuild/bin/x_deploy.jar", "--compression"},
			program: singlejar, outcome: Conditional,
			unmet: []Unmet{missing("--normalize"), missing("--exclude_build_data")},
		},
		{
			name: "both_turbines_are_judged_by_one_entry/graal",
			argv: []string{"external/rules_java~~toolchains~remote_java_tools_linux/java_tools/turbine_direct_graal",
				"@bazel-out/k8-fastbuild/bin/svc/billing/libbilling-hjar.jar-0.params"},
			program: "@rules_java+toolchains//java_tools/turbine_direct_graal", synonym: turbineJar,
			outcome: Reproducible,
		},
		{
			name:     "both_turbines_are_judged_by_one_entry/deploy_jar",
			argv:     []string{javaPath, "-Xss16m", "-jar", tools + "turbine_direct_binary_deploy.jar", "--output", "libx-hjar.jar"},
			program:  turbineJar,
			wrappers: []string{java}, outcome: Reproducible,
		},
		{
			name: "the_jdk_is_reached_without_naming_a_version_or_a_platform",
			argv: []string{"external/rules_java~7.12.2~toolchains~remotejdk17_linux/bin/java", "-jar",
				"external/rules_java~7.12.2~toolchains~remote_java_tools/java_tools/GenClass_deploy.jar",
				"--manifest_proto", "bazel-out/k8-fastbuild/bin/api/models_java.jar_manifest_proto"},
			program: "@rules_java+toolchains//java_tools/GenClass_deploy.jar", wrappers: []string{java},
			outcome: Reproducible,
		},
		{
			name: "ijar is vouched for",
			argv: []string{"external/rules_java~~toolchains~remote_java_tools_linux/java_tools/ijar/ijar",
				"in.jar", "bazel-out/k8-fastbuild/bin/in-ijar.jar", "--target_label", "//x:y", "--strip_jar"},
			program: "@rules_java+toolchains//java_tools/ijar/ijar", outcome: Reproducible,
		},
		{
			name: "stardoc's renderer is vouched for",
			argv: []string{"bazel-out/k8-opt-exec/bin/external/stardoc+/src/main/java/com/google/devtools/build/stardoc/renderer/renderer",
				"--input=bazel-out/k8-fastbuild/bin/docs/defs.binaryproto", "--output=bazel-out/k8-fastbuild/bin/docs/defs.md"},
			program: "@stardoc//src/main/java/com/google/devtools/build/stardoc/renderer/renderer", outcome: Reproducible,
		},
	})
}
