package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/spec"
)

// All returns every check in the order the original ran them (§3.0). lib
// holds the reproducibility specs; nil means none.
func All(lib *spec.Library) []*Check {
	return []*Check{EnvLeak, Path, AbsPath(lib), ExecReq, WSStatus, Repro(lib)}
}

// Run runs every check of the stage over one action.
func Run(checks []*Check, stage Stage, a *action.Action, report func(finding.Finding)) {
	for _, c := range checks {
		if c.Stage == stage {
			c.Run(a, report)
		}
	}
}
