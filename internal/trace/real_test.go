package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/cli"
	"github.com/ahab-go/ahab/internal/testenv"
	"github.com/ahab-go/ahab/internal/trace"
)

var record = flag.Bool("record", false, "TestTraceRealBuild: re-record the excerpts in testdata/recorded from the build")

// requireTools runs the test only where slow tests run and Bazel and
// strace exist (internal/testenv).
func requireTools(t *testing.T) {
	t.Helper()
	testenv.Slow(t, "runs the real Bazel under strace", "bazel", "strace")
}

// extractWorkspace writes testdata/workspace.txtar into a temporary
// directory, replacing @TMP@ with it, and returns that directory.
func extractWorkspace(t *testing.T) string {
	t.Helper()
	archive, err := txtar.ParseFile(filepath.Join("testdata", "workspace.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range archive.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(f.Name, ".sh") {
			mode = 0o755
		}
		data := bytes.ReplaceAll(f.Data, []byte("@TMP@"), []byte(tmp))
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// bazelEnv is the environment without what would confuse a nested Bazel or
// tie it to the machine's home: a test runner's TEST_* and RUNFILES_*, an
// enclosing `bazel run`'s directories, HOME and XDG_CACHE_HOME.
func bazelEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(key, "TEST_"), strings.HasPrefix(key, "RUNFILES_"),
			key == "BUILD_WORKSPACE_DIRECTORY", key == "BUILD_WORKING_DIRECTORY",
			key == "HOME", key == "XDG_CACHE_HOME", key == "TMPDIR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home)
}

// jsonReport is the report as --write-json writes it (docs/trace.md).
type jsonReport struct {
	Actions  []jsonAction `json:"actions"`
	Baseline []struct {
		Path    string `json:"path"`
		Rule    string `json:"rule"`
		Actions int    `json:"actions"`
	} `json:"baseline"`
	Untraced []struct {
		Target string `json:"target"`
	} `json:"untraced"`
}

type jsonAction struct {
	Target     string   `json:"target"`
	Mnemonic   string   `json:"mnemonic"`
	Outputs    []string `json:"outputs"`
	Undeclared []struct {
		Path  string `json:"path"`
		Class string `json:"class"`
	} `json:"undeclared"`
	Causes []struct {
		Kind string `json:"kind"`
		Path string `json:"path"`
	} `json:"causes"`
}

// truth is one row of the ground truth: the action (by target, mnemonic
// and the end of one of its outputs), what it must be reported to read
// (path and class), for the genrule that compiles, where else its reports
// may point, and the kinds of its static findings (each with its path, for
// an absolute_path), in report order.
type truth struct {
	target, mnemonic, output string
	undeclared               map[string]string
	alsoUnder                string
	causes                   []string
}

// Every genrule runs bash from the host, and the C++ rules the host's gcc.
var groundTruth = []truth{
	{"//pkg:ws_leak", "Genrule", "pkg/ws_leak.txt", map[string]string{"pkg/secret.txt": "workspace_file"}, "", []string{"system_program"}},
	{"//pkg:host_leak", "Genrule", "pkg/host_leak.txt", map[string]string{"/etc/os-release": "host_file"}, "",
		// /etc/os-release names the machine's system: a variation_source.
		[]string{"absolute_path /etc/os-release", "system_program", "variation_source"}},
	{"//pkg:walk_up", "Genrule", "pkg/walk_up.txt", map[string]string{".walkrc": "workspace_file"}, "", []string{"system_program"}},
	{"//pkg:glob", "Genrule", "pkg/glob.txt", map[string]string{"pkg/data": "directory_listing"}, "", []string{"system_program"}},
	{"//pkg:list_up", "Genrule", "pkg/list_up.txt", map[string]string{
		"..":       "directory_listing",
		"../..":    "directory_listing",
		"../../..": "directory_listing",
	}, "", []string{"system_program"}},
	{"//pkg:gcc_hdr", "Genrule", "pkg/use.o", map[string]string{
		"pkg/hidden/hidden.h":  "workspace_file",
		"/usr/include/stdio.h": "host_file",
	}, "/usr/include/", []string{"system_program"}},
	{"//pkg:honest", "Genrule", "pkg/honest.txt", nil, "", []string{"system_program"}},
	// The tool is a script of the workspace, which no spec describes and
	// Ahab reads: it cats a data file, which varies in nothing.
	{"//pkg:with_tool", "Genrule", "pkg/with_tool.txt", nil, "", []string{"system_program"}},
	{"//pkg:lib", "CppCompile", "pkg/_objs/lib/lib.pic.o", nil, "", []string{"system_program"}},
	{"//pkg:lib", "CppLink", "pkg/liblib.a", nil, "", []string{"system_program"}},
	{"//pkg:lib", "CppLink", "pkg/liblib.so", nil, "", []string{"system_program"}},
	{"//pkg:bin", "CppCompile", "pkg/_objs/bin/main.pic.o", nil, "", []string{"system_program"}},
	{"//pkg:bin", "CppLink", "pkg/bin", nil, "", []string{"system_program"}},
}

// TestTraceRealBuild runs `ahab trace //pkg:all` on testdata/workspace.txtar
// with the real Bazel under strace, as a user would, and checks every row
// of the ground truth against the JSON report; then that nothing is left
// running or on disk.
func TestTraceRealBuild(t *testing.T) {
	requireTools(t)
	tmp := extractWorkspace(t)
	ws := filepath.Join(tmp, "ws")
	home := filepath.Join(tmp, "home")
	scratch := filepath.Join(tmp, "scratch")
	keep := filepath.Join(tmp, "keep")
	for _, d := range []string{home, scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The scratch directory comes from os.TempDir, which reads TMPDIR.
	t.Setenv("TMPDIR", scratch)
	env := bazelEnv(home)
	var stdout, stderr bytes.Buffer
	sys := cli.System{
		Stdout: &stdout,
		Stderr: &stderr,
		LookupEnv: func(k string) (string, bool) {
			if k == "BUILD_WORKING_DIRECTORY" {
				return ws, true
			}
			for _, kv := range env {
				if key, v, _ := strings.Cut(kv, "="); key == k {
					return v, true
				}
			}
			return "", false
		},
		Environ: func() []string { return env },
	}
	reportPath := filepath.Join(tmp, "trace.json")
	code := cli.Main([]string{"trace", "--write-json", reportPath, "--keep-trace", keep, "//pkg:all"}, sys)
	t.Logf("ahab trace: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	if code != cli.ExitFindings {
		t.Fatalf("exit %d, expected %d: the workspace has undeclared reads", code, cli.ExitFindings)
	}
	data, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", reportPath, err)
	}

	t.Run("ground_truth", func(t *testing.T) {
		matched := make([]bool, len(r.Actions))
		for _, row := range groundTruth {
			i := slices.IndexFunc(r.Actions, func(a jsonAction) bool {
				return a.Target == row.target && a.Mnemonic == row.mnemonic &&
					slices.ContainsFunc(a.Outputs, func(o string) bool { return strings.HasSuffix(o, "/"+row.output) })
			})
			if i < 0 {
				t.Errorf("%s %s (%s): not among the traced actions", row.target, row.mnemonic, row.output)
				continue
			}
			matched[i] = true
			a := r.Actions[i]
			got := map[string]string{}
			for _, u := range a.Undeclared {
				got[u.Path] = u.Class
			}
			for p, class := range row.undeclared {
				if got[p] != class {
					t.Errorf("%s %s: %s reported as %q, expected %s", row.target, row.mnemonic, p, got[p], class)
				}
			}
			for p, class := range got {
				if _, planted := row.undeclared[p]; planted {
					continue
				}
				if row.alsoUnder != "" && strings.HasPrefix(p, row.alsoUnder) && class == "host_file" {
					continue
				}
				t.Errorf("%s %s: unexpected %s %s (beyond the baseline, for an action that does not read it)", row.target, row.mnemonic, class, p)
			}
			var causes []string
			for _, c := range a.Causes {
				if c.Kind == "absolute_path" {
					causes = append(causes, c.Kind+" "+c.Path)
				} else {
					causes = append(causes, c.Kind)
				}
			}
			if !slices.Equal(causes, row.causes) {
				t.Errorf("%s %s: static findings %q, expected %q", row.target, row.mnemonic, causes, row.causes)
			}
		}
		for i, ok := range matched {
			if !ok {
				a := r.Actions[i]
				t.Errorf("%s %s %v: traced, but not in the ground truth", a.Target, a.Mnemonic, a.Outputs)
			}
		}
		if len(r.Untraced) > 0 {
			t.Errorf("untraced actions: %v, expected every spawn to be found in the trace", r.Untraced)
		}
	})

	t.Run("baseline", func(t *testing.T) {
		// The C++ toolchain declares /usr/include: the compile of main.c reads
		// stdio.h as baseline, while the genrule's gcc reads it undeclared.
		rules := map[string]string{}
		for _, b := range r.Baseline {
			rules[b.Path] = b.Rule
		}
		for p, rule := range map[string]string{
			"/usr/include/stdio.h": "toolchain",
			"/etc/ld.so.cache":     "loader",
			"/bin/bash":            "program",
		} {
			if rules[p] != rule {
				t.Errorf("baseline: %s has rule %q, expected %q", p, rules[p], rule)
			}
		}
		// bash reads the user database when it starts, on Debian at least.
		if rule, ok := rules["/etc/passwd"]; ok && rule != "shell" {
			t.Errorf("baseline: /etc/passwd has rule %q, expected shell", rule)
		}
	})

	t.Run("text_report", func(t *testing.T) {
		for _, want := range []string{
			"//pkg:ws_leak Genrule → bazel-out/k8-fastbuild/bin/pkg/ws_leak.txt\n  workspace_file     pkg/secret.txt\n",
			"//pkg:host_leak Genrule → bazel-out/k8-fastbuild/bin/pkg/host_leak.txt\n  host_file          /etc/os-release\n",
			"13 actions traced; 6 read paths they had not declared",
			"  host_file          /etc/os-release\n  static: hermeticity violation [absolute_path]: Genrule action for target //pkg:host_leak references absolute path \"/etc/os-release\" in an argument: ",
			"The static analysis (bazel aquery deps(//pkg:all)) also has findings for 6 of them; for 0, only the trace shows a problem.\n",
		} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("the text report on stdout lacks %q", want)
			}
		}
	})

	t.Run("kept_trace", func(t *testing.T) {
		for _, name := range []string{"strace.txt", "execution_log.binpb"} {
			if st, err := os.Stat(filepath.Join(keep, name)); err != nil || st.Size() == 0 {
				t.Errorf("--keep-trace: %s: %v, expected a non-empty file", name, err)
			}
		}
	})

	t.Run("nothing_left", func(t *testing.T) {
		if names := dirNames(t, scratch); len(names) > 0 {
			t.Errorf("%s holds %v after the trace, expected nothing", scratch, names)
		}
		if names := dirNames(t, home); len(names) > 0 {
			t.Errorf("HOME (%s) holds %v after the trace, expected nothing: Bazel used the user's output root", home, names)
		}
		if procs := processesUsing(scratch); len(procs) > 0 {
			t.Errorf("processes still running in the scratch directory: %v", procs)
		}
	})

	if *record {
		recordExcerpts(t, keep, tmp)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// processesUsing lists the processes whose command line or working
// directory mentions dir.
func processesUsing(dir string) []string {
	var found []string
	pids, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range pids {
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
		if bytes.Contains(cmdline, []byte(dir)) || strings.HasPrefix(cwd, dir) {
			found = append(found, filepath.Base(p)+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
	}
	return found
}

// TestTraceInterrupted sends the test process a SIGINT, as Ctrl-C would,
// while the traced build runs: Run must stop Bazel and strace, remove its
// scratch directory and return a *StoppedError.
func TestTraceInterrupted(t *testing.T) {
	requireTools(t)
	tmp := extractWorkspace(t)
	scratch := filepath.Join(tmp, "scratch")
	home := filepath.Join(tmp, "home")
	for _, d := range []string{home, scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := trace.Run(context.Background(), trace.Options{
			Labels:  []string{"//pkg:all"},
			Dir:     filepath.Join(tmp, "ws"),
			Env:     bazelEnv(home),
			TempDir: scratch,
		})
		done <- err
	}()
	// Once Bazel runs something through its process-wrapper (the C++
	// toolchain's configuration runs gcc early on), its server is up and
	// has children of its own to stop.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		traces, _ := filepath.Glob(filepath.Join(scratch, "ahab-trace-*", "strace.txt"))
		if len(traces) == 1 {
			if data, err := os.ReadFile(traces[0]); err == nil && bytes.Contains(data, []byte(`process-wrapper", [`)) {
				break
			}
		}
		select {
		case err := <-done:
			t.Fatalf("Run ended before it could be interrupted: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("Bazel ran nothing through its process-wrapper in 2 minutes")
		}
	}
	start := time.Now()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := <-done
	t.Logf("Run returned %v after %s", err, time.Since(start).Round(time.Millisecond))
	var stopped *trace.StoppedError
	if !errors.As(err, &stopped) {
		t.Fatalf("error %v, want a *StoppedError", err)
	}
	if names := dirNames(t, scratch); len(names) > 0 {
		t.Errorf("%s holds %v after the interrupt, expected nothing", scratch, names)
	}
	if procs := processesUsing(scratch); len(procs) > 0 {
		t.Errorf("processes still running in the scratch directory: %v", procs)
	}
}

// TestTraceStoppedDuringAHangingAction stops `ahab trace` with SIGTERM (a
// CI's timeout) and with SIGINT while an action hangs, ignoring both, in
// the session Bazel's process-wrapper made for it: the build's whole
// process tree must go, the action with it, and the scratch directory.
func TestTraceStoppedDuringAHangingAction(t *testing.T) {
	requireTools(t)
	for _, tc := range []struct {
		name   string
		signal syscall.Signal
		want   error
	}{
		{"sigterm", syscall.SIGTERM, bazel.ErrTerminated},
		{"sigint", syscall.SIGINT, bazel.ErrInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := extractWorkspace(t)
			scratch, home := filepath.Join(tmp, "scratch"), filepath.Join(tmp, "home")
			for _, d := range []string{home, scratch, filepath.Join(tmp, "ws", "hang")} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			build := `genrule(
    name = "hang",
    outs = ["hang.txt"],
    cmd = "trap '' TERM INT; sleep 600 & echo $$! > ` + tmp + `/sleep.pid; echo $$$$ > ` + tmp + `/hang.pid; wait; touch $@",
    tags = ["no-cache"],
)
`
			if err := os.WriteFile(filepath.Join(tmp, "ws", "hang", "BUILD"), []byte(build), 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := trace.Run(context.Background(), trace.Options{
					Labels:  []string{"//hang"},
					Dir:     filepath.Join(tmp, "ws"),
					Env:     bazelEnv(home),
					TempDir: scratch,
					Grace:   2 * time.Second,
				})
				done <- err
			}()
			var pids []int
			for deadline := time.Now().Add(3 * time.Minute); len(pids) < 2; time.Sleep(50 * time.Millisecond) {
				pids = pids[:0]
				for _, f := range []string{"hang.pid", "sleep.pid"} {
					if b, err := os.ReadFile(filepath.Join(tmp, f)); err == nil {
						if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
							pids = append(pids, pid)
						}
					}
				}
				select {
				case err := <-done:
					t.Fatalf("the trace ended before the action hung: %v", err)
				default:
				}
				if time.Now().After(deadline) {
					t.Fatal("the action did not start in 3 minutes")
				}
			}
			if err := syscall.Kill(os.Getpid(), tc.signal); err != nil {
				t.Fatal(err)
			}
			err := <-done
			var stopped *trace.StoppedError
			if !errors.As(err, &stopped) || !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want a *StoppedError for %v", err, tc.want)
			}
			for _, pid := range pids {
				if stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && !strings.Contains(string(stat), ") Z ") {
					t.Errorf("process %d of the hanging action still runs: %s", pid, stat)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if names := dirNames(t, scratch); len(names) > 0 {
				t.Errorf("%s holds %v after the trace was stopped, expected nothing", scratch, names)
			}
			if procs := processesUsing(scratch); len(procs) > 0 {
				t.Errorf("processes still running in the scratch directory: %v", procs)
			}
		})
	}
}
