package bazel

import "sync"

// HoldSignals tells the program's own handler (Guarding) that the caller
// owns SIGINT and SIGTERM until release is called, as a running Bazel
// command does. It is for a caller that runs several Bazel commands and
// must clean up after them however it is stopped (package reprotest shuts
// its Bazel servers down and removes its scratch directories); the caller
// then handles the signals itself. release may be called more than once.
func HoldSignals() (release func()) {
	guarding.Add(1)
	return sync.OnceFunc(func() { guarding.Add(-1) })
}
