package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
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
			rep, err := ReadJSONFile(path)
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
	rep, err := ReadJSON("report.json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return Slice(rep.Findings.Sorted())
}

// Programs used by the fixtures below.
var (
	gcc     = program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	rustc   = program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_rust", Extension: "rust", HasExtension: true}, Path: "rust_toolchain/bin/rustc"}
	wrapper = program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_rust"}, Path: "util/process_wrapper/process_wrapper"}
	codegen = program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	clangpp = program.ID{Origin: program.Origin{Kind: program.Main, Extension: "llvm", HasExtension: true}, Path: "bin/clang++"}
	clang   = program.ID{Origin: program.Origin{Kind: program.Module, Module: "llvm"}, Path: "bin/clang"}
)

func ref(m, t string) finding.ActionRef { return finding.ActionRef{Mnemonic: m, Target: t} }

// oneOfEachKind is the shared fixture of the printer goldens: one finding
// of every kind, each exercising the kind's optional parts.
func oneOfEachKind() Slice {
	fs := []finding.Counted{
		{Count: 1, Finding: finding.Finding{Kind: finding.EnvironmentLeak, Action: ref("Genrule", "//a:gen"), Source: finding.User,
			Sentinel: "ahab-sentinel-user", Site: finding.Site{Location: finding.Argument, Value: "echo ahab-sentinel-user > $@"}}},
		{Count: 2, Finding: finding.Finding{Kind: finding.BadPath, Action: ref("CppCompile", "//a:b"), Actual: "/usr/bin:/bin"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.ExecutionRequirement, Action: ref("Genrule", "//net:fetch"), Requirement: "requires-network"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref("CppLink", "//a:bin"), Path: "/opt/lib",
			Site: finding.Site{Location: finding.ParamFile, ExecPath: "bazel-out/k8/bin/a/bin-2.params", Value: "-L/opt/lib"}}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref("Genrule", "//a:env"), Path: "/etc/x",
			Site: finding.Site{Location: finding.EnvVar, Key: "CONF", Value: "/etc/x"}}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: ref("CppCompile", "//native:bridge"), Program: gcc}},
		{Count: 1, Finding: finding.Finding{Kind: finding.HostDerivedProgram, Action: ref("CppCompile", "//native:shim"),
			Program: program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_cc", Extension: "cc_configure_extension", HasExtension: true}, Path: "cc_wrapper.sh"}}},
		{Count: 3, Finding: finding.Finding{Kind: finding.UnknownProgram, Action: ref("Codegen", "//api:gen"), Program: codegen}},
		{Count: 1, Finding: finding.Finding{Kind: finding.NeverReproducible, Action: ref("Stamp", "//rel:stamp"), Program: codegen}},
		{Count: 1, Finding: finding.Finding{Kind: finding.WorkspaceStatus, Action: ref("Genrule", "//rel:info"), Path: "bazel-out/volatile-status.txt"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.ConditionalReproducibility, Action: ref("Rustc", "//crate:lib"), Program: rustc,
			Wrappers: []program.ID{wrapper}, Synonym: &clang, Unmet: []finding.Unmet{
				{Because: "it needs an option it was not given", AnyOf: []string{"--remap-path-prefix=${pwd}=."}},
				{Because: "it was given an option that breaks it", Present: []string{"--timestamp"}},
			}}},
	}
	set := finding.NewSet()
	for _, f := range fs {
		set.Add(f.Finding, f.Count)
	}
	return Slice(set.Sorted())
}

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

func TestReadJSONErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	t.Run("reading_a_missing_file_names_it", func(t *testing.T) {
		p := filepath.Join(dir, "missing.json")
		_, err := ReadJSONFile(p)
		if err == nil || err.Error() != "failed to read JSON report from "+p+": no such file or directory" {
			t.Errorf("err = %v", err)
		}
	})
	const entry = `{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t"}, "actual": "/bin"}}`
	tests := []struct {
		name, content, entry, cause string
	}{
		{"a_file_that_is_not_a_report_says_so", `{"exceptions": []}`, "",
			"not a report Ahab wrote: unknown field `exceptions`, expected `mode` or `violations` at line 1 column 13"},
		{"an_empty_object", `{}`, "", "not a report Ahab wrote: missing field `violations` at line 1 column 2"},
		{"not_json", `{`, "", "unexpected end of the document at line 1 column 2"},
		{"not_an_object", `[]`, "", "invalid type: sequence, expected a report, an object with a `violations` field at line 1 column 1"},
		{"missing_kind", `{"violations": [{"count": 1, "violation": {"action": {"mnemonic": "", "target": ""}}}]}`,
			"violation 1", "missing field `kind` at line 1 column 84"},
		{"unknown_kind", `{"violations": [{"count": 1, "violation": {"kind": "nope"}}]}`,
			"violation 1", "unknown kind `nope`, expected one of `environment_leak`, `bad_path`, `execution_requirement`, `absolute_path`, `system_program`, `host_derived_program`, `unknown_program`, `never_reproducible`, `workspace_status`, `conditional_reproducibility`, `variation_source` at line 1 column 57"},
		{"zero_count", `{"violations": [{"count": 0, "violation": {}}]}`, "violation 1", "count 0, expected a positive count at line 1 column 27"},
		{"fractional_count", `{"violations": [{"count": 1.5, "violation": {}}]}`, "violation 1", "invalid value: floating point `1.5`, expected a positive count no greater than 9223372036854775807 at line 1 column 29"},
		{"wrappers_required", `{"violations": [{"count": 1, "violation": {"kind": "system_program", "action": {"mnemonic": "", "target": ""}, "program": {"origin": "system", "path": "gcc"}}}]}`,
			"violation 1", "missing field `wrappers` at line 1 column 158"},
		{"null_string", `{"violations": [{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": null, "target": ""}, "actual": ""}}]}`,
			"violation 1", "invalid type: null, expected a string at line 1 column 90"},
		{"violations_not_an_array", `{"violations": {"count": 1}}`, "", "invalid type: map, expected a sequence of violations at line 1 column 16"},
		{"a_bad_entry_after_many_is_numbered_from_the_first", manyEntries(5000, 4099), "violation 4099", "count 0, expected a positive count at line 1 column 478386"},
		{"overflowing_counts", `{"violations": [{"count": 9223372036854775807, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": ""}}, {"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": "x"}}]}`,
			"violation 2", "counts add up to more than 9223372036854775807 at line 1 column 243"},
		// Ahab 0.2 ignored unknown fields and summed repeated entries; a
		// report with either was not written by a program, so it is
		// refused rather than read as something it does not say.
		{"an_unknown_top_level_field", `{"violations": [], "version": 2}`, "", "not a report Ahab wrote: unknown field `version`, expected `mode` or `violations` at line 1 column 28"},
		{"an_unknown_field_in_an_entry", `{"violations": [{"count": 1, "note": "x", "violation": {}}]}`, "violation 1", "unknown field `note`, expected one of `count`, `violation` at line 1 column 35"},
		{"a_field_of_another_kind", `{"violations": [{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": "", "path": "/x"}}]}`,
			"violation 1", "field `path` does not belong to a `bad_path` violation, expected one of `action`, `actual` at line 1 column 132"},
		{"a_repeated_entry", `{"violations": [` + entry + `, ` + entry + `]}`, "violation 2", "the same violation as an earlier entry; a report lists each once, with its count at line 1 column 240"},
		{"a_repeated_key", `{"violations": [], "violations": []}`, "", "duplicate field `violations` at line 1 column 20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(tt.name+".json", tt.content)
			_, err := ReadJSONFile(p)
			want := p + ": "
			if tt.entry != "" {
				want += tt.entry + ": "
			}
			want += tt.cause
			if err == nil || err.Error() != want {
				t.Errorf("err = %v\nwant  %s", err, want)
			}
			if e, ok := errors.AsType[*jsonfile.Error](err); !ok || e.Path != p || e.Entry != tt.entry {
				t.Errorf("%#v is not a *jsonfile.Error for %s, entry %q", err, p, tt.entry)
			}
		})
	}
}

// The fields may come in any order, and the optional ones may be left out
// or null (§8.4).
func TestReadJSONLeniency(t *testing.T) {
	const doc = `{"violations": [
	  {"violation": {"wrappers": [], "program": {"path": "p", "origin": {"main": {}}}, "action": {"target": "//t", "mnemonic": "M"}, "kind": "never_reproducible"}, "count": 2},
	  {"count": 3, "violation": {"kind": "never_reproducible", "action": {"mnemonic": "M", "target": "//u"},
	   "program": {"origin": {"main": {"extension": null}}, "path": "p"}, "wrappers": [], "synonym": null}},
	  {"count": 1, "violation": {"kind": "conditional_reproducibility", "action": {"mnemonic": "M", "target": "//t"},
	   "program": {"origin": "system", "path": "gcc"}, "wrappers": [],
	   "unmet": [{"because": "b", "present": ["z", "a", "z"]}, {"because": "a"}]}}
	]}`
	set, err := ReadJSON("doc.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := set.Findings.Sorted()
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3", len(got))
	}
	if got[0].Count != 2 || got[0].Synonym != nil || got[0].Program != codegenAt("p") || got[1].Count != 3 {
		t.Errorf("got %+v", got[:2])
	}
	u := got[2].Unmet
	if len(u) != 2 || u[0].Because != "a" || strings.Join(u[1].Present, ",") != "a,z" {
		t.Errorf("unmet not read as sorted sets: %+v", u)
	}
}

func codegenAt(path string) program.ID {
	return program.ID{Origin: program.Origin{Kind: program.Main}, Path: path}
}

// manyEntries is a report of n bad_path entries, the bad-th of which
// (from 1) has a count of 0.
func manyEntries(n, bad int) string {
	var b strings.Builder
	b.WriteString(`{"violations": [`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		count := 1
		if i == bad {
			count = 0
		}
		fmt.Fprintf(&b, `{"count": %d, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t:%d"}, "actual": "/bin"}}`, count, i)
	}
	b.WriteString(`]}`)
	return b.String()
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
	rep, err := ReadJSON("r.json", bytes.NewReader(got.Bytes()))
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
		_, err := ReadJSON("r.json", strings.NewReader(doc))
		if e, ok := errors.AsType[*jsonfile.Error](err); !ok || e.Entry != "violation 1" || !strings.Contains(err.Error(), "has no \"mode\"") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("an_unknown_mode", func(t *testing.T) {
		_, err := ReadJSON("r.json", strings.NewReader(`{"mode": "0.3", "violations": []}`))
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
		rep, err := ReadJSONFile(path)
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
