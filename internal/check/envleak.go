package check

import (
	"strings"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// EnvLeak reports the USER and HOSTNAME sentinels wherever they reach an
// action.
var EnvLeak = &Check{
	Name: "envleak",
	Doc: `report values of USER and HOSTNAME that reach an action

Ahab asks Bazel for the action graph with USER and HOSTNAME set to fixed
sentinels. The check scans every argument (argv[0] included), every line
of every param file, referenced or not, and every environment value (never
the keys) for each sentinel, user first. A string that holds a sentinel was
copied out of the environment by a repository rule, --action_env or a
genrule command, so the action's inputs depend on who built it and where:
its cache key and often its output change from one machine to the next.
One finding per string and sentinel, carrying the whole string.
Implements §3.1 of the reference.`,
	Kinds: []finding.Kind{finding.EnvironmentLeak},
	Run:   runEnvLeak,
}

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
