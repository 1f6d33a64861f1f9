package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/aquery"
	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/check"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// static runs the static analysis of the label in the scratch output base,
// as `ahab LABEL` would (aquery with the USER and HOSTNAME sentinels, the
// variables the build inherits, Ahab's own judgement), and indexes every
// action's findings by its outputs. The aquery starts a Bazel server there,
// which is shut down before static returns, whatever happened.
func (s *session) static(ctx context.Context) (*analyze.Index, error) {
	lib := s.o.Library
	if lib == nil {
		lib = spec.BuiltinFor(mode.Default)
	}
	runner := &bazel.Runner{Bazel: s.bazel(), Dir: s.o.Dir, Env: s.o.Env}
	req := bazel.AqueryRequest{OutputBase: s.outputBase, Flags: s.o.Flags, Label: s.o.Label}
	s.progress("ahab trace: analysing %s with bazel aquery\n", s.o.Label)
	defer s.shutdown()

	var res analyze.Result
	err := s.cancellable(ctx, func(ctx context.Context) error {
		checks := check.All(lib)
		// What the build inherits from the environment never shows in
		// aquery; Bazel's configuration says it.
		inherited, err := runner.InheritedActionEnv(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			s.warn("could not read Bazel's configuration, so variables the build inherits from the environment (--action_env=NAME) are not among the static findings: " + firstLine(err.Error()))
		} else if len(inherited) > 0 {
			checks = check.All(lib, inherited...)
		}
		err = runner.Aquery(ctx, req, func(stdout io.Reader) error {
			var err error
			res, err = analyze.Dump(stdout, "the aquery output of "+s.o.Label, checks, analyze.Options{Format: aquery.Proto, ByAction: true})
			return err
		})
		if incomplete, ok := errors.AsType[*bazel.IncompleteError](err); ok && res.Actions > 0 {
			// --keep_going analysed what it could: the build will fail
			// on the rest and say why.
			s.warn("the static analysis is incomplete: " + firstLine(incomplete.Error()))
			err = nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return analyze.NewIndex(res.ByAction), nil
}

// attachStatic gives each action the findings of the action of the static
// analysis that declares one of its outputs, and its target label from
// there when the execution log names none (Bazel before 7 never does).
func attachStatic(actions []Action, static *analyze.Index) {
	for i := range actions {
		a := &actions[i]
		af := static.ByOutputs(a.Outputs)
		if af == nil {
			continue
		}
		if a.Target == "" {
			a.Target = af.Target
		}
		a.Causes = af.Findings
	}
}

// cancellable runs f with a context that also ends when a SIGINT or
// SIGTERM arrives, and returns an InterruptedError if one did (or ctx
// ended): the Bazel commands of the static analysis run through
// bazel.Runner, which knows nothing of the trace's signals.
func (s *session) cancellable(ctx context.Context, f func(context.Context) error) error {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var cause string
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		select {
		case sig := <-s.signals:
			cause = sig.String()
			cancel()
		case <-done:
		}
	})
	err := f(fctx)
	close(done)
	wg.Wait()
	switch {
	case cause != "":
		return &InterruptedError{Cause: cause}
	case ctx.Err() != nil:
		return &InterruptedError{Cause: ctx.Err().Error()}
	}
	return err
}

// shutdown stops the Bazel server the static analysis started in the
// scratch output base (bazel.Runner.Shutdown: `bazel shutdown`, then
// SIGKILL for whatever is left).
func (s *session) shutdown() {
	runner := &bazel.Runner{Bazel: s.bazel(), Dir: s.o.Dir, Env: s.o.Env}
	if err := runner.Shutdown(s.outputBase); err != nil {
		s.warn(err.Error())
	}
}

func (s *session) grace() time.Duration {
	if s.o.Grace == 0 {
		return 10 * time.Second
	}
	return s.o.Grace
}

func (s *session) warn(msg string) {
	if s.o.Warn != nil {
		s.o.Warn(msg)
	}
}

func (s *session) progress(format string, args ...any) {
	if s.o.Progress != nil {
		fmt.Fprintf(s.o.Progress, format, args...)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
