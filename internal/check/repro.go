package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/spec"
)

const reproDoc = `judge the program each action runs

The check identifies the program of an action from argv[0] of its
expanded command line (param files spliced in), unwraps wrappers the
library knows (process_wrapper, java -jar, python3 script) and asks the
library what it knows of what finally runs. A program given by an
absolute path or a bare name comes from the machine, outside anything
Bazel tracks, and no spec can vouch for it. A program inside the
execution root is reported when the library says the machine generated
it (host-derived), when nothing is known of it, when it is never
reproducible, or when its invocation lacks the options that make its
output the same on every machine, or has options that break it. Shell
commands are not parsed: "/bin/bash -c ..." is the system's bash.
Implements §3.6 of the reference.`

// Repro returns the reproducibility check bound to a library; nil means
// an empty one, so every program inside the execution root is unknown.
func Repro(lib *spec.Library) *Check {
	if lib == nil {
		lib = spec.NewLibrary()
	}
	return &Check{
		Name: "repro",
		Doc:  reproDoc,
		Kinds: []finding.Kind{
			finding.SystemProgram,
			finding.HostDerivedProgram,
			finding.UnknownProgram,
			finding.NeverReproducible,
			finding.ConditionalReproducibility,
		},
		Run: func(a *action.Action, report func(finding.Finding)) {
			runRepro(lib, a, report)
		},
	}
}

func runRepro(lib *spec.Library, a *action.Action, report func(finding.Finding)) {
	// §3.6 step 1: FileWrite, TemplateExpand, Symlink and the like run
	// no program.
	argv := a.ExpandedArgv()
	if len(argv) == 0 {
		return
	}
	r := lib.ResolveArgv(argv)
	f := finding.Finding{Action: refOf(a), Program: r.Program}
	if len(r.Wrappers) > 0 {
		f.Wrappers = r.Wrappers
	}

	// §3.6 step 4: resolution never looks a system program up, so it has
	// no spec; it is the machine's, never merely unknown.
	if r.Program.Origin.Kind == program.System {
		f.Kind = finding.SystemProgram
		report(f)
		return
	}
	if r.Spec == nil {
		f.Kind = finding.UnknownProgram
		report(f)
		return
	}
	v := r.Spec.Assess(r.Args)
	switch v.Outcome {
	case spec.Reproducible:
		return
	case spec.HostDerivedProgram:
		f.Kind = finding.HostDerivedProgram
	case spec.NotReproducible:
		f.Kind = finding.NeverReproducible
		f.Synonym = synonymOf(r)
	case spec.Conditional:
		f.Kind = finding.ConditionalReproducibility
		f.Synonym = synonymOf(r)
		for _, u := range v.Unmet {
			f.Unmet = append(f.Unmet, finding.Unmet(u))
		}
	default:
		return
	}
	report(f)
}

// synonymOf is the key that carried the spec when it is not the program
// itself: a same_as target or a pattern that answered (§3.6).
func synonymOf(r spec.Resolution) *program.ID {
	if r.Carrier == r.Program {
		return nil
	}
	s := r.Carrier
	return &s
}
