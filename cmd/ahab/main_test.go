package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ahab-go/ahab/internal/cli"
	"github.com/ahab-go/ahab/internal/sarifschema"
)

var update = flag.Bool("update", false, "rewrite the scripts' golden files (review the diff like code)")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ahab":  main,
		"bazel": fakeBazel,
	})
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
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("CONFORMANCE", filepath.Join(root, "testdata", "conformance"))
			env.Setenv("BUILDS", filepath.Join(root, "testdata", "builds"))
			env.Setenv("FAKE_BAZEL_LOG", filepath.Join(env.WorkDir, "bazel.log"))
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
//   - info: prints output_base: $FAKE_BAZEL_OUTPUT_BASE (and other keys);
//   - aquery: copies $FAKE_BAZEL_DUMP to stdout, or nothing for `set()`;
//   - config: lists one configuration, and shows it with
//     action_env: [$FAKE_BAZEL_ACTION_ENV];
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
			fmt.Fprintf(os.Stderr, "ERROR: /ws/broken/BUILD:3:8: in cc_library rule //broken:lib: missing input file '//broken:gone.cc'\nWARNING: errors encountered while analyzing target '//broken:lib': it will not be built\nINFO: Elapsed time: 0.3s\n")
			os.Exit(1)
		}
	case "config":
		const id = "6e90e17ea7f256e25ba6cbd39f9028a32de863bcfc5c298943ee642cd98da496"
		if args[len(args)-1] == id {
			fmt.Printf("BuildConfiguration %s:\nFragment CoreOptions {\n  action_env: [%s]\n}\n", id, os.Getenv("FAKE_BAZEL_ACTION_ENV"))
			break
		}
		fmt.Printf("Available configurations:\n1a5556d0f344dad367ead1e3cf4335760edb448374e0eb758b7b32c8393e8b65 (host)\n%s\n", id)
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
