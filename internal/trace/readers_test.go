package trace

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protodelim"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/finding"
)

// genruleSpawn is one spawn as Bazel 4.2.3 logs it (cut down): a genrule
// that declares an output directory and produced two files in it.
func genruleSpawn() *spawnpb.SpawnExec {
	return &spawnpb.SpawnExec{
		CommandArgs: []string{"/bin/bash", "-c", "cp pkg/a.txt bazel-out/k8-fastbuild/bin/pkg/dir/b.txt"},
		Inputs: []*spawnpb.File{
			{Path: "pkg/a.txt", Digest: &spawnpb.Digest{Hash: "aa", SizeBytes: 1}},
			{Path: "external/bazel_tools/tools/genrule/genrule-setup.sh", Digest: &spawnpb.Digest{Hash: "be", SizeBytes: 744}},
		},
		ListedOutputs: []string{"bazel-out/k8-fastbuild/bin/pkg/dir"},
		Mnemonic:      "Genrule",
		ActualOutputs: []*spawnpb.File{
			{Path: "bazel-out/k8-fastbuild/bin/pkg/dir/b.txt", Digest: &spawnpb.Digest{Hash: "bb", SizeBytes: 1}},
			{Path: "bazel-out/k8-fastbuild/bin/pkg/dir/c.txt", Digest: &spawnpb.Digest{Hash: "cc", SizeBytes: 1}},
		},
		Runner: "local",
	}
}

func TestReadExecLog(t *testing.T) {
	// The same spawns in the two forms Bazel 4.2.3 writes.
	var binary bytes.Buffer
	for _, s := range []*spawnpb.SpawnExec{genruleSpawn(), {CommandArgs: []string{"/usr/bin/gcc", "@p.params"}, Mnemonic: "CppLink", ListedOutputs: []string{"bazel-out/k8-fastbuild/bin/pkg/bin"}}} {
		if _, err := protodelim.MarshalTo(&binary, s); err != nil {
			t.Fatal(err)
		}
	}
	json := `{
  "commandArgs": ["/bin/bash", "-c", "cp pkg/a.txt bazel-out/k8-fastbuild/bin/pkg/dir/b.txt"],
  "inputs": [{"path": "pkg/a.txt", "digest": {"hash": "aa", "sizeBytes": "1"}}, {"path": "external/bazel_tools/tools/genrule/genrule-setup.sh", "digest": {"hash": "be", "sizeBytes": "744"}}],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/pkg/dir"],
  "mnemonic": "Genrule",
  "actualOutputs": [{"path": "bazel-out/k8-fastbuild/bin/pkg/dir/b.txt", "digest": {"hash": "bb", "sizeBytes": "1"}}, {"path": "bazel-out/k8-fastbuild/bin/pkg/dir/c.txt", "digest": {"hash": "cc", "sizeBytes": "1"}}],
  "runner": "local"
}{
  "commandArgs": ["/usr/bin/gcc", "@p.params"],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/pkg/bin"],
  "mnemonic": "CppLink"
}`
	for name, log := range map[string][]byte{"execution_log.binpb": binary.Bytes(), "execution_log.json": []byte(json)} {
		t.Run(name, func(t *testing.T) {
			got, err := readExecLog(bytes.NewReader(log), name)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d actions, want 2", len(got))
			}
			a := got[0]
			if a.Mnemonic != "Genrule" || a.Target != "" || len(a.Argv) != 3 ||
				// The reader sorts inputs by path.
				!slices.Equal(a.Inputs, []string{"external/bazel_tools/tools/genrule/genrule-setup.sh", "pkg/a.txt"}) ||
				!slices.Equal(a.Outputs, []string{"bazel-out/k8-fastbuild/bin/pkg/dir"}) ||
				!slices.Equal(a.OutputFiles, []string{"bazel-out/k8-fastbuild/bin/pkg/dir/b.txt", "bazel-out/k8-fastbuild/bin/pkg/dir/c.txt"}) {
				t.Errorf("first action %+v", a)
			}
			if b := got[1]; b.Mnemonic != "CppLink" || !slices.Equal(b.Argv, []string{"/usr/bin/gcc", "@p.params"}) || len(b.Inputs) != 0 || b.OutputFiles != nil {
				t.Errorf("second action %+v", b)
			}
		})
	}
}

func TestReadExecLogErrors(t *testing.T) {
	var truncated bytes.Buffer
	for range 2 {
		if _, err := protodelim.MarshalTo(&truncated, genruleSpawn()); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct {
		log  []byte
		want string
	}{
		"a truncated binary log": {truncated.Bytes()[:truncated.Len()-5], "execution_log.binpb: spawn 2 (byte "},
		"a JSON log cut short":   {[]byte(`{"commandArgs": ["a"]} {"commandArgs": 3}`), "execution_log.binpb: spawn 2 "},
		"nothing like a log":     {[]byte("hello"), "execution_log.binpb: "},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readExecLog(bytes.NewReader(tc.log), "execution_log.binpb")
			var logErr *execlog.Error
			if !errors.As(err, &logErr) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want an *execlog.Error starting %q", err, tc.want)
			}
		})
	}
}

func TestAttachStatic(t *testing.T) {
	absolute := finding.Finding{Kind: finding.AbsolutePath, Action: finding.ActionRef{Mnemonic: "Genrule", Target: "//pkg:host_leak"}, Path: "/etc/os-release"}
	static := analyze.NewIndex([]analyze.ActionFindings{
		{Mnemonic: "Genrule", Target: "//pkg:host_leak", Outputs: []string{"bazel-out/bin/pkg/host_leak.txt"}, Findings: []finding.Finding{absolute}},
		{Mnemonic: "Genrule", Target: "//pkg:honest", Outputs: []string{"bazel-out/bin/pkg/honest.txt"}},
	})
	actions := []Action{
		// Found by its second output.
		{Mnemonic: "Genrule", Outputs: []string{"bazel-out/bin/pkg/elsewhere", "bazel-out/bin/pkg/host_leak.txt"}},
		{Mnemonic: "Genrule", Outputs: []string{"bazel-out/bin/pkg/honest.txt"}},
		// A log that names the target keeps its label.
		{Mnemonic: "Genrule", Target: "//log:label", Outputs: []string{"bazel-out/bin/pkg/honest.txt"}},
		// Not in the graph.
		{Mnemonic: "Genrule", Outputs: []string{"bazel-out/bin/pkg/unknown"}},
	}
	attachStatic(actions, static)
	type got struct {
		target string
		causes int
	}
	want := []got{{"//pkg:host_leak", 1}, {"//pkg:honest", 0}, {"//log:label", 0}, {"", 0}}
	for i, a := range actions {
		if g := (got{a.Target, len(a.Causes)}); g != want[i] {
			t.Errorf("action %d: %+v, want %+v", i, g, want[i])
		}
	}
	if !slices.EqualFunc(actions[0].Causes, []finding.Finding{absolute}, func(a, b finding.Finding) bool { return finding.Compare(&a, &b) == 0 }) {
		t.Errorf("causes %+v, want the absolute_path finding", actions[0].Causes)
	}
}
