package bazel

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
)

// §12 aquery.rs.
func TestSentinels(t *testing.T) {
	user, host := action.UserSentinel, action.HostnameSentinel
	t.Run("the_sentinels_cannot_be_mistaken_for_each_other", func(t *testing.T) {
		if user == host {
			t.Fatalf("both sentinels are %q", user)
		}
		if strings.Contains(user, host) || strings.Contains(host, user) {
			t.Errorf("one sentinel contains the other: %q, %q", user, host)
		}
	})
	t.Run("the_sentinels_are_findable_and_long_enough", func(t *testing.T) {
		for _, s := range []string{user, host} {
			if !strings.HasPrefix(s, "ahab-") {
				t.Errorf("sentinel %q does not start with \"ahab-\"", s)
			}
			if len(s) < 32 {
				t.Errorf("sentinel %q is %d bytes, want at least 32", s, len(s))
			}
		}
	})
	t.Run("aquery_sets_exactly_these_values", func(t *testing.T) {
		// §2 gives the bytes; saved reports and Bazel's cache depend on them.
		if user != "ahab-sentinel-user-4f8a1c6b9d2e7350" || host != "ahab-sentinel-hostname-4f8a1c6b9d2e7350" {
			t.Errorf("sentinels are %q, %q; §2 fixes them", user, host)
		}
	})
}

func TestWorkingDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"nothing_set_inherits_the_cwd", map[string]string{}, ""},
		{"working_directory_wins", map[string]string{
			"BUILD_WORKING_DIRECTORY": "/home/mark/project/sub", "BUILD_WORKSPACE_DIRECTORY": "/home/mark/project",
		}, "/home/mark/project/sub"},
		{"workspace_directory_when_working_directory_unset", map[string]string{
			"BUILD_WORKSPACE_DIRECTORY": "/home/mark/project",
		}, "/home/mark/project"},
		// §1.2: the variable counts when set, even if empty; "" then inherits.
		{"empty_working_directory_still_wins", map[string]string{
			"BUILD_WORKING_DIRECTORY": "", "BUILD_WORKSPACE_DIRECTORY": "/home/mark/project",
		}, ""},
		{"other_variables_are_ignored", map[string]string{"PWD": "/elsewhere"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			if got := WorkingDir(getenv); got != tc.want {
				t.Errorf("WorkingDir = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOutputUserRoot(t *testing.T) {
	for _, tc := range []struct {
		outputBase, want, wantErr string
	}{
		// §2 step 2, verified against Rust's Path::parent.
		{outputBase: "/a/b/", want: "/a"},
		{outputBase: "/a/b/.", want: "/a"},
		{outputBase: "/a//b", want: "/a"},
		{outputBase: "/a", want: "/"},
		{outputBase: "foo", want: ""},
		{outputBase: "/", wantErr: `output_base "/" has no parent directory`},
		// Typical, and the rest of the Components rules.
		{outputBase: "/home/mark/.cache/bazel/_bazel_mark/0123abcd", want: "/home/mark/.cache/bazel/_bazel_mark"},
		{outputBase: "/tmp/somewhere", want: "/tmp"},
		{outputBase: "a/b", want: "a"},
		{outputBase: "a/./b", want: "a"},
		{outputBase: "/./a", want: "/"},
		{outputBase: "/a/..", want: "/a"},
		{outputBase: "../a", want: ".."},
		{outputBase: "./foo", want: "."}, // a leading "." is a component
		{outputBase: ".", want: ""},
		{outputBase: "./", want: ""},
		{outputBase: ".hidden/x", want: ".hidden"},
		{outputBase: "//a/b", want: "//a"}, // the text before the last component is kept as written
		{outputBase: "", wantErr: `output_base "" has no parent directory`},
		{outputBase: "//", wantErr: `output_base "//" has no parent directory`},
		{outputBase: "/.", wantErr: `output_base "/." has no parent directory`},
		{outputBase: "/\xff/b", wantErr: `output_base parent of "/\xff/b" is not valid UTF-8`},
	} {
		t.Run(tc.outputBase, func(t *testing.T) {
			got, err := OutputUserRoot(tc.outputBase)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("OutputUserRoot(%q) = %q, %v; want error %s", tc.outputBase, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("OutputUserRoot(%q) = %q, %v; want %q", tc.outputBase, got, err, tc.want)
			}
		})
	}
}

func TestAqueryArgs(t *testing.T) {
	const ob = "/home/mark/.cache/bazel/_bazel_mark/0123abcd"
	const root = "--output_user_root=/home/mark/.cache/bazel/_bazel_mark"
	for _, tc := range []struct {
		name    string
		req     AqueryRequest
		want    []string
		wantErr string
	}{
		{"minimal", AqueryRequest{OutputBase: ob, Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--output=proto", "--include_param_files", "//..."}, ""},
		{"configs_in_order", AqueryRequest{OutputBase: ob, Configs: []string{"ci", "remote"}, Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--config=ci", "--config=remote",
				"--output=proto", "--include_param_files", "//..."}, ""},
		{"compilation_mode_after_configs", AqueryRequest{OutputBase: ob, Configs: []string{"opt"}, CompilationMode: "dbg", Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--config=opt", "--compilation_mode=dbg",
				"--output=proto", "--include_param_files", "//..."}, ""},
		{"flags_after_compilation_mode_before_output", AqueryRequest{
			OutputBase: ob, Configs: []string{"a"}, CompilationMode: "opt",
			Flags: []string{"--noinclude_artifacts", "--keep_going"}, Label: "//x:y"},
			[]string{"--output_base=" + ob, root, "aquery", "--config=a", "--compilation_mode=opt",
				"--noinclude_artifacts", "--keep_going", "--output=proto", "--include_param_files", "//x:y"}, ""},
		{"streamed_proto", AqueryRequest{OutputBase: ob, Output: "streamed_proto", Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--output=streamed_proto", "--include_param_files", "//..."}, ""},
		{"explicit_proto", AqueryRequest{OutputBase: ob, Output: "proto", Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--output=proto", "--include_param_files", "//..."}, ""},
		{"label_is_one_element_even_with_spaces", AqueryRequest{OutputBase: ob, Label: "//... - //x/..."},
			[]string{"--output_base=" + ob, root, "aquery", "--output=proto", "--include_param_files", "//... - //x/..."}, ""},
		{"configs_and_mode_are_verbatim", AqueryRequest{OutputBase: ob, Configs: []string{"a b", ""}, CompilationMode: "weird=mode", Label: "//..."},
			[]string{"--output_base=" + ob, root, "aquery", "--config=a b", "--config=", "--compilation_mode=weird=mode",
				"--output=proto", "--include_param_files", "//..."}, ""},
		{"relative_output_base_has_empty_user_root", AqueryRequest{OutputBase: "foo", Label: "//..."},
			[]string{"--output_base=foo", "--output_user_root=", "aquery", "--output=proto", "--include_param_files", "//..."}, ""},
		{"root_output_base", AqueryRequest{OutputBase: "/", Label: "//..."}, nil,
			`output_base "/" has no parent directory`},
		{"unknown_output", AqueryRequest{OutputBase: ob, Output: "jsonproto", Label: "//..."}, nil,
			`aquery output "jsonproto" is not supported, expected one of: proto, streamed_proto`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.req.Args()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("Args() = %q, %v; want error %s", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Args() =\n  %q\nwant\n  %q", got, tc.want)
			}
		})
	}
}

func TestParseInfo(t *testing.T) {
	for _, tc := range []struct {
		name, stdout, want, wantErr string
		only                        bool
	}{
		{name: "the_one_key", stdout: "/home/u/.cache/bazel/_bazel_u/0123\n", want: "/home/u/.cache/bazel/_bazel_u/0123", only: true},
		{name: "the_one_key_as_a_key", stdout: "bazel-bin: /x/bin\noutput_base: /ob\n", want: "/ob", only: true},
		{name: "typical", stdout: "bazel-bin: /x/bin\noutput_base: /ob\nrelease: release 7.4.1\n", want: "/ob"},
		{name: "key_and_value_trimmed", stdout: "  output_base \t:   /ob  \n", want: "/ob"},
		{name: "split_at_first_colon", stdout: "output_base: /a:b: c\n", want: "/a:b: c"},
		{name: "lines_without_colon_ignored", stdout: "Starting server\noutput_base: /ob\nno colon\n", want: "/ob"},
		{name: "crlf", stdout: "output_base: /ob\r\n", want: "/ob"},
		{name: "no_final_newline", stdout: "output_base: /ob", want: "/ob"},
		{name: "empty_value", stdout: "output_base:\n", want: ""},
		{name: "similar_key_is_not_the_key", stdout: "output_basement: /x\nmy_output_base: /y\n",
			wantErr: "`bazel info` did not report an \"output_base\" key"},
		{name: "empty", stdout: "", wantErr: "`bazel info` did not report an \"output_base\" key"},
		{name: "non_utf8", stdout: "output_base: /tmp/\xffbad\n",
			wantErr: "`bazel info` produced non-UTF-8 output: invalid UTF-8 at byte 18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseInfo([]byte(tc.stdout), tc.only)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("parseInfo = %q, %v; want error %s", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("parseInfo = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestStderrTail(t *testing.T) {
	t.Run("short_output_is_kept_whole", func(t *testing.T) {
		var tail stderrTail
		tail.Write([]byte("ERROR: one\n"))
		tail.Write([]byte("ERROR: two\n"))
		if got := tail.String(); got != "ERROR: one\nERROR: two\n" {
			t.Errorf("String() = %q", got)
		}
	})
	t.Run("invalid_utf8_is_replaced", func(t *testing.T) {
		var tail stderrTail
		tail.Write([]byte("bad \xff byte"))
		if got := tail.String(); got != "bad \uFFFD byte" {
			t.Errorf("String() = %q", got)
		}
	})
	for _, chunk := range []int{1000, 70 << 10} {
		t.Run("keeps_the_last_64KiB_from_a_line_start/chunks_of_"+strconv.Itoa(chunk), func(t *testing.T) {
			var tail stderrTail
			var all strings.Builder
			for i := 0; all.Len() < 1<<20; i++ {
				line := strings.Repeat("x", i%97) + "\n"
				all.WriteString(line)
			}
			all.WriteString("ERROR: the reason\n")
			text := all.String()
			for i := 0; i < len(text); i += chunk {
				tail.Write([]byte(text[i:min(i+chunk, len(text))]))
			}
			got := tail.String()
			header, kept, ok := strings.Cut(got, "\n")
			if !ok || !strings.HasPrefix(header, "[") || !strings.HasSuffix(header, " earlier bytes of Bazel's stderr omitted]") {
				t.Fatalf("String() does not start with an omission note: %.80q", got)
			}
			if len(kept) > stderrLimit || !strings.HasSuffix(text, kept) || !strings.HasSuffix(kept, "ERROR: the reason\n") {
				t.Errorf("kept %d bytes, not a tail of the output ending in the error", len(kept))
			}
			if !strings.HasSuffix(text[:len(text)-len(kept)], "\n") {
				t.Errorf("kept text starts mid-line")
			}
			if want := "[" + strconv.Itoa(len(text)-len(kept)) + " earlier"; !strings.HasPrefix(header, want) {
				t.Errorf("header %q, want it to start %q", header, want)
			}
		})
	}
}
