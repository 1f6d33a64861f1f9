package trace

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testReport is one report for every printer: a workspace file, a host
// file with control characters in its name, a listing, a clean action and
// an untraced one, out of order.
func testReport() *Report {
	r := &Report{
		Actions: []ActionReport{
			{ActionRef: ActionRef{Target: "//pkg:gen", Mnemonic: "Genrule", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/gen.txt"}},
				Undeclared: []Undeclared{
					{"pkg/secret.txt", WorkspaceFile},
					{"/tmp/evil\x1b[31m\r\nname", HostFile},
					{"pkg/data", DirectoryListing},
				}},
			{ActionRef: ActionRef{Target: "//pkg:a", Mnemonic: "CppCompile", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/_objs/a/a.pic.d", "bazel-out/k8-fastbuild/bin/pkg/_objs/a/a.pic.o"}}},
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
		{"report.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
		{"report.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got, testReport()); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs (go test ./internal/trace -run TestReportGoldens -update rewrites it; review the diff):\ngot:\n%s\nwant:\n%s", path, got.Bytes(), want)
			}
		})
	}
}

func TestWriteTextEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, testReport()); err != nil {
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
	if err := WriteText(&clean, &Report{Actions: []ActionReport{{}}}); err != nil {
		t.Fatal(err)
	}
	if got := clean.String(); got != "1 action traced; 0 read paths they had not declared.\n" {
		t.Errorf("clean text report %q", got)
	}
}

func TestFoundAndCauses(t *testing.T) {
	r := testReport()
	if !r.Found() {
		t.Error("Found() = false for a report with undeclared reads")
	}
	if (&Report{Actions: []ActionReport{{}}}).Found() {
		t.Error("Found() = true for a clean report")
	}
	r.FillCauses(func(a *ActionReport) []json.RawMessage {
		if a.Target == "//pkg:gen" {
			return []json.RawMessage{json.RawMessage(`{"kind":"absolute_path","path":"/tmp"}`)}
		}
		return nil
	})
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
		want := 0
		if a.Target == "//pkg:gen" {
			want = 1
		}
		if a.Causes == nil || len(a.Causes) != want {
			t.Errorf("%s: causes %s, want %d", a.Target, a.Causes, want)
		}
	}
	if err := WriteJSON(&b, &Report{Actions: []ActionReport{{Causes: []json.RawMessage{json.RawMessage("{bad")}}}}); err == nil {
		t.Error("WriteJSON accepted a cause that is not JSON")
	}
}
