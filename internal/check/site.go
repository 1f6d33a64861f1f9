package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

// refOf names the action in its findings.
func refOf(a *action.Action) finding.ActionRef {
	return finding.ActionRef{Mnemonic: a.Mnemonic, TargetID: a.TargetID}
}

// siteOf is where a command-line string was found: a raw argument or a
// line of the param file it was read from (§3.0).
func siteOf(s action.String) finding.Site {
	if !s.InParamFile {
		return finding.Site{Location: finding.Argument, Value: s.Value}
	}
	return finding.Site{Location: finding.ParamFile, ExecPath: s.ParamFile, Value: s.Value}
}

// envSite is where an environment value was found (§3.0).
func envSite(e action.EnvVar) finding.Site {
	return finding.Site{Location: finding.EnvVar, Key: e.Key, Value: e.Value}
}
