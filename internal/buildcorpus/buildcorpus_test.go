package buildcorpus

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

// The workspaces testdata/builds/README.md describes.
var workspaces = []string{"account", "cascade", "cc", "channels", "env", "heldout2", "heldout3", "packaging", "rulesets", "rulesets_pkg06", "shell"}

func TestNames(t *testing.T) {
	names, err := Names()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, workspaces) {
		t.Errorf("Names() = %q, expected %q", names, workspaces)
	}
}

// TestLoad loads every workspace: all its files exist and its truth table
// parses (rows sorted, each output once, verdicts valid).
func TestLoad(t *testing.T) {
	for _, name := range workspaces {
		t.Run(name, func(t *testing.T) {
			c, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Truth) < 10 || len(c.Truth) > 250 {
				t.Errorf("%d spawns, expected a small workspace (10 to 250)", len(c.Truth))
			}
			// The files are committed: 300 KiB, or 3 KiB a spawn for the
			// larger workspaces (Bazel's JSON log takes about 2 KiB a spawn).
			limit := max(300<<10, int64(len(c.Truth))*3<<10)
			for _, p := range []string{c.OldLog, c.NewLog, c.OldBinlog, c.NewBinlog, c.Aquery} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Size() == 0 || fi.Size() > limit {
					t.Errorf("%s: %d bytes, expected a file of at most %d KiB (they are committed)", p, fi.Size(), limit>>10)
				}
			}
			command, err := os.ReadFile(c.Command)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(command), "bazel-bootstrap 4.2.3") {
				t.Errorf("%s does not name the Bazel it was made with (bazel-bootstrap 4.2.3)", c.Command)
			}
			for _, r := range c.Truth {
				if r.Verdict == Identical && r.Cause != "none" || r.Verdict != Identical && r.Cause == "none" {
					t.Errorf("%s: verdict %s with cause %q: only identical spawns have cause none", r.Output, r.Verdict, r.Cause)
				}
				if r.Cause == "?" {
					t.Errorf("%s: cause \"?\": a row truth.py added that nobody reviewed", r.Output)
				}
			}
		})
	}
}

// TestTruthMatchesLogs recomputes every verdict from the committed logs and
// compares it with the committed truth table.
func TestTruthMatchesLogs(t *testing.T) {
	for _, name := range workspaces {
		t.Run(name, func(t *testing.T) {
			c, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := verdicts(c.OldLog, c.NewLog)
			if err != nil {
				t.Fatal(err)
			}
			compareTruth(t, c.Truth, got, nil)
			for _, logs := range [][2]string{{c.OldLog, c.OldBinlog}, {c.NewLog, c.NewBinlog}} {
				spawns, err := readLog(logs[0])
				if err != nil {
					t.Fatal(err)
				}
				n, err := countMessages(logs[1])
				if err != nil {
					t.Fatal(err)
				}
				if n != len(spawns) {
					t.Errorf("%s has %d spawns, %s %d: expected the same build", logs[1], n, logs[0], len(spawns))
				}
			}
		})
	}
}

// compareTruth reports every difference between a truth table and computed
// verdicts; rows for which excuse returns a reason may differ.
func compareTruth(t *testing.T, truth []Row, got map[string]computed, excuse func(Row) string) {
	t.Helper()
	for _, r := range truth {
		g, ok := got[r.Output]
		switch {
		case !ok:
			t.Errorf("%s: in truth.tsv, but no spawn in the logs writes it", r.Output)
		case g.Mnemonic != r.Mnemonic:
			t.Errorf("%s: mnemonic %s in truth.tsv, %s in the logs", r.Output, r.Mnemonic, g.Mnemonic)
		case g.Verdict != r.Verdict:
			if why := excuse; why != nil && why(r) != "" {
				t.Logf("%s: %s in truth.tsv, %s now: %s", r.Output, r.Verdict, g.Verdict, why(r))
				break
			}
			t.Errorf("%s: %s in truth.tsv, the logs give %s", r.Output, r.Verdict, g.Verdict)
		}
		delete(got, r.Output)
	}
	for output, g := range got {
		t.Errorf("%s: a %s spawn (%s) with no row in truth.tsv", output, g.Mnemonic, g.Verdict)
	}
}

func TestRow(t *testing.T) {
	c := Corpus{Truth: []Row{{Output: "a"}, {Output: "b", Verdict: Downstream}, {Output: "c"}}}
	if r, ok := c.Row("b"); !ok || r.Verdict != Downstream {
		t.Errorf(`Row("b") = %v, %v, expected the second row`, r, ok)
	}
	if r, ok := c.Row("bb"); ok {
		t.Errorf(`Row("bb") = %v, expected none`, r)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, name := range []string{"", "..", "../builds", "stubs", "no-such-workspace"} {
		if _, err := Load(name); err == nil {
			t.Errorf("Load(%q) succeeded, expected an error", name)
		}
	}
}

func TestParseTruth(t *testing.T) {
	const head = "output\ttarget\tmnemonic\tverdict\tcause\tnote\n"
	for _, tc := range []struct {
		name, text string
		rows       int
		line       int    // of the error; 0 when none is expected
		message    string // in the error
	}{
		{name: "header_only", text: head},
		{name: "rows", text: head + "a\t//p:a\tGenrule\tidentical\tnone\t\nb\t//p:b\tGenrule\tnondeterministic\tclock\tdate\n", rows: 2},
		{name: "no_final_newline", text: head + "a\t//p:a\tGenrule\tabsorbed\tclock\t", rows: 1},
		{name: "empty", text: "", line: 1, message: "empty file"},
		{name: "bad_header", text: "output\ttarget\n", line: 1, message: "header"},
		{name: "too_few_fields", text: head + "a\t//p:a\tGenrule\tidentical\tnone\n", line: 2, message: "5 fields, expected 6"},
		{name: "too_many_fields", text: head + "a\t//p:a\tGenrule\tidentical\tnone\t\t\n", line: 2, message: "7 fields"},
		{name: "empty_cause", text: head + "a\t//p:a\tGenrule\tidentical\t\t\n", line: 2, message: "empty cause"},
		{name: "unknown_verdict", text: head + "a\t//p:a\tGenrule\tflaky\tnone\t\n", line: 2, message: `unknown verdict "flaky", expected one of: command_changed,`},
		{name: "unsorted", text: head + "b\t//p:b\tGenrule\tidentical\tnone\t\na\t//p:a\tGenrule\tidentical\tnone\t\n", line: 3, message: "sorted"},
		{name: "repeated", text: head + "a\t//p:a\tGenrule\tidentical\tnone\t\na\t//p:a\tGenrule\tidentical\tnone\t\n", line: 3, message: "each output once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := parseTruth("truth.tsv", strings.NewReader(tc.text))
			if tc.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) != tc.rows {
					t.Errorf("%d rows, expected %d", len(rows), tc.rows)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, expected a *FileError", err)
			}
			if fe.Path != "truth.tsv" || fe.Line != tc.line || !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q, expected line %d of truth.tsv and %q", err, tc.line, tc.message)
			}
		})
	}
}

func FuzzParseTruth(f *testing.F) {
	for _, name := range workspaces {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "builds", name, "truth.tsv"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data[:min(len(data), 600)]))
	}
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := parseTruth("truth.tsv", strings.NewReader(text))
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("error %v, expected a *FileError with a line", err)
			}
			return
		}
		for i, r := range rows {
			if !slices.Contains(Verdicts, r.Verdict) || r.Output == "" || i > 0 && rows[i-1].Output >= r.Output {
				t.Fatalf("row %d (%+v) accepted, expected a sorted row with a valid verdict", i, r)
			}
		}
	})
}

// TestRebuild builds the cascade workspace twice with build-twice.sh and the
// real Bazel, and requires the verdicts of its truth table. It takes about
// half a minute: BUILD_TWICE_GAP=2 skips the wait that only `ls -l` in the
// shell workspace needs. Rows whose cause is the host name, the account or
// the CPUs may come out identical where build-twice.sh cannot vary them
// (no `unshare --uts`, not root, no taskset); command.txt says which.
func TestRebuild(t *testing.T) {
	testenv.Slow(t, "builds a workspace twice with the real Bazel", "bazel")
	c, err := Load("cascade")
	if err != nil {
		t.Fatal(err)
	}
	root, err := dir()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "build-twice.sh"), c.Workspace, filepath.Join(out, "cascade"))
	cmd.Env = append(os.Environ(), "BUILD_TWICE_GAP=2", "BUILD_TWICE_KEEP=")
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build-twice.sh: %v\n%s", err, output)
	}
	command, err := os.ReadFile(filepath.Join(out, "cascade", "command.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sameHost := strings.Contains(string(command), "unshare --uts failed")
	sameUser := strings.Contains(string(command), "the account was not varied")
	sameCPUs := strings.Contains(string(command), "the CPUs were not varied")
	got, err := verdicts(filepath.Join(out, "cascade", "old.json"), filepath.Join(out, "cascade", "new.json"))
	if err != nil {
		t.Fatal(err)
	}
	compareTruth(t, c.Truth, got, func(r Row) string {
		switch {
		case sameHost && r.Cause == "hostname":
			return "the host name could not be varied here"
		case sameUser && (r.Cause == "user" || r.Cause == "owner"):
			return "the account could not be varied here"
		case sameCPUs && r.Cause == "cpus":
			return "the CPUs could not be varied here"
		}
		return ""
	})
}
