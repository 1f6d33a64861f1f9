package trace

import (
	"slices"
	"strings"
	"testing"
)

func TestReadJSONExecLog(t *testing.T) {
	// Two spawns as Bazel 4.2.3 writes them (cut down), the second with a
	// targetLabel as later Bazels add.
	log := `{
  "commandArgs": ["/bin/bash", "-c", "cp pkg/a.txt bazel-out/k8-fastbuild/bin/pkg/b.txt"],
  "inputs": [{"path": "external/bazel_tools/tools/genrule/genrule-setup.sh", "digest": {"hash": "be", "sizeBytes": "744"}}, {"path": "pkg/a.txt"}],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/pkg/b.txt"],
  "mnemonic": "Genrule",
  "actualOutputs": [{"path": "bazel-out/k8-fastbuild/bin/pkg/b.txt"}, {"path": "bazel-out/k8-fastbuild/bin/pkg/extra"}],
  "runner": "local"
}{"commandArgs": ["/usr/bin/gcc", "@p.params"], "mnemonic": "CppLink", "targetLabel": "//pkg:bin"}
`
	got, err := readJSONExecLog(strings.NewReader(log), "execution_log.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d actions, want 2", len(got))
	}
	a := got[0]
	if a.Mnemonic != "Genrule" || a.Target != "" || len(a.Argv) != 3 ||
		!slices.Equal(a.Inputs, []string{"external/bazel_tools/tools/genrule/genrule-setup.sh", "pkg/a.txt"}) ||
		!slices.Equal(a.Outputs, []string{"bazel-out/k8-fastbuild/bin/pkg/b.txt", "bazel-out/k8-fastbuild/bin/pkg/extra"}) {
		t.Errorf("first action %+v", a)
	}
	if got[1].Target != "//pkg:bin" {
		t.Errorf("second action's target %q, want the log's targetLabel", got[1].Target)
	}
	for _, tc := range []struct{ log, msg string }{
		{`{"commandArgs": ["a"]} {"commandArgs": 3}`, "execution_log.json: spawn 2 (byte "},
		{`{"mnemonic": "Genrule"}`, "execution_log.json: spawn 1 (byte 23): no commandArgs, expected the spawn's command line"},
		{`{"commandArgs": ["a"]} [`, "execution_log.json: spawn 2"},
	} {
		if _, err := readJSONExecLog(strings.NewReader(tc.log), "execution_log.json"); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("readJSONExecLog(%s): error %v, want %q", tc.log, err, tc.msg)
		}
	}
}

func TestLabelActions(t *testing.T) {
	// Cut down from `bazel aquery --output=jsonproto` of Bazel 4.2.3.
	dump := `{
  "artifacts": [{"id": 1, "pathFragmentId": 1}, {"id": 2, "pathFragmentId": 6}],
  "actions": [
    {"targetId": 1, "actionKey": "k1", "mnemonic": "CppLink", "outputIds": [1], "primaryOutputId": 1},
    {"targetId": 2, "mnemonic": "Genrule", "outputIds": [2]}
  ],
  "targets": [{"id": 1, "label": "//pkg:bin", "ruleClassId": 1}, {"id": 2, "label": "//pkg:gen"}],
  "pathFragments": [
    {"id": 4, "label": "bazel-out"}, {"id": 3, "label": "k8-fastbuild", "parentId": 4},
    {"id": 2, "label": "bin", "parentId": 3}, {"id": 5, "label": "pkg", "parentId": 2},
    {"id": 1, "label": "bin", "parentId": 5}, {"id": 6, "label": "gen.txt", "parentId": 5}
  ]
}`
	actions := []Action{
		{Mnemonic: "CppLink", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/bin"}},
		{Mnemonic: "Genrule", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/gen.txt"}},
		{Mnemonic: "Genrule", Target: "//kept:label", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/gen.txt"}},
		{Mnemonic: "Genrule", Outputs: []string{"nowhere"}},
	}
	if err := labelActions(strings.NewReader(dump), "aquery.json", actions); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, a := range actions {
		labels = append(labels, a.Target)
	}
	if want := []string{"//pkg:bin", "//pkg:gen", "//kept:label", ""}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	for _, tc := range []struct{ dump, msg string }{
		{`[`, "aquery.json: unexpected EOF, expected aquery's jsonproto output"},
		{`{"actions": [{"targetId": 1, "outputIds": [9]}]}`, "aquery.json: action 1: output 9 is not an artifact"},
		{`{"artifacts": [{"id": 1, "pathFragmentId": 1}], "actions": [{"outputIds": [1]}], "pathFragments": [{"id": 1, "label": "a", "parentId": 1}]}`, "aquery.json: path fragment 1: unknown or cyclic"},
	} {
		if err := labelActions(strings.NewReader(tc.dump), "aquery.json", []Action{{}}); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("labelActions(%s): error %v, want %q", tc.dump, err, tc.msg)
		}
	}
}
