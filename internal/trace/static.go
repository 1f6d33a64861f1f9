package trace

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/analyze"
	"github.com/ahab-go/ahab/internal/bazel"
)

// static resolves a query among the labels into the targets the build
// reads from its target file (bazel cquery), then runs the static
// analysis (Options.Static), both in the scratch output base, and shuts
// down the server they started, whatever happened.
func (s *session) static(ctx context.Context) (*analyze.Index, string, error) {
	defer s.shutdown()
	if slices.ContainsFunc(s.o.Labels, func(l string) bool { return !bazel.IsPattern(l) }) {
		s.progress("asking bazel cquery for the targets of %s\n", bazel.Query(s.o.Labels))
		targets, err := s.runner.Targets(ctx, bazel.TargetsRequest{
			OutputBase: s.outputBase, Flags: s.o.Flags, Expr: s.scope.Query(bazel.Query(s.o.Labels)),
		})
		if err != nil {
			return nil, "", err
		}
		if len(targets) == 0 {
			return nil, "", fmt.Errorf("%s names no target to build", bazel.Query(s.o.Labels))
		}
		if err := os.WriteFile(s.targetFile, []byte(strings.Join(targets, "\n")+"\n"), 0o644); err != nil {
			return nil, "", err
		}
		s.targets = targets
	}
	if s.o.Static == nil {
		return nil, "", nil
	}
	s.progress("the static analysis of %s, with bazel aquery\n", bazel.Query(s.o.Labels))
	return s.o.Static(ctx, s.outputBase)
}

// attachStatic gives each action the findings of the action of the static
// analysis that declares one of its outputs, and its target label from
// there when the execution log names none (Bazel before 7 never does).
func attachStatic(actions []Action, static *analyze.Index) {
	if static == nil {
		return
	}
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

// shutdown stops the Bazel server the static analysis started in the
// scratch output base (bazel.Runner.Shutdown: `bazel shutdown`, then
// SIGKILL for whatever is left, with what it runs).
func (s *session) shutdown() {
	if err := s.runner.Shutdown(s.outputBase); err != nil {
		s.warn(err.Error())
	}
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
