package bazel

import (
	"cmp"
	"context"
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
		name                      string // the output base when empty
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
		{name: "empty", outputBase: "", wantErr: `output_base "" has no parent directory`},
		{outputBase: "//", wantErr: `output_base "//" has no parent directory`},
		{outputBase: "/.", wantErr: `output_base "/." has no parent directory`},
		{outputBase: "/\xff/b", wantErr: `output_base parent of "/\xff/b" is not valid UTF-8`},
	} {
		t.Run(cmp.Or(tc.name, tc.outputBase), func(t *testing.T) {
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

// What Bazel 4.2.3 printed for `aquery --keep_going //broken/...` where one
// target names a missing package and another a label its rule lacks: the
// first error names its target only on the line that continues it.
const keepGoingStderr = `Loading: 0 packages loaded
Analyzing: 3 targets (1 packages loaded, 0 targets configured)
ERROR: /ws/broken/BUILD:3:8: in cmd attribute of genrule rule //broken:badcmd: label '//broken:nothere' in $(location) expression is not a declared prerequisite of this rule
ERROR: /ws/broken/BUILD:1:8: no such package 'nope': BUILD file not found in any of the following directories. Add a BUILD file to a directory to mark it as a package.
 - /ws/nope and referenced by '//broken:lib'
WARNING: errors encountered while analyzing target '//broken:badcmd': it will not be built
WARNING: errors encountered while analyzing target '//broken:lib': it will not be built
INFO: Analysis succeeded for only 1 of 3 top-level targets
INFO: Analyzed 3 targets (1 packages loaded, 1 target configured).
INFO: Found 1 target...

ERROR: command succeeded, but not all targets were analyzed
INFO: Elapsed time: 0.223s
FAILED: Build did NOT complete successfully`

func TestIncompleteErrorNamesTheTargets(t *testing.T) {
	err := &IncompleteError{Exit: &ExitError{Command: "bazel aquery", Status: "exit status: 1", ExitCode: 1, Stderr: keepGoingStderr}}
	want := "`bazel aquery` exited with exit status: 1, so the report covers only the targets it could analyse; Bazel says:\n" +
		"  ERROR: /ws/broken/BUILD:3:8: in cmd attribute of genrule rule //broken:badcmd: label '//broken:nothere' in $(location) expression is not a declared prerequisite of this rule\n" +
		"  ERROR: /ws/broken/BUILD:1:8: no such package 'nope': BUILD file not found in any of the following directories. Add a BUILD file to a directory to mark it as a package.\n" +
		"   - /ws/nope and referenced by '//broken:lib'\n" +
		"  WARNING: errors encountered while analyzing target '//broken:badcmd': it will not be built\n" +
		"  WARNING: errors encountered while analyzing target '//broken:lib': it will not be built\n" +
		"  ERROR: command succeeded, but not all targets were analyzed"
	if got := err.Error(); got != want {
		t.Errorf("IncompleteError =\n%s\nwant\n%s", got, want)
	}
}

func TestParseProgress(t *testing.T) {
	for _, tc := range []struct {
		line        string
		phase       Phase
		done, total int
	}{
		{"Starting local Bazel server and connecting to it...", Starting, 0, 0},
		{"Loading: 0 packages loaded", Loading, 0, 0},
		{"Analyzing: 11 targets (2 packages loaded, 0 targets configured)", Analyzing, 0, 0},
		{"INFO: Analyzed 11 targets (6 packages loaded, 18 targets configured).", Analyzing, 0, 0},
		{"INFO: Found 11 targets...", Building, 0, 0},
		{"[0 / 2] [Prepa] BazelWorkspaceStatusAction stable-status.txt", Building, 0, 2},
		{"[1,234 / 5,678] Compiling a.cc; 2s local", Building, 1234, 5678},
		{"Fetching @local_config_cc; fetching", Fetching, 0, 0},
		{"ERROR: no such package 'nope'", Message, 0, 0},
		{"WARNING: errors encountered while analyzing target '//a:b'", Message, 0, 0},
	} {
		p, ok := parseProgress(tc.line)
		if !ok || p.Phase != tc.phase || p.Done != tc.done || p.Total != tc.total || p.Line != tc.line {
			t.Errorf("parseProgress(%q) = %+v, %v; want phase %s, %d / %d", tc.line, p, ok, tc.phase, tc.done, tc.total)
		}
	}
	for _, line := range []string{"", "INFO: Elapsed time: 3.500s", "Target //a:b up-to-date:", "  bazel-bin/a/b"} {
		if p, ok := parseProgress(line); ok {
			t.Errorf("parseProgress(%q) = %+v, want nothing", line, p)
		}
	}
}

// Runner.Progress hears every line that says what Bazel does, an error
// with the lines that continue it, from Bazel's stderr as it runs.
func TestRunnerProgress(t *testing.T) {
	f := newFakeBazel(t)
	var got []string
	r := f.runner("fail")
	r.Progress = func(p Progress) { got = append(got, p.Command+" "+p.Phase.String()+" "+p.Line) }
	if _, err := r.OutputBase(context.Background()); err == nil {
		t.Fatal("the fake did not fail")
	}
	want := []string{"bazel info starting Starting local Bazel server and connecting to it...", "bazel info message ERROR: Skipping '//nope': no such package 'nope'"}
	if !slices.Equal(got, want) {
		t.Errorf("progress %q, want %q", got, want)
	}
}

// Bazel's stderr is any bytes: each line gives at most one Progress, whose
// Line is the line, and a writer that splits them never holds more than a
// bounded line.
func FuzzParseProgress(f *testing.F) {
	f.Add([]byte("Loading: 0 packages loaded\n[1,2 / 3] x\nERROR: y\n - z\n"))
	f.Add([]byte("[99999999999999999999 / 1] overflow\n\r\n"))
	f.Fuzz(func(t *testing.T, stderr []byte) {
		var lines []string
		s := &lineSplitter{line: func(l string) { lines = append(lines, l) }}
		s.Write(stderr)
		s.flush()
		for _, l := range lines {
			if len(l) > maxLine || strings.Contains(l, "\n") {
				t.Fatalf("a line of %d bytes: %q", len(l), l)
			}
			if p, ok := parseProgress(l); ok && (p.Line == "" || p.Done < 0 || p.Total < 0) {
				t.Errorf("parseProgress(%q) = %+v", l, p)
			}
		}
	})
}
