// Package finding holds what the checks find: the kinds of finding
// (defined once, in the table below, with what each means, the members its
// findings carry and how to fix and excuse it), the finding value itself
// with its remedy and evidence, the report order (§8.2) and a set that
// merges identical findings with a count.
package finding

import "fmt"

// Kind is the kind of a finding. Its JSON tag is the one user-facing id:
// it appears in reports, exception files and documentation.
type Kind uint8

// The constants are in report order (§8.2 rank).
const (
	EnvironmentLeak Kind = iota
	BadPath
	ExecutionRequirement
	AbsolutePath
	SystemProgram
	HostDerivedProgram
	UnknownProgram
	NeverReproducible
	WorkspaceStatus
	ConditionalReproducibility
	// The kinds Ahab 0.2 did not have, which only Ahab's own judgement
	// reports (mode.Default).
	VariationSource
	numKinds
)

// Field names a facet of a finding that an exception can match on (§7.1).
type Field string

// The exception fields that only some kinds carry.
const (
	FieldProgram     Field = "program"
	FieldPath        Field = "path"
	FieldActual      Field = "actual"
	FieldRequirement Field = "requirement"
	FieldSource      Field = "source"
	FieldLocation    Field = "location"
	FieldEnvVar      Field = "env_var"
	FieldVariation   Field = "variation"
	FieldCommand     Field = "command"
)

// Class is what a finding says about the build: that it depends on the
// machine it runs on, that it will not produce the same output twice, or
// that nobody has said whether it would. Reports rank and colour by it
// (SARIF's error, warning and note).
type Class uint8

const (
	HermeticityViolation Class = iota
	ReproducibilityViolation
	ReproducibilityUnknown
)

// String is how the class starts a finding's sentence in the text report
// (§8.3): "hermeticity violation", "reproducibility violation" or
// "reproducibility unknown".
func (c Class) String() string {
	switch c {
	case ReproducibilityViolation:
		return "reproducibility violation"
	case ReproducibilityUnknown:
		return "reproducibility unknown"
	}
	return "hermeticity violation"
}

// Level is how serious a finding of the class is, in the words code
// scanning uses (SARIF's levels): a hermeticity violation is an error, a
// reproducibility violation a warning, and a program nobody described a
// note.
func (c Class) Level() string {
	switch c {
	case ReproducibilityViolation:
		return "warning"
	case ReproducibilityUnknown:
		return "note"
	}
	return "error"
}

// KindInfo describes one kind. Everything about a kind that is not code
// lives here: its tag, how its sentence starts, what it means, why it
// matters, what to do about it, how to excuse it and what it cannot see.
// docs/kinds.md, `ahab kinds` and the rules of a SARIF report are made
// from it.
type KindInfo struct {
	Tag string // JSON tag, contract
	// Class says what the finding says about the build; its String is
	// how the kind's sentence in the text report starts (§8.3).
	Class Class
	Title string // one line, for docs and help
	// Why says why a finding of the kind matters, in a sentence or two.
	Why string
	// Remedy is what to change, said for every finding of the kind; a
	// finding's own remedy (Finding.Remedy) fills in its particulars.
	Remedy string
	// Excuse is an exception that excuses findings of the kind, as one
	// line of JSON; tests load it as an exception file entry.
	Excuse string
	// BlindSpots says what the kind cannot see, so nobody takes the
	// absence of a finding for more than it is.
	BlindSpots string
	Fields     []Field
	// PredictsDivergence says a finding of the kind predicts that two
	// builds of the action give different outputs (a value of the machine
	// or the clock in its command, a program that is never reproducible,
	// or one run without the options it needs). The other kinds say the
	// build may depend on the machine, not that a rebuild differs; `ahab
	// diff` counts a divergence as explained only by a predicting finding.
	PredictsDivergence bool
	// New says Ahab 0.2 did not have the kind: only Ahab's own judgement
	// reports it, and --compat 0.2 refuses it in exception files.
	New bool

	// members are the members of the kind's JSON object after "kind" and
	// "action", in report order (§8.1): what its findings carry.
	members []Member
	// remedy is the concrete remedy of one finding of the kind (remedy.go).
	remedy func(f *Finding) string
}

// The members of the kinds that name a program: what they run, through
// which wrappers, and the command of a shell script it was.
var (
	programMembers = []Member{MemberProgram, MemberWrappers, MemberScriptCommand}
	specMembers    = []Member{MemberProgram, MemberWrappers, MemberSynonym, MemberScriptCommand}
)

var kinds = [numKinds]KindInfo{
	EnvironmentLeak: {
		Tag:                "environment_leak",
		PredictsDivergence: true,
		Class:              HermeticityViolation,
		Title:              "a value of USER or HOSTNAME reached the action",
		Why: "a value copied out of the environment of whoever runs Bazel makes the action's key, and often its output, " +
			"differ from one account or machine to the next, so the cache stops being shared",
		Remedy: "stop copying the variable into the build: have a repository rule that reads it (repository_ctx.os.environ) write a fixed value instead, " +
			"and give a variable the build inherits (--action_env=NAME) a fixed value (--action_env=NAME=value) or drop it",
		Excuse:     `{"kind": "environment_leak", "source": "user", "target": "//tools:build_info"}`,
		BlindSpots: "Only USER and HOSTNAME are replaced by sentinels, so only their values are recognised, and only as written: a value hashed, cut or changed in case is not. A program that reads the environment itself while it runs is not seen. Variables the build inherits (--action_env=NAME with no value) are read from Bazel's configuration, which Ahab's own judgement does only when it runs Bazel: never under --compat 0.2 nor with --aquery-file; --host_action_env is not read.",
		Fields:     []Field{FieldSource, FieldLocation, FieldEnvVar},
		members:    []Member{MemberSource, MemberSentinel, MemberSite},
		remedy:     environmentLeakRemedy,
	},
	BadPath: {
		Tag:        "bad_path",
		Class:      HermeticityViolation,
		Title:      "the action sets PATH to something other than Bazel's default",
		Why:        "a PATH the build chose is a choice of the machine's tools: which compiler or interpreter runs depends on what is installed where",
		Remedy:     "build with --incompatible_strict_action_env and drop --action_env=PATH (and PATH from any env a rule gives its actions), so that every action gets /bin:/usr/bin:/usr/local/bin",
		Excuse:     `{"kind": "bad_path", "actual": "/usr/local/bin:/usr/bin:/bin"}`,
		BlindSpots: "Only the PATH an action declares is read: a script that sets PATH itself while it runs, or a tool that searches other directories, is not seen.",
		Fields:     []Field{FieldActual},
		members:    []Member{MemberActual},
		remedy:     badPathRemedy,
	},
	ExecutionRequirement: {
		Tag:        "execution_requirement",
		Class:      HermeticityViolation,
		Title:      "the action declares requires-network, no-sandbox or local",
		Why:        "the build says itself that the action reaches outside its declared inputs: the network, or the whole file system of the machine",
		Remedy:     "remove the tag or execution requirement: fetch what requires-network downloads in a repository rule with a checksum, and declare as inputs the files a no-sandbox or local action reads",
		Excuse:     `{"kind": "execution_requirement", "requirement": "requires-network", "target": "//net:fetch"}`,
		BlindSpots: "Only what an action declares is read: an action that uses the network without requires-network (Bazel's sandbox lets it, unless --sandbox_default_allow_network=false) is not seen, nor are no-remote, no-cache and other tags that only steer scheduling.",
		Fields:     []Field{FieldRequirement},
		members:    []Member{MemberRequirement},
		remedy:     executionRequirementRemedy,
	},
	AbsolutePath: {
		Tag:        "absolute_path",
		Class:      HermeticityViolation,
		Title:      "the action names an absolute path on the build machine",
		Why:        "a build that names /opt/toolchain/bin/cc only works where that exists, and reads whatever is there without Bazel knowing",
		Remedy:     "make the file an input (a new_local_repository holding it, or a copy in the workspace) and pass its path relative to the execution root, or use a hermetic toolchain; a path that says where a file goes inside the artifact being built belongs in the program's declared_paths spec or an exception",
		Excuse:     `{"kind": "absolute_path", "mnemonic": "CppCompile", "path": "/usr/include/*"}`,
		BlindSpots: "Only paths written in the graph are seen: arguments (not the program itself), param files and environment values. A path a script or a tool builds while it runs ($(pwd)/.., a configuration file it reads, a compiler's built-in search path) is not seen, nor is a relative path that climbs out of the execution root.",
		Fields:     []Field{FieldPath, FieldLocation, FieldEnvVar},
		members:    []Member{MemberPath, MemberSite},
		remedy:     absolutePathRemedy,
	},
	SystemProgram: {
		Tag:        "system_program",
		Class:      HermeticityViolation,
		Title:      "the action runs a program from outside the build",
		Why:        "the program is whatever the machine has installed under that name: another version on another machine gives other output",
		Remedy:     "run a tool the build provides (a toolchain's, or a label of the workspace in the rule's tools) instead of one found on the machine",
		Excuse:     `{"kind": "system_program", "program": "/bin/bash"}`,
		BlindSpots: "Only the program an action starts is judged (and, under Ahab's own judgement, the commands of its shell script): the programs a tool starts itself, such as a compiler running the assembler and linker, are not seen.",
		Fields:     []Field{FieldProgram, FieldCommand},
		members:    programMembers,
		remedy:     systemProgramRemedy,
	},
	HostDerivedProgram: {
		Tag:        "host_derived_program",
		Class:      HermeticityViolation,
		Title:      "the action runs a program Bazel generated by inspecting the machine",
		Why:        "an autoconfigured toolchain wraps whatever compiler the machine has, with the machine's paths written into it",
		Remedy:     "replace the generated program with a tool the build provides: for C++, register a hermetic toolchain (one that downloads its compiler, such as toolchains_llvm) instead of the autoconfigured one",
		Excuse:     `{"kind": "host_derived_program", "program": "@rules_cc+cc_configure_extension//cc_wrapper.sh"}`,
		BlindSpots: "Only programs a spec declares host_derived are known to be generated; the built-ins know rules_cc's autoconfigured C++ toolchain.",
		Fields:     []Field{FieldProgram, FieldCommand},
		members:    programMembers,
		remedy:     hostDerivedProgramRemedy,
	},
	UnknownProgram: {
		Tag:        "unknown_program",
		Class:      ReproducibilityUnknown,
		Title:      "the action runs a program with no known reproducibility spec",
		Why:        "nobody has said whether the program gives the same output twice, and treating silence as approval is how a total check stops being total",
		Remedy:     "describe the program in a --repro-specs file (the repro_specs attribute of the macros): always, never, sometimes with the options that make it reproducible, or what it does (its effects); for a tool of the workspace, let Ahab read it (run ahab in the workspace, or give --workspace with --aquery-file)",
		Excuse:     `{"kind": "unknown_program", "program": "//tools/codegen"}`,
		BlindSpots: "A program is judged by its spec or by reading it, not by running it: a spec that says always is taken at its word. Its evidence says whether no spec describes it or it could not be read, and why.",
		Fields:     []Field{FieldProgram, FieldCommand},
		members:    programMembers,
		remedy:     unknownProgramRemedy,
	},
	NeverReproducible: {
		Tag:                "never_reproducible",
		PredictsDivergence: true,
		Class:              ReproducibilityViolation,
		Title:              "the action runs a program that is never reproducible",
		Why:                "no options make the program write the same output twice, so the action's outputs differ on every run and everything that depends on them rebuilds",
		Remedy:             "replace the program with one that can be made deterministic, or keep its action out of what must be reproducible",
		Excuse:             `{"kind": "never_reproducible", "program": "//tools/stamp"}`,
		BlindSpots:         "A program is judged by its spec, not by running it.",
		Fields:             []Field{FieldProgram, FieldCommand},
		members:            specMembers,
		remedy:             neverReproducibleRemedy,
	},
	WorkspaceStatus: {
		Tag:                "workspace_status",
		PredictsDivergence: true,
		Class:              HermeticityViolation,
		Title:              "the action reads stable-status.txt or volatile-status.txt",
		Why:                "the action's output depends on values gathered about the build (time, commit, account) rather than on its declared inputs",
		Remedy:             "stamp only release targets: stamp = 0 on the target (a genrule's cmd then stops reading the status files) or build without --stamp, and excuse the release targets that must carry a version",
		Excuse:             `{"kind": "workspace_status", "target": "//release:*", "reason": "release binaries carry their version"}`,
		BlindSpots:         "Only reads of the two status files are seen: a rule that asks git or the clock itself, or copies the status into another file first, is seen only as that other action.",
		Fields:             []Field{FieldPath},
		members:            []Member{MemberPath},
		remedy:             workspaceStatusRemedy,
	},
	ConditionalReproducibility: {
		Tag:                "conditional_reproducibility",
		PredictsDivergence: true,
		Class:              ReproducibilityViolation,
		Title:              "the action runs a program without the options that make it reproducible",
		Why:                "the program is deterministic only under conditions this invocation does not meet: its output records something of the machine or the moment",
		Remedy:             "pass one of the options each unmet condition names (its spec clause says why), or drop the option that breaks it",
		Excuse:             `{"kind": "conditional_reproducibility", "program": "/usr/bin/tar", "target": "//dist:*"}`,
		BlindSpots:         "A program is judged by its spec and its command line, not by running it: an option set in a file the program reads, or in its environment, is not seen.",
		Fields:             []Field{FieldProgram, FieldCommand},
		members:            []Member{MemberProgram, MemberWrappers, MemberSynonym, MemberUnmet, MemberScriptCommand},
		remedy:             conditionalReproducibilityRemedy,
	},
	VariationSource: {
		Tag:                "variation_source",
		PredictsDivergence: true,
		Class:              ReproducibilityViolation,
		Title:              "the action writes something that differs between runs or machines into an output",
		Why:                "a time, a random number, a process id, the machine's name, the build's directory, a file system's order or a file's owner written into an output makes it differ on every run or machine",
		Remedy:             "write a fixed value instead: a fixed date for the time (or SOURCE_DATE_EPOCH, which Bazel gives an action only with --action_env=SOURCE_DATE_EPOCH=VALUE), a constant seed or a fixed value for a random number, a path relative to the execution root for the directory, sorted names for an order, the options that normalise an archive's metadata",
		Excuse:             `{"kind": "variation_source", "variation": "clock", "target": "//release:*"}`,
		BlindSpots:         "Only what Ahab reads is seen: the action's command line and script, the scripts and sources of the tools it runs in the languages Ahab reads (shell, Python, Perl, awk, C, JavaScript, makefiles), and the programs the library describes; a compiled tool nobody described (one the script compiles is read for what it calls of the C library), a value that reaches an output along a path Ahab does not follow, or a file the action reads without declaring it is not.",
		Fields:             []Field{FieldVariation, FieldCommand},
		New:                true,
		members:            []Member{MemberVariation, MemberCommand},
		remedy:             variationSourceRemedy,
	},
}

// Kinds returns every kind in report order.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// Info describes k.
func (k Kind) Info() KindInfo { return kinds[k] }

// Class is kinds[k].Class, without copying the whole row.
func (k Kind) Class() Class { return kinds[k].Class }

// PredictsDivergence says whether a finding of the kind predicts that two
// builds of its action differ (KindInfo.PredictsDivergence).
func (k Kind) PredictsDivergence() bool { return kinds[k].PredictsDivergence }

// String returns the JSON tag.
func (k Kind) String() string {
	if k >= numKinds {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kinds[k].Tag
}

// Carries reports whether findings of kind k have the facet f.
func (k Kind) Carries(f Field) bool {
	for _, g := range kinds[k].Fields {
		if g == f {
			return true
		}
	}
	return false
}

// KindByTag finds a kind by its JSON tag.
func KindByTag(tag string) (Kind, bool) {
	for k, info := range kinds {
		if info.Tag == tag {
			return Kind(k), true
		}
	}
	return 0, false
}

// HasProgram reports whether findings of kind k name a program.
func (k Kind) HasProgram() bool { return k.Carries(FieldProgram) }
