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
	// Events as Bazel 4.2.3 writes them with --build_event_publish_all_actions
	// (cut down): a progress event naming an action as its child, the
	// workspace status action (no label) and two actions.
	events := `{"id":{"progress":{"opaqueCount":2}},"children":[{"actionCompleted":{"primaryOutput":"bazel-out/k8-fastbuild/bin/pkg/bin.runfiles_manifest","label":"//pkg:bin","configuration":{"id":"f5"}}}],"progress":{"stderr":"Analyzing: 10 targets\n"}}
{"id":{"actionCompleted":{"primaryOutput":"bazel-out/stable-status.txt","configuration":{"id":"system"}}},"action":{"success":true,"type":"BazelWorkspaceStatusAction"}}
{"id":{"actionCompleted":{"primaryOutput":"bazel-out/k8-fastbuild/bin/pkg/bin","label":"//pkg:bin","configuration":{"id":"f5"}}},"action":{"success":true,"type":"CppLink","commandLine":["/usr/bin/gcc","-o","bazel-out/k8-fastbuild/bin/pkg/bin"]}}
{"id":{"actionCompleted":{"primaryOutput":"bazel-out/k8-fastbuild/bin/pkg/_objs/bin/main.pic.o","label":"//pkg:bin","configuration":{"id":"f5"}}},"action":{"success":true,"type":"CppCompile"}}
{"id":{"actionCompleted":{"primaryOutput":"bazel-out/k8-fastbuild/bin/pkg/gen.txt","label":"//pkg:gen","configuration":{"id":"f5"}}},"action":{"success":true,"type":"Genrule"}}
`
	actions := []Action{
		{Mnemonic: "CppLink", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/bin"}},
		{Mnemonic: "CppCompile", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/_objs/bin/main.pic.d", "bazel-out/k8-fastbuild/bin/pkg/_objs/bin/main.pic.o"}},
		{Mnemonic: "Genrule", Target: "//kept:label", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/gen.txt"}},
		{Mnemonic: "Genrule", Outputs: []string{"nowhere"}},
	}
	if err := labelActions(strings.NewReader(events), "build_events.json", actions); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, a := range actions {
		labels = append(labels, a.Target)
	}
	if want := []string{"//pkg:bin", "//pkg:bin", "//kept:label", ""}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	err := labelActions(strings.NewReader("{}\n{\"id\": 3}\n"), "build_events.json", actions)
	if err == nil || !strings.HasPrefix(err.Error(), "build_events.json: line 2: ") || !strings.HasSuffix(err.Error(), ", expected a build event in JSON") {
		t.Errorf("error %v, want one naming the file and line", err)
	}
}
