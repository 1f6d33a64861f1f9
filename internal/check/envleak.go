package check

import (
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// EnvLeak reports the USER and HOSTNAME sentinels wherever they reach an
// action.
var EnvLeak = EnvLeakOf(nil)

// EnvLeakOf is EnvLeak that also reports, on every shell action (genrules
// and run_shell: bash -c), the variables the build inherits from the
// environment of whoever runs Bazel: --action_env=NAME with no value,
// which aquery never shows, so Ahab reads it from Bazel's configuration.
func EnvLeakOf(inherited []string) *Check {
	return &Check{
		Name:  "envleak",
		Doc:   envLeakDoc,
		Kinds: []finding.Kind{finding.EnvironmentLeak},
		Run: func(a *action.Action, report func(finding.Finding)) {
			runEnvLeak(a, report)
			if len(inherited) > 0 && usesShellEnv(a) {
				for _, name := range inherited {
					report(finding.Finding{Kind: finding.EnvironmentLeak, Action: refOf(a), Source: finding.Inherited,
						Site: finding.Site{Location: finding.EnvVar, Key: name}})
				}
			}
		},
	}
}

// usesShellEnv says an action runs a shell script, as genrules and
// run_shell do: these get Bazel's default shell environment, which
// --action_env fills.
func usesShellEnv(a *action.Action) bool {
	if a.Mnemonic == "Genrule" {
		return true
	}
	if len(a.Arguments) < 2 {
		return false
	}
	base := a.Arguments[0][strings.LastIndexByte(a.Arguments[0], '/')+1:]
	return (base == "bash" || base == "sh") && slices.Contains(a.Arguments[1:], "-c")
}

const envLeakDoc = `report values of USER and HOSTNAME that reach an action

Ahab asks Bazel for the action graph with USER and HOSTNAME set to fixed
sentinels. The check scans every argument (argv[0] included), every line
of every param file, referenced or not, and every environment value (never
the keys) for each sentinel, user first. A string that holds a sentinel was
copied out of the environment by a repository rule, --action_env or a
genrule command, so the action's inputs depend on who built it and where:
its cache key and often its output change from one machine to the next.
One finding per string and sentinel, carrying the whole string.
Implements §3.1 of the reference.

Ahab's own judgement also reports a variable the build passes from the
environment of whoever runs Bazel (--action_env=NAME with no value) on
every shell action, since aquery shows neither the variable nor its
value: Ahab reads the options from Bazel's configuration.`

// sentinels are the leaked values in report order (§3.1).
var sentinels = [...]struct {
	source finding.Source
	value  string
}{
	{finding.User, action.UserSentinel},
	{finding.Hostname, action.HostnameSentinel},
}

// sentinelPrefix starts both sentinels: most actions hold neither, and one
// search for it tells, where searching for each would scan every string
// twice.
const sentinelPrefix = "ahab-sentinel-"

func runEnvLeak(a *action.Action, report func(finding.Finding)) {
	found := false
	a.AnalyzableStrings(func(s action.String) {
		found = found || strings.Contains(s.Value, sentinelPrefix)
	})
	for _, e := range a.Env {
		found = found || strings.Contains(e.Value, sentinelPrefix)
	}
	if !found {
		return
	}
	ref := refOf(a)
	for _, sentinel := range sentinels {
		leak := func(site finding.Site) {
			report(finding.Finding{
				Kind:     finding.EnvironmentLeak,
				Action:   ref,
				Source:   sentinel.source,
				Sentinel: sentinel.value,
				Site:     site,
			})
		}
		a.AnalyzableStrings(func(s action.String) {
			if strings.Contains(s.Value, sentinel.value) {
				leak(siteOf(s))
			}
		})
		for _, e := range a.Env {
			if strings.Contains(e.Value, sentinel.value) {
				leak(envSite(e))
			}
		}
	}
}
