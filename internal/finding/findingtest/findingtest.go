// Package findingtest holds findings for the tests of the packages that
// print them.
package findingtest

import (
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

// Programs the fixtures run.
var (
	GCC            = program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	Rustc          = program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_rust", Extension: "rust", HasExtension: true}, Path: "rust_toolchain/bin/rustc"}
	ProcessWrapper = program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_rust"}, Path: "util/process_wrapper/process_wrapper"}
	Codegen        = program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	ClangPP        = program.ID{Origin: program.Origin{Kind: program.Main, Extension: "llvm", HasExtension: true}, Path: "bin/clang++"}
	Clang          = program.ID{Origin: program.Origin{Kind: program.Module, Module: "llvm"}, Path: "bin/clang"}
)

// Ref names an action.
func Ref(m, t string) finding.ActionRef { return finding.ActionRef{Mnemonic: m, Target: t} }

// OneOfEachKind is the shared fixture of the printer goldens: one finding
// of every kind, each exercising the kind's optional parts, sorted.
func OneOfEachKind() []finding.Counted {
	fs := []finding.Counted{
		{Count: 1, Finding: finding.Finding{Kind: finding.EnvironmentLeak, Action: Ref("Genrule", "//a:gen"), Source: finding.User,
			Sentinel: "ahab-sentinel-user", Site: finding.Site{Location: finding.Argument, Value: "echo ahab-sentinel-user > $@"}}},
		{Count: 2, Finding: finding.Finding{Kind: finding.BadPath, Action: Ref("CppCompile", "//a:b"), Actual: "/usr/bin:/bin"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.ExecutionRequirement, Action: Ref("Genrule", "//net:fetch"), Requirement: "requires-network"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: Ref("CppLink", "//a:bin"), Path: "/opt/lib",
			Site: finding.Site{Location: finding.ParamFile, ExecPath: "bazel-out/k8/bin/a/bin-2.params", Value: "-L/opt/lib"}}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: Ref("Genrule", "//a:env"), Path: "/etc/x",
			Site: finding.Site{Location: finding.EnvVar, Key: "CONF", Value: "/etc/x"}}},
		{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Action: Ref("CppCompile", "//native:bridge"), Program: GCC}},
		{Count: 1, Finding: finding.Finding{Kind: finding.HostDerivedProgram, Action: Ref("CppCompile", "//native:shim"),
			Program: program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_cc", Extension: "cc_configure_extension", HasExtension: true}, Path: "cc_wrapper.sh"}}},
		{Count: 3, Finding: finding.Finding{Kind: finding.UnknownProgram, Action: Ref("Codegen", "//api:gen"), Program: Codegen}},
		{Count: 1, Finding: finding.Finding{Kind: finding.NeverReproducible, Action: Ref("Stamp", "//rel:stamp"), Program: Codegen}},
		{Count: 1, Finding: finding.Finding{Kind: finding.WorkspaceStatus, Action: Ref("Genrule", "//rel:info"), Path: "bazel-out/volatile-status.txt"}},
		{Count: 1, Finding: finding.Finding{Kind: finding.ConditionalReproducibility, Action: Ref("Rustc", "//crate:lib"), Program: Rustc,
			Wrappers: []program.ID{ProcessWrapper}, Synonym: &Clang, Unmet: []finding.Unmet{
				{Because: "it needs an option it was not given", AnyOf: []string{"--remap-path-prefix=${pwd}=."}},
				{Because: "it was given an option that breaks it", Present: []string{"--timestamp"}},
			}}},
	}
	return Sorted(fs)
}

// Full is a finding of kind k with every member the kind has set to a
// value of its own (Kind.Members), and a piece of evidence: whatever a
// printer or a reader of reports must handle for the kind.
func Full(k finding.Kind) finding.Finding {
	f := finding.Finding{Kind: k, Action: Ref("Mnemonic_"+k.String(), "//pkg_"+k.String()+":target"),
		Evidence: []finding.Evidence{{File: "tools/gen.py", Line: 12, Text: "time.time() reaches the output"}}}
	for _, m := range k.Members() {
		switch m {
		case finding.MemberSource:
			f.Source = finding.Hostname
		case finding.MemberSentinel:
			f.Sentinel = "ahab-sentinel-hostname"
		case finding.MemberSite:
			f.Site = finding.Site{Location: finding.EnvVar, Key: "SITE_KEY", Value: "/site/value/ahab-sentinel-hostname"}
		case finding.MemberActual:
			f.Actual = "/actual/path:/bin"
		case finding.MemberRequirement:
			f.Requirement = "requirement-value"
		case finding.MemberPath:
			f.Path = "/path/value"
		case finding.MemberProgram:
			f.Program = Codegen
		case finding.MemberWrappers:
			f.Wrappers = []program.ID{ProcessWrapper}
		case finding.MemberSynonym:
			f.Synonym = &Clang
		case finding.MemberUnmet:
			f.Unmet = []finding.Unmet{{Because: "the unmet reason", AnyOf: []string{"--any-of"}}}
		case finding.MemberVariation:
			f.Variation = "clock"
		case finding.MemberCommand, finding.MemberScriptCommand:
			f.Command = "the script command"
		}
	}
	return f
}

// Sorted is fs as a report lists them: each distinct finding once, with
// the sum of its counts, in report order.
func Sorted(fs []finding.Counted) []finding.Counted {
	set := finding.NewSet()
	for _, f := range fs {
		set.Add(f.Finding, f.Count)
	}
	return set.Sorted()
}
