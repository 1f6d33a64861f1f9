package check

import (
	"reflect"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/spec"
)

// The memo gives an action what reading it would: its own target on
// findings read for another, and a reading of its own when anything the
// reading depends on differs.
func TestMemoGivesWhatReadingGives(t *testing.T) {
	genrule := func(target uint32, script string, outputs ...string) *action.Action {
		return &action.Action{Mnemonic: "Genrule", TargetID: target, Arguments: []string{"/bin/bash", "-c", script}, Outputs: outputs}
	}
	actions := []*action.Action{
		genrule(1, "date > bazel-out/k8-fastbuild/bin/a.txt", "bazel-out/k8-fastbuild/bin/a.txt"),
		genrule(2, "date > bazel-out/k8-fastbuild/bin/a.txt", "bazel-out/k8-fastbuild/bin/a.txt"),
		// The same script writing a file that is not an output.
		genrule(3, "date > bazel-out/k8-fastbuild/bin/a.txt", "bazel-out/k8-fastbuild/bin/b.txt"),
		genrule(4, "echo $RANDOM > bazel-out/k8-fastbuild/bin/a.txt", "bazel-out/k8-fastbuild/bin/a.txt"),
		{Mnemonic: "Genrule", TargetID: 5, Arguments: []string{"/bin/bash", "-c", "echo $SEED > bazel-out/k8-fastbuild/bin/a.txt"},
			Env: []action.EnvVar{{Key: "SEED", Value: "1"}}, Outputs: []string{"bazel-out/k8-fastbuild/bin/a.txt"}},
	}
	lib := spec.Builtin()
	m := new(memo)
	for round := range 2 {
		for _, a := range actions {
			var fresh, remembered []finding.Finding
			runRepro(lib, new(memo), a, func(f finding.Finding) { fresh = append(fresh, f) })
			runRepro(lib, m, a, func(f finding.Finding) { remembered = append(remembered, f) })
			if !reflect.DeepEqual(fresh, remembered) {
				t.Errorf("round %d, target %d: through the memo\n%+v\nread afresh\n%+v", round, a.TargetID, remembered, fresh)
			}
		}
	}
	if got := m.size.Load(); got != 4 {
		t.Errorf("the memo holds %d actions, want 4 (targets 1 and 2 are one action)", got)
	}
}
