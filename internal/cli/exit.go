package cli

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
)

// Exit statuses, the same in every command, so that a CI can tell a
// finding from a failure: the README's table and every --help list them
// (exitStatusHelp).
const (
	// ExitOK: nothing found, the builds agree, --no-fail, or an
	// --expect-json match.
	ExitOK = 0
	// ExitFindings: something was found, --expect-json differed, or the
	// builds diverge.
	ExitFindings = 1
	// ExitUsage: the command line is wrong.
	ExitUsage = 2
	// ExitFailure: what was asked could not be done: Bazel failed or was
	// missing, a target does not exist, an input file is bad or cannot be
	// read, a report cannot be written. Under --compat 0.2 this is 1, as
	// Ahab 0.2 exits (§1.4).
	ExitFailure = 3
	// ExitInterrupted and ExitTerminated: stopped by SIGINT or SIGTERM,
	// 128 plus the signal, as a shell reports them.
	ExitInterrupted = 128 + int(syscall.SIGINT)
	ExitTerminated  = 128 + int(syscall.SIGTERM)
)

// exitStatusHelp is the table of exit statuses every --help ends with.
const exitStatusHelp = `Exit status:
  0    success: nothing found, the builds agree, --no-fail, or an
       --expect-json match
  1    something found, --expect-json differed, or the builds diverge
  2    the command line is wrong
  3    failure: Bazel failed, a target is missing, an input file is bad or
       unreadable, a report cannot be written (1 under --compat 0.2)
  130  interrupted (SIGINT); 143 terminated (SIGTERM)
`

// failureStatus is ExitFailure, or what Ahab 0.2 exits with for any
// runtime error when its judgement is asked for.
func failureStatus(m mode.Mode) int {
	if m == mode.Ahab02 {
		return ExitFindings
	}
	return ExitFailure
}

// exitError ends a run with a code after its output has been written, as
// gazelle's errExit does for "diff already printed".
type exitError struct{ code int }

func (e exitError) Error() string { return "exit" }

// usageError is a mistake on the command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// command is one of Ahab's commands, for the text and status of its
// errors: Name is what its --help is asked of ("ahab", "ahab trace"),
// Failure the status of a failure to run.
type command struct {
	Name    string
	Failure int
}

// finish turns the error of a run into an exit status, printing it unless
// the run already said everything it had to say. Every error is one
// "Error: " line (Bazel's own message may follow it); a usage mistake
// points at the command's --help.
func finish(sys System, c command, err error) int {
	if err == nil {
		return ExitOK
	}
	if e, ok := errors.AsType[exitError](err); ok {
		return e.code
	}
	if u, ok := errors.AsType[usageError](err); ok {
		fmt.Fprintf(sys.Stderr, "Error: %s\n\nRun '%s --help' for usage.\n", quote.Lines(u.msg), c.Name)
		return ExitUsage
	}
	printError(sys, err)
	switch {
	case errors.Is(err, bazel.ErrInterrupted):
		return ExitInterrupted
	case errors.Is(err, bazel.ErrTerminated):
		return ExitTerminated
	}
	return c.Failure
}
