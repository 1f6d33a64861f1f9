package check

import (
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

const absPathDoc = `report absolute paths on the build machine

The check extracts the /-rooted runs (see AbsolutePaths) from every
argument except argv[0], which the repro check judges instead, from every
line of every param file, and from every environment value except PATH's,
which the path check judges. An absolute path names a file outside the
execution root that Bazel neither tracks nor sandboxes, so the action
depends on what happens to be installed on the machine. The exact paths
/dev/null and /proc/self/cwd are allowed; under Ahab's own judgement so
is every path below /proc/self/cwd/, which is the execution root itself
(-ffile-prefix-map=/proc/self/cwd/= is how a toolchain keeps the machine
out of its output). A string the program's spec
declares as a path argument (declared_paths, e.g. a container's
--working-dir /app) names a path inside the artifact being built and is
skipped whole; environment values never are. Implements §3.4 of the
reference.`

// AbsPath returns the absolute-path check. lib supplies the declared
// path arguments of known programs and the judgement; nil means no specs
// and Ahab's own judgement.
func AbsPath(lib *spec.Library) *Check {
	m := mode.Default
	if lib != nil {
		m = lib.Mode()
	}
	return &Check{
		Name:  "abspath",
		Doc:   absPathDoc,
		Kinds: []finding.Kind{finding.AbsolutePath},
		Run: func(a *action.Action, report func(finding.Finding)) {
			runAbsPath(lib, m, a, report)
		},
	}
}

// allowedPath reports whether a run is one of the absolute paths every
// machine has with the same meaning (§3.4).
func allowedPath(run string, m mode.Mode) bool {
	return run == "/dev/null" || run == "/proc/self/cwd" ||
		m != mode.Ahab02 && strings.HasPrefix(run, "/proc/self/cwd/")
}

func runAbsPath(lib *spec.Library, m mode.Mode, a *action.Action, report func(finding.Finding)) {
	ref := refOf(a)
	emit := func(run string, site finding.Site) {
		if !allowedPath(run, m) {
			report(finding.Finding{Kind: finding.AbsolutePath, Action: ref, Path: run, Site: site})
		}
	}

	// §3.4.3: most actions name no absolute path at all, so the program
	// is only resolved for the declared paths at the first run.
	var declared []string
	resolved := false
	isDeclared := func(s string) bool {
		if !resolved {
			declared = declaredPaths(lib, a)
			resolved = true
		}
		return slices.Contains(declared, s)
	}

	// §3.4: argv[0] is the program; the repro check judges it.
	skip := len(a.Arguments) > 0
	a.AnalyzableStrings(func(s action.String) {
		if skip {
			skip = false
			return
		}
		site := finding.Site{}
		first := true
		for run := range AbsolutePaths(s.Value) {
			if first {
				if isDeclared(s.Value) {
					return
				}
				site = siteOf(s)
				first = false
			}
			emit(run, site)
		}
	})
	for _, e := range a.Env {
		// §3.4: PATH is the path check's business.
		if e.Key == "PATH" {
			continue
		}
		for run := range AbsolutePaths(e.Value) {
			emit(run, envSite(e))
		}
	}
}

// declaredPaths returns the strings of the action's command line that the
// spec answering for its program declares as paths (§3.4.3).
func declaredPaths(lib *spec.Library, a *action.Action) []string {
	if lib == nil {
		return nil
	}
	argv := a.ExpandedArgv(lib.Mode())
	if len(argv) == 0 {
		return nil
	}
	r := lib.ResolveArgv(argv)
	if r.Spec == nil {
		return nil
	}
	return r.Spec.DeclaredPathArgs(r.Args)
}
