package program

import (
	"testing"
)

func system(path string) ID { return ID{Origin: Origin{Kind: System}, Path: path} }
func inMain(path string) ID { return ID{Origin: Origin{Kind: Main}, Path: path} }
func mainExt(ext, path string) ID {
	return ID{Origin: Origin{Kind: Main, Extension: ext, HasExtension: true}, Path: path}
}
func module(name, path string) ID {
	return ID{Origin: Origin{Kind: Module, Module: name}, Path: path}
}
func moduleExt(name, ext, path string) ID {
	return ID{Origin: Origin{Kind: Module, Module: name, Extension: ext, HasExtension: true}, Path: path}
}

type ofCase struct {
	in      string
	want    ID
	display string // empty: not checked
}

// §12 program_id.rs; every row of the §4.1 table is a case.
var ofTests = map[string][]ofCase{
	"absolute_paths_are_system_tools": {
		{"/usr/bin/gcc", system("/usr/bin/gcc"), "/usr/bin/gcc"},
		{"/bin/bash", system("/bin/bash"), "/bin/bash"},
	},
	"bare_command_names_are_system_tools": {
		{"clang", system("clang"), "clang"},
		{"gcc", system("gcc"), "gcc"},
	},
	"empty_input_is_a_system_tool": {
		{"", system(""), ""},
	},
	"output_prefix_is_stripped_for_main_repository_paths": {
		{"bazel-out/k8-fastbuild/bin/src/tools/gen", inMain("src/tools/gen"), "//src/tools/gen"},
		{"bazel-out/a/b/", inMain(""), "//"},
	},
	"the_configuration_segment_is_not_inspected": {
		{"bazel-out/k8-fastbuild/bin/external/rules_rust+/util/x", module("rules_rust", "util/x"), "@rules_rust//util/x"},
		{"bazel-out/k8-opt-exec/bin/external/rules_rust+/util/x", module("rules_rust", "util/x"), ""},
		{"bazel-out/k8-opt-exec-ST-1a2b3c4d/bin/external/rules_rust+/util/x", module("rules_rust", "util/x"), ""},
		{"bazel-out/k8-opt-exec-ST-d57f/bin/external/rules_kotlin+/src/main/kotlin/build", module("rules_kotlin", "src/main/kotlin/build"), "@rules_kotlin//src/main/kotlin/build"},
	},
	"a_short_bazel_out_path_is_left_alone": {
		{"bazel-out/k8-fastbuild", inMain("bazel-out/k8-fastbuild"), "//bazel-out/k8-fastbuild"},
		{"bazel-out/a/b", inMain("bazel-out/a/b"), "//bazel-out/a/b"},
	},
	"module_repository_normalizes_to_its_module_name": {
		{"bazel-out/k8-opt-exec/bin/external/rules_rust+/util/process_wrapper/process_wrapper",
			module("rules_rust", "util/process_wrapper/process_wrapper"),
			"@rules_rust//util/process_wrapper/process_wrapper"},
		{"external/bazel_tools/tools/cpp/x", module("bazel_tools", "tools/cpp/x"), "@bazel_tools//tools/cpp/x"},
	},
	"programs_differing_only_in_repository_path_are_distinct": {
		{"external/some_module+/baz/quux/process_wrapper", module("some_module", "baz/quux/process_wrapper"), "@some_module//baz/quux/process_wrapper"},
	},
	"extension_repository_keeps_module_and_extension_but_drops_the_repository": {
		{"external/bazel_tools+winsdk_configure+local_config_winsdk/bin/x", moduleExt("bazel_tools", "winsdk_configure", "bin/x"), "@bazel_tools+winsdk_configure//bin/x"},
		{"external/platforms+host_platform+host_platform/bin/x", moduleExt("platforms", "host_platform", "bin/x"), ""},
		{"external/rules_java++toolchains+remotejdk25_linux/bin/java", moduleExt("rules_java", "toolchains", "bin/java"), "@rules_java+toolchains//bin/java"},
		{"external/toolchains_llvm++llvm+llvm_toolchain_llvm/bin/cc_wrapper.sh", moduleExt("toolchains_llvm", "llvm", "bin/cc_wrapper.sh"), "@toolchains_llvm+llvm//bin/cc_wrapper.sh"},
		{"external/rules_rs++toolchains+default_rust_toolchains_x86_64/rustc/default_linux_x86_64_1_86_0_rust_toolchain/bin/rustc",
			moduleExt("rules_rs", "toolchains", "rustc/default_linux_x86_64_1_86_0_rust_toolchain/bin/rustc"), ""},
		{"external/a++b/x", moduleExt("a", "", "x"), "@a+//x"},
		{"external/a+b+c+d+e/x", moduleExt("a", "d", "x"), "@a+d//x"},
	},
	"crate_universe_repositories_collapse_across_crates_and_versions": {
		{"bazel-out/k8-opt-exec/bin/external/rules_rust++crate+crates__anyhow-1.0.104/_bs.out_dir", moduleExt("rules_rust", "crate", "_bs.out_dir"), "@rules_rust+crate//_bs.out_dir"},
		{"bazel-out/k8-opt-exec/bin/external/rules_rust++crate+crates__libc-0.2.189/_bs.out_dir", moduleExt("rules_rust", "crate", "_bs.out_dir"), "@rules_rust+crate//_bs.out_dir"},
	},
	"builtin_repositories_have_no_version_field": {
		{"external/bazel_tools/tools/cpp/x", module("bazel_tools", "tools/cpp/x"), ""},
	},
	"module_version_field_is_dropped": {
		{"external/rules_rust+1.2.3/util/x", module("rules_rust", "util/x"), "@rules_rust//util/x"},
		{"external/rules_rust+/util/x", module("rules_rust", "util/x"), ""},
	},
	"the_older_tilde_separator_is_understood": {
		{"external/rules_rust~0.40.0/util/x", module("rules_rust", "util/x"), ""},
		{"external/rules_rust~/util/x", module("rules_rust", "util/x"), ""},
		{"external/rules_rust~~crate~crates__anyhow-1.0.104/_bs.out_dir", moduleExt("rules_rust", "crate", "_bs.out_dir"), ""},
	},
	"the_same_program_matches_across_bazel_versions": {
		{"external/rules_rust/util/x", module("rules_rust", "util/x"), ""},
		{"external/rules_rust~/util/x", module("rules_rust", "util/x"), ""},
		{"external/rules_rust+/util/x", module("rules_rust", "util/x"), ""},
	},
	"main_repository_is_recognized_by_both_spellings": {
		{"external/_main/src/tools/gen", inMain("src/tools/gen"), "//src/tools/gen"},
		{"bazel-out/k8-fastbuild/bin/src/tools/gen", inMain("src/tools/gen"), "//src/tools/gen"},
		{"external/+foo/bin", inMain("bin"), "//bin"},
	},
	"main_repository_extension_renders_with_an_empty_module": {
		{"external/_main+myext+myrepo/bin/tool", mainExt("myext", "bin/tool"), "@+myext//bin/tool"},
		{"external/+myext+myrepo/bin/tool", mainExt("myext", "bin/tool"), "@+myext//bin/tool"},
		{"external/+typescript+npm_typescript/tsc_/tsc", mainExt("typescript", "tsc_/tsc"), "@+typescript//tsc_/tsc"},
	},
	"runfiles_paths_resolve_through_the_repository_segment": {
		{"bazel-out/k8-fastbuild/bin/ahab.runfiles/_main/ahab", inMain("ahab"), "//ahab"},
		{"ahab.runfiles/rules_rust+/util/process_wrapper/process_wrapper", module("rules_rust", "util/process_wrapper/process_wrapper"), ""},
		{"x.runfiles/repo", inMain("x.runfiles/repo"), "//x.runfiles/repo"},
	},
	"the_innermost_runfiles_tree_wins": {
		{"a.runfiles/_main/b.runfiles/rules_rust+/util/x", module("rules_rust", "util/x"), ""},
	},
	"a_segment_merely_containing_runfiles_is_not_a_runfiles_tree": {
		{"bazel-out/k8-fastbuild/bin/x.runfilesy/_main/tool", inMain("x.runfilesy/_main/tool"), "//x.runfilesy/_main/tool"},
	},
	"runfiles_relative_external_paths_are_understood": {
		{"../rules_rust+/util/process_wrapper/process_wrapper", module("rules_rust", "util/process_wrapper/process_wrapper"), ""},
	},
	"a_repository_with_no_tail_is_not_split": {
		{"external/rules_rust+", inMain("external/rules_rust+"), "//external/rules_rust+"},
		{"external/rules_rust+/", inMain("external/rules_rust+/"), "//external/rules_rust+/"},
		{"./tools/x", inMain("./tools/x"), "//./tools/x"},
		{"tools/../x", inMain("tools/../x"), "//tools/../x"},
	},
}

func TestOf(t *testing.T) {
	for name, cases := range ofTests {
		t.Run(name, func(t *testing.T) {
			for _, c := range cases {
				got := Of(c.in)
				if got != c.want {
					t.Errorf("Of(%q) = %#v, want %#v", c.in, got, c.want)
				}
				// These are the original's cases: Ahab 0.2's reading agrees.
				if old := OfAhab02(c.in); old != c.want {
					t.Errorf("OfAhab02(%q) = %#v, want %#v", c.in, old, c.want)
				}
				if c.display != "" || c.want == system("") {
					if s := got.String(); s != c.display {
						t.Errorf("Of(%q).String() = %q, want %q", c.in, s, c.display)
					}
				}
			}
		})
	}
	// The same §12 test, as a comparison of the IDs.
	t.Run("programs_differing_only_in_repository_path_compare_unequal", func(t *testing.T) {
		if Of("external/some_module+/baz/quux/process_wrapper") == Of("external/rules_rust+/util/process_wrapper/process_wrapper") {
			t.Error("programs of different repositories compare equal")
		}
		if Of("external/rules_rust+/baz/x") == Of("external/rules_rust+/util/x") {
			t.Error("programs at different paths compare equal")
		}
	})
}

func TestParse(t *testing.T) {
	accepted := []struct {
		name string
		in   string
		want ID
	}{
		{"a_main_label", "//a/b", inMain("a/b")},
		{"a_bare_double_slash", "//", inMain("")},
		{"a_path_is_read_like_argv0", "a/b", inMain("a/b")},
		{"an_absolute_path_is_a_system_tool", "/usr/bin/gcc", system("/usr/bin/gcc")},
		{"a_bare_name_is_a_system_tool", "gcc", system("gcc")},
		{"an_external_path_names_its_module", "external/rules_rust+/x", module("rules_rust", "x")},
		{"a_module", "@rules_rust//util/x", module("rules_rust", "util/x")},
		{"a_module_extension", "@llvm+t//bin/clang", moduleExt("llvm", "t", "bin/clang")},
		{"an_extension_keeps_further_plus_signs", "@a+b+c//x", moduleExt("a", "b+c", "x")},
		{"an_empty_module_is_main", "@//x", inMain("x")},
		{"an_empty_module_with_extension_is_main", "@+ext//x", mainExt("ext", "x")},
		{"underscore_main_stays_a_module", "@_main//x", module("_main", "x")},
		{"the_path_may_contain_double_slashes", "@a//b//c", module("a", "b//c")},
		{"a_pattern_key", "@rules_rs+toolchains//*/bin/rustc", moduleExt("rules_rs", "toolchains", "*/bin/rustc")},
	}
	for _, c := range accepted {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", c.in, err)
			}
			if got != c.want {
				t.Errorf("Parse(%q) = %#v, want %#v", c.in, got, c.want)
			}
		})
	}

	t.Run("a_repository_without_a_program_is_rejected", func(t *testing.T) {
		for _, c := range []struct{ in, want string }{
			{"@rules_rust", "\"@rules_rust\" names a repository but no program: expected `@repository//path`"},
			{"@nope", "\"@nope\" names a repository but no program: expected `@repository//path`"},
			{"@rules_rust//", "\"@rules_rust//\" has no program after `//`"},
			{"@rules_rust+//x", "\"@rules_rust+//x\" has an empty extension name"},
			{"@+//x", "\"@+//x\" has an empty extension name"},
			{"@a\tb", "\"@a\\tb\" names a repository but no program: expected `@repository//path`"},
		} {
			_, err := Parse(c.in)
			if err == nil {
				t.Errorf("Parse(%q) succeeded", c.in)
				continue
			}
			if err.Error() != c.want {
				t.Errorf("Parse(%q) error = %q, want %q", c.in, err, c.want)
			}
		}
	})

	t.Run("parsing_inverts_rendering", func(t *testing.T) {
		for _, id := range []ID{
			module("rules_rust", "util/process_wrapper/process_wrapper"),
			moduleExt("rules_rust", "crate", "_bs.out_dir"),
			inMain("src/tools/gen"),
			mainExt("typescript", "tsc_/tsc"),
			system("/usr/bin/gcc"),
			system("gcc"),
			module("_main", "x"),
			moduleExt("a", "b+c", "x"),
		} {
			got, err := Parse(id.String())
			if err != nil {
				t.Errorf("Parse(%q): %v", id.String(), err)
				continue
			}
			if got != id {
				t.Errorf("Parse(%q) = %#v, want %#v", id.String(), got, id)
			}
		}
	})
}

func TestIDsAreUsableAsMapKeys(t *testing.T) {
	t.Run("ids_are_usable_as_map_keys", func(t *testing.T) {
		m := map[ID]int{}
		m[Of("external/rules_rust+1.2.3/util/x")]++
		m[Of("external/rules_rust~/util/x")]++
		m[Of("bazel-out/k8-opt-exec/bin/external/rules_rust+/util/x")]++
		m[Of("external/other+/util/x")]++
		if len(m) != 2 || m[module("rules_rust", "util/x")] != 3 {
			t.Errorf("map = %v, want rules_rust util/x counted 3 times and one other key", m)
		}
	})
}

func TestIsPattern(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"@rules_rs+toolchains//*/bin/rustc", true},
		{"//gcc-?", true},
		{"@rules_rust//util/x", false},
		{"@a*//x", false}, // the origin is never wildcarded (§5.5)
	} {
		id, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := id.IsPattern(); got != c.want {
			t.Errorf("Parse(%q).IsPattern() = %v, want %v", c.in, got, c.want)
		}
	}
}

// The sibling repository layout puts an external repository's outputs
// under bazel-out/<repository>/<config>/bin/; Ahab 0.2 read them as the
// main repository's.
func TestOfSiblingLayout(t *testing.T) {
	for _, c := range []struct {
		in           string
		want, ahab02 ID
	}{
		{"bazel-out/rules_rust+/k8-opt-exec/bin/util/process_wrapper/process_wrapper",
			module("rules_rust", "util/process_wrapper/process_wrapper"), inMain("bin/util/process_wrapper/process_wrapper")},
		{"bazel-out/toolchains_llvm++llvm+llvm_toolchain/k8-opt-exec-ST-1a2b/bin/bin/cc_wrapper.sh",
			moduleExt("toolchains_llvm", "llvm", "bin/cc_wrapper.sh"), inMain("bin/bin/cc_wrapper.sh")},
		// The main repository's own outputs, a package named bin among them.
		{"bazel-out/k8-fastbuild/bin/bin/tool", inMain("bin/tool"), inMain("bin/tool")},
		{"bazel-out/k8-opt-exec/bin/src/tools/gen", inMain("src/tools/gen"), inMain("src/tools/gen")},
		// A runfiles tree still names its own repository.
		{"bazel-out/rules_rust+/k8-opt-exec/bin/x.runfiles/other+/bin/y", module("other", "bin/y"), module("other", "bin/y")},
	} {
		if got := Of(c.in); got != c.want {
			t.Errorf("Of(%q) = %#v, want %#v", c.in, got, c.want)
		}
		if got := OfAhab02(c.in); got != c.ahab02 {
			t.Errorf("OfAhab02(%q) = %#v, want %#v", c.in, got, c.ahab02)
		}
	}
}
