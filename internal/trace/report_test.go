package trace

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/testenv"
)

// testReport is one report for every printer: a workspace file, a host
// file with control characters in its name, a listing, a clean action with
// a static finding and an untraced one, out of order; the static analysis
// predicted one of the two actions' reads.
func testReport() *Report {
	gen := finding.ActionRef{Mnemonic: "Genrule", Target: "//pkg:gen"}
	r := &Report{
		Static: "bazel aquery //pkg:all",
		Actions: []ActionReport{
			{ActionRef: ActionRef{Target: "//pkg:gen", Mnemonic: "Genrule", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/gen.txt"}},
				Undeclared: []Undeclared{
					{"pkg/secret.txt", WorkspaceFile},
					{"/tmp/evil\x1b[31m\r\nname", HostFile},
					{"pkg/data", DirectoryListing},
				},
				Causes: []finding.Finding{
					{Kind: finding.AbsolutePath, Action: gen, Site: finding.Site{Location: finding.Argument, Value: "cat /tmp/evil\x1b[31m\r\nname"}, Path: "/tmp/evil\x1b[31m\r\nname"},
					{Kind: finding.SystemProgram, Action: gen, Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}, Wrappers: []program.ID{}},
				}},
			{ActionRef: ActionRef{Target: "//pkg:a", Mnemonic: "CppCompile", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/_objs/a/a.pic.d", "bazel-out/k8-fastbuild/bin/pkg/_objs/a/a.pic.o"}},
				Causes: []finding.Finding{{Kind: finding.SystemProgram, Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//pkg:a"}, Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}, Wrappers: []program.ID{}}}},
			{ActionRef: ActionRef{Target: "//pkg:a b", Mnemonic: "Genrule", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/a b.txt"}},
				Undeclared: []Undeclared{{"/etc/os-release", HostFile}}},
		},
		Baseline: []BaselineEntry{
			{"/usr/include/stdio.h", RuleToolchain, 1},
			{"/etc/ld.so.cache", RuleLoader, 3},
			{"/bin/bash", RuleProgram, 2},
		},
		Untraced: []ActionRef{{Target: "//java:lib", Mnemonic: "Javac", Outputs: []string{"bazel-out/k8-fastbuild/bin/java/liblib.jar"}}},
	}
	r.sort()
	return r
}

func TestReportGoldens(t *testing.T) {
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer, *Report) error
	}{
		{"report.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r, TextOptions{}) }},
		{"report.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got, testReport()); err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", tc.golden), got.Bytes(), *update)
		})
	}
}

func TestWriteTextEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, testReport(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(b.Bytes(), "\x1b\r") {
		t.Errorf("raw control characters in:\n%q", b.String())
	}
	if !strings.Contains(b.String(), `"/tmp/evil\u{1b}[31m\r\nname"`) {
		t.Errorf("the escaped path is missing from:\n%s", b.String())
	}
	if !strings.Contains(b.String(), `"//pkg:a b" Genrule → "bazel-out/k8-fastbuild/bin/pkg/a b.txt"`) {
		t.Errorf("a label with a space is not quoted in:\n%s", b.String())
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, &Report{}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"actions\": [],\n  \"baseline\": [],\n  \"untraced\": []\n}\n"
	if b.String() != want {
		t.Errorf("got %s, want %s (never null)", b.String(), want)
	}
	var clean bytes.Buffer
	if err := WriteText(&clean, &Report{Actions: []ActionReport{{}}}, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := clean.String(); got != "1 action traced; 0 read paths they had not declared.\n" {
		t.Errorf("clean text report %q", got)
	}
}

func TestFound(t *testing.T) {
	if !testReport().Found() {
		t.Error("Found() = false for a report with undeclared reads")
	}
	// Static findings alone are not undeclared reads.
	clean := &Report{Actions: []ActionReport{{Causes: testReport().Actions[0].Causes}}}
	if clean.Found() {
		t.Error("Found() = true for a report without undeclared reads")
	}
}

// Causes are written as the findings report writes findings, and coloured
// in the text as it colours them.
func TestCauses(t *testing.T) {
	r := testReport()
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Actions []struct {
			Target string            `json:"target"`
			Causes []json.RawMessage `json:"causes"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(b.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	for _, a := range decoded.Actions {
		var want []json.RawMessage
		for _, ar := range r.Actions {
			if ar.Target == a.Target {
				for i := range ar.Causes {
					want = append(want, report.FindingJSON(&ar.Causes[i]))
				}
			}
		}
		if a.Causes == nil || len(a.Causes) != len(want) {
			t.Fatalf("%s: causes %s, want %s", a.Target, a.Causes, want)
		}
		for i := range want {
			var compact bytes.Buffer
			json.Compact(&compact, a.Causes[i])
			if !bytes.Equal(compact.Bytes(), want[i]) {
				t.Errorf("%s: cause %d is %s, want %s (report.FindingJSON)", a.Target, i, compact.Bytes(), want[i])
			}
		}
	}

	b.Reset()
	p := report.Palette{Color: true}
	if err := WriteText(&b, r, TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  " + p.Heading("static:") + " " + report.TaggedSentence(&r.Actions[2].Causes[0], p) + "\n",
		"  " + p.Caution("no static finding") + ": only the trace shows these reads\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the coloured report lacks %q:\n%s", want, b.String())
		}
	}

	// Without a static analysis, no line says it found nothing.
	r.Static = ""
	b.Reset()
	if err := WriteText(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "static") {
		t.Errorf("a report without a static analysis mentions it:\n%s", b.String())
	}
}
