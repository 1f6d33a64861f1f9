package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ahab-go/ahab/internal/cli"
	"github.com/ahab-go/ahab/internal/sarifschema"
)

var update = flag.Bool("update", false, "rewrite the scripts' golden files (review the diff like code)")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ahab":  recordingStatus,
		"bazel": fakeBazel,
	})
}

// recordingStatus is ahab, which also writes its exit status to
// $AHAB_STATUS_FILE for the script command status.
func recordingStatus() {
	code := run()
	if f := os.Getenv("AHAB_STATUS_FILE"); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(code)), 0o644)
	}
	os.Exit(code)
}

// status is the script command `status N`: the last ahab run exited N.
// `! exec` says only that it failed; a CI acts on which status.
func status(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: status N")
	}
	file := ts.Getenv("AHAB_STATUS_FILE")
	got, err := os.ReadFile(file)
	if err != nil {
		ts.Fatalf("no ahab has exited since the last status: %v", err)
	}
	os.Remove(file)
	if string(got) != args[0] {
		ts.Fatalf("ahab exited %s, want %s", got, args[0])
	}
}

// TestScripts runs the CLI as a user does, with testscript: ahab and a fake
// bazel are on PATH. Regenerate golden output with: go test ./cmd/ahab -update
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sarifvalid": sarifValid,
			"status":     status,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("CONFORMANCE", filepath.Join(root, "testdata", "conformance"))
			env.Setenv("BUILDS", filepath.Join(root, "testdata", "builds"))
			env.Setenv("FAKE_BAZEL_LOG", filepath.Join(env.WorkDir, "bazel.log"))
			env.Setenv("AHAB_STATUS_FILE", filepath.Join(env.WorkDir, ".ahab-status"))
			env.Setenv("VERSION", cli.Version())
			// Where testscript put ahab and the fake bazel (first on PATH),
			// for scripts that run them with nothing else on PATH.
			env.Setenv("AHAB_BIN", strings.Split(os.Getenv("PATH"), string(os.PathListSeparator))[0])
			// A terminal escape, for scripts that check it is never printed.
			env.Setenv("ESC", "\x1b")
			return nil
		},
	})
}

// sarifValid is the script command `sarifvalid FILE`: FILE is a SARIF
// 2.1.0 log the OASIS schema accepts. Every script that writes SARIF
// checks it.
func sarifValid(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: sarifvalid FILE")
	}
	err := sarifschema.Validate([]byte(ts.ReadFile(args[0])))
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s is not valid SARIF 2.1.0: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("%s is valid SARIF 2.1.0", args[0])
	}
}

// fakeBazel stands in for Bazel. It appends its argv, working directory and
// the USER and HOSTNAME it was given to $FAKE_BAZEL_LOG, then:
//   - info: prints output_base: $FAKE_BAZEL_OUTPUT_BASE (and other keys),
//     or the value alone when asked for the key output_base;
//   - aquery: copies $FAKE_BAZEL_DUMP to stdout, or nothing for `set()`;
//   - config --dump_all --output=json: shows three configurations: the
//     host's, that of the dumps of testdata (checksum f5527a63…) with
//     action_env [$FAKE_BAZEL_ACTION_ENV] and test_env
//     [$FAKE_BAZEL_TEST_ENV], and one an earlier command left in the
//     server, with action_env [USER=null];
//   - query --output=location: says each label of its --query_file is
//     declared in PACKAGE/BUILD.bazel (PACKAGE/BUILD in another
//     repository) on line 10, 11, ... in the file's order, but the labels
//     in $FAKE_BAZEL_QUERY_MISSING (comma-separated), which make it exit
//     3 as Bazel's --keep_going does;
//
// $FAKE_BAZEL_FAIL=<command> makes that command print garbage to stderr and
// exit 1; $FAKE_BAZEL_GARBAGE=<command> makes it print garbage to stdout.
func fakeBazel() {
	args := os.Args[1:]
	cmd := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			cmd = a
			break
		}
	}
	if log := os.Getenv("FAKE_BAZEL_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			wd, _ := os.Getwd()
			fmt.Fprintf(f, "argv: %s\ncwd: %s\nUSER: %s\nHOSTNAME: %s\n", strings.Join(args, " "), wd, envOr("USER"), envOr("HOSTNAME"))
			f.Close()
		}
	}
	if os.Getenv("FAKE_BAZEL_FAIL") == cmd {
		fmt.Fprintf(os.Stderr, "ERROR: Skipping '//nope': no such package 'nope'\nINFO: Elapsed time: 0.1s\n")
		os.Exit(1)
	}
	if os.Getenv("FAKE_BAZEL_GARBAGE") == cmd {
		fmt.Println("this is not what you were looking for")
		os.Exit(0)
	}
	switch cmd {
	case "info":
		if args[len(args)-1] == "output_base" {
			fmt.Println(os.Getenv("FAKE_BAZEL_OUTPUT_BASE")) // the one key: its value alone
			break
		}
		fmt.Printf("bazel-bin: /tmp/x/bin\noutput_base: %s\nrelease: release 4.2.3\n", os.Getenv("FAKE_BAZEL_OUTPUT_BASE"))
	case "aquery":
		if args[len(args)-1] == "set()" {
			break
		}
		data, err := os.ReadFile(os.Getenv("FAKE_BAZEL_DUMP"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write(data)
		if os.Getenv("FAKE_BAZEL_KEEP_GOING") != "" {
			// --keep_going: the graph of what analysed, and exit 1.
			// As Bazel 4.2.3 says it: the target is named only on the
			// line that continues the error, and in the warning.
			fmt.Fprintf(os.Stderr, "ERROR: /ws/broken/BUILD:1:8: no such package 'nope': BUILD file not found in any of the following directories.\n - /ws/nope and referenced by '//broken:lib'\nWARNING: errors encountered while analyzing target '//broken:lib': it will not be built\nINFO: Analysis succeeded for only 1 of 2 top-level targets\nINFO: Elapsed time: 0.3s\n")
			os.Exit(1)
		}
	case "config":
		if !slices.Contains(args, "--dump_all") || !slices.Contains(args, "--output=json") {
			fmt.Fprintln(os.Stderr, "fake bazel: config without --dump_all --output=json")
			os.Exit(2)
		}
		config := func(hash string, host bool, actionEnv, testEnv string) string {
			return fmt.Sprintf(`{"configHash":%q,"isHost":%v,"fragmentOptions":[{"name":"com.google.devtools.build.lib.analysis.config.CoreOptions","options":{"action_env":%q,"compilation_mode":"fastbuild"}},{"name":"com.google.devtools.build.lib.analysis.test.TestConfiguration$TestOptions","options":{"test_env":%q}}]}`,
				hash, host, "["+actionEnv+"]", "["+testEnv+"]")
		}
		fmt.Printf("[%s,%s,%s]\n",
			config("1a5556d0f344dad367ead1e3cf4335760edb448374e0eb758b7b32c8393e8b65", true, "", ""),
			config("f5527a63a4773d9b4b1610a7539d7f704d66ef0ec083a237f84c700208babeed", false, os.Getenv("FAKE_BAZEL_ACTION_ENV"), os.Getenv("FAKE_BAZEL_TEST_ENV")),
			config("5bc5f5a9f2eb0cdf1c1b1ad7e1d66e1ae6a0c3d5b1b1f1c5a33a4f7b2b0f6e0a", false, "USER=null", ""))
	case "query":
		os.Exit(fakeQuery(args))
	default:
		fmt.Fprintf(os.Stderr, "fake bazel: unknown command %q\n", cmd)
		os.Exit(2)
	}
	os.Exit(0)
}

// fakeQuery answers `query --output=location --query_file=F` and returns
// the exit code.
func fakeQuery(args []string) int {
	var expr []byte
	for _, a := range args {
		if file, ok := strings.CutPrefix(a, "--query_file="); ok {
			var err error
			if expr, err = os.ReadFile(file); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
		}
	}
	missing := strings.Split(os.Getenv("FAKE_BAZEL_QUERY_MISSING"), ",")
	code := 0
	// set("//a:b" "@r//c:d" ...): every other piece between quotes.
	for i, label := range strings.Split(string(expr), `"`) {
		if i%2 == 0 {
			continue
		}
		if slices.Contains(missing, label) {
			fmt.Fprintf(os.Stderr, "ERROR: no such target '%s'\n", label)
			code = 3
			continue
		}
		repo, rest, _ := strings.Cut(label, "//")
		pkg, _, _ := strings.Cut(rest, ":")
		file := "BUILD.bazel"
		if repo != "" {
			file = "BUILD"
		}
		if pkg != "" {
			file = pkg + "/" + file
		}
		fmt.Printf("%s:%d:1: genrule rule %s\n", file, 9+(i+1)/2, label)
	}
	return code
}

func envOr(k string) string {
	if v, ok := os.LookupEnv(k); ok {
		return v
	}
	return "<unset>"
}
