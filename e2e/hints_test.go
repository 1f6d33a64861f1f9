package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ahab-go/ahab/internal/buildcorpus"
)

// hintRows are the findings whose hints TestHints follows: one per kind,
// per way a kind's hint differs (where the leaked value sits, which
// requirement, which alternative an absolute path's hint offers), and per
// value of the vocabulary a build commonly writes. Each row's workspace
// is testdata/hints/NAME.txtar (see followHint for its sections).
var hintRows = []struct {
	name string
	// finding is a part of the finding's sentence in the text report
	// (@MACHINE@ is the directory of the archive's machine/ files).
	finding string
	// args are ahab's flags on both runs, fixArgs those the hint adds.
	args, fixArgs []string
}{
	{name: "environment_leak_argument", finding: `[environment_leak]: USER leaked into an argument of Genrule action for target //app:banner:`},
	{name: "environment_leak_env_var", finding: `[environment_leak]: USER leaked into environment variable "BUILT_BY" of Stamp action for target //app:stamped:`},
	{name: "environment_leak_inherited", finding: `[environment_leak]: Genrule action for target //app:toolinfo inherits environment variable "CC"`},
	{name: "bad_path", finding: `[bad_path]: Genrule action for target //app:version sets PATH`},
	{name: "requires_network", finding: `[execution_requirement]: Genrule action for target //app:schema declares "requires-network"`},
	{name: "no_sandbox", finding: `[execution_requirement]: Genrule action for target //app:notice declares "no-sandbox"`},
	{name: "local", finding: `[execution_requirement]: Genrule action for target //app:notice declares "local"`},
	{name: "absolute_path_input", finding: `[absolute_path]: Genrule action for target //app:greeting references absolute path "@MACHINE@/share/greeting.txt"`},
	{name: "absolute_path_env_var", finding: `[absolute_path]: Genrule action for target //app:conf references absolute path "@MACHINE@/etc/app.conf" in environment variable "APP_CONF"`},
	{name: "absolute_path_declared", finding: `[absolute_path]: Render action for target //app:config references absolute path "/srv/app"`,
		args: []string{"--repro-specs=specs.json"}},
	{name: "absolute_path_declared_word", finding: `[absolute_path]: Render action for target //app:config references absolute path "/srv/app"`,
		args: []string{"--repro-specs=specs.json"}},
	{name: "absolute_path_deployed", finding: `[absolute_path]: Genrule action for target //app:unit references absolute path "/srv/app"`,
		fixArgs: []string{"--exceptions-json=exceptions.json"}},
	{name: "system_program_shell", finding: `[system_program]: Genrule action for target //app:hello runs program "/bin/bash"`,
		fixArgs: []string{"--exceptions-json=exceptions.json"}},
	{name: "system_program_tool", finding: `[system_program]: Install action for target //app:conf runs program "/usr/bin/install"`},
	{name: "host_derived_program", finding: `[host_derived_program]: Genrule action for target //app:compressed runs program "@host_gzip//wrapper"`,
		args: []string{"--repro-specs=specs.json"}},
	{name: "unknown_program_spec", finding: `[unknown_program]: Genrule action for target //app:generated runs program "//tools/gen"`,
		fixArgs: []string{"--repro-specs=specs.json"}},
	{name: "unknown_program_exception", finding: `[unknown_program]: Genrule action for target //app:generated runs program "//tools/gen"`,
		fixArgs: []string{"--exceptions-json=exceptions.json"}},
	{name: "never_reproducible", finding: `[never_reproducible]: Genrule action for target //app:generated runs program "//tools/gen"`,
		args: []string{"--repro-specs=specs.json"}, fixArgs: []string{"--exceptions-json=exceptions.json"}},
	{name: "workspace_status", finding: `[workspace_status]: Genrule action for target //app:version reads "bazel-out/stable-status.txt"`},
	{name: "conditional_reproducibility", finding: `[conditional_reproducibility]: Genrule action for target //app:bundle runs program "//tools/pack"`,
		args: []string{"--repro-specs=specs.json"}},
	{name: "clock_date", finding: `[variation_source]: Genrule action for target //app:today writes the time ("clock")`},
	{name: "clock_date_source_date_epoch", finding: `[variation_source]: Genrule action for target //app:today writes the time ("clock")`},
	{name: "clock_source_date_epoch", finding: `[variation_source]: Genrule action for target //app:stamp_object writes the time ("clock")`},
	{name: "random", finding: `[variation_source]: Genrule action for target //app:build_id writes a random number ("random")`},
	{name: "pid", finding: `[variation_source]: Genrule action for target //app:build_id writes a process id ("pid")`},
	{name: "pwd", finding: `[variation_source]: Genrule action for target //app:manifest writes the directory it runs in ("pwd")`},
	{name: "pwd_compiler", finding: `[variation_source]: Genrule action for target //app:debug_object writes the directory it runs in ("pwd")`},
	{name: "hostname", finding: `[variation_source]: Genrule action for target //app:banner writes the machine's name ("hostname")`},
	{name: "user", finding: `[variation_source]: Genrule action for target //app:banner writes the user's name ("user")`},
	{name: "owner", finding: `[variation_source]: Genrule action for target //app:docs writes files' owners ("owner")`},
	{name: "mode", finding: `[variation_source]: Genrule action for target //app:docs writes files' permissions ("mode")`},
	{name: "mtime", finding: `[variation_source]: Genrule action for target //app:docs writes files' modification times ("mtime")`},
	{name: "mtime_zip", finding: `[variation_source]: Genrule action for target //app:docs writes files' modification times ("mtime")`},
	{name: "order", finding: `[variation_source]: Genrule action for target //app:index writes the order a directory lists in ("order")`},
	{name: "hashseed", finding: `[variation_source]: Genrule action for target //app:features writes an order that follows a hash seed ("hashseed")`},
	{name: "tempname", finding: `[variation_source]: Genrule action for target //app:launcher writes a temporary file's random name ("tempname")`},
	{name: "cpus", finding: `[variation_source]: Genrule action for target //app:build_config writes the number of CPUs ("cpus")`},
	{name: "urandom", finding: `[variation_source]: Genrule action for target //app:build_id writes random bytes ("urandom")`},
	{name: "uname", finding: `[variation_source]: Genrule action for target //app:platform writes what the kernel says of itself ("uname")`},
	{name: "filemeta", finding: `[variation_source]: Genrule action for target //app:sizes writes what the file system says of files ("filemeta")`},
	{name: "environment", finding: `[variation_source]: Genrule action for target //app:build_env writes the environment ("environment")`},
	{name: "timezone", finding: `[variation_source]: Genrule action for target //app:epoch writes the machine's time zone ("timezone")`},
	{name: "locale", finding: `[variation_source]: Genrule action for target //app:locales writes the machine's locale ("locale")`},
	{name: "parallel", finding: `[variation_source]: Genrule action for target //app:combined writes the order concurrent jobs finish in ("parallel")`},
	{name: "inode", finding: `[variation_source]: Genrule action for target //app:initramfs writes files' inode numbers ("inode")`},
}

// TestHints follows the hint `ahab --hints` prints under each finding of
// hintRows the way a person would, literally, in a real workspace, then
// builds it with the real Bazel, which must pass, and runs ahab again,
// whose report must no longer have the finding (issue #24: "every hint,
// followed literally, makes its finding go away and the build still
// pass").
//
// The rows take turns in one workspace directory, so one Bazel server
// serves them all: each row's files replace the last row's. The build
// runs sandboxed, so a fix that leaves a file it reads undeclared fails.
func TestHints(t *testing.T) {
	requireBazel(t)
	start := time.Now()
	w := newHintWorkspace(t)
	for _, row := range hintRows {
		t.Run(row.name, func(t *testing.T) {
			w.followHint(t, row.name, strings.ReplaceAll(row.finding, "@MACHINE@", w.machine), row.args, row.fixArgs)
		})
	}
	t.Logf("the rows took %s", time.Since(start).Round(time.Second))
}

// hintWorkspace is the workspace the rows of TestHints take turns in.
type hintWorkspace struct {
	*workspace
	ahab    string // the binary built from this checkout
	machine string // where the rows' files of the machine are
	bazelrc string // the .bazelrc every row's starts with
}

func newHintWorkspace(t *testing.T) *hintWorkspace {
	t.Helper()
	tmp := t.TempDir()
	w := &hintWorkspace{
		workspace: &workspace{t: t, tmp: tmp, dir: filepath.Join(tmp, "ws"), home: filepath.Join(tmp, "home")},
		ahab:      filepath.Join(ahabBinDir(t), "ahab"),
		machine:   filepath.Join(tmp, "machine"),
	}
	committed, err := buildcorpus.Stubs()
	if err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(tmp, "stubs")
	if err := os.CopyFS(stubs, os.DirFS(committed)); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{w.dir, w.home, w.machine} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = append(bazelEnv(os.Environ()), "HOME="+w.home, "USER="+testUser, "HOSTNAME="+testHost)
	var rc strings.Builder
	rc.WriteString("# Debian's Bazel 4.2.3 offline, then sandboxed: a fix must declare what it reads.\nstartup --max_idle_secs=600\n")
	for _, flag := range buildcorpus.OfflineFlags(stubs) {
		rc.WriteString("build " + flag + "\n")
	}
	rc.WriteString("build --spawn_strategy=sandboxed\n")
	w.bazelrc = rc.String()
	// The server shuts down in a workspace: the last row's, or this one.
	if err := os.WriteFile(filepath.Join(w.dir, "WORKSPACE"), []byte(defaultWorkspace), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, ".bazelrc"), []byte(w.bazelrc), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close)
	return w
}

const defaultWorkspace = "workspace(name = \"hints\")\n"

// followHint runs one row: testdata/hints/NAME.txtar holds the workspace
// before the fix, its files after the fix under fix/ (replacing those of
// the same name), files of the machine under machine/, and in "hint" what
// the hint must say: each line must be in the hint printed under the
// finding; a line "+ TEXT" must also be in a file of the fix, and a line
// "- TEXT" in a file the fix replaces, before and not after, which is how
// the fix is held to what the hint says. In BUILD files $$ is read as
// Bazel reads it, $. A .bazelrc adds to the offline flags; a row without
// a WORKSPACE gets a bare one.
func (w *hintWorkspace) followHint(t *testing.T, name, finding string, args, fixArgs []string) {
	archive, err := txtar.ParseFile(filepath.Join("testdata", "hints", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	before, fix := map[string]string{}, map[string]string{}
	var said []string
	replacer := strings.NewReplacer("@MACHINE@", w.machine)
	for _, f := range archive.Files {
		data := replacer.Replace(string(f.Data))
		switch rest, isFix := strings.CutPrefix(f.Name, "fix/"); {
		case f.Name == "hint":
			said = strings.Split(strings.TrimSuffix(data, "\n"), "\n")
		case isFix:
			fix[rest] = data
		case strings.HasPrefix(f.Name, "machine/"):
			w.writeFile(t, filepath.Join(w.machine, strings.TrimPrefix(f.Name, "machine/")), data)
		default:
			before[f.Name] = data
		}
	}
	if len(said) == 0 || len(fix) == 0 {
		t.Fatalf("%s.txtar: no hint or no fix/ files, expected both", name)
	}
	if _, ok := before["WORKSPACE"]; !ok {
		before["WORKSPACE"] = defaultWorkspace
	}
	after := maps.Clone(before)
	maps.Copy(after, fix)

	// The hint, and whether the fix does what it says.
	w.reset(t, before)
	report := w.runAhab(t, append([]string{"//...", "--hints", "--no-fail"}, args...))
	hint := hintOf(t, report, finding, said)
	for _, line := range said {
		if text, ok := strings.CutPrefix(line, "+ "); ok && !anyContains(fix, text) {
			t.Errorf("the hint says %q, which no file of the fix has", text)
		}
		if text, ok := strings.CutPrefix(line, "- "); ok && !dropped(before, fix, text) {
			t.Errorf("the hint says to drop %q, which no file the fix replaces had before it", text)
		}
	}
	t.Logf("following: %s", hint)

	// Followed, the build passes and the finding is gone.
	w.reset(t, after)
	w.mustRun(t, 0, "", "build", "//...")
	report = w.runAhab(t, append(append([]string{"//...", "--hints", "--no-fail"}, args...), fixArgs...))
	for _, f := range parseHinted(report) {
		if strings.Contains(f.sentence, finding) {
			t.Errorf("the hint followed, ahab still reports: %s\n     fix: %s", f.sentence, f.fix)
		}
	}
}

// saidText is a line of a row's hint without its marker.
func saidText(line string) string {
	if text, ok := strings.CutPrefix(line, "+ "); ok {
		return text
	}
	if text, ok := strings.CutPrefix(line, "- "); ok {
		return text
	}
	return line
}

// dropped reports whether a file fix replaces had text before and has it
// no longer.
func dropped(before, fix map[string]string, text string) bool {
	for name, data := range fix {
		if fileContains(name, before[name], text) && !fileContains(name, data, text) {
			return true
		}
	}
	return false
}

// anyContains reports whether a file of files has text, BUILD files read
// with $$ as the $ Bazel makes of it.
func anyContains(files map[string]string, text string) bool {
	for name, data := range files {
		if fileContains(name, data, text) {
			return true
		}
	}
	return false
}

// fileContains reports whether the file name, holding data, has text.
func fileContains(name, data, text string) bool {
	if base := filepath.Base(name); base == "BUILD.bazel" || base == "BUILD" {
		data = strings.ReplaceAll(data, "$$", "$")
	}
	return strings.Contains(data, text)
}

// reset makes the workspace hold files and nothing else (Bazel's
// convenience links included), so that one row sees nothing of another.
func (w *hintWorkspace) reset(t *testing.T, files map[string]string) {
	t.Helper()
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(w.dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		if name == ".bazelrc" {
			data = w.bazelrc + data
		}
		w.writeFile(t, filepath.Join(w.dir, filepath.FromSlash(name)), data)
	}
	if _, ok := files[".bazelrc"]; !ok {
		w.writeFile(t, filepath.Join(w.dir, ".bazelrc"), w.bazelrc)
	}
}

func (w *hintWorkspace) writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := fs.FileMode(0o644)
	if strings.HasSuffix(path, ".sh") {
		mode = 0o755
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// runAhab runs the ahab binary in the workspace as a user would, in the
// environment Bazel gets, and returns its standard output.
func (w *hintWorkspace) runAhab(t *testing.T, args []string) string {
	t.Helper()
	cmd := exec.Command(w.ahab, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("ahab %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 40))
	}
	t.Logf("ahab %s: %s", strings.Join(args, " "), time.Since(start).Round(100*time.Millisecond))
	return stdout.String()
}

// hinted is a finding of the text report with the hint under it.
type hinted struct{ sentence, fix string }

// The lines of a finding and of its hint in the text report (§8.3).
var (
	findingLine = regexp.MustCompile(`^  \d+\. (?:×\d+ )?(.*)$`)
	fixLine     = regexp.MustCompile(`^     fix: (.*)$`)
)

func parseHinted(report string) []hinted {
	var found []hinted
	for _, line := range strings.Split(report, "\n") {
		if m := findingLine.FindStringSubmatch(line); m != nil {
			found = append(found, hinted{sentence: m[1]})
		} else if m := fixLine.FindStringSubmatch(line); m != nil && len(found) > 0 {
			found[len(found)-1].fix = m[1]
		}
	}
	return found
}

// hintOf returns the hint of the finding of report whose sentence has
// finding and whose hint says every line of said (without its marker).
func hintOf(t *testing.T, report, finding string, said []string) string {
	t.Helper()
	var matching []string
	for _, f := range parseHinted(report) {
		if !strings.Contains(f.sentence, finding) {
			continue
		}
		if !slices.ContainsFunc(said, func(line string) bool { return !strings.Contains(f.fix, saidText(line)) }) {
			return f.fix
		}
		matching = append(matching, fmt.Sprintf("%s\n     fix: %s", f.sentence, f.fix))
	}
	if len(matching) == 0 {
		t.Fatalf("no finding %q; ahab printed:\n%s", finding, report)
	}
	t.Fatalf("no hint of %q says all of %q:\n%s", finding, said, strings.Join(matching, "\n"))
	return ""
}
