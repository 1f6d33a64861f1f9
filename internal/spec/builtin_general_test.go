package spec

import (
	"testing"
)

// machineQuery is the coreutils prohibition (§6.10) with what broke it.
func machineQuery(present ...string) Unmet {
	return Unmet{
		Because: "it was asked for something the machine knows rather than something the build gave it",
		Present: present,
	}
}

func TestBuiltinGeneral(t *testing.T) {
	const (
		coreutils     = "@bazel_lib+toolchains//coreutils"
		coreutilsPath = "external/bazel_lib++toolchains+coreutils_linux_amd64/coreutils"
		protoc        = "@protobuf+protoc//bin/protoc"
		zipper        = "@bazel_tools//tools/zip/zipper/zipper"
	)
	cases := []invocation{
		{
			name:    "coreutils copying a file is reproducible",
			argv:    []string{coreutilsPath, "cp", "-f", "web/app.js", "bazel-out/k8-fastbuild/bin/web/app.js"},
			program: coreutils, outcome: Reproducible,
		},
		{
			name:    "coreutils naming a file after a command is reproducible",
			argv:    []string{coreutilsPath, "cat", "hostname.txt", "date.txt"},
			program: coreutils, outcome: Reproducible,
		},
		{
			name:    "coreutils asked for the date is not",
			argv:    []string{coreutilsPath, "date", "+%s"},
			program: coreutils, outcome: Conditional,
			unmet: []Unmet{machineQuery("date")},
		},
		{
			name:    "coreutils asked for several machine facts names each",
			argv:    []string{coreutilsPath, "env", "uname", "-a", "whoami"},
			program: coreutils, outcome: Conditional,
			unmet: []Unmet{machineQuery("env", "uname", "whoami")},
		},
		{
			name:    "aspect's coreutils is bazel_lib's",
			argv:    []string{"external/aspect_bazel_lib++toolchains+coreutils_linux_amd64/coreutils", "hostname"},
			program: "@aspect_bazel_lib+toolchains//coreutils", synonym: coreutils, outcome: Conditional,
			unmet: []Unmet{machineQuery("hostname")},
		},
		{
			name:    "copy_to_directory is vouched for",
			argv:    []string{"external/bazel_lib++toolchains+copy_to_directory_linux_amd64/copy_to_directory", "bazel-out/k8-fastbuild/bin/dist_config.json", "--"},
			program: "@bazel_lib+toolchains//copy_to_directory", outcome: Reproducible,
		},
		{
			name:    "aspect's copy_to_directory is bazel_lib's",
			argv:    []string{"external/aspect_bazel_lib++toolchains+copy_to_directory_linux_amd64/copy_to_directory", "config.json"},
			program: "@aspect_bazel_lib+toolchains//copy_to_directory", synonym: "@bazel_lib+toolchains//copy_to_directory", outcome: Reproducible,
		},
		{
			name:    "copy_directory is vouched for",
			argv:    []string{"external/bazel_lib++toolchains+copy_directory_linux_amd64/copy_directory", "src", "bazel-out/k8-fastbuild/bin/dst"},
			program: "@bazel_lib+toolchains//copy_directory", outcome: Reproducible,
		},
		{
			name:    "aspect's copy_directory is bazel_lib's",
			argv:    []string{"external/aspect_bazel_lib~~toolchains~copy_directory_linux_amd64/copy_directory", "src", "dst"},
			program: "@aspect_bazel_lib+toolchains//copy_directory", synonym: "@bazel_lib+toolchains//copy_directory", outcome: Reproducible,
		},
		{
			name:    "the prebuilt protoc is vouched for",
			argv:    []string{"external/protobuf++protoc+prebuilt_protoc_linux_x86_64/bin/protoc", "--java_out=x.jar", "-Iproto", "proto/ledger.proto"},
			program: protoc, outcome: Reproducible,
		},
		{
			name:    "protoc built from source is the prebuilt one",
			argv:    []string{"bazel-out/k8-opt-exec-ST-2b81c6c3e5d0/bin/external/protobuf~/protoc", "--java_out=x.jar", "proto/ledger.proto"},
			program: "@protobuf//protoc", synonym: protoc, outcome: Reproducible,
		},
		{
			name:    "the minimal protoc is the prebuilt one",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/protobuf+/src/google/protobuf/compiler/protoc_minimal", "--cpp_out=x", "a.proto"},
			program: "@protobuf//src/google/protobuf/compiler/protoc_minimal", synonym: protoc, outcome: Reproducible,
		},
		{
			name: "the_zip_tool_is_vouched_for_however_it_is_asked_to_pack",
			argv: []string{"external/bazel_tools/tools/zip/zipper/zipper", "cC", "bazel-out/k8-fastbuild/bin/svc/api/server.zip",
				"__main__.py=bazel-out/k8-fastbuild/bin/svc/api/server.temp", "__init__.py=", "runfiles/_main/__init__.py="},
			program: zipper, outcome: Reproducible,
		},
		{
			name:    "the_zip_tool_is_vouched_for_however_it_is_asked_to_pack/plain",
			argv:    []string{"external/bazel_tools/tools/zip/zipper/zipper", "c", "out.zip", "a=web/a"},
			program: zipper, outcome: Reproducible,
		},
		{
			name:    "the test runner's setup script is vouched for",
			argv:    []string{"external/bazel_tools/tools/test/test-setup.sh", "crates/ledger-core/ledger_core_test"},
			program: "@bazel_tools//tools/test/test-setup.sh", outcome: Reproducible,
		},
		{
			name:    "a_program_the_library_does_not_name_has_no_spec",
			argv:    []string{"bazel-out/k8-opt-exec/bin/tools/codegen/codegen_/codegen", "--lang=ts"},
			program: "//tools/codegen/codegen_/codegen", unknown: true,
		},
		{
			name:    "a_program_outside_the_execution_root_is_the_machines",
			argv:    []string{"/usr/bin/gcc", "-c", "a.c"},
			program: "/usr/bin/gcc", unknown: true,
		},
	}
	testInvocations(t, cases)
}
