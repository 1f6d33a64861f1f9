package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// defaultPath is the PATH Bazel gives actions under
// --incompatible_strict_action_env (§3.2).
const defaultPath = "/bin:/usr/bin:/usr/local/bin"

// Path reports actions whose PATH is not Bazel's default.
var Path = &Check{
	Name: "path",
	Doc: `report a PATH other than Bazel's default

The check reads every environment variable named exactly PATH (the name is
case-sensitive and each occurrence counts) and reports its value unless it
is byte for byte ` + defaultPath + `. Any other PATH, usually
the user's own through --action_env=PATH or a non-strict action
environment, lets the action pick programs by name from directories that
differ between machines, and makes its cache key depend on the shell it was
started from. Implements §3.2 of the reference.`,
	Kinds: []finding.Kind{finding.BadPath},
	Run:   runPath,
}

func runPath(a *action.Action, report func(finding.Finding)) {
	for _, e := range a.Env {
		if e.Key == "PATH" && e.Value != defaultPath {
			report(finding.Finding{Kind: finding.BadPath, Action: refOf(a), Actual: e.Value})
		}
	}
}
