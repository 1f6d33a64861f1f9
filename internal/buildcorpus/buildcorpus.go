// Package buildcorpus loads testdata/builds: small Bazel workspaces that were
// really built twice, with the verdict the two builds gave each spawn. It is
// the ground truth that tests of `ahab diff` and of the shell analysis measure
// themselves against.
//
// Each workspace NAME has testdata/builds/NAME/ with the sources under
// workspace/, the two execution logs of build-twice.sh (old.json, new.json
// and their binary forms old.binlog, new.binlog), the aquery dump of the first
// copy (aquery.pb), how all of it was made (command.txt) and truth.tsv: one
// row per spawn with outputs, keyed by the first of the spawn's listedOutputs
// in the logs. testdata/builds/README.md says what each workspace shows.
package buildcorpus

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Verdict says how a spawn's two runs compare. The first verdict in this
// order whose condition holds applies.
type Verdict string

const (
	// CommandChanged: the argv differs.
	CommandChanged Verdict = "command_changed"
	// EnvironmentChanged: the environment differs.
	EnvironmentChanged Verdict = "environment_changed"
	// InputChanged: an input differs that no spawn produced (a source file,
	// a status file, a file Bazel wrote itself), by digest or by being in
	// one run only.
	InputChanged Verdict = "input_changed"
	// Downstream: only inputs that spawns produced differ, and the outputs
	// differ too.
	Downstream Verdict = "downstream"
	// Absorbed: only inputs that spawns produced differ, and the outputs are
	// identical.
	Absorbed Verdict = "absorbed"
	// Nondeterministic: command, environment and inputs are the same, the
	// outputs differ.
	Nondeterministic Verdict = "nondeterministic"
	// Identical: nothing differs.
	Identical Verdict = "identical"
)

// Verdicts lists every verdict, in the order of precedence above.
var Verdicts = []Verdict{CommandChanged, EnvironmentChanged, InputChanged, Downstream, Absorbed, Nondeterministic, Identical}

// A Row is one line of truth.tsv: one spawn with outputs.
type Row struct {
	Output   string // exec path of the first of the spawn's listedOutputs
	Target   string // label of the target the action belongs to
	Mnemonic string
	Verdict  Verdict
	Cause    string // short words: clock, random, mtime, debug-path, none, ...
	Note     string // free text; may be empty
}

// A Corpus is one workspace built twice. Paths are absolute.
type Corpus struct {
	Name      string
	Workspace string // the sources, as both builds started from them
	OldLog    string // first build's --execution_log_json_file
	NewLog    string // second build's
	OldBinlog string // first build's --execution_log_binary_file
	NewBinlog string // second build's
	Aquery    string // aquery --output=proto --include_param_files //... of the first copy
	Command   string // command.txt: the commands as run and the tools' versions
	Truth     []Row  // sorted by Output, one row per output
	// Outputs is outputs/, where `truth.py --keep` put both builds'
	// versions of the root causes' differing outputs, in old/ and new/ as
	// bazel-bin holds them, each with the ahab-build.json that describes
	// its build; "" when the workspace keeps none.
	Outputs string
}

// Row returns the truth row for the spawn whose first output is output.
func (c Corpus) Row(output string) (Row, bool) {
	i, ok := slices.BinarySearchFunc(c.Truth, output, func(r Row, output string) int { return strings.Compare(r.Output, output) })
	if !ok {
		return Row{}, false
	}
	return c.Truth[i], true
}

// Names lists the corpus's workspaces, sorted.
func Names() ([]string, error) {
	root, err := dir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(root, e.Name(), "truth.tsv")); e.IsDir() && err == nil {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Load returns the workspace called name, with its truth table parsed. It
// fails if any of the workspace's files is missing.
func Load(name string) (Corpus, error) {
	root, err := dir()
	if err != nil {
		return Corpus{}, err
	}
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return Corpus{}, fmt.Errorf("workspace name %q, expected a directory name under %s", name, root)
	}
	d := filepath.Join(root, name)
	c := Corpus{
		Name:      name,
		Workspace: filepath.Join(d, "workspace"),
		OldLog:    filepath.Join(d, "old.json"),
		NewLog:    filepath.Join(d, "new.json"),
		OldBinlog: filepath.Join(d, "old.binlog"),
		NewBinlog: filepath.Join(d, "new.binlog"),
		Aquery:    filepath.Join(d, "aquery.pb"),
		Command:   filepath.Join(d, "command.txt"),
	}
	for _, p := range []string{filepath.Join(c.Workspace, "WORKSPACE"), c.OldLog, c.NewLog, c.OldBinlog, c.NewBinlog, c.Aquery, c.Command} {
		if _, err := os.Stat(p); err != nil {
			return Corpus{}, fmt.Errorf("workspace %s: %w", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(d, "outputs", "old", "ahab-build.json")); err == nil {
		c.Outputs = filepath.Join(d, "outputs")
	}
	truth := filepath.Join(d, "truth.tsv")
	f, err := os.Open(truth)
	if err != nil {
		return Corpus{}, fmt.Errorf("workspace %s: %w", name, err)
	}
	defer f.Close()
	if c.Truth, err = parseTruth(truth, f); err != nil {
		return Corpus{}, err
	}
	return c, nil
}

// dir finds testdata/builds from the working directory, which `go test` sets
// to a package directory inside this module.
func dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.HasPrefix(data, []byte("module github.com/ahab-go/ahab\n")) {
			return filepath.Join(d, "testdata", "builds"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: not inside the module github.com/ahab-go/ahab, expected to run from its tests", wd)
		}
	}
}

// A FileError is a problem with a truth table. It renders as
// `<path>: line <n>: <what is wrong>`.
type FileError struct {
	Path string
	Line int // 1-based
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("%s: line %d: %v", e.Path, e.Line, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

// header is truth.tsv's first line.
var header = []string{"output", "target", "mnemonic", "verdict", "cause", "note"}

// parseTruth reads a truth table: a header line, then one tab-separated row
// per line, sorted by output with no output twice. Every field but note is
// required.
func parseTruth(path string, r io.Reader) ([]Row, error) {
	fail := func(line int, format string, args ...any) error {
		return &FileError{Path: path, Line: line, Err: fmt.Errorf(format, args...)}
	}
	sc := bufio.NewScanner(r)
	var rows []Row
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if !slices.Equal(fields, header) {
				return nil, fail(line, "header %q, expected %q", sc.Text(), strings.Join(header, "\t"))
			}
			continue
		}
		if len(fields) != len(header) {
			return nil, fail(line, "%d fields, expected %d: %s", len(fields), len(header), strings.Join(header, ", "))
		}
		row := Row{Output: fields[0], Target: fields[1], Mnemonic: fields[2], Verdict: Verdict(fields[3]), Cause: fields[4], Note: fields[5]}
		for i, v := range fields[:5] {
			if v == "" {
				return nil, fail(line, "empty %s, expected a value", header[i])
			}
		}
		if !slices.Contains(Verdicts, row.Verdict) {
			names := make([]string, len(Verdicts))
			for i, v := range Verdicts {
				names[i] = string(v)
			}
			return nil, fail(line, "unknown verdict %q, expected one of: %s", row.Verdict, strings.Join(names, ", "))
		}
		if n := len(rows); n > 0 && rows[n-1].Output >= row.Output {
			return nil, fail(line, "output %q after %q, expected rows sorted by output, each output once", row.Output, rows[n-1].Output)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, &FileError{Path: path, Line: line + 1, Err: err}
	}
	if line == 0 {
		return nil, fail(1, "empty file, expected the header %q", strings.Join(header, "\t"))
	}
	return rows, nil
}

// OfflineFlags are the flags Debian's Bazel 4.2.3 needs to build a corpus
// workspace without a network, as build-twice.sh passes them: stubs is a
// copy of testdata/builds/stubs (Stubs), which Bazel must be able to
// write beside.
func OfflineFlags(stubs string) []string {
	return []string{
		"--override_repository=rules_cc=" + filepath.Join(stubs, "rules_cc"),
		"--override_repository=remote_coverage_tools=" + filepath.Join(stubs, "remote_coverage_tools"),
		"--override_repository=platforms=/usr/share/bazel/tools/platforms",
		"--override_repository=bazel_skylib=/usr/share/bazel/tools/skylib",
		"--override_repository=rules_java=/usr/share/bazel/rules/java",
		"--spawn_strategy=standalone",
	}
}

// Stubs is the directory of the stub repositories the corpus builds with
// (testdata/builds/stubs).
func Stubs() (string, error) {
	root, err := dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "stubs"), nil
}
