package spawndiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// realLogs holds the real Bazel 4.2.3 logs of internal/execlog/testdata
// (see its README.md) in each format, compact converted from binary.
func realLogs(t *testing.T, build string) map[string][]byte {
	t.Helper()
	dir := filepath.Join("..", "execlog", "testdata")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	bin := read(build + ".binary")
	var compact bytes.Buffer
	w, err := protolog.NewCompact(&compact, protolog.CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := protolog.ReadBinary(bytes.NewReader(bin), w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"json": read(build + ".json"), "binary": bin, "compact": compact.Bytes()}
}

// load reads a log into a Log the way the integrator will: detecting the
// format, reusing spawns, sharing the Log's tables with the reader.
func load(t *testing.T, name string, data []byte) *Log {
	t.Helper()
	l := NewLog(name)
	if _, err := execlog.Summarize(bytes.NewReader(data), name, execlog.Options{}, l.Tables(), l.Add); err != nil {
		t.Fatal(err)
	}
	return l
}

// realVerdicts are what the two real builds give: the C++ spawns are
// identical, the rest diverge as tinyws.txtar says.
var realVerdicts = []string{
	"nondeterministic bazel-out/k8-fastbuild/bin/clock.txt",
	"only_new bazel-out/k8-fastbuild/bin/extra.txt",
	"environment_changed bazel-out/k8-fastbuild/bin/greeting.txt",
	"input_changed bazel-out/k8-fastbuild/bin/stamped.txt",
	"command_changed bazel-out/k8-fastbuild/bin/variant.txt",
	"input_changed bazel-out/k8-fastbuild/bin/version.out",
	"nondeterministic bazel-out/k8-fastbuild/bin/where.txt",
	"downstream bazel-out/k8-fastbuild/bin/clock_copy.txt <- bazel-out/k8-fastbuild/bin/clock.txt",
	"absorbed bazel-out/k8-fastbuild/bin/clock_len.txt <- bazel-out/k8-fastbuild/bin/clock.txt",
	"downstream bazel-out/k8-fastbuild/bin/shout.txt <- bazel-out/k8-fastbuild/bin/greeting.txt",
}

// The real builds diverge as the workspace was written to make them
// (tinyws.txtar), and every pairing of formats says so the same way.
func TestRealBuilds(t *testing.T) {
	a, b := realLogs(t, "a"), realLogs(t, "b")
	want := realVerdicts
	var first []byte
	for _, of := range []string{"json", "binary", "compact"} {
		for _, nf := range []string{"json", "binary", "compact"} {
			r := Diff(load(t, "a", a[of]), load(t, "b", b[nf]))
			if got := summary(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s against %s:\n%s\nexpected\n%s", of, nf, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if r.Count(Identical) != 5 {
				t.Errorf("%s against %s: %d identical, expected the 5 C++ spawns", of, nf, r.Count(Identical))
			}
			var buf bytes.Buffer
			if err := WriteJSON(&buf, r); err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = buf.Bytes()
			} else if !bytes.Equal(first, buf.Bytes()) {
				t.Errorf("%s against %s: the JSON report differs from json against json's", of, nf)
			}
		}
	}
	// Without shared tables, the same.
	alone := func(name string, data []byte) *Log {
		l := NewLog(name)
		if _, err := execlog.Read(bytes.NewReader(data), name, execlog.Options{}, l.AddSpawn); err != nil {
			t.Fatal(err)
		}
		return l
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, Diff(alone("a", a["compact"]), alone("b", b["compact"]))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), first) {
		t.Error("compact logs read without shared tables give another report")
	}
	// Both ways round, the roles swap.
	r := Diff(load(t, "b", b["binary"]), load(t, "a", a["binary"]))
	if r.Count(OnlyOld) != 1 || r.Count(OnlyNew) != 0 || r.Count(Downstream) != 2 {
		t.Errorf("b against a: counts %v", r.Counts)
	}
}

// The reports of the real builds, checked against reviewed goldens
// (regenerate with `go test ./internal/spawndiff -update` after
// make-logs.sh, and review the diff).
func TestGoldenReports(t *testing.T) {
	a, b := realLogs(t, "a"), realLogs(t, "b")
	r := Diff(load(t, "a.binary", a["binary"]), load(t, "b.binary", b["binary"]))
	var text, js bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(js.Bytes()) {
		t.Fatalf("the JSON report is not valid JSON:\n%s", js.String())
	}
	golden(t, "real.txt", text.Bytes())
	golden(t, "real.json", js.Bytes())
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", name), got, *update)
}

// Nothing from a log reaches the terminal raw: control characters in
// arguments, paths, names and values are escaped.
func TestTextEscapesControlCharacters(t *testing.T) {
	evil := "\x1b[2J\r\nowned"
	old := logOf(t, "old\x1b", sp("Gen"+evil, arg("echo "+evil), env("V"+evil, "1"), in("src/"+evil, "a"), out("out/"+evil, "1"), target("//"+evil)))
	new := logOf(t, "new", sp("Gen"+evil, arg("echo x"), env("V"+evil, "2"), in("src/"+evil, "b"), out("out/"+evil, "2"), target("//"+evil)),
		sp("Env"+evil, env("V"+evil, evil), out("e/"+evil, "1")),
		sp("Hash", out("h", evil)), sp("Link", symlink("l", evil), out("m", "1")))
	old.AddSpawn(sp("Hash", out("h", "x")))
	old.AddSpawn(sp("Link", symlink("l", "y"), out("m", "1")))
	r := Diff(old, new)
	var buf bytes.Buffer
	if err := WriteText(&buf, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if strings.ContainsAny(text, "\x1b\r") {
		t.Errorf("raw control characters in\n%q", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "owned") || strings.HasPrefix(line, "[2J") {
			t.Errorf("a log's newline started a line: %q", line)
		}
	}
	if !strings.Contains(text, `\u{1b}[2J\r\nowned`) {
		t.Errorf("expected the escaped form in\n%s", text)
	}
	// Colour is ours alone: with it on, every ESC starts one of our codes.
	buf.Reset()
	WriteText(&buf, r, TextOptions{Color: true})
	for _, part := range strings.Split(buf.String(), "\x1b")[1:] {
		if !strings.HasPrefix(part, "[0m") && !strings.HasPrefix(part, "[1m") && !strings.HasPrefix(part, "[2m") &&
			!strings.HasPrefix(part, "[33m") && !strings.HasPrefix(part, "[36m") {
			t.Errorf("unexpected escape %q", part[:min(len(part), 8)])
		}
	}
}

// AttachCauses puts the findings of the action with the same outputs
// beside each divergent action, names its target from the graph, and
// counts it as explained only by a finding that predicts a divergence.
func TestAttachCauses(t *testing.T) {
	r := Diff(
		logOf(t, "old", sp("Gen", out("bin/clock.txt", "1")), sp("Cp", out("bin/copy.txt", "1")), sp("Tar", out("bin/a.tar", "1"))),
		logOf(t, "new", sp("Gen", out("bin/clock.txt", "2")), sp("Cp", out("bin/copy.txt", "2")), sp("Tar", out("bin/a.tar", "2"))))
	clock := finding.Finding{Kind: finding.VariationSource, Action: finding.ActionRef{Mnemonic: "Genrule", Target: "//:clock"}, Variation: "clock", Command: "date"}
	bash := finding.Finding{Kind: finding.SystemProgram, Action: finding.ActionRef{Mnemonic: "Genrule", Target: "//:clock"},
		Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}, Wrappers: []program.ID{}}
	copyBash := bash
	copyBash.Action.Target = "//:copy"
	static := analyze.NewIndex([]analyze.ActionFindings{
		{Mnemonic: "Genrule", Target: "//:clock", Outputs: []string{"bin/clock.txt"}, Findings: []finding.Finding{bash, clock}},
		{Mnemonic: "Genrule", Target: "//:copy", Outputs: []string{"bin/other.txt", "bin/copy.txt"}, Findings: []finding.Finding{copyBash}},
	})
	r.AttachCauses("aquery.pb", static)

	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Static  map[string]any `json:"static"`
		Actions []struct {
			Outputs   []string         `json:"outputs"`
			Target    string           `json:"target"`
			Causes    []map[string]any `json:"causes"`
			Explained bool             `json:"explained"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"source": "aquery.pb", "root_causes": 3.0, "explained": 1.0}; !reflect.DeepEqual(doc.Static, want) {
		t.Errorf("static %v, want %v", doc.Static, want)
	}
	type got struct {
		target    string
		kinds     string
		explained bool
	}
	want := map[string]got{
		"bin/clock.txt": {"//:clock", "system_program variation_source", true},
		"bin/copy.txt":  {"//:copy", "system_program", false},
		"bin/a.tar":     {"", "", false},
	}
	for _, a := range doc.Actions {
		var kinds []string
		for _, c := range a.Causes {
			kinds = append(kinds, c["kind"].(string))
		}
		g := got{a.Target, strings.Join(kinds, " "), a.Explained}
		if w := want[a.Outputs[0]]; g != w {
			t.Errorf("%s: %+v, want %+v", a.Outputs[0], g, w)
		}
	}
	if c := doc.Actions[0].Causes; len(c) > 0 && c[0]["program"] == nil {
		t.Errorf("a cause is not in the report's format: %v", c[0])
	}

	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"the static analysis of aquery.pb predicts 1 of 3 root causes; 2 unexplained",
		"cause: reproducibility violation [variation_source]:",
		"no static cause: the analysis does not predict this divergence",
		"(and 1 finding that predicts no divergence",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text report lacks %q:\n%s", line, text.String())
		}
	}
}

// A root cause no finding predicts but whose action runs a program no spec
// describes is not said to have no static cause: the program is unknown, a
// cause nobody described, and the text, the summary and the JSON say so. A
// cause's evidence is shown under it.
func TestUnknownProgramCause(t *testing.T) {
	r := Diff(
		logOf(t, "old", sp("Render", out("bin/robots.txt", "1")), sp("Gen", out("bin/clock.txt", "1")), sp("Cp", out("bin/copy.txt", "1"))),
		logOf(t, "new", sp("Render", out("bin/robots.txt", "2")), sp("Gen", out("bin/clock.txt", "2")), sp("Cp", out("bin/copy.txt", "2"))))
	render := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "scripts/render"}
	unknown := finding.Finding{Kind: finding.UnknownProgram, Action: finding.ActionRef{Mnemonic: "Render", Target: "//web:robots_txt"}, Program: render}
	clock := finding.Finding{Kind: finding.VariationSource, Action: finding.ActionRef{Mnemonic: "Genrule", Target: "//:clock"}, Variation: "clock",
		Command: "python3 gen.py", Evidence: []finding.Evidence{{File: "gen.py", Line: 3, Text: "time.time() reaches the output"}}}
	alsoUnknown := unknown
	alsoUnknown.Action = clock.Action
	static := analyze.NewIndex([]analyze.ActionFindings{
		{Mnemonic: "Render", Target: "//web:robots_txt", Outputs: []string{"bin/robots.txt"}, Findings: []finding.Finding{unknown}},
		{Mnemonic: "Genrule", Target: "//:clock", Outputs: []string{"bin/clock.txt"}, Findings: []finding.Finding{clock, alsoUnknown}},
	})
	r.AttachCauses("aquery.pb", static)

	var text, summary, js bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	WriteSummary(&summary, r, TextOptions{})
	WriteJSON(&js, r)
	for _, line := range []string{
		"the static analysis of aquery.pb predicts 1 of 3 root causes; 2 unexplained, 1 of them running an unknown program",
		`     unknown program: reproducibility unknown [unknown_program]: Render action for target //web:robots_txt runs program "//scripts/render", which has no known reproducibility spec` + "\n",
		"     cause: reproducibility violation [variation_source]: Genrule action for target //:clock writes the time",
		"       evidence: gen.py:3: time.time() reaches the output\n",
		// The explained action's unknown program is one more finding.
		"(and 1 finding that predicts no divergence, in the JSON report)",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text report lacks %q:\n%s", line, text.String())
		}
	}
	if n := strings.Count(text.String(), "no static cause"); n != 1 {
		t.Errorf("%d actions with no static cause, want 1 (bin/copy.txt):\n%s", n, text.String())
	}
	if n := strings.Count(text.String(), "unknown program:"); n != 1 {
		t.Errorf("%d unknown program lines, want 1:\n%s", n, text.String())
	}
	if !strings.Contains(summary.String(), "//web:robots_txt: 0 downstream, 0 absorbed (unknown program)") ||
		!strings.Contains(summary.String(), "bin/copy.txt: 0 downstream, 0 absorbed (no static cause)") {
		t.Errorf("summary:\n%s", summary.String())
	}
	var doc struct {
		Static  map[string]any `json:"static"`
		Actions []struct {
			Target          string   `json:"target"`
			Explained       bool     `json:"explained"`
			UnknownPrograms []string `json:"unknown_programs"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"source": "aquery.pb", "root_causes": 3.0, "explained": 1.0, "unknown_program": 1.0}; !reflect.DeepEqual(doc.Static, want) {
		t.Errorf("static %v, want %v", doc.Static, want)
	}
	got := map[string]string{}
	for _, a := range doc.Actions {
		got[a.Target] = fmt.Sprint(a.Explained, a.UnknownPrograms)
	}
	if want := map[string]string{"//web:robots_txt": "false [//scripts/render]", "//:clock": "true [//scripts/render]", "": "false []"}; !reflect.DeepEqual(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
	if strings.Count(js.String(), `"unknown_programs"`) != 2 {
		t.Errorf("unknown_programs should be left out when empty:\n%s", js.String())
	}
}

// An empty comparison still writes a complete report.
func TestEmptyReports(t *testing.T) {
	r := Diff(NewLog("old"), NewLog("new"))
	var text, js bytes.Buffer
	WriteText(&text, r, TextOptions{})
	WriteJSON(&js, r)
	if want := "Compared old (0 spawns) with new (0 spawns): 0 actions diverge, 0 identical.\n"; text.String() != want {
		t.Errorf("text %q", text.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc["actions"].([]any)) != 0 {
		t.Errorf("json %s: %v", js.String(), err)
	}
}

// Logs can be read on two goroutines at once, and Diff reads them only.
func TestConcurrentLogs(t *testing.T) {
	a, b := realLogs(t, "a"), realLogs(t, "b")
	var wg sync.WaitGroup
	var old, new *Log
	wg.Go(func() { old = load(t, "a", a["compact"]) })
	wg.Go(func() { new = load(t, "b", b["json"]) })
	wg.Wait()
	if r := Diff(old, new); len(r.Actions) != 10 {
		t.Errorf("%d actions", len(r.Actions))
	}
}
