package cli

// Exit codes (§1.4). They are listed in --help too.
const (
	ExitOK       = 0 // nothing found, or --no-fail, or an --expect-json match
	ExitFindings = 1 // findings, an --expect-json mismatch, or a runtime error
	ExitUsage    = 2 // the command line itself is wrong
)

// exitError ends a run with a code after its output has been written, as
// gazelle's errExit does for "diff already printed".
type exitError struct{ code int }

func (e exitError) Error() string { return "exit" }

// usageError is a mistake on the command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }
