package check

import (
	"slices"
	"strings"
	"testing"
)

func runsOf(s string) []string {
	var runs []string
	for run := range AbsolutePaths(s) {
		runs = append(runs, run)
	}
	return runs
}

// TestAbsolutePaths has every row of the §3.4.1 table, under the §12 names
// where the original had one.
func TestAbsolutePaths(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"extracts_a_bare_absolute_path", "/usr/bin", []string{"/usr/bin"}},
		{"extracts_path_glued_after_a_flag_without_separator", "-I/usr/include", []string{"/usr/include"}},
		{"extracts_path_glued_after_isystem_flag", "-isystem/usr/include", []string{"/usr/include"}},
		{"glued_after_iquote", "-iquote/x", []string{"/x"}},
		{"glued_after_idirafter", "-idirafter/y", []string{"/y"}},
		{"glued_after_L", "-L/opt/lib", []string{"/opt/lib"}},
		{"relative_value_after_a_flag_is_not_absolute", "-Irelative/include", nil},
		{"ignores_bare_slash_and_relative_paths/foo_bar", "foo/bar", nil},
		{"ignores_bare_slash_and_relative_paths/dot", "./rel/path", nil},
		{"ignores_bare_slash_and_relative_paths/slash", "/", nil},
		{"ignores_bare_slash_and_relative_paths/prose", "no paths here", nil},
		{"ignores_bare_slash_and_relative_paths/empty", "", nil},
		{"B_is_not_a_glued_flag", "-B/usr/bin", nil},
		{"glued_flag_after_path_char", "x-I/usr", nil},
		{"glued_flag_after_dash", "--I/usr", nil},
		{"glued_flag_after_separator", "a=-I/usr", []string{"/usr"}},
		{"extracts_path_glued_with_equals", "--sysroot=/opt/toolchain/sysroot", []string{"/opt/toolchain/sysroot"}},
		{"extracts_each_path_in_a_colon_list", "/bin:/usr/bin:/usr/local/bin", []string{"/bin", "/usr/bin", "/usr/local/bin"}},
		{"stops_a_run_at_separators", "/a/b,/c/d /e", []string{"/a/b", "/c/d", "/e"}},
		{"keeps_dotted_and_dashed_path_characters", "/opt/gcc-12.2/lib/libfoo.so.1", []string{"/opt/gcc-12.2/lib/libfoo.so.1"}},
		{"ignores_double_slash_bazel_labels", "//foo:bar", nil},
		{"label_then_absolute_value", "//foo=/real/path", []string{"/real/path"}},
		{"url", "https://example.com/x/y", nil},
		{"file_url", "file:///usr/lib", nil},
		{"triple_slash", "///usr", nil},
		{"double_slashes_inside", "//a//b", nil},
		{"drive_letter", "C:/x", []string{"/x"}},
		{"after_colon", "a:/b", []string{"/b"}},
		{"a_bracketed_segment_does_not_start_an_absolute_path", "src/routes/axes/[...id]/+page.svelte", nil},
		{"a_bracketed_segment_is_part_of_the_path_it_sits_in", "/usr/lib/[abi]/libfoo.so", []string{"/usr/lib/[abi]/libfoo.so"}},
		{"a_bracket_opening_a_list_still_starts_a_path", "--paths=[/usr/lib,/opt/lib]", []string{"/usr/lib", "/opt/lib"}},
		{"bracketed_path", "[/usr/lib]", []string{"/usr/lib"}},
		{"group_at_string_start", "[abc]/foo", []string{"/foo"}},
		{"group_after_separator", " [abc]/foo", []string{"/foo"}},
		{"backward_scan_hits_slash", "a[b/c]/d", []string{"/d"}},
		{"unbalanced_close_bracket", "foo/a]/bar", []string{"/bar"}},
		{"group_split_by_space", "/usr/lib/[a b]/x", []string{"/usr/lib/[a", "/x"}},
		{"slash_inside_brackets", "/a[/b]", []string{"/a[/b]"}},
		{"close_bracket_at_string_start", "a]/x", []string{"/x"}},
		{"nested_group", "a/[[b]c]/d", nil},
		{"every_build_placeholder_is_understood/pwd", "${pwd}/x", nil},
		{"every_build_placeholder_is_understood/exec_root", "$(exec_root)/gen", nil},
		{"every_build_placeholder_is_understood/output_base", "-I${output_base}/include", nil},
		{"every_build_placeholder_is_understood/remap", "--remap-path-prefix=${pwd}=.", nil},
		{"a_path_under_a_variable_expansion_is_not_absolute", "$pwd/external/thing", nil},
		{"an_unrecognized_expansion_is_not_trusted/PWD", "${PWD}/x", []string{"/x"}},
		{"an_unrecognized_expansion_is_not_trusted/HOME", "${HOME}/lib", []string{"/lib"}},
		{"an_unrecognized_expansion_is_not_trusted/foobar", "${foobar}/usr/lib", []string{"/usr/lib"}},
		{"an_unrecognized_expansion_is_not_trusted/realpath", "$(realpath x)/y", []string{"/y"}},
		{"a_closing_brace_alone_does_not_excuse_an_absolute_path", "{pwd}/opt/tool", []string{"/opt/tool"}},
		{"square_brackets_are_not_a_placeholder", "[pwd]/usr/lib", []string{"/usr/lib"}},
		{"an_unrecognized_expansion_is_not_trusted/location", "$(location //a:b)/c", []string{"/c"}},
		{"mismatched_placeholder_brackets", "${pwd)/x", []string{"/x"}},
		{"an_absolute_path_after_an_expansion_is_still_reported", "${pwd}/external/ok:/usr/lib", []string{"/usr/lib"}},
		{"single_quoted", "'/quoted/path'", []string{"/quoted/path"}},
		{"double_quoted", `"/dq/path"`, []string{"/dq/path"}},
		{"non_ascii_splits_runs", "/x/ü/y", []string{"/x/", "/y"}},
		{"trailing_slash_kept", "/a/b/", []string{"/a/b/"}},
		{"dot", "/.", []string{"/."}},
		{"dot_dot", "/..", []string{"/.."}},
		{"dash", "/-", []string{"/-"}},
		{"after_at", "@/x", nil},
		{"after_tilde", "~/foo", nil},
		{"after_variable", "$HOME/foo", nil},
		{"after_percent_variable", "%TMP%/x", nil},
		{"sed_character_class", "[^/~]+", []string{"/~"}},
		{"rpath_comma", "-Wl,-rpath,/opt/lib", []string{"/opt/lib"}},
		{"rpath_equals", "-Wl,-rpath=/opt/lib", []string{"/opt/lib"}},
		{"percent_escape", "/a%20b", []string{"/a%20b"}},
		{"at_sign", "/a@b", []string{"/a@b"}},
		{"plus_and_tilde", "/a+b~c", []string{"/a+b~c"}},
		{"sed_substitution", "s/{VERSION}/1.2.0/", []string{"/1.2.0/"}},
		{"command_substitution", "$(dirname ${BINS[1]})/keytool", []string{"/keytool"}},
		{"default_value_expansion",
			`"${RUNFILES_DIR:-/dev/null}/bazel_tools/tools/bash/runfiles/runfiles.bash"`,
			[]string{"/bazel_tools/tools/bash/runfiles/runfiles.bash"}},
		{"space_ends_the_backward_bracket_scan", "x[a b]/c", []string{"/c"}},
		{"vertical_tab_does_not_end_the_backward_bracket_scan", "x[a\vb]/c", nil},
		{"nul_separates", "/a\x00/b", []string{"/a", "/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runsOf(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("AbsolutePaths(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAbsolutePathsStopsWhenAsked(t *testing.T) {
	var got []string
	for run := range AbsolutePaths("/a:/b:/c") {
		got = append(got, run)
		if len(got) == 2 {
			break
		}
	}
	if want := []string{"/a", "/b"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAbsolutePathsDoesNotAllocate(t *testing.T) {
	line := compileLines[0]
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		for run := range AbsolutePaths(line) {
			n += len(run)
		}
	})
	if allocs != 0 {
		t.Errorf("AbsolutePaths allocates %v times per string, want 0", allocs)
	}
	if n == 0 {
		t.Fatal("the benchmark line has no absolute path")
	}
}

// compileLines are arguments and param-file lines as they appear in real
// C++, Rust and Java actions: mostly relative, some absolute.
var compileLines = []string{
	"-isystem/usr/include/x86_64-linux-gnu",
	"external/rules_cc++cc_configure_extension+local_config_cc/cc_wrapper.sh",
	"-iquote",
	"bazel-out/k8-fastbuild/bin/external/abseil-cpp+",
	"-I${output_base}/external/llvm+/include",
	"-fdebug-prefix-map=/proc/self/cwd=.",
	"-frandom-seed=bazel-out/k8-fastbuild/bin/src/_objs/server/main.o",
	"-Wl,-rpath,$ORIGIN/../_solib_k8/:/opt/lib",
	"--remap-path-prefix=${pwd}=.",
	"-MD", "-MF", "bazel-out/k8-fastbuild/bin/src/_objs/server/main.d",
	"-c", "src/server/main.cc",
	"-o", "bazel-out/k8-fastbuild/bin/src/_objs/server/main.o",
	"--sysroot=/opt/toolchain/sysroot",
	"-Wno-builtin-macro-redefined", "-D__DATE__=\"redacted\"",
	"--extern=anyhow=bazel-out/k8-opt-exec/bin/external/rules_rust++crate+crates__anyhow-1.0.104/libanyhow-1234.rlib",
	"-Lnative=bazel-out/k8-opt-exec/bin/external/rules_rust++crate+crates__anyhow-1.0.104",
	"--classpath=bazel-out/k8-fastbuild/bin/java/a.jar:bazel-out/k8-fastbuild/bin/java/b.jar",
	"https://example.com/x/y//foo:bar",
}

func BenchmarkAbsolutePaths(b *testing.B) {
	bytes := 0
	for _, line := range compileLines {
		bytes += len(line)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, line := range compileLines {
			for run := range AbsolutePaths(line) {
				n += len(run)
			}
		}
	}
	if n == 0 {
		b.Fatal("no runs")
	}
}

func FuzzAbsolutePaths(f *testing.F) {
	for _, line := range compileLines {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := -1
		for run := range AbsolutePaths(s) {
			if run == "" || run[0] != '/' {
				t.Fatalf("run %q of %q does not start with a slash", run, s)
			}
			at := strings.Index(s[last+1:], run)
			if at < 0 {
				t.Fatalf("run %q is not a substring of %q after byte %d", run, s, last)
			}
			last += 1 + at
			for i := 0; i < len(run); i++ {
				if c := run[i]; !isPathChar(c) && c != '[' && c != ']' {
					t.Fatalf("run %q of %q holds byte %q", run, s, c)
				}
			}
			if len(run) < 2 || run[1] == '/' || !isPathChar(run[1]) {
				t.Fatalf("run %q of %q does not start with a slash and a path character", run, s)
			}
		}
	})
}

// gluedToFlag rules slashes out by the last letter of the glued flags:
// every flag must end in one of the letters it checks.
func TestGluedFlagsEndInTheLettersChecked(t *testing.T) {
	for _, flag := range gluedFlags {
		s := flag + "/usr/include"
		if !gluedToFlag(s, len(flag)) {
			t.Errorf("%q: the slash is not seen as glued to %s", s, flag)
		}
	}
}

// startsRunByTheRules is startsRun without its fast path, written as §3.4.1
// states the rules, to check the fast path against.
func startsRunByTheRules(s string, i int) bool {
	if i+1 >= len(s) || !isPathChar(s[i+1]) || s[i+1] == '/' {
		return false
	}
	if i == 0 {
		return true
	}
	if closesPlaceholder(s, i) {
		return false
	}
	at := bracketStart(s, i)
	return at == 0 || !isPathChar(s[at-1]) || gluedToFlag(s, i)
}

func FuzzStartsRunFastPath(f *testing.F) {
	for _, s := range []string{"-I/usr/include", "bazel-out/k8/bin", "${pwd}/x", "[a]/b", "x-I/y", "a=-isystem/usr", "$(exec_root)/gen"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range len(s) {
			if s[i] == '/' && startsRun(s, i) != startsRunByTheRules(s, i) {
				t.Fatalf("startsRun(%q, %d) = %v, the rules say %v", s, i, startsRun(s, i), startsRunByTheRules(s, i))
			}
		}
	})
}
