package bazel

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"unicode"
)

// The Bazel commands of §1.7, as they appear in error messages.
const (
	infoCommand   = "bazel info"
	aqueryCommand = "bazel aquery"
)

// SpawnError means Bazel could not be started at all, typically because
// the executable is not on PATH. Err names the executable (Go's exec
// errors do: `exec: "bazel": executable file not found in $PATH`).
type SpawnError struct {
	Command    string // "bazel info", "bazel aquery", …
	Executable string // what we tried to run
	Err        error
}

// §1.7: "failed to spawn `bazel info` subprocess" + cause.
func (e *SpawnError) Error() string {
	return fmt.Sprintf("failed to spawn `%s` subprocess: %v", e.Command, e.Err)
}

func (e *SpawnError) Unwrap() error { return e.Err }

// ExitError means Bazel ran and failed. It carries Bazel's stderr because
// that is the only place the user learns why (§1.7, §6.5).
type ExitError struct {
	Command string // "bazel info", "bazel aquery", …
	// Status reads "exit status: 1" (the reference's shape) or, when Bazel
	// was killed by a signal, Go's "signal: killed".
	Status string
	// ExitCode is Bazel's exit code, or -1 when a signal ended it.
	ExitCode int
	// Stderr is the tail of Bazel's stderr (bounded, see stderrTail), with
	// trailing whitespace trimmed.
	Stderr string
}

// §1.7: "`bazel info` exited with <status>:\n<stderr trimmed>". The text
// spans lines because Bazel's own message does; it is contract.
func (e *ExitError) Error() string {
	return fmt.Sprintf("`%s` exited with %s:\n%s", e.Command, e.Status, e.Stderr)
}

// LastLines is the end of Stderr, its last n lines: what explains a
// failed build, without its hour of progress.
func (e *ExitError) LastLines(n int) string { return lastLines(e.Stderr, n) }

// IncompleteError means Bazel failed, yet the graph it printed decoded to
// its end: with --keep_going, aquery prints the graph of every target it
// could analyse and exits 1 for the rest. The analysis stands for what it
// covers; the targets Bazel names in its errors are not in it.
type IncompleteError struct {
	Exit *ExitError
}

// Error lists what Bazel said went wrong: its ERROR: lines with the
// indented lines that continue them, which may be the only ones naming
// the target (" - /ws/nope and referenced by '//broken:lib'"), and its
// warnings that a target will not be built.
func (e *IncompleteError) Error() string {
	var lines []string
	inError := false
	for line := range strings.Lines(e.Exit.Stderr) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "ERROR:"):
			inError = true
		case inError && isContinuation(line):
		case strings.HasPrefix(line, "WARNING: errors encountered while analyzing target"):
			inError = false
		default:
			inError = false
			continue
		}
		lines = append(lines, "  "+line)
	}
	if len(lines) == 0 {
		lines = []string{"  (Bazel printed no ERROR line; its output ends:)", "  " + lastLine(e.Exit.Stderr)}
	}
	return fmt.Sprintf("`%s` exited with %s, so the report covers only the targets it could analyse; Bazel says:\n%s",
		e.Exit.Command, e.Exit.Status, strings.Join(lines, "\n"))
}

func (e *IncompleteError) Unwrap() error { return e.Exit }

func lastLine(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// DecodeError means Bazel succeeded (or was stopped by us) but the consumer
// of its output failed; Err is the consumer's error.
type DecodeError struct {
	Err error
}

// §1.7: "failed to decode analysis.ActionGraphContainer from `bazel aquery`
// output" + cause. The decoder names the entry and offset (§6.5); this
// layer adds where the bytes came from, once.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("failed to decode analysis.ActionGraphContainer from `%s` output: %v", aqueryCommand, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// exitError builds the ExitError for a finished, unsuccessful process.
func exitError(command string, state *os.ProcessState, stderr *stderrTail) *ExitError {
	e := &ExitError{
		Command:  command,
		ExitCode: state.ExitCode(),
		Stderr:   strings.TrimRightFunc(stderr.String(), unicode.IsSpace),
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Status = state.String() // Go's "signal: killed"
	} else {
		// Rust's ExitStatus text, which the reference quotes (§1.7).
		e.Status = fmt.Sprintf("exit status: %d", state.ExitCode())
	}
	return e
}
