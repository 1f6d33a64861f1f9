package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// All returns every check in the order the original ran them (§3.0). lib
// holds the reproducibility specs and the judgement; nil means none and
// Ahab's own. inheritedEnv names the variables the build inherits from the
// environment of whoever runs Bazel (--action_env=NAME), which Ahab's own
// judgement reports.
func All(lib *spec.Library, inheritedEnv ...string) []*Check {
	envLeak := EnvLeak
	if len(inheritedEnv) > 0 && (lib == nil || lib.Mode() != mode.Ahab02) {
		envLeak = EnvLeakOf(inheritedEnv)
	}
	m := mode.Default
	if lib != nil {
		m = lib.Mode()
	}
	return []*Check{envLeak, Path, AbsPath(lib), ExecReq, WSStatusFor(m), Repro(lib)}
}

// Run runs every check of the stage over one action.
func Run(checks []*Check, stage Stage, a *action.Action, report func(finding.Finding)) {
	for _, c := range checks {
		if c.Stage == stage {
			c.Run(a, report)
		}
	}
}

// runNow runs the checks of the CommandLine stage that judge the action
// now, and returns those that defer it to after the graph (Check.Defer).
func runNow(checks []*Check, a *action.Action, report func(finding.Finding)) (deferred []*Check) {
	for _, c := range checks {
		if c.Stage != CommandLine {
			continue
		}
		if c.Defer != nil && c.Defer(a) {
			deferred = append(deferred, c)
			continue
		}
		c.Run(a, report)
	}
	return deferred
}
