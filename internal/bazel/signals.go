package bazel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// The causes of a run that a signal stopped: SIGINT (Ctrl-C) and SIGTERM
// (a CI timeout, `kill PID`). A caller maps them to the exit statuses 130
// and 143, as a shell would report a process those signals killed.
var (
	ErrInterrupted = errors.New("interrupted")
	ErrTerminated  = errors.New("terminated")
)

// StoppedError is a Bazel command stopped before it ended by itself: by
// a signal (Cause is ErrInterrupted or ErrTerminated) or by the end of the
// caller's context (the context's cause).
type StoppedError struct {
	Command string // "bazel aquery"
	Cause   error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("`%s` was stopped: %v", e.Command, e.Cause)
}

func (e *StoppedError) Unwrap() error { return e.Cause }

// guarding counts the holders of SIGINT and SIGTERM (WithSignals), so that
// the program's own handler leaves the signals to them (Guarding).
var guarding atomic.Int32

// Guarding says whether some part of the program holds SIGINT and SIGTERM
// (WithSignals) to stop what it runs and clean up after it; a handler that
// would exit the program at once must then leave the signals alone.
func Guarding() bool { return guarding.Load() > 0 }

// hardStopKey is the context key of the channel closed on the second
// signal.
type hardStopKey struct{}

// WithSignals returns a copy of parent that SIGINT and SIGTERM end: the
// first signal cancels it with the cause ErrInterrupted or ErrTerminated,
// and every Bazel command running under it is asked to stop as Ctrl-C
// asks (see Runner.Run); a second signal makes them kill their process
// trees at once. Until release is called the program's own handler
// leaves the signals alone (Guarding), so that the caller can clean up
// after what it ran however it was stopped. release may be called more
// than once.
//
// The signals are caught with signal.Notify, never ignored: an ignored
// disposition (SIG_IGN) would survive exec into Bazel, a caught one is
// reset to the default there.
func WithSignals(parent context.Context) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancelCause(parent)
	hard := make(chan struct{})
	ctx = context.WithValue(ctx, hardStopKey{}, (<-chan struct{})(hard))
	signals := make(chan os.Signal, 4)
	done := make(chan struct{})
	guarding.Add(1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	// A parent a signal has already ended counts as the first: the next
	// signal is the second.
	n := 0
	if c := context.Cause(parent); errors.Is(c, ErrInterrupted) || errors.Is(c, ErrTerminated) {
		n = 1
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case s := <-signals:
				switch n++; n {
				case 1:
					cancel(causeOf(s))
				case 2:
					close(hard)
				}
			case <-done:
				return
			}
		}
	})
	return ctx, sync.OnceFunc(func() {
		signal.Stop(signals)
		close(done)
		wg.Wait()
		guarding.Add(-1)
		cancel(context.Canceled)
	})
}

func causeOf(s os.Signal) error {
	if s == syscall.SIGTERM {
		return ErrTerminated
	}
	return ErrInterrupted
}

// hardStop is closed when a second signal asks the commands running
// under ctx to be killed at once; nil (never) outside WithSignals.
func hardStop(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(hardStopKey{}).(<-chan struct{})
	return ch
}

// Stopped says why ctx ended: a signal (an error that is ErrInterrupted
// or ErrTerminated) or the context's own cause; nil while it runs.
func Stopped(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}
