// Package action is the model of one Bazel action that the checks see:
// what aquery says it runs, and the workspace status files it reads, so
// that checks never follow proto ids. The action's target is named by its
// id, because a dump lists actions before their targets; findings carry
// the id until the analysis resolves it (finding.ResolveTargets).
package action

import (
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/mode"
)

// Action is one action of the graph.
type Action struct {
	Mnemonic string
	// TargetID is the id of the action's target in the graph.
	TargetID uint32
	// Arguments is argv, argv[0] included, as aquery lists it.
	Arguments []string
	// Env is the action's environment in dump order.
	Env []EnvVar
	// ExecutionInfo holds the keys of execution_info in dump order
	// (values are never read).
	ExecutionInfo []string
	// ParamFiles are the param files aquery printed with
	// --include_param_files, each already split into lines (§9).
	ParamFiles []ParamFile
	// StatusInputs are the paths of the workspace status files among the
	// action's inputs, once each, in the order they were first reached
	// (§3.5). They are known only once the whole graph has been read, so
	// only checks of the Inputs stage see them (check.Stage).
	StatusInputs []string
	// Outputs are the exec paths of the files the action writes, and Files
	// reads the files it runs and reads from the workspace. Both are known
	// only once the whole graph has been read: only checks that deferred
	// the action (check.Check.Defer) see them, and Files is nil when the
	// workspace is not known.
	Outputs []string
	Files   code.Files
}

// EnvVar is one environment variable of an action.
type EnvVar struct{ Key, Value string }

// ParamFile is one param file of an action.
type ParamFile struct {
	ExecPath string
	Lines    []string
}

// String is one string of an action's command line with where it came
// from: a raw argument, or a line of the param file at ParamFile, whose
// exec path may be empty (§9).
type String struct {
	Value       string
	ParamFile   string
	InParamFile bool
}

// References reports whether arg names the param file at execPath, as mode
// m reads param file references: it ends with the path and what precedes
// the path ends with "@" or "flagfile=" (§9). So "@p", "-Wl,@p" and
// "--flagfile=p" refer to p; "p" and "-fmodule-map-file=p" do not. Ahab's
// own judgement also reads rules_go's "-param=p", which Ahab 0.2 did not.
func References(arg, execPath string, m mode.Mode) bool {
	if execPath == "" || !strings.HasSuffix(arg, execPath) {
		return false
	}
	before := arg[:len(arg)-len(execPath)]
	return strings.HasSuffix(before, "@") || strings.HasSuffix(before, "flagfile=") ||
		m != mode.Ahab02 && strings.HasSuffix(before, "-param=")
}

// ExpandedArgv is the argv with each param-file reference, as mode m reads
// them, replaced in place by the lines of the first param file it
// references (§9). It is not
// recursive, and unreferenced param files are not spliced in. It is what
// programs are identified and judged by (§3.6). The many actions whose
// arguments reference no param file get their arguments as they are, not
// a copy, so callers must not modify the result.
func (a *Action) ExpandedArgv(m mode.Mode) []string {
	if len(a.ParamFiles) == 0 || !slices.ContainsFunc(a.Arguments, func(arg string) bool { return a.referencedParamFile(arg, m) != nil }) {
		return a.Arguments
	}
	n := 0
	for _, arg := range a.Arguments {
		if pf := a.referencedParamFile(arg, m); pf != nil {
			n += len(pf.Lines)
		} else {
			n++
		}
	}
	out := make([]string, 0, n)
	for _, arg := range a.Arguments {
		if pf := a.referencedParamFile(arg, m); pf != nil {
			out = append(out, pf.Lines...)
		} else {
			out = append(out, arg)
		}
	}
	return out
}

func (a *Action) referencedParamFile(arg string, m mode.Mode) *ParamFile {
	for i := range a.ParamFiles {
		if References(arg, a.ParamFiles[i].ExecPath, m) {
			return &a.ParamFiles[i]
		}
	}
	return nil
}

// AnalyzableStrings calls f for every raw argument (argv[0] included,
// references kept as written) and then for every line of every param file,
// each once, whether or not it is referenced (§3.0, §9).
func (a *Action) AnalyzableStrings(f func(String)) {
	for _, arg := range a.Arguments {
		f(String{Value: arg})
	}
	for _, pf := range a.ParamFiles {
		for _, line := range pf.Lines {
			f(String{Value: line, ParamFile: pf.ExecPath, InParamFile: true})
		}
	}
}

// The values Ahab puts in USER and HOSTNAME when it asks Bazel for the
// graph (§2). They are fixed rather than random so that action keys, and
// with them Bazel's analysis cache and saved reports, stay stable; long
// and distinctive so that finding one anywhere in the graph means the
// build copied it out of the environment.
const (
	UserSentinel     = "ahab-sentinel-user-4f8a1c6b9d2e7350"
	HostnameSentinel = "ahab-sentinel-hostname-4f8a1c6b9d2e7350"
)

// IsBuildInfo says whether a file name is one Bazel derives from the
// workspace status files for the C++ rules under --stamp: the headers a
// linkstamp compile includes. (Without --stamp it includes
// build-info-redacted.h, which holds nothing of the status.) Ahab's own
// judgement counts reading one as reading the status; Ahab 0.2 did not.
func IsBuildInfo(name string) bool {
	return name == "build-info-volatile.h" || name == "build-info-nonvolatile.h"
}

// Clone copies what a check of the CommandLine stage sees of an action
// (its mnemonic, target, command line, environment, execution info and
// param files), every string included, so that the copy outlives the
// memory the decoder cut the action's strings from and reuses.
func (a *Action) Clone() Action {
	c := Action{Mnemonic: strings.Clone(a.Mnemonic), TargetID: a.TargetID}
	for _, s := range a.Arguments {
		c.Arguments = append(c.Arguments, strings.Clone(s))
	}
	for _, e := range a.Env {
		c.Env = append(c.Env, EnvVar{Key: strings.Clone(e.Key), Value: strings.Clone(e.Value)})
	}
	for _, k := range a.ExecutionInfo {
		c.ExecutionInfo = append(c.ExecutionInfo, strings.Clone(k))
	}
	for _, pf := range a.ParamFiles {
		cp := ParamFile{ExecPath: strings.Clone(pf.ExecPath)}
		for _, l := range pf.Lines {
			cp.Lines = append(cp.Lines, strings.Clone(l))
		}
		c.ParamFiles = append(c.ParamFiles, cp)
	}
	return c
}
