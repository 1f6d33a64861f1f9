package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/finding/findingtest"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/savedreport"
)

// realReports are reports the original wrote: the conformance set and the
// fishery's recorded expectations. Reading one and writing it again must
// give the same bytes (§8.1, §8.4).
func realReports(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{
		"../../testdata/conformance/*/*.expected.json",
		"../../fishery/*/expectation.json",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 14 {
		t.Fatalf("found %d reports written by the original, want at least the 14 of testdata/conformance", len(files))
	}
	return files
}

func TestRealReportsRoundTrip(t *testing.T) {
	for _, path := range realReports(t) {
		t.Run(strings.TrimPrefix(path, "../../"), func(t *testing.T) {
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := savedreport.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Mode != mode.Ahab02 {
				t.Errorf("a report of the original reads as mode %v", rep.Mode)
			}
			var got bytes.Buffer
			if err := WriteJSON(&got, rep.Findings.Ordered(), mode.Ahab02); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("round trip differs:\n%s", Diff(mustRead(t, want), rep.Findings.Ordered(), mode.Ahab02, false))
			}
		})
	}
}

func mustRead(t *testing.T, data []byte) Slice {
	t.Helper()
	rep, err := savedreport.Read("report.json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return Slice(rep.Findings.Sorted())
}

// The fixtures' programs, and the shared fixture of the printer goldens:
// one finding of every kind (findingtest.OneOfEachKind).
var (
	gcc     = findingtest.GCC
	rustc   = findingtest.Rustc
	wrapper = findingtest.ProcessWrapper
	codegen = findingtest.Codegen
	clangpp = findingtest.ClangPP
	clang   = findingtest.Clang
	ref     = findingtest.Ref
)

func oneOfEachKind() Slice { return Slice(findingtest.OneOfEachKind()) }

// TestJSONGolden pins the layout of every kind (§8.1) in one golden.
func TestJSONGolden(t *testing.T) {
	var got bytes.Buffer
	if err := WriteJSON(&got, oneOfEachKind(), mode.Ahab02); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/kinds.json", got.Bytes())
	// The golden must read back to the same findings.
	// a_written_report_reads_back_unchanged, every_violation_kind_survives_the_round_trip
	back := mustRead(t, got.Bytes())
	if d := Diff(oneOfEachKind(), back, mode.Ahab02, false); d != "" {
		t.Errorf("golden does not read back:\n%s", d)
	}
	opts := TextOptions{SignOff: true}
	if Text(back, opts) != Text(oneOfEachKind(), opts) {
		t.Error("the report read back renders differently")
	}
}

func TestJSONEmpty(t *testing.T) {
	var got bytes.Buffer
	if err := WriteJSON(&got, Slice(nil), mode.Ahab02); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"violations\": []\n}\n"; got.String() != want {
		t.Errorf("empty report = %q, want %q", got.String(), want)
	}
}

func TestJSONStringEscaping(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1b\x1f", `"\u0000\u0001\u001b\u001f"`},
		{"/<>&", `"/<>&"`},
		{"\x7f", "\"\x7f\""},
		{"\u2028\u2029é🐳", "\"\u2028\u2029é🐳\""},
		{"a\xffb", "\"a\uFFFDb\""},
	}
	for _, tt := range tests {
		if got := string(appendJSONString(nil, tt.in)); got != tt.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestJSONUnmetOmitsEmptyLists(t *testing.T) {
	f := finding.Finding{Kind: finding.ConditionalReproducibility, Action: ref("X", "//x"), Program: gcc,
		Unmet: []finding.Unmet{{Because: "both empty"}}}
	var got bytes.Buffer
	WriteJSON(&got, Slice{{Finding: f, Count: 1}}, mode.Ahab02)
	if !strings.Contains(got.String(), "{\n            \"because\": \"both empty\"\n          }") {
		t.Errorf("unmet with no lists should hold only because:\n%s", got.String())
	}
	if !strings.Contains(got.String(), `"synonym": null`) {
		t.Errorf("synonym should be null:\n%s", got.String())
	}
}

// A report of Ahab's own judgement says so first, carries the kinds and
// fields Ahab 0.2 lacked, and reads back as what it is; a report without
// a mode is Ahab 0.2's and may not carry them.
func TestJSONModes(t *testing.T) {
	shellFindings := Slice{
		{Count: 1, Finding: finding.Finding{Kind: finding.ConditionalReproducibility, Action: ref("Genrule", "//pkg:tar"),
			Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "tar"}, Wrappers: []program.ID{bash},
			Unmet:   []finding.Unmet{{Because: "it records the files' times", AnyOf: []string{"--mtime=*"}}},
			Command: "tar -cf out.tar src"}},
		{Count: 2, Finding: finding.Finding{Kind: finding.VariationSource, Action: ref("Genrule", "//pkg:stamp"),
			Variation: "clock", Command: "date > bazel-out/k8-fastbuild/bin/pkg/stamp.txt"}},
	}
	var got bytes.Buffer
	if err := WriteJSON(&got, shellFindings, mode.Default); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/default-mode.json", got.Bytes())
	rep, err := savedreport.Read("r.json", bytes.NewReader(got.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Mode != mode.Default || Diff(shellFindings, rep.Findings.Ordered(), mode.Default, false) != "" {
		t.Errorf("read back as mode %v:\n%s", rep.Mode, Diff(shellFindings, rep.Findings.Ordered(), mode.Default, false))
	}

	t.Run("an_empty_report_of_each_mode", func(t *testing.T) {
		for m, want := range map[mode.Mode]string{
			mode.Ahab02:  "{\n  \"violations\": []\n}\n",
			mode.Default: "{\n  \"mode\": \"default\",\n  \"violations\": []\n}\n",
		} {
			var b bytes.Buffer
			WriteJSON(&b, Slice(nil), m)
			if b.String() != want {
				t.Errorf("%v: got %q, want %q", m, b.String(), want)
			}
		}
	})
	t.Run("a_report_without_a_mode_cannot_hold_what_only_ahab_reports", func(t *testing.T) {
		doc := strings.Replace(got.String(), "\"mode\": \"default\",\n", "", 1)
		_, err := savedreport.Read("r.json", strings.NewReader(doc))
		if e, ok := errors.AsType[*jsonfile.Error](err); !ok || e.Entry != "violation 1" || !strings.Contains(err.Error(), "has no \"mode\"") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("an_unknown_mode", func(t *testing.T) {
		_, err := savedreport.Read("r.json", strings.NewReader(`{"mode": "0.3", "violations": []}`))
		if err == nil || !strings.Contains(err.Error(), "unknown mode `0.3`") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("the_sentences", func(t *testing.T) {
		text := Text(shellFindings, TextOptions{})
		for _, want := range []string{
			`runs program "tar" (wrapped by "/bin/bash") non-reproducibly: it records the files' times, but none of --mtime=* was passed, in its script: tar -cf out.tar src`,
			`Genrule action for target //pkg:stamp writes the time ("clock") into an output, in its script: date > bazel-out/k8-fastbuild/bin/pkg/stamp.txt`,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("text lacks %q:\n%s", want, text)
			}
		}
	})
}

var bash = program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}

// TestFindingJSON checks that one finding on its own is the element the
// full report writes for it, compacted: the reports that quote findings
// as causes use the format users already read.
func TestFindingJSON(t *testing.T) {
	for _, path := range realReports(t) {
		rep, err := savedreport.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ordered := rep.Findings.Ordered()
		var full bytes.Buffer
		if err := WriteJSON(&full, ordered, mode.Ahab02); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Violations []struct{ Violation json.RawMessage }
		}
		if err := json.Unmarshal(full.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Violations) != ordered.Len() {
			t.Fatalf("%s: %d elements for %d findings", path, len(doc.Violations), ordered.Len())
		}
		for i, elem := range doc.Violations {
			var want bytes.Buffer
			json.Compact(&want, elem.Violation)
			c := ordered.At(i)
			if got := FindingJSON(&c.Finding); string(got) != want.String() {
				t.Errorf("%s: finding %d:\n got %s\nwant %s", path, i+1, got, want.String())
			}
		}
	}
}

// TestEvidence pins how a finding's evidence is written: an "evidence"
// member last in the JSON report (line left out when 0) and a line per
// piece under the finding's in the text report, both only under Ahab's
// own judgement, and read back in order whatever order a file lists them.
func TestEvidence(t *testing.T) {
	f := finding.Finding{Kind: finding.VariationSource, Action: ref("Genrule", "//pkg:stamp"), Variation: "clock",
		Command: "python3 tools/gen.py > out.txt", Evidence: []finding.Evidence{
			{File: "tools/gen.py", Line: 12, Text: "time.time() reaches the output"},
			{File: "tools/lib\x1b[31m.py", Text: "reads the clock\nError: forged"},
		}}
	findings := Slice{{Finding: f, Count: 1}}
	var got bytes.Buffer
	if err := WriteJSON(&got, findings, mode.Default); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/evidence.json", got.Bytes())
	text := Text(findings, TextOptions{})
	checkGolden(t, "testdata/evidence.txt", []byte(text))

	// Listed the other way round, the evidence reads back in order.
	doc := strings.Replace(got.String(), `"file": "tools/gen.py"`, `"file": "tools/zzz.py"`, 1)
	rep, err := savedreport.Read("r.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if back := rep.Findings.Sorted()[0].Evidence; len(back) != 2 || back[0].File != "tools/lib\x1b[31m.py" || back[1].Line != 12 {
		t.Errorf("evidence read back as %+v", back)
	}

	var compat bytes.Buffer
	WriteJSON(&compat, findings, mode.Ahab02)
	if strings.Contains(compat.String(), "evidence") || strings.Contains(Text(findings, TextOptions{Mode: mode.Ahab02}), "evidence") {
		t.Errorf("a report of Ahab 0.2's judgement shows evidence:\n%s", compat.String())
	}
	if strings.Contains(string(FingerprintJSON(&f)), "evidence") || !strings.Contains(string(FindingJSON(&f)), `"evidence":[{"file":"tools/gen.py","line":12,`) {
		t.Errorf("FingerprintJSON %s, FindingJSON %s", FingerprintJSON(&f), FindingJSON(&f))
	}

	for _, tc := range []struct{ name, evidence, err string }{
		{"line_0", `[{"file": "a", "line": 0, "text": "t"}]`, "line 0, expected a positive line number"},
		{"no_file", `[{"line": 3, "text": "t"}]`, "missing field `file`"},
		{"no_text", `[{"file": "a"}]`, "missing field `text`"},
		{"unknown_field", `[{"file": "a", "text": "t", "column": 2}]`, "unknown field `column`"},
		{"negative_line", `[{"file": "a", "line": -1, "text": "t"}]`, "expected a positive line number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"mode": "default", "violations": [{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t"}, "actual": "/x", "evidence": ` + tc.evidence + `}}]}`
			_, err := savedreport.Read("r.json", strings.NewReader(doc))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want %q", err, tc.err)
			}
		})
	}
}
