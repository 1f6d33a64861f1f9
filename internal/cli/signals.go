package cli

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/bazel"
)

// ExitInterrupted and ExitTerminated are the statuses of a run stopped by
// SIGINT or SIGTERM, 128 plus the signal, as a shell reports them.
const (
	ExitInterrupted = 128 + int(syscall.SIGINT)
	ExitTerminated  = 128 + int(syscall.SIGTERM)
)

// HandleSignals makes SIGINT and SIGTERM end the program without leaving
// anything behind: the temporary file of a report being written is
// removed on the way out. While Bazel runs, the signals are Bazel's
// (package bazel: the first Ctrl-C is left to Bazel, the second kills it),
// so they are ignored here.
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
