package cli

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
)

// HandleSignals makes SIGINT and SIGTERM end the program without leaving
// anything behind: the temporary file of a report being written is
// removed on the way out, and the status is 130 or 143 (ExitInterrupted,
// ExitTerminated). While something holds the signals (bazel.WithSignals:
// every Bazel command, and trace and reprotest for their whole run, which
// must stop Bazel and clean up first), they are left to it.
func HandleSignals() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range signals {
			if bazel.Guarding() {
				continue
			}
			atomicfile.RemoveTemporaries()
			if s == syscall.SIGTERM {
				os.Exit(ExitTerminated)
			}
			os.Exit(ExitInterrupted)
		}
	}()
}
