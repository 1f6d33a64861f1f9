package finding

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/effect"
	"github.com/ahab-go/ahab/internal/program"
)

// TestKindTableIsComplete: every kind says why it matters, how to fix and
// excuse it, what it cannot see, and has a remedy for its findings, so
// that the docs, `ahab kinds`, SARIF and --hints never show a blank.
func TestKindTableIsComplete(t *testing.T) {
	for _, k := range Kinds() {
		info := k.Info()
		for name, v := range map[string]string{"Title": info.Title, "Why": info.Why, "Remedy": info.Remedy, "Excuse": info.Excuse, "BlindSpots": info.BlindSpots} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: %s is empty", k, name)
			}
		}
		if info.remedy == nil {
			t.Errorf("%s has no remedy function", k)
		}
		if !strings.Contains(info.Excuse, `"kind": "`+info.Tag+`"`) {
			t.Errorf("%s: the exception %s is of another kind", k, info.Excuse)
		}
		if (&Finding{Kind: k}).Remedy() == "" {
			t.Errorf("%s: a finding of the kind has no remedy", k)
		}
	}
}

func TestClassPrefixes(t *testing.T) {
	// §8.3: the three ways a sentence starts.
	for c, want := range map[Class]string{
		HermeticityViolation:     "hermeticity violation",
		ReproducibilityViolation: "reproducibility violation",
		ReproducibilityUnknown:   "reproducibility unknown",
	} {
		if c.String() != want {
			t.Errorf("%d: %q, want %q", c, c.String(), want)
		}
	}
	if UnknownProgram.Class() != ReproducibilityUnknown || ConditionalReproducibility.Class() != ReproducibilityViolation || BadPath.Class() != HermeticityViolation {
		t.Error("a kind's class is not the one its sentence has always started with")
	}
}

func TestRemedy(t *testing.T) {
	codegen := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/codegen"}
	bash := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/bin/bash"}
	gcc := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/gcc"}
	tar := program.ID{Origin: program.Origin{Kind: program.System}, Path: "/usr/bin/tar"}
	ref := ActionRef{Mnemonic: "Genrule", Target: "//a:b"}
	tests := []struct {
		name string
		f    Finding
		want []string // parts the remedy must have
		not  []string // and must not
	}{
		{"path_asks_for_strict_action_env", Finding{Kind: BadPath, Action: ref, Actual: "/usr/bin"},
			[]string{"--incompatible_strict_action_env"}, nil},
		{"requires_network_moves_the_network_out", Finding{Kind: ExecutionRequirement, Action: ref, Requirement: "requires-network"},
			[]string{"move the network out of the build", "repository rule", "sha256", "//a:b"}, nil},
		{"no_sandbox_declares_inputs", Finding{Kind: ExecutionRequirement, Action: ref, Requirement: "no-sandbox"},
			[]string{"declare as inputs", "drop no-sandbox from //a:b"}, []string{"network"}},
		// Only a repository rule puts a sentinel into a command line: a
		// genrule expanding $USER when it runs, or --action_env=USER, does
		// not (the latter is an inherited variable).
		{"user_leak_names_the_repository_rule", Finding{Kind: EnvironmentLeak, Action: ref, Source: User, Site: Site{Value: "x"}},
			[]string{"instead of $USER where a repository rule reads it", "repository_ctx.os.environ"}, []string{"HOSTNAME", "genrule", "--action_env"}},
		{"hostname_leak_in_an_env_var_names_it", Finding{Kind: EnvironmentLeak, Action: ref, Source: Hostname, Site: Site{Location: EnvVar, Key: "BUILD_HOST"}},
			[]string{"give BUILD_HOST a fixed value where a rule sets it", "$HOSTNAME"}, nil},
		{"inherited_variable_gets_a_value", Finding{Kind: EnvironmentLeak, Action: ref, Source: Inherited, Site: Site{Location: EnvVar, Key: "CC"}},
			[]string{"--action_env=CC=VALUE", "drop --action_env=CC"}, nil},
		{"glued_include_path_is_made_an_input", Finding{Kind: AbsolutePath, Action: ref, Path: "/usr/include", Site: Site{Value: "-I/usr/include"}},
			[]string{`make "/usr/include" an input`}, []string{"declared_paths", "excuse"}},
		{"option_path_can_be_declared", Finding{Kind: AbsolutePath, Action: ref, Path: "/app", Site: Site{Value: "--working-dir=/app"}},
			[]string{`{"declared_paths": ["--working-dir=*"]}`}, nil},
		{"separate_word_path_names_the_option_before_it", Finding{Kind: AbsolutePath, Action: ref, Path: "/app", Site: Site{Value: "/app"}},
			[]string{"the option before it", "takes_value"}, nil},
		{"script_path_can_be_excused", Finding{Kind: AbsolutePath, Action: ref, Path: "/srv/x", Site: Site{Value: "sed s|@R@|/srv/x| in > out"}},
			[]string{`{"kind": "absolute_path", "target": "//a:b", "path": "/srv/x"}`}, nil},
		{"env_var_path_is_set_relative", Finding{Kind: AbsolutePath, Action: ref, Path: "/etc/x", Site: Site{Location: EnvVar, Key: "CONF", Value: "/etc/x"}},
			[]string{"set CONF to a path relative"}, nil},
		{"genrule_shell_is_excused", Finding{Kind: SystemProgram, Action: ref, Program: bash},
			[]string{`{"kind": "system_program", "program": "/bin/bash"`}, nil},
		{"system_compiler_is_replaced", Finding{Kind: SystemProgram, Action: ref, Program: gcc},
			[]string{`instead of "/usr/bin/gcc"`}, nil},
		{"unknown_program_gets_a_spec_and_an_exception", Finding{Kind: UnknownProgram, Action: ref, Program: codegen},
			[]string{`{"programs": {"//tools/codegen": {"spec": {"reproducibility": "always"}}}}`, `{"kind": "unknown_program", "program": "//tools/codegen"}`}, nil},
		{"workspace_status_unstamps_a_genrule_and_its_cmd", Finding{Kind: WorkspaceStatus, Action: ref, Path: "bazel-out/stable-status.txt"},
			[]string{`stamp = 0 on //a:b (or build without --stamp) and stop reading "bazel-out/stable-status.txt" in its cmd`, `{"kind": "workspace_status", "target": "//a:b"}`}, nil},
		{"workspace_status_unstamps_a_binary", Finding{Kind: WorkspaceStatus, Action: ActionRef{Mnemonic: "CppLinkstampCompile", Target: "//a:bin"}, Path: "bazel-out/volatile-status.txt"},
			[]string{"set stamp = 0 on //a:bin (or build without --stamp)"}, []string{"stop reading"}},
		{"conditional_quotes_the_clauses", Finding{Kind: ConditionalReproducibility, Action: ref, Program: tar, Unmet: []Unmet{
			{Because: "it records each file's modification time unless --mtime sets one", AnyOf: []string{"--mtime=*"}},
			{Because: "it adds a directory's files in the order the file system lists them unless --sort=name", AnyOf: []string{"--sort=name"}},
			{Because: "it was given an option that breaks it", Present: []string{"--timestamp"}},
		}}, []string{"pass --mtime=… (it records each file's modification time", "; pass --sort=name (", "; drop --timestamp (it was given"}, nil},
		{"debug_paths_offer_each_alternative", Finding{Kind: ConditionalReproducibility, Action: ref, Program: gcc, Unmet: []Unmet{
			{Because: "debugging information records the directory it was compiled in", AnyOf: []string{"-ffile-prefix-map=*", "-fdebug-compilation-dir=*"}},
		}}, []string{"pass -ffile-prefix-map=… or -fdebug-compilation-dir=… (debugging information"}, nil},
		// Bazel gives an action SOURCE_DATE_EPOCH only when told to.
		{"clock_gives_the_action_source_date_epoch", Finding{Kind: VariationSource, Action: ref, Variation: "clock", Command: "date"},
			[]string{"date -u -d @0 +%F", "--action_env=SOURCE_DATE_EPOCH=0"}, nil},
		{"random_is_seeded", Finding{Kind: VariationSource, Action: ref, Variation: "random"}, []string{"seed the generator with a constant", "RANDOM=1"}, nil},
		// touch on an input follows Bazel's link into the checkout.
		{"mtime_touches_copies", Finding{Kind: VariationSource, Action: ref, Variation: "mtime"}, []string{"tar --mtime=@0", "touch -d @0 the copies"}, []string{"touch -d @0 them"}},
		{"pwd_is_relative", Finding{Kind: VariationSource, Action: ref, Variation: "pwd"}, []string{"relative to the execution root"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.f.Remedy()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("remedy %q lacks %q", got, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("remedy %q has %q", got, w)
				}
			}
			if strings.Contains(got, "\n") {
				t.Errorf("remedy %q is more than one line", got)
			}
		})
	}
}

// TestVariationRemedies: every value of the vocabulary has a hint of its
// own, not the catch-all one.
func TestVariationRemedies(t *testing.T) {
	catchAll := (&Finding{Kind: VariationSource, Variation: "no such value"}).Remedy()
	for _, v := range effect.Values() {
		if got := (&Finding{Kind: VariationSource, Variation: v.String()}).Remedy(); got == catchAll {
			t.Errorf("%s has only the catch-all hint %q", v, got)
		}
	}
}

func TestRemedyQuotesJSON(t *testing.T) {
	// A program name with a quote and a control character stays one
	// valid JSON string in the spec to paste.
	odd := program.ID{Origin: program.Origin{Kind: program.Main}, Path: "tools/a\"b\x01"}
	got := (&Finding{Kind: UnknownProgram, Program: odd}).Remedy()
	if want := `"//tools/a\"b\u0001"`; !strings.Contains(got, want) {
		t.Errorf("remedy %q lacks the JSON string %s", got, want)
	}
}
