package check

import (
	"errors"
	"slices"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/interp"
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
// Under Ahab's own judgement it defers the actions whose programs are read
// (shell scripts, programs the library describes by behaviour, workspace
// tools nobody described) until their outputs and files are known.
func Repro(lib *spec.Library) *Check {
	if lib == nil {
		lib = spec.NewLibrary()
	}
	c := &Check{
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
	if lib.Mode() != mode.Ahab02 {
		c.Defer = func(a *action.Action) bool { return interpreted(lib, a) }
	}
	return c
}

// interpreted says whether Ahab's own judgement reads what an action runs
// rather than judge its command line by a spec alone: a shell script, a
// program the library describes by behaviour, a program of the workspace
// nobody described. The C++ rules' actions are not: what they run is
// judged by their command line (their sources are not read), and there
// are too many to keep until the graph is read.
func interpreted(lib *spec.Library, a *action.Action) bool {
	argv := a.ExpandedArgv(lib.Mode())
	if len(argv) == 0 || cppRulesMnemonics[a.Mnemonic] {
		return false
	}
	r := lib.ResolveArgv(argv)
	return r.Program.Origin.Kind == program.System || r.Spec == nil || r.Spec.Behaviour != nil
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
	compat := lib.Mode() == mode.Ahab02

	// §3.6 step 4: a system program is the machine's, never merely
	// unknown. Ahab 0.2 stops there: resolution never looks one up.
	if r.Program.Origin.Kind == program.System {
		f.Kind = finding.SystemProgram
		report(f)
		if !compat {
			interpret(lib, a, argv, report)
		}
		return
	}
	switch {
	case compat && r.Spec == nil:
		f.Kind = finding.UnknownProgram
		report(f)
	case r.Spec != nil && (compat || r.Spec.Behaviour == nil):
		judge(r, r.Args, f, report)
	default:
		interpret(lib, a, argv, report)
	}
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

// cppRulesMnemonics are the actions of Bazel's C++ rules. Bazel runs their
// compiles with PWD=/proc/self/cwd, which aquery does not list, so that
// the compiler records no directory of the machine's in debugging
// information, and defines __DATE__ and __TIME__ away.
var cppRulesMnemonics = map[string]bool{
	"CppCompile": true, "ObjcCompile": true, "CppLink": true, "CppArchive": true, "ObjcLink": true,
	"CcStrip": true, "CppModuleMap": true, "CppLinkstampCompile": true, "CppThinLtoIndex": true, "CppLTOBackend": true,
}

// interpret reads what an action runs: its shell script, or its command
// line as a script of one command, through the interpreter that asks the
// library what each command does and reads the workspace's tools.
func interpret(lib *spec.Library, a *action.Action, argv []string, report func(finding.Finding)) {
	files := a.Files
	env := make([]string, 0, len(a.Env)+1)
	for _, e := range a.Env {
		env = append(env, e.Key+"="+e.Value)
	}
	if cppRulesMnemonics[a.Mnemonic] {
		files = nil
		env = append(env, "PWD=/proc/self/cwd")
	}
	opts := shell.Options{Library: lib, Outputs: a.Outputs, Env: env, Files: files, Runner: interp.New(lib, files, interp.Readers()),
		Facts: []string{"mnemonic:" + a.Mnemonic}}
	inv, isScript := shell.Recognize(argv)
	if !isScript {
		inv = shell.Invocation{Shell: argv[0], Script: commandLine(argv)}
	}
	script, err := shell.Analyze(inv, opts)
	if err != nil {
		var pe *shell.ParseError
		if errors.As(err, &pe) && pe.TooDeep {
			report(finding.Finding{Kind: finding.UnknownProgram, Action: refOf(a), Program: program.OfFor(lib.Mode())(inv.Shell),
				Evidence: []finding.Evidence{{Line: pe.Pos.Line, Text: "not followed: the script is too deeply nested to analyse"}}})
		}
		// A script that does not parse the shell would refuse too, and
		// the action fail: nothing it runs can be judged.
		return
	}
	judgeScript(lib, a, inv, script, isScript, report)
}

// commandLine writes an action's argv as a one-command script.
func commandLine(argv []string) string {
	args := make([]code.Arg, len(argv))
	for i, s := range argv {
		args[i] = code.Arg{Text: s, Known: true}
	}
	return code.CommandLine(args)
}

// judgeScript reports what the interpreter found: each value that varies
// and reaches an output, each command whose spec of Ahab 0.2's format
// judges it, and each program nobody described that could not be read.
// For an action's command line read as a script of one command
// (isScript false), the findings name no command: it is the action's.
func judgeScript(lib *spec.Library, a *action.Action, inv shell.Invocation, script *shell.Script, isScript bool, report func(finding.Finding)) {
	ref := refOf(a)
	commandText := func(i int) string {
		if !isScript && i == 0 || i < 0 || i >= len(script.Commands) {
			return ""
		}
		return script.Commands[i].Text
	}
	for _, src := range script.Sources {
		// A value made in a tool's file is reported at the command of the
		// action's script that ran the tool; the evidence says where in it.
		if src.Site.File != "" {
			if i := slices.IndexFunc(script.Commands, func(c shell.Command) bool { return c.Read == src.Site.File }); i >= 0 {
				src.Command = i
			}
		}
		e := sourceEvidence(src)
		if !isScript && e.File == "" {
			e.Line = 0 // the action's command line, not a script's line
		}
		f := finding.Finding{Kind: finding.VariationSource, Action: ref, Variation: src.Value.String(), Command: commandText(src.Command),
			Evidence: []finding.Evidence{e}}
		if f.Command == "" && isScript {
			f.Command = src.Text
		}
		report(f)
	}
	var wrappers []program.ID
	if isScript {
		wrappers = []program.ID{program.OfFor(lib.Mode())(inv.Shell)}
	}
	of := program.OfFor(lib.Mode())
	for i := range script.Commands {
		c := &script.Commands[i]
		name, known := c.Program().Value()
		if !known || c.Output != shell.Sink || c.Read != "" || (!isScript && i == 0 && c.Unreadable == "" && lib.Resolve(of(name), nil).Spec != nil) {
			continue
		}
		r := lib.Resolve(of(name), c.SpecArgs())
		f := finding.Finding{Action: ref, Program: r.Program, Command: commandText(i), Wrappers: append(slices.Clone(wrappers), r.Wrappers...)}
		if len(f.Wrappers) == 0 {
			f.Wrappers = nil
		}
		switch {
		case c.Unreadable != "":
			f.Kind = finding.UnknownProgram
			f.Evidence = []finding.Evidence{{Text: "not read: " + c.Unreadable}}
			report(f)
		case r.Spec == nil:
			if r.Program.Origin.Kind == program.System && !isScript && i == 0 {
				continue // the action's own program, reported as the machine's
			}
			f.Kind = finding.UnknownProgram
			f.Evidence = []finding.Evidence{{Text: "no spec describes it"}}
			report(f)
		case r.Spec.Behaviour == nil:
			judge(r, r.Args, f, report)
		}
	}
	// What could not be followed outside any one command (a script too
	// long, an eval of a computed string) leaves the script unknown.
	if script.Truncated || len(script.Unread) > 0 && !slices.ContainsFunc(script.Commands, func(c shell.Command) bool { return c.Unreadable != "" }) {
		f := finding.Finding{Kind: finding.UnknownProgram, Action: ref, Program: program.OfFor(lib.Mode())(inv.Shell)}
		for _, u := range script.Unread {
			f.Evidence = append(f.Evidence, finding.Evidence{Text: "not followed: " + u})
		}
		report(f)
	}
}

// sourceEvidence says where a value that varies is made and why: in a
// tool's file, at its line; in the action's script, at the script's line.
func sourceEvidence(src shell.Source) finding.Evidence {
	text := src.Text
	if src.Because != "" {
		text += ": " + src.Because
	}
	return finding.Evidence{File: src.Site.File, Line: src.Site.Line, Text: text}
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
