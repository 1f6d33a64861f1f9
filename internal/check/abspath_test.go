package check

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

func absPath(path string, site finding.Site) finding.Finding {
	return finding.Finding{Kind: finding.AbsolutePath, Action: testRef, Path: path, Site: site}
}

type absPathCase struct {
	name string
	a    *action.Action
	want []finding.Finding
}

// TestAbsPath covers §3.4 and the action-level cases of §3.4.2 without
// specs; the names are the original's (§12 Absolute-path check, Param
// files, Reproducibility) where it had one.
func TestAbsPath(t *testing.T) {
	tests := []absPathCase{
		{
			name: "absolute_path_in_argument_is_a_violation",
			a:    act("tool", "-I/usr/include"),
			want: []finding.Finding{absPath("/usr/include", argSite("-I/usr/include"))},
		},
		{
			name: "absolute_path_in_env_value_is_a_violation",
			a:    withEnv(act("tool"), "CC", "/usr/bin/gcc"),
			want: []finding.Finding{absPath("/usr/bin/gcc", envVarSite("CC", "/usr/bin/gcc"))},
		},
		{
			name: "colon_list_argument_reports_each_path",
			a:    act("tool", "/bin:/usr/bin"),
			want: []finding.Finding{
				absPath("/bin", argSite("/bin:/usr/bin")),
				absPath("/usr/bin", argSite("/bin:/usr/bin")),
			},
		},
		{
			name: "path_env_var_is_skipped_by_absolute_path_check",
			a:    withEnv(act("tool"), "PATH", "/opt/bin:/home/me/bin"),
		},
		{
			name: "other_absolute_path_env_vars_are_still_flagged",
			a:    withEnv(act("tool"), "LD_LIBRARY_PATH", "/opt/lib", "Path", "/opt/bin"),
			want: []finding.Finding{
				absPath("/opt/lib", envVarSite("LD_LIBRARY_PATH", "/opt/lib")),
				absPath("/opt/bin", envVarSite("Path", "/opt/bin")),
			},
		},
		{
			name: "the_program_itself_is_not_reported_as_an_absolute_path",
			a:    act("/bin/bash", "-c", "true"),
		},
		{
			name: "skipping_the_program_does_not_hide_later_arguments",
			a:    act("/bin/bash", "-I/usr/include"),
			want: []finding.Finding{absPath("/usr/include", argSite("-I/usr/include"))},
		},
		{
			name: "a_bare_command_name_is_not_an_absolute_path",
			a:    act("gcc"),
		},
		{
			name: "the_program_is_skipped_only_once",
			a:    act("/usr/bin/gcc", "/usr/bin/gcc"),
			want: []finding.Finding{absPath("/usr/bin/gcc", argSite("/usr/bin/gcc"))},
		},
		{
			name: "without_arguments_nothing_is_skipped",
			a:    withParamFile(&action.Action{Mnemonic: "Genrule", TargetID: tid("//test:t1")}, "out/x.params", "/opt/first"),
			want: []finding.Finding{absPath("/opt/first", paramSite("out/x.params", "/opt/first"))},
		},
		{
			name: "relative_paths_and_labels_pass_absolute_path_check",
			a: act("tool", "bazel-out/k8-fastbuild/bin/a.o", "external/zlib+/zlib.h", "//foo:bar",
				"@repo//pkg:target", "./rel/path", "-Irelative/include", "https://example.com/x/y", "file:///usr/lib"),
		},
		{
			name: "a_path_under_a_variable_expansion_is_not_absolute",
			a:    withEnv(act("tool", "$pwd/external/thing"), "CLIPPY_CONF_DIR", "${pwd}/external/rules_rust+/clippy"),
		},
		{
			name: "every_build_placeholder_is_understood",
			a: withEnv(act("tool", "${pwd}/x", "$(exec_root)/gen", "-I${output_base}/include", "--remap-path-prefix=${pwd}=."),
				"OUT", "$(exec_root)/out"),
		},
		{
			name: "an_unrecognized_expansion_is_not_trusted",
			a:    withEnv(act("tool", "${PWD}/x"), "LIB", "${HOME}/lib"),
			want: []finding.Finding{
				absPath("/x", argSite("${PWD}/x")),
				absPath("/lib", envVarSite("LIB", "${HOME}/lib")),
			},
		},
		{
			name: "a_closing_brace_alone_does_not_excuse_an_absolute_path",
			a:    act("tool", "{pwd}/opt/tool"),
			want: []finding.Finding{absPath("/opt/tool", argSite("{pwd}/opt/tool"))},
		},
		{
			name: "an_absolute_path_after_an_expansion_is_still_reported",
			a:    act("tool", "${pwd}/external/ok:/usr/lib"),
			want: []finding.Finding{absPath("/usr/lib", argSite("${pwd}/external/ok:/usr/lib"))},
		},
		{
			name: "proc_self_cwd_is_allowed",
			a:    withEnv(act("tool", "-fdebug-prefix-map=/proc/self/cwd=."), "PWD", "/proc/self/cwd"),
		},
		{
			name: "a_path_below_proc_self_cwd_is_still_reported",
			a:    act("tool", "/proc/self/cwd/foo", "/proc/self/root"),
			want: []finding.Finding{
				absPath("/proc/self/cwd/foo", argSite("/proc/self/cwd/foo")),
				absPath("/proc/self/root", argSite("/proc/self/root")),
			},
		},
		{
			name: "dev_null_is_allowed_in_argument",
			a:    withEnv(act("tool", "-o", "/dev/null"), "OUT", "/dev/null"),
		},
		{
			name: "other_devices_are_reported",
			a:    act("tool", "/dev/urandom"),
			want: []finding.Finding{absPath("/dev/urandom", argSite("/dev/urandom"))},
		},
		{
			name: "dev_null_exemption_does_not_suppress_other_paths",
			a:    act("tool", "/dev/null:/opt/bin"),
			want: []finding.Finding{absPath("/opt/bin", argSite("/dev/null:/opt/bin"))},
		},
		{
			name: "a_repeated_path_is_reported_each_time",
			a:    act("tool", "/opt/a:/opt/a", "/opt/a"),
			want: []finding.Finding{
				absPath("/opt/a", argSite("/opt/a:/opt/a")),
				absPath("/opt/a", argSite("/opt/a:/opt/a")),
				absPath("/opt/a", argSite("/opt/a")),
			},
		},
		{
			name: "absolute_paths_inside_a_param_file_are_found",
			a:    withParamFile(act("clang", "@out/foo.params"), "out/foo.params", "-O2", "-L/opt/lib"),
			want: []finding.Finding{absPath("/opt/lib", paramSite("out/foo.params", "-L/opt/lib"))},
		},
		{
			name: "unreferenced_param_files_are_still_scanned",
			a: withParamFile(act("clang", "-fmodule-map-file=out/m.cppmap"),
				"out/m.cppmap", `module "crosstool" [system] {`, `  umbrella "/usr/include"`, "}"),
			want: []finding.Finding{absPath("/usr/include", paramSite("out/m.cppmap", `  umbrella "/usr/include"`))},
		},
		{
			name: "a_param_file_is_scanned_once_per_action",
			a:    withParamFile(act("clang", "@out/foo.params", "-Wl,@out/foo.params"), "out/foo.params", "-L/opt/lib"),
			want: []finding.Finding{absPath("/opt/lib", paramSite("out/foo.params", "-L/opt/lib"))},
		},
		{
			name: "a_reference_is_scanned_as_written",
			a:    withParamFile(act("clang", "@/tmp/a.params", "--flagfile=/tmp/a.params"), "/tmp/a.params", "-c"),
			// "@" is a path character, so only the flagfile= form names an
			// absolute path.
			want: []finding.Finding{absPath("/tmp/a.params", argSite("--flagfile=/tmp/a.params"))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, AbsPath(ahab02), tt.a, tt.want) })
	}
}

// imgSpecs is the spec-file example of §3.4.3.
const imgSpecs = `{"programs": {"//tools/img/img": {"spec": {
	"reproducibility": "always",
	"takes_value": ["--working-dir", "--entrypoint"],
	"declared_paths": ["--working-dir=*", "--entrypoint=*"]
}}, "//tools/img/plain": {"spec": {"reproducibility": "always", "takes_value": ["--working-dir"]}}}}`

func libraryFrom(t *testing.T, specs string) *spec.Library {
	t.Helper()
	entries, err := spec.ParseFile("specs.json", []byte(specs), mode.Default)
	if err != nil {
		t.Fatal(err)
	}
	lib := spec.NewLibraryFor(mode.Ahab02)
	lib.Add("specs.json", entries...)
	return lib
}

// TestAbsPathDeclaredPaths covers §3.4.3: a string the program's spec
// declares as a path is skipped whole, wherever it appears, but never an
// environment value.
func TestAbsPathDeclaredPaths(t *testing.T) {
	const img = "bazel-out/k8-opt-exec/bin/tools/img/img"
	lib := libraryFrom(t, imgSpecs)
	tests := []absPathCase{
		{
			name: "a_flag_and_its_value_are_both_declared",
			a:    act(img, "--working-dir", "/app"),
		},
		{
			name: "a_glued_value_is_declared",
			a:    act(img, "--entrypoint=/app/bin/server"),
		},
		{
			name: "an_undeclared_flag_is_reported",
			a:    act(img, "--output", "/tmp/out.tar"),
			want: []finding.Finding{absPath("/tmp/out.tar", argSite("/tmp/out.tar"))},
		},
		{
			name: "declaring_paths_does_not_excuse_the_rest_of_the_action",
			a:    act(img, "--working-dir", "/app", "--cache=/var/cache"),
			want: []finding.Finding{absPath("/var/cache", argSite("--cache=/var/cache"))},
		},
		{
			name: "a_declared_string_is_skipped_anywhere_in_the_action",
			a: withParamFile(act(img, "--working-dir", "/app", "/app", "@out/unused.params"),
				"out/unused.params", "/app", "/app/"),
			want: []finding.Finding{absPath("/app/", paramSite("out/unused.params", "/app/"))},
		},
		{
			name: "environment_values_are_never_declared",
			a:    withEnv(act(img, "--working-dir", "/app"), "WORKDIR", "/app"),
			want: []finding.Finding{absPath("/app", envVarSite("WORKDIR", "/app"))},
		},
		{
			name: "paths_declared_in_a_param_file_are_found_through_the_expanded_command_line",
			a:    withParamFile(act(img, "@out/img.params"), "out/img.params", "--working-dir", "/app", "--entrypoint=/bin/sh"),
		},
		{
			name: "a_flag_without_its_value_declares_nothing",
			a:    act(img, "/app", "--working-dir"),
			want: []finding.Finding{absPath("/app", argSite("/app"))},
		},
		{
			name: "a_spec_without_declared_paths_declares_nothing",
			a:    act("bazel-out/k8-opt-exec/bin/tools/img/plain", "--working-dir", "/app"),
			want: []finding.Finding{absPath("/app", argSite("/app"))},
		},
		{
			name: "another_program_declares_nothing",
			a:    act("bazel-out/k8-opt-exec/bin/tools/other", "--working-dir", "/app"),
			want: []finding.Finding{absPath("/app", argSite("/app"))},
		},
		{
			name: "a_system_program_is_never_looked_up",
			a:    act("/usr/bin/img", "--working-dir", "/app"),
			want: []finding.Finding{absPath("/app", argSite("/app"))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, AbsPath(lib), tt.a, tt.want) })
	}
}

// TestAbsPathRulesImg is the §3.4.3 rules_img case: the built-in library
// knows where img writes paths inside the image it builds.
func TestAbsPathRulesImg(t *testing.T) {
	img := []string{
		"bazel-out/k8-opt-exec/bin/external/rules_img_tool+/cmd/img/img_linux_amd64_/img_linux_amd64",
		"manifest", "--working-dir", "/app", "--manifest", "bazel-out/k8-fastbuild/bin/app/manifest.json",
	}
	annotations := append(slices.Clone(img), "--annotations-file", "/home/someone/annotations.json")
	builtin, err := spec.LoadBuiltin(mode.Ahab02)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		lib  *spec.Library
		args []string
		want []finding.Finding
	}{
		{"a_path_the_program_declares_in_its_output_is_not_reported", builtin, img, nil},
		{"the_same_path_is_reported_when_the_library_says_nothing", spec.NewLibraryFor(mode.Ahab02), img,
			[]finding.Finding{absPath("/app", argSite("/app"))}},
		{"the_same_path_is_reported_without_a_library", nil, img,
			[]finding.Finding{absPath("/app", argSite("/app"))}},
		{"declaring_paths_does_not_excuse_the_rest_of_the_action", builtin, annotations,
			[]finding.Finding{absPath("/home/someone/annotations.json", argSite("/home/someone/annotations.json"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, AbsPath(tt.lib), act(tt.args...), tt.want) })
	}
}
