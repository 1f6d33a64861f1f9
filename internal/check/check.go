// Package check holds the checks Ahab runs over every action, one file per
// check. A check is a value: a name, a doc, the kinds it may report and a
// pure Run function. Run keeps no state between actions and does no I/O, so
// checks run on any number of workers and any action order yields the same
// findings.
package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// Check is one check.
type Check struct {
	// Name is short and lower case; the check's file, testdata folder and
	// test share it. Users never see it: they see kind tags.
	Name string
	// Doc says what the check scans and why that breaks hermeticity or
	// reproducibility. The part before the first blank line is its title.
	Doc string
	// Kinds lists every kind Run may report.
	Kinds []finding.Kind
	// Stage says when the check runs, and so what it sees of an action.
	Stage Stage
	// Run reports the findings of one action.
	Run func(a *action.Action, report func(finding.Finding))
	// Defer, when set, says an action of the CommandLine stage is to be
	// judged once the whole graph has been read, with its Outputs and Files
	// filled in: what reading the programs it runs needs. Run then sees it
	// only then.
	Defer func(a *action.Action) bool
}

// Stage says when a check runs.
type Stage uint8

const (
	// CommandLine checks judge an action's command line, environment and
	// execution info, as each action is decoded.
	CommandLine Stage = iota
	// Inputs checks judge what an action reads (action.StatusInputs),
	// which can only be known once the whole graph is read: Bazel writes
	// actions before the dep sets they name. They run once the graph has
	// been read, over every action that has inputs, and see only its
	// mnemonic, target and StatusInputs.
	Inputs
)
