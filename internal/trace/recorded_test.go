package trace

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata")

// recordedLayout is where testdata/recorded's build lived (its paths moved
// to fixed places by TestTraceRealBuild -record).
var recordedLayout = Layout{
	ExecRoot:   "/tmp/ahab-trace-scratch/output_base/execroot/tracews",
	OutputBase: "/tmp/ahab-trace-scratch/output_base",
	Workspace:  "/tmp/ahab-trace-test/ws",
	BazelRoot:  "/tmp/ahab-trace-scratch",
}

// recordedTargets labels the recorded spawns (Bazel 4.2.3's log has no
// labels; a real run asks aquery) by an output.
var recordedTargets = map[string]string{
	"bazel-out/k8-fastbuild/bin/pkg/ws_leak.txt":          "//pkg:ws_leak",
	"bazel-out/k8-fastbuild/bin/pkg/host_leak.txt":        "//pkg:host_leak",
	"bazel-out/k8-fastbuild/bin/pkg/walk_up.txt":          "//pkg:walk_up",
	"bazel-out/k8-fastbuild/bin/pkg/glob.txt":             "//pkg:glob",
	"bazel-out/k8-fastbuild/bin/pkg/list_up.txt":          "//pkg:list_up",
	"bazel-out/k8-fastbuild/bin/pkg/use.o":                "//pkg:gcc_hdr",
	"bazel-out/k8-fastbuild/bin/pkg/honest.txt":           "//pkg:honest",
	"bazel-out/k8-fastbuild/bin/pkg/with_tool.txt":        "//pkg:with_tool",
	"bazel-out/k8-fastbuild/bin/pkg/_objs/lib/lib.pic.o":  "//pkg:lib",
	"bazel-out/k8-fastbuild/bin/pkg/liblib.a":             "//pkg:lib",
	"bazel-out/k8-fastbuild/bin/pkg/liblib.so":            "//pkg:lib",
	"bazel-out/k8-fastbuild/bin/pkg/_objs/bin/main.pic.o": "//pkg:bin",
	"bazel-out/k8-fastbuild/bin/pkg/bin":                  "//pkg:bin",
}

func recordedActions(t testing.TB) []Action {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "recorded", "execution_log.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	actions, err := readExecLog(f, "execution_log.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range actions {
		for _, out := range actions[i].Outputs {
			if label, ok := recordedTargets[out]; ok {
				actions[i].Target = label
			}
		}
	}
	return actions
}

// analyzeRecorded classifies one recorded excerpt against the recorded
// execution log, on the file system fs.txt describes.
func analyzeRecorded(t *testing.T, name string) *Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "recorded", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fsys := loadFakeFS(t, filepath.Join("testdata", "recorded", "fs.txt"))
	r, err := analyzeOn(f, name, recordedActions(t), recordedLayout, fsys)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRecordedExcerpts checks the text report of each recorded excerpt
// against its golden (testdata/recorded/NAME.want), which was reviewed
// against the real build's report.
func TestRecordedExcerpts(t *testing.T) {
	for _, name := range []string{"genrules.strace", "compiles.strace", "tools.strace", "listing.strace"} {
		t.Run(name, func(t *testing.T) {
			r := analyzeRecorded(t, name)
			var got bytes.Buffer
			if err := WriteText(&got, r, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "recorded", name[:len(name)-len(".strace")]+".want")
			testenv.Golden(t, golden, got.Bytes(), *update)
		})
	}
}

// The report does not depend on the order of the execution log (which
// follows the order spawns finished in).
func TestReportIsOrderFree(t *testing.T) {
	fsys := loadFakeFS(t, filepath.Join("testdata", "recorded", "fs.txt"))
	trace := recordedBytes(t, "compiles.strace")
	var reports [][]byte
	for _, reverse := range []bool{false, true} {
		actions := recordedActions(t)
		if reverse {
			slices.Reverse(actions)
		}
		r, err := analyzeOn(bytes.NewReader(trace), "compiles.strace", actions, recordedLayout, fsys)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, b.Bytes())
	}
	if !bytes.Equal(reports[0], reports[1]) {
		t.Errorf("the JSON report changes with the log's order:\n%s\n---\n%s", reports[0], reports[1])
	}
}

func recordedBytes(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "recorded", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
