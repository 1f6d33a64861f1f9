package spec

import "testing"

func TestBuiltinGo(t *testing.T) {
	const (
		builderPath = "external/rules_go++go_sdk+main___download_0/builder_reset/builder"
		builder     = "@rules_go+go_sdk//builder_reset/builder"
	)
	cases := []invocation{
		{
			name: "the_builder_is_reproducible_whichever_subcommand_it_is_given/compilepkg",
			argv: []string{builderPath, "compilepkg", "-sdk", "external/rules_go++go_sdk+main___download_0",
				"-installsuffix", "linux_amd64", "-src", "cmd/ahab/main.go", "-importpath", "github.com/ahab-go/ahab/cmd/ahab",
				"-p", "github.com/ahab-go/ahab/cmd/ahab", "-o", "bazel-out/k8-fastbuild/bin/cmd/ahab/ahab_lib.a"},
			program: builder, outcome: Reproducible,
		},
		{
			name: "the_builder_is_reproducible_whichever_subcommand_it_is_given/gentestmain",
			argv: []string{builderPath, "gentestmain", "-output", "bazel-out/k8-fastbuild/bin/x_test_main.go",
				"-cover_format=lcov", "-pkgname", "x"},
			program: builder, outcome: Reproducible,
		},
		{
			name: "the_external_linker_is_left_to_the_other_checks",
			argv: []string{builderPath, "link", "-sdk", "external/rules_go++go_sdk+main___download_0",
				"-installsuffix", "linux_amd64", "-o", "bazel-out/k8-fastbuild/bin/cmd/ahab/ahab_/ahab",
				"-main", "bazel-out/k8-fastbuild/bin/cmd/ahab/ahab_lib.a", "--", "-extld", "/usr/bin/gcc",
				"-buildid=redacted", "-extldflags", "-fuse-ld=gold"},
			program: builder, outcome: Reproducible,
		},
		{
			// §6.4: the builder's key names the go_sdk extension; rules_go's
			// own repository is another place.
			name:    "the_builder_is_named_by_the_extension_that_downloads_it",
			argv:    []string{"external/rules_go+/builder_reset/builder", "compilepkg"},
			program: "@rules_go//builder_reset/builder", unknown: true,
		},
		{
			name: "generating_go_from_protos_is_vouched_for",
			argv: []string{"bazel-out/k8-opt-exec/bin/external/rules_go+/go/tools/builders/go-protoc/go-protoc-bin",
				"-protoc", "bazel-out/k8-opt-exec/bin/external/protobuf+/protoc", "-importpath", "example.com/api"},
			program: "@rules_go//go/tools/builders/go-protoc/go-protoc-bin", outcome: Reproducible,
		},
		{
			name: "the_parser_generator_is_vouched_for",
			argv: []string{"bazel-out/k8-opt-exec/bin/external/gazelle++go_deps+org_golang_x_tools/cmd/goyacc/goyacc_/goyacc",
				"-o", "bazel-out/k8-fastbuild/bin/parser/y.go", "parser/grammar.y"},
			program: "@gazelle+go_deps//cmd/goyacc/goyacc_/goyacc", outcome: Reproducible,
		},
	}
	for _, bin := range []string{"main_linux_x64", "main_darwin_x64", "main_darwin_arm64", "main_windows_x64.exe"} {
		cases = append(cases, invocation{
			name: "web_test_metadata_merging_is_reproducible_on_every_platform/" + bin,
			argv: []string{"external/rules_webtesting+/go/metadata/main/" + bin, "--merge_into",
				"bazel-out/k8-fastbuild/bin/web/test.gen.json", "external/rules_webtesting+/browsers/chromium.json"},
			program: "@rules_webtesting//go/metadata/main/" + bin, outcome: Reproducible,
		})
	}
	for _, gen := range []string{
		"language/proto/gen/gen_known_imports_/gen_known_imports",
		"language/go/gen_std_package_list/gen_std_package_list_/gen_std_package_list",
		"language/go/platform_info_generator/platform_info_generator_/platform_info_generator",
	} {
		cases = append(cases,
			invocation{
				name:    "gazelles_generators_answer_to_both_of_their_names/" + gen + "/as_a_dependency",
				argv:    []string{"bazel-out/k8-opt-exec/bin/external/gazelle+/" + gen, "-out", "bazel-out/k8-fastbuild/bin/x.go"},
				program: "@gazelle//" + gen, outcome: Reproducible,
			},
			invocation{
				// Built inside gazelle's own workspace, the generator is in
				// the main repository.
				name:    "gazelles_generators_answer_to_both_of_their_names/" + gen + "/in_gazelle",
				argv:    []string{"bazel-out/k8-opt-exec/bin/" + gen, "-out", "bazel-out/k8-fastbuild/bin/x.go"},
				program: "//" + gen, synonym: "@gazelle//" + gen, outcome: Reproducible,
			})
	}
	testInvocations(t, cases)
}
