package check

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

func TestAllOrder(t *testing.T) {
	var names []string
	for _, c := range All(ahab02) {
		names = append(names, c.Name)
	}
	// §3.0: check_all runs the checks in this order.
	want := []string{"envleak", "path", "abspath", "execreq", "wsstatus", "repro"}
	if !slices.Equal(names, want) {
		t.Errorf("All(ahab02) = %q, want %q", names, want)
	}
}

// runAll runs every check over every action into one set, as the analyzer
// does.
func runAll(checks []*Check, actions []*action.Action) *finding.Set {
	set := finding.NewSet()
	for _, a := range actions {
		for _, stage := range []Stage{CommandLine, Inputs} {
			Run(checks, stage, a, func(f finding.Finding) { set.Add(f, 1) })
		}
	}
	return set
}

func listCounted(cs []finding.Counted) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\t%d× %s %+v\n", c.Count, c.Kind, c.Finding)
	}
	return b.String()
}

// aggregationActions are actions that between them trip every check but
// repro, several times.
func aggregationActions() []*action.Action {
	return []*action.Action{
		withEnv(act("tool", "-I/usr/include", "--who="+user), "PATH", "/opt/bin", "CC", "/usr/bin/gcc"),
		withExecInfo(act("tool", "--host="+host), "local", "no-sandbox"),
		{Mnemonic: "CppCompile", TargetID: tid("//a:b"), Arguments: []string{"clang", "@out/a.params"},
			ParamFiles:   []action.ParamFile{{ExecPath: "out/a.params", Lines: []string{"-L/opt/lib", user}}},
			StatusInputs: []string{"bazel-out/stable-status.txt", "bazel-out/volatile-status.txt"}},
		{TargetID: tid("//a:c"), Arguments: []string{"tool", "/opt/x"}, Env: []action.EnvVar{{Key: "PATH", Value: ""}}},
		withEnv(act("tool", "-I/usr/include", "--who="+user), "PATH", "/opt/bin", "CC", "/usr/bin/gcc"),
		{Mnemonic: "FileWrite", TargetID: tid("//a:d")},
	}
}

// TestAggregation covers §3.7 and the §12 Aggregation tests.
func TestAggregation(t *testing.T) {
	t.Run("violation_order_is_stable_across_every_rotation_of_the_actions", func(t *testing.T) {
		actions := aggregationActions()
		want := runAll(All(ahab02), actions)
		if want.Len() == 0 {
			t.Fatal("the actions yield nothing")
		}
		for r := 1; r < len(actions); r++ {
			rotated := append(slices.Clone(actions[r:]), actions[:r]...)
			got := runAll(All(ahab02), rotated)
			if !got.Equal(want) || !reflect.DeepEqual(got.Sorted(), want.Sorted()) {
				t.Errorf("rotation %d:\n%swant:\n%s", r, listCounted(got.Sorted()), listCounted(want.Sorted()))
			}
		}
	})

	t.Run("check_all_accounts_for_everything_the_individual_checks_find", func(t *testing.T) {
		actions := aggregationActions()
		all := runAll(All(ahab02), actions)
		parts := finding.NewSet()
		kinds := map[finding.Kind]bool{}
		for _, c := range All(ahab02) {
			s := runAll([]*Check{c}, actions)
			for _, f := range s.Sorted() {
				kinds[f.Kind] = true
			}
			parts.Merge(s)
		}
		if !all.Equal(parts) {
			t.Errorf("All found:\n%sthe checks one by one:\n%s", listCounted(all.Sorted()), listCounted(parts.Sorted()))
		}
		for _, k := range []finding.Kind{finding.EnvironmentLeak, finding.BadPath, finding.ExecutionRequirement,
			finding.AbsolutePath, finding.WorkspaceStatus} {
			if !kinds[k] {
				t.Errorf("the actions yield no %s finding", k)
			}
		}
	})

	t.Run("identical_violations_are_counted_rather_than_repeated", func(t *testing.T) {
		// Two actions of one target and mnemonic cannot be told apart.
		a := act("tool", "/opt/x")
		set := runAll([]*Check{AbsPath(ahab02)}, []*action.Action{a, act("tool", "/opt/x")})
		got := set.Sorted()
		if len(got) != 1 || got[0].Count != 2 || got[0].Path != "/opt/x" {
			t.Errorf("got:\n%swant /opt/x counted twice", listCounted(got))
		}
	})

	t.Run("counts_distinguish_otherwise_identical_results", func(t *testing.T) {
		once := runAll(All(ahab02), []*action.Action{act("tool", "/opt/x")})
		twice := runAll(All(ahab02), []*action.Action{act("tool", "/opt/x:/opt/x")})
		if once.Len() != twice.Len() || once.Occurrences() == twice.Occurrences() || once.Equal(twice) {
			t.Errorf("one occurrence:\n%stwo occurrences:\n%s", listCounted(once.Sorted()), listCounted(twice.Sorted()))
		}
	})

	t.Run("different_targets_are_different_findings", func(t *testing.T) {
		b := act("tool", "/opt/x")
		b.TargetID = tid("//test:t2")
		set := runAll([]*Check{AbsPath(ahab02)}, []*action.Action{act("tool", "/opt/x"), b})
		if set.Len() != 2 || set.Occurrences() != 2 {
			t.Errorf("got:\n%swant two findings once each", listCounted(set.Sorted()))
		}
	})

	t.Run("sibling_actions", func(t *testing.T) {
		// §3.7: three compiles of one target with the same flags and an
		// unknown compiler merge into two findings.
		var actions []*action.Action
		for _, src := range []string{"a.c", "b.c", "c.c"} {
			actions = append(actions, &action.Action{Mnemonic: "CppCompile", TargetID: tid("//app:lib"),
				Arguments: []string{"external/llvm+/bin/clang", "-I/opt/include", src}})
		}
		set := runAll(All(ahab02), actions)
		ref := finding.ActionRef{Mnemonic: "CppCompile", TargetID: tid("//app:lib")}
		want := []finding.Counted{
			{Count: 3, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref, Path: "/opt/include", Site: argSite("-I/opt/include")}},
			{Count: 3, Finding: finding.Finding{Kind: finding.UnknownProgram, Action: ref,
				Program: program.ID{Origin: program.Origin{Kind: program.Module, Module: "llvm"}, Path: "bin/clang"}}},
		}
		got := set.Sorted()
		if set.Occurrences() != 6 || !sameCounted(got, want) {
			t.Errorf("got:\n%swant:\n%s", listCounted(got), listCounted(want))
		}
	})
}

// sameCounted compares findings and counts, treating nil and empty
// slices alike.
func sameCounted(got, want []finding.Counted) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Count != w.Count || finding.Compare(&g.Finding, &w.Finding) != 0 || g.Site != w.Site || g.Sentinel != w.Sentinel {
			return false
		}
	}
	return true
}

// TestParamFiles covers the §12 Param files tests that concern these
// checks (§9): every line of every param file is scanned once, with its
// file as the site.
func TestParamFiles(t *testing.T) {
	a := &action.Action{Mnemonic: "CppCompile", TargetID: tid("//a:b"),
		Arguments: []string{"clang", "@out/foo.params", "-fmodule-map-file=out/m.cppmap", "@out/foo.params"},
		ParamFiles: []action.ParamFile{
			{ExecPath: "out/foo.params", Lines: []string{"-O2", "-isystem/usr/include", "--user=" + user}},
			{ExecPath: "out/m.cppmap", Lines: []string{`module "crosstool" {`, `  textual header "/usr/include/stdio.h"`}},
		},
	}
	ref := finding.ActionRef{Mnemonic: "CppCompile", TargetID: tid("//a:b")}
	set := finding.NewSet()
	for _, c := range []*Check{EnvLeak, AbsPath(ahab02)} {
		c.Run(a, func(f finding.Finding) { set.Add(f, 1) })
	}
	want := []finding.Counted{
		{Count: 1, Finding: finding.Finding{Kind: finding.EnvironmentLeak, Action: ref, Source: finding.User, Sentinel: user,
			Site: paramSite("out/foo.params", "--user="+user)}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref, Path: "/usr/include",
			Site: paramSite("out/foo.params", "-isystem/usr/include")}},
		{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Action: ref, Path: "/usr/include/stdio.h",
			Site: paramSite("out/m.cppmap", `  textual header "/usr/include/stdio.h"`)}},
	}
	if got := set.Sorted(); !sameCounted(got, want) {
		t.Errorf("got:\n%swant:\n%s", listCounted(got), listCounted(want))
	}
}
