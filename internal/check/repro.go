package check

import (
	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/shell"
	"github.com/ahab-go/ahab/internal/spec"
)

const reproDoc = `judge the programs each action runs

The check identifies the program of an action from argv[0] of its
expanded command line (param files spliced in), unwraps wrappers the
library knows (process_wrapper, java -jar, python3 script) and asks the
library what it knows of what finally runs. A program given by an
absolute path or a bare name comes from the machine, outside anything
Bazel tracks. A program inside the execution root is reported when the
library says the machine generated it (host-derived), when nothing is
known of it, when it is never reproducible, or when its invocation lacks
the options that make its output the same on every machine, or has
options that break it. Implements §3.6 of the reference.

Ahab's own judgement goes further than Ahab 0.2's. The machine's own
programs are judged by name (gcc, tar, date) with the host tools of the
built-in library, as well as being reported as the machine's. And the
shell script of a genrule or run_shell action (bash -c SCRIPT) is parsed:
every command whose product reaches a file is judged as a program of its
own, and a value that differs from run to run or machine to machine
($RANDOM, $$, the time, the directory, /dev/urandom, the host name…) and
reaches a file is a variation_source.`

// Repro returns the reproducibility check bound to a library, judging as
// the library's mode does; nil means an empty library of Ahab's own
// judgement, so every program inside the execution root is unknown.
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
			finding.VariationSource,
		},
		Run: func(a *action.Action, report func(finding.Finding)) {
			runRepro(lib, a, report)
		},
	}
}

func runRepro(lib *spec.Library, a *action.Action, report func(finding.Finding)) {
	// §3.6 step 1: FileWrite, TemplateExpand, Symlink and the like run
	// no program.
	argv := a.ExpandedArgv(lib.Mode())
	if len(argv) == 0 {
		return
	}
	r := lib.ResolveArgv(argv)
	f := finding.Finding{Action: refOf(a), Program: r.Program}
	if len(r.Wrappers) > 0 {
		f.Wrappers = r.Wrappers
	}

	// §3.6 step 4: a system program is the machine's, never merely
	// unknown. Ahab 0.2 stops there: resolution never looks one up.
	if r.Program.Origin.Kind == program.System {
		f.Kind = finding.SystemProgram
		report(f)
		if lib.Mode() == mode.Ahab02 {
			return
		}
		if inv, ok := shell.Recognize(argv); ok {
			judgeScript(lib, a, inv, report)
			return
		}
		if r.Spec != nil {
			judge(r, hostArgs(a, r.Args), f, report)
		}
		return
	}
	if r.Spec == nil {
		f.Kind = finding.UnknownProgram
		report(f)
		return
	}
	judge(r, r.Args, f, report)
}

// judge reports what the spec that answered for r says of args; f is the
// finding to report, its action, program and wrappers set.
func judge(r spec.Resolution, args []string, f finding.Finding, report func(finding.Finding)) {
	v := r.Spec.Assess(args)
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

// hostArgs is what the spec of one of the machine's programs sees of the
// action: its environment, NAME=value, before its arguments, as the
// commands of a shell script are seen (shell.Command.SpecArgs), so that a
// spec can ask for TZ=UTC as it asks for a flag. Bazel runs its C++ compile
// actions in PWD=/proc/self/cwd, which aquery does not list, so that the
// compiler records no directory of the machine's in debugging information.
func hostArgs(a *action.Action, args []string) []string {
	out := make([]string, 0, len(a.Env)+1+len(args))
	for _, e := range a.Env {
		out = append(out, e.Key+"="+e.Value)
	}
	if cppCompileMnemonics[a.Mnemonic] {
		out = append(out, "PWD=/proc/self/cwd")
	}
	return append(out, args...)
}

// cppCompileMnemonics are the actions of Bazel's C++ rules that run the
// compiler.
var cppCompileMnemonics = map[string]bool{"CppCompile": true, "ObjcCompile": true}

// judgeScript judges the commands of a shell script and the sources of
// variation it writes into files.
func judgeScript(lib *spec.Library, a *action.Action, inv shell.Invocation, report func(finding.Finding)) {
	script, err := shell.Analyze(inv)
	if err != nil {
		// The shell would refuse it too, and the action fail: nothing
		// it runs can be judged.
		return
	}
	shellID := program.OfFor(lib.Mode())(inv.Shell)
	ref := refOf(a)
	// A command whose own output is the source (`date > out`) is
	// reported as that source, which says what differs, not once more
	// as a program.
	isSource := make(map[shell.Pos]bool, len(script.Sources))
	for _, src := range script.Sources {
		isSource[src.Pos] = true
		f := finding.Finding{Kind: finding.VariationSource, Action: ref, Variation: src.Kind.String(), Command: src.Text}
		if src.Command >= 0 && src.Command < len(script.Commands) {
			f.Command = script.Commands[src.Command].Text
		}
		report(f)
	}
	of := program.OfFor(lib.Mode())
	for i := range script.Commands {
		c := &script.Commands[i]
		name, known := c.Program().Value()
		if !known || c.Output != shell.Sink || shell.IsBuiltin(name) || isSource[c.Pos] {
			continue
		}
		r := lib.Resolve(of(name), c.SpecArgs())
		f := finding.Finding{Action: ref, Program: r.Program, Command: c.Text,
			Wrappers: append([]program.ID{shellID}, r.Wrappers...)}
		if r.Spec == nil {
			f.Kind = finding.UnknownProgram
			report(f)
			continue
		}
		judge(r, r.Args, f, report)
	}
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
