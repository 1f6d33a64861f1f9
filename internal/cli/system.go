package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// System is everything of the outside world the CLI touches, so that tests
// can run Main in-process with buffers and a made-up environment.
type System struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// LookupEnv reads one environment variable.
	LookupEnv func(string) (string, bool)
	// Environ is the whole environment, passed on to Bazel.
	Environ func() []string
	// StdoutIsTerminal and StderrIsTerminal decide colours, the sign-off
	// and progress (§1.6, §1.8).
	StdoutIsTerminal bool
	StderrIsTerminal bool
}

// OS is the real process's System.
func OS() System {
	return System{
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		LookupEnv:        os.LookupEnv,
		Environ:          os.Environ,
		StdoutIsTerminal: term.IsTerminal(int(os.Stdout.Fd())),
		StderrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// color decides colour for one stream as no-color.org says: only on a
// terminal, never when NO_COLOR is set to anything but the empty string,
// and never when TERM says the terminal is dumb. (Ahab 0.2 also took an
// empty NO_COLOR for a no.)
func (s System) color(terminal bool) bool {
	if v, _ := s.LookupEnv("NO_COLOR"); v != "" {
		return false
	}
	if t, _ := s.LookupEnv("TERM"); t == "dumb" {
		return false
	}
	return terminal
}
