package spec

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/program"
)

const (
	imgTool     = "@rules_img_tool//cmd/img/img_/img"
	imgToolPath = "bazel-out/k8-opt-exec/bin/external/rules_img_tool+/cmd/img/img_linux_amd64_/img_linux_amd64"
)

// The 21 flags whose values are paths inside the image (§6.3).
var imgPathFlags = []string{"--executable", "--directory", "--file-metadata", "--path",
	"--lib-dir", "--passwd-path", "--group-path", "--shadow-path", "--bundle-path",
	"--exploded-dir", "--java-keystore-path", "--os-release-path", "--usr-lib-path",
	"--lsb-release-path", "--ld-so-conf-path", "--ld-so-cache-path", "--env", "--user",
	"--entrypoint", "--cmd", "--working-dir"}

func TestBuiltinContainer(t *testing.T) {
	var cases []invocation
	for _, osArch := range []string{"linux_amd64", "linux_arm64", "linux_s390x", "darwin_amd64", "darwin_arm64", "windows_amd64", "windows_arm64"} {
		cases = append(cases, invocation{
			name:    "the_tool_is_vouched_for_on_every_platform_it_is_built_for/" + osArch,
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_img_tool+/cmd/img/img_" + osArch + "_/img_" + osArch, "layer", "--name", "app"},
			program: "@rules_img_tool//cmd/img/img_" + osArch + "_/img_" + osArch,
			synonym: imgTool, outcome: Reproducible,
		})
	}
	for _, osArch := range []string{"windows_amd64", "windows_arm64"} {
		cases = append(cases, invocation{
			name:    "the_windows_builds_are_known_by_their_suffix_too/" + osArch,
			argv:    []string{"bazel-out/x64_windows-opt-exec/bin/external/rules_img_tool+/cmd/img/img_" + osArch + "_/img_" + osArch + ".exe", "manifest"},
			program: "@rules_img_tool//cmd/img/img_" + osArch + "_/img_" + osArch + ".exe",
			synonym: imgTool, outcome: Reproducible,
		})
	}
	for _, script := range []string{"distroless/private/cacerts.sh", "distroless/private/locale.sh",
		"distroless/private/flatten.sh", "apt/private/dpkg_status.sh", "apt/private/dpkg_statusd.sh"} {
		cases = append(cases, invocation{
			name:    "the_distroless_layer_tools_are_vouched_for/" + script,
			argv:    []string{"external/rules_distroless+/" + script, "bazel-out/k8-fastbuild/bin/layer.tar"},
			program: "@rules_distroless//" + script, outcome: Reproducible,
		})
	}
	cases = append(cases,
		invocation{
			name:    "the_distroless_layer_tools_are_vouched_for/keystore_binary",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_distroless+/distroless/private/keystore_binary", "bazel-out/k8-fastbuild/bin/java_keystore"},
			program: "@rules_distroless//distroless/private/keystore_binary", outcome: Reproducible,
		},
		invocation{
			name:    "the_oci_descriptor_is_vouched_for",
			argv:    []string{"external/rules_oci+/oci/private/descriptor.sh", "bazel-out/k8-fastbuild/bin/app/layer.tar.gz", "application/vnd.oci.image.layer.v1.tar+gzip"},
			program: "@rules_oci//oci/private/descriptor.sh", outcome: Reproducible,
		},
		invocation{
			name:    "the_name_the_fishery_saw_is_one_of_them",
			argv:    []string{imgToolPath, "manifest", "--working-dir", "/app", "--manifest", "bazel-out/k8-fastbuild/bin/app/manifest.json"},
			program: "@rules_img_tool//cmd/img/img_linux_amd64_/img_linux_amd64",
			synonym: imgTool, outcome: Reproducible,
		},
		invocation{
			name:    "declaring_paths_does_not_make_the_tool_conditional",
			argv:    []string{imgToolPath, "manifest", "--output", "/tmp/out.tar", "--entrypoint=/app/bin/server"},
			program: "@rules_img_tool//cmd/img/img_linux_amd64_/img_linux_amd64",
			synonym: imgTool, outcome: Reproducible,
		},
		invocation{
			name:    "rules_img's tool is not rules_img_tool's",
			argv:    []string{"bazel-out/k8-opt-exec/bin/external/rules_img+/cmd/img/img_linux_amd64_/img_linux_amd64", "manifest"},
			program: "@rules_img//cmd/img/img_linux_amd64_/img_linux_amd64", unknown: true,
		},
	)
	testInvocations(t, cases)
}

// declared resolves argv through the built-in library and returns the
// arguments its spec declares as paths (§3.4.3).
func declared(t *testing.T, argv ...string) []string {
	t.Helper()
	r := builtinLibrary(t).Resolve(program.Of(argv[0]), argv[1:])
	if r.Spec == nil {
		t.Fatalf("no spec answered for %s", r.Program)
	}
	return r.Spec.DeclaredPathArgs(r.Args)
}

func TestBuiltinContainerDeclaredPaths(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"a_path_in_the_image_is_declared_however_the_flag_is_spelled/separate",
			[]string{"manifest", "--working-dir", "/app"}, []string{"--working-dir", "/app"}},
		{"a_path_in_the_image_is_declared_however_the_flag_is_spelled/joined",
			[]string{"manifest", "--working-dir=/app"}, []string{"--working-dir=/app"}},
		{"a_path_on_the_build_machine_is_not_declared",
			[]string{"manifest", "--output", "/tmp/out.tar", "--metadata", "/tmp/meta.json"}, nil},
		{"a_param_file_record_is_declared_by_its_shape",
			[]string{"layer", "etc/app/current.txt\x00/etc/app/config.txt"}, []string{"etc/app/current.txt\x00/etc/app/config.txt"}},
		{"a_param_file_record_is_declared_by_its_shape/all_relative",
			[]string{"layer", "etc/app/current.txt\x00etc/app/config.txt"}, nil},
		{"a_param_file_record_is_declared_by_its_shape/a_bare_path",
			[]string{"layer", "/usr/lib/x86_64-linux-gnu"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := declared(t, append([]string{imgToolPath}, c.args...)...)
			if !slices.Equal(got, c.want) {
				t.Errorf("declared = %q, want %q", got, c.want)
			}
		})
	}
	t.Run("every_flag_in_the_list_declares_its_value", func(t *testing.T) {
		for _, flag := range imgPathFlags {
			got := declared(t, imgToolPath, "layer", flag, "/etc/somewhere")
			if want := []string{flag, "/etc/somewhere"}; !slices.Equal(got, want) {
				t.Errorf("%s: declared = %q, want %q", flag, got, want)
			}
			got = declared(t, imgToolPath, "layer", flag+"=/etc/somewhere")
			if want := []string{flag + "=/etc/somewhere"}; !slices.Equal(got, want) {
				t.Errorf("%s=: declared = %q, want %q", flag, got, want)
			}
		}
	})
}
