package check

import (
	"path"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
)

// WSStatus reports actions that read the workspace status files.
var WSStatus = &Check{
	Name: "wsstatus",
	Doc: `report actions that read stable-status.txt or volatile-status.txt

The check reads the workspace status files among the action's inputs, and
under Ahab's own judgement the build-info headers Bazel derives from them
for a linkstamp compile under --stamp,
which the decoder finds by following the action's input dep sets
transitively once the whole graph has been read, and reports each file
once. These files hold what
--workspace_status_command printed (time, commit, user, host), so a
stamped action's output changes with every build; volatile-status.txt is
worse, as Bazel deliberately does not rerun actions when only it changes.
Implements §3.5 of the reference.`,
	Kinds: []finding.Kind{finding.WorkspaceStatus},
	Stage: Inputs,
	Run:   runWSStatus,
}

func runWSStatus(a *action.Action, report func(finding.Finding)) {
	for _, path := range a.StatusInputs {
		report(finding.Finding{Kind: finding.WorkspaceStatus, Action: refOf(a), Path: path})
	}
}

// WSStatusFor is WSStatus as mode m judges: Ahab 0.2 read only the two
// status files; Ahab's own judgement also counts the headers Bazel derives
// from them for a linkstamp compile under --stamp.
func WSStatusFor(m mode.Mode) *Check {
	if m != mode.Ahab02 {
		return WSStatus
	}
	c := *WSStatus
	c.Run = func(a *action.Action, report func(finding.Finding)) {
		for _, p := range a.StatusInputs {
			if !action.IsBuildInfo(path.Base(p)) {
				report(finding.Finding{Kind: finding.WorkspaceStatus, Action: refOf(a), Path: p})
			}
		}
	}
	return &c
}
