package check

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/spec"
)

// Lines gives every action what the checks find in it, whatever came
// before: the same findings, counted as often, the same deferral, and a
// judgement of its own whenever anything of its command line differs.
func TestLinesGiveWhatTheChecksGive(t *testing.T) {
	genrule := func(target uint32, script string) action.Action {
		return action.Action{Mnemonic: "Genrule", TargetID: target,
			Arguments: []string{"/bin/bash", "-c", script + " > bazel-out/k8-fastbuild/bin/a.txt"}}
	}
	withEnv := func(a action.Action, k, v string) action.Action {
		a.Env = []action.EnvVar{{Key: k, Value: v}}
		return a
	}
	compile := func(target uint32, params ...string) action.Action {
		return action.Action{Mnemonic: "CppCompile", TargetID: target,
			Arguments:  []string{"/usr/bin/gcc", "@bazel-out/k8-fastbuild/bin/a.params", "-c", "a.c"},
			ParamFiles: []action.ParamFile{{ExecPath: "bazel-out/k8-fastbuild/bin/a.params", Lines: params}}}
	}
	local := func(a action.Action, keys ...string) action.Action {
		a.ExecutionInfo = keys
		return a
	}
	differ := []action.Action{
		genrule(1, "date"),
		withEnv(genrule(1, "date"), "HOSTNAME", action.HostnameSentinel),
		withEnv(genrule(1, "date"), "HOSTNAME", "other"),
		local(genrule(1, "date"), "no-remote"),
		local(genrule(1, "date"), "local"),
		{Mnemonic: "Action", TargetID: 1, Arguments: genrule(1, "date").Arguments},
		compile(1, "-I/usr/include"),
		compile(1, "-Iinclude"),
		compile(1),
		{Mnemonic: "FileWrite", TargetID: 1},
	}
	var actions []action.Action
	for _, a := range differ {
		// Runs of one target, the target changing, and coming back.
		for _, target := range []uint32{1, 1, 2, 2, 2, 1, 3, 0, 3} {
			a.TargetID = target
			actions = append(actions, a)
		}
	}
	for _, m := range []mode.Mode{mode.Default, mode.Ahab02} {
		checks := All(spec.BuiltinFor(m), "HOSTNAME")
		for _, order := range []string{"in runs", "interleaved"} {
			if order == "interleaved" {
				// Every command line again, one after the other.
				slices.SortStableFunc(actions, func(a, b action.Action) int { return int(a.TargetID) - int(b.TargetID) })
			}
			want, got := finding.NewSet(), finding.NewSet()
			lines := NewLines(checks, got, LinesKept)
			for i := range actions {
				a := &actions[i]
				var deferred []*Check
				wantDeferred := runNow(checks, a, func(f finding.Finding) { want.Add(f, 1) })
				d := lines.Run(a)
				if d != nil {
					deferred = d.Checks
					if !reflect.DeepEqual(d.Action.Arguments, a.Arguments) || d.Action.Mnemonic != a.Mnemonic {
						t.Errorf("%s, %s: action %d deferred as %+v", m, order, i, d.Action)
					}
				}
				if !slices.Equal(deferred, wantDeferred) {
					t.Errorf("%s, %s: action %d deferred by %d checks, want %d", m, order, i, len(deferred), len(wantDeferred))
				}
			}
			lines.Flush()
			if !got.Equal(want) {
				t.Errorf("%s, %s: through Lines\n%v\nchecked one by one\n%v", m, order, got.Sorted(), want.Sorted())
			}
			if want.Occurrences() == 0 {
				t.Fatalf("%s: the actions have no findings, so the test shows nothing", m)
			}
		}
	}
}

// A finding the checks report for another action than the one they were
// given, or with its target already named, is the checks' to explain:
// Lines then reports what they report, every time, and remembers nothing.
func TestLinesRememberOnlyTheActionsOwnFindings(t *testing.T) {
	calls := 0
	odd := &Check{Name: "odd", Stage: CommandLine, Run: func(a *action.Action, report func(finding.Finding)) {
		calls++
		report(finding.Finding{Kind: finding.BadPath, Action: finding.ActionRef{Mnemonic: a.Mnemonic, Target: "//named:target"}, Actual: "x"})
	}}
	set := finding.NewSet()
	lines := NewLines([]*Check{odd}, set, LinesKept)
	a := action.Action{Mnemonic: "Genrule", TargetID: 4, Arguments: []string{"/bin/true"}}
	for range 5 {
		lines.Run(&a)
	}
	lines.Flush()
	if calls != 5 {
		t.Errorf("the check ran %d times for 5 actions, want 5", calls)
	}
	if got := set.Occurrences(); got != 5 {
		t.Errorf("%d occurrences, want 5", got)
	}
}

// Until Flush, the actions given what was found before may be missing from
// the set; after it, none is.
func TestLinesFlush(t *testing.T) {
	checks := All(spec.Builtin())
	set := finding.NewSet()
	lines := NewLines(checks, set, LinesKept)
	a := action.Action{Mnemonic: "CppCompile", TargetID: 1, Arguments: []string{"/usr/bin/gcc", "-I/usr/local/include", "-c", "a.c"}}
	for range 10 {
		lines.Run(&a)
	}
	before := set.Occurrences()
	lines.Flush()
	after := set.Occurrences()
	if after <= before || after%10 != 0 {
		t.Errorf("%d occurrences before Flush and %d after; want more after, ten of each finding", before, after)
	}
	lines.Flush()
	if set.Occurrences() != after {
		t.Errorf("a second Flush added %d occurrences", set.Occurrences()-after)
	}
}

// lineKey must hash every field of an action a CommandLine check sees
// but its target: a field added to action.Action must be hashed, or
// listed here as one the stage never sees.
func TestLineKeyCoversTheAction(t *testing.T) {
	hashed := []string{"Mnemonic", "Arguments", "Env", "ExecutionInfo", "ParamFiles"}
	notSeen := []string{
		"TargetID",     // carried by findings only: finding.Template
		"StatusInputs", // the Inputs stage's
		"Outputs",      // the Programs step's (Check.Defer)
		"Files",
	}
	typ := reflect.TypeFor[action.Action]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if !slices.Contains(hashed, name) && !slices.Contains(notSeen, name) {
			t.Errorf("action.Action.%s is new: hash it in lineKey, or say why the CommandLine stage never sees it", name)
		}
	}
	base := action.Action{Mnemonic: "Genrule", Arguments: []string{"a", "b"}, Env: []action.EnvVar{{Key: "K", Value: "V"}},
		ExecutionInfo: []string{"local"}, ParamFiles: []action.ParamFile{{ExecPath: "p", Lines: []string{"l"}}}}
	variants := map[string]func(a *action.Action){
		"Mnemonic":      func(a *action.Action) { a.Mnemonic = "Action" },
		"Arguments":     func(a *action.Action) { a.Arguments = []string{"ab"} },
		"Env key":       func(a *action.Action) { a.Env = []action.EnvVar{{Key: "KV"}} },
		"Env value":     func(a *action.Action) { a.Env = []action.EnvVar{{Key: "K", Value: "W"}} },
		"ExecutionInfo": func(a *action.Action) { a.ExecutionInfo = nil },
		"ParamFiles":    func(a *action.Action) { a.ParamFiles[0].Lines = []string{"m"} },
		"param path":    func(a *action.Action) { a.ParamFiles[0].ExecPath = "q" },
		"args to env":   func(a *action.Action) { a.Arguments = []string{"a"}; a.Env = append(a.Env, action.EnvVar{Key: "b"}) },
	}
	for name, change := range variants {
		a := base.Clone()
		change(&a)
		if lineKey(&a) == lineKey(&base) {
			t.Errorf("%s changed, and the key did not", name)
		}
	}
	other := base.Clone()
	other.TargetID = 9
	if lineKey(&other) != lineKey(&base) {
		t.Error("the target changed the key")
	}
}

// A Lines keeps track of as many command lines as it is told, the first
// it meets; the others are judged every time, and counted all the same.
func TestLinesKeepTrackOfSoMany(t *testing.T) {
	calls := map[string]int{}
	counting := &Check{Name: "counting", Stage: CommandLine, Run: func(a *action.Action, report func(finding.Finding)) {
		calls[a.Arguments[0]]++
		report(finding.Finding{Kind: finding.AbsolutePath, Action: finding.ActionRef{Mnemonic: a.Mnemonic, TargetID: a.TargetID},
			Path: a.Arguments[0], Site: finding.Site{Location: finding.Argument, Value: a.Arguments[0]}})
	}}
	set := finding.NewSet()
	lines := NewLines([]*Check{counting}, set, 2)
	for range 3 {
		for _, program := range []string{"/a", "/b", "/c"} {
			lines.Run(&action.Action{Mnemonic: "Action", TargetID: 1, Arguments: []string{program}})
		}
	}
	lines.Flush()
	// The first two are judged when first met and when met again.
	if want := map[string]int{"/a": 2, "/b": 2, "/c": 3}; !reflect.DeepEqual(calls, want) {
		t.Errorf("judged %v, want %v", calls, want)
	}
	for _, c := range set.Sorted() {
		if c.Count != 3 {
			t.Errorf("%s counted %d times, want 3", c.Path, c.Count)
		}
	}
}
