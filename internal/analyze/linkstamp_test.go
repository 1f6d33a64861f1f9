package analyze

import (
	"os"
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// What a linkstamp compile takes from the workspace status comes through
// headers Bazel derives from the status files: Ahab's own judgement counts
// them under --stamp, and Ahab 0.2's judgement, which did not, still does
// not; without --stamp the compile reads nothing of the status.
func TestLinkstampReadsTheStatus(t *testing.T) {
	for _, tc := range []struct {
		dump string
		m    mode.Mode
		want []string
	}{
		{"stamp.pb", mode.Default, []string{"CppLinkstampCompile bazel-out/k8-fastbuild/include/build-info-nonvolatile.h", "CppLinkstampCompile bazel-out/k8-fastbuild/include/build-info-volatile.h"}},
		{"stamp.pb", mode.Ahab02, nil},
		{"nostamp.pb", mode.Default, nil},
	} {
		f, err := os.Open("testdata/linkstamp/" + tc.dump)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Dump(f, tc.dump, check.All(spec.BuiltinFor(tc.m)), Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Findings.Sorted() {
			if c.Kind == finding.WorkspaceStatus {
				got = append(got, c.Action.Mnemonic+" "+c.Path)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s, %v: workspace status %q, want %q", tc.dump, tc.m, got, tc.want)
		}
	}
}
