package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// ExecReq reports actions that ask to run outside the sandbox or with the
// network.
var ExecReq = &Check{
	Name: "execreq",
	Doc: `report actions that declare requires-network, no-sandbox or local

The check reads the keys of the action's execution_info (set by tags such
as tags = ["local"] or by the rule) and reports each one that is exactly
requires-network, no-sandbox or local; values are ignored. Such an action
may reach the network or see the whole file system, so its output can
depend on things Bazel does not track. Scheduling advice (no-remote,
no-cache, supports-workers, cpu:4, ...) changes where an action runs, not
what it can see, and is not reported. Implements §3.3 of the reference.`,
	Kinds: []finding.Kind{finding.ExecutionRequirement},
	Run:   runExecReq,
}

func runExecReq(a *action.Action, report func(finding.Finding)) {
	for _, key := range a.ExecutionInfo {
		switch key {
		case "requires-network", "no-sandbox", "local":
			report(finding.Finding{Kind: finding.ExecutionRequirement, Action: refOf(a), Requirement: key})
		}
	}
}
