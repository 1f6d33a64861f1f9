package spawndiff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/spawn"
)

// A tiny language for spawns: sp("Gen", out("o", "1"), in("src", "a"))
// is a Genrule-like spawn reading src (content "a") and writing o (content
// "1"). Digests are the content strings themselves.

type opt func(*spawn.Spawn)

func sp(mnemonic string, opts ...opt) *spawn.Spawn {
	s := &spawn.Spawn{Mnemonic: mnemonic, Args: []string{"/bin/" + strings.ToLower(mnemonic)}}
	for _, o := range opts {
		o(s)
	}
	slices.SortFunc(s.Inputs, func(a, b spawn.File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(s.OutputFiles, func(a, b spawn.File) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(s.Outputs)
	return s
}

func in(path, content string) opt {
	return func(s *spawn.Spawn) {
		s.Inputs = append(s.Inputs, spawn.File{Path: path, Digest: spawn.Digest{Hash: content, Size: int64(len(content))}})
	}
}

func out(path, content string) opt {
	return func(s *spawn.Spawn) {
		s.Outputs = append(s.Outputs, path)
		s.OutputFiles = append(s.OutputFiles, spawn.File{Path: path, Digest: spawn.Digest{Hash: content, Size: int64(len(content))}})
	}
}

// tree declares a tree artifact dir holding files, each with content "1".
func tree(dir string, files ...string) opt {
	return func(s *spawn.Spawn) {
		s.Outputs = append(s.Outputs, dir)
		for _, f := range files {
			s.OutputFiles = append(s.OutputFiles, spawn.File{Path: dir + "/" + f, Digest: spawn.Digest{Hash: "1", Size: 1}})
		}
	}
}

// missing declares an output that was not produced.
func missing(path string) opt {
	return func(s *spawn.Spawn) { s.Outputs = append(s.Outputs, path) }
}

func arg(a string) opt { return func(s *spawn.Spawn) { s.Args = append(s.Args, a) } }
func env(n, v string) opt {
	return func(s *spawn.Spawn) { s.Env = append(s.Env, spawn.EnvVar{Name: n, Value: v}) }
}
func exit(c int32) opt    { return func(s *spawn.Spawn) { s.ExitCode = c } }
func target(t string) opt { return func(s *spawn.Spawn) { s.Target = t } }
func runner(r string) opt { return func(s *spawn.Spawn) { s.Runner = r } }
func cacheHit(b bool) opt { return func(s *spawn.Spawn) { s.CacheHit = b } }
func symlink(p, t string) opt {
	return func(s *spawn.Spawn) { s.Inputs = append(s.Inputs, spawn.File{Path: p, SymlinkTarget: t}) }
}

func logOf(t testing.TB, name string, spawns ...*spawn.Spawn) *Log {
	t.Helper()
	l := NewLog(name)
	for _, s := range spawns {
		if err := l.AddSpawn(s); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// summary renders a Result as one line per action: "verdict first-output
// <- root, root" (roots by their first output), for table tests.
func summary(r *Result) []string {
	var lines []string
	for _, a := range r.Actions {
		line := a.Verdict.String() + " " + strings.Join(a.Outputs, ",")
		if len(a.RootCauses) > 0 {
			var roots []string
			for _, i := range a.RootCauses {
				roots = append(roots, strings.Join(r.Actions[i].Outputs, ","))
			}
			line += " <- " + strings.Join(roots, " ")
		}
		lines = append(lines, line)
	}
	return lines
}

func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name          string
		old, new      []*spawn.Spawn
		want          []string
		identical     int
		wantDiffering map[string]Differences // by first output, when the case checks it
	}{{
		name:      "identical spawns are counted, not listed",
		old:       []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "1"), env("PATH", "/bin"))},
		new:       []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "1"), env("PATH", "/bin"))},
		identical: 1,
	}, {
		name:      "how a spawn ran does not matter: runner and cache hit",
		old:       []*spawn.Spawn{sp("Gen", out("o", "1"), runner("local"))},
		new:       []*spawn.Spawn{sp("Gen", out("o", "1"), runner("remote cache hit"), cacheHit(true))},
		identical: 1,
	}, {
		name: "same command, environment and inputs, different output: nondeterministic",
		old:  []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "2"))},
		want: []string{"nondeterministic o"},
	}, {
		name: "an output produced in one build only: nondeterministic",
		old:  []*spawn.Spawn{sp("Gen", out("o", "1"), missing("p"))},
		new:  []*spawn.Spawn{sp("Gen", out("o", "1"), out("p", "2"))},
		want: []string{"nondeterministic o,p"},
	}, {
		name: "a changed source file: input_changed",
		old:  []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("src", "b"), out("o", "2"))},
		want: []string{"input_changed o"},
	}, {
		name: "a changed source file with the same output is still input_changed",
		old:  []*spawn.Spawn{sp("Gen", in("src", "a"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("src", "b"), out("o", "1"))},
		want: []string{"input_changed o"},
	}, {
		name: "volatile-status.txt is produced by no spawn: input_changed",
		old:  []*spawn.Spawn{sp("Gen", in("bazel-out/volatile-status.txt", "t1"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("bazel-out/volatile-status.txt", "t2"), out("o", "2"))},
		want: []string{"input_changed o"},
	}, {
		name: "a source file added to the inputs: input_changed",
		old:  []*spawn.Spawn{sp("Gen", in("a.h", "a"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("a.h", "a"), in("b.h", "b"), out("o", "1"))},
		want: []string{"input_changed o"},
	}, {
		name: "a source file removed from the inputs: input_changed",
		old:  []*spawn.Spawn{sp("Gen", in("a.h", "a"), in("b.h", "b"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", in("a.h", "a"), out("o", "1"))},
		want: []string{"input_changed o"},
	}, {
		name: "a symlink pointing elsewhere: input_changed",
		old:  []*spawn.Spawn{sp("Gen", symlink("l", "x"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", symlink("l", "y"), out("o", "1"))},
		want: []string{"input_changed o"},
	}, {
		name: "a different argument: command_changed",
		old:  []*spawn.Spawn{sp("Gen", arg("-O1"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", arg("-O2"), out("o", "1"))},
		want: []string{"command_changed o"},
	}, {
		name: "a different environment: environment_changed",
		old:  []*spawn.Spawn{sp("Gen", env("LANG", "C"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", env("LANG", "fr_FR"), out("o", "2"))},
		want: []string{"environment_changed o"},
	}, {
		name:      "the environment's order alone is no difference",
		old:       []*spawn.Spawn{sp("Gen", env("A", "1"), env("B", "2"), out("o", "1"))},
		new:       []*spawn.Spawn{sp("Gen", env("B", "2"), env("A", "1"), out("o", "1"))},
		identical: 1,
	}, {
		name: "only the exit code differs: flaky_exit",
		old:  []*spawn.Spawn{sp("Test", out("test.log", "x"), exit(0))},
		new:  []*spawn.Spawn{sp("Test", out("test.log", "x"), exit(1))},
		want: []string{"flaky_exit test.log"},
	}, {
		name: "a different exit code wins over different outputs: flaky_exit",
		old:  []*spawn.Spawn{sp("Test", out("test.log", "pass"), exit(0))},
		new:  []*spawn.Spawn{sp("Test", out("test.log", "fail"), exit(1))},
		want: []string{"flaky_exit test.log"},
	}, {
		name: "spawns of one build only: only_old and only_new",
		old:  []*spawn.Spawn{sp("Gen", out("gone", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("added", "1"))},
		want: []string{"only_new added", "only_old gone"},
	}, {
		name: "a consumer of a nondeterministic output whose output differs: downstream",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Copy", in("a", "1"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Copy", in("a", "2"), out("b", "2"))},
		want: []string{"nondeterministic a", "downstream b <- a"},
	}, {
		name: "a consumer whose output is the same: absorbed",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Len", in("a", "1"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Len", in("a", "2"), out("b", "1"))},
		want: []string{"nondeterministic a", "absorbed b <- a"},
	}, {
		name: "a consumer that fails because its input changed is downstream, not flaky",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Test", in("a", "1"), out("b", "1"), exit(0))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Test", in("a", "2"), out("b", "1"), exit(3))},
		want: []string{"nondeterministic a", "downstream b <- a"},
	}, {
		name: "a generated input only one build has (a tree artifact's new file): downstream",
		old:  []*spawn.Spawn{sp("Tree", tree("t", "x")), sp("Zip", in("t/x", "1"), out("z", "1"))},
		new:  []*spawn.Spawn{sp("Tree", tree("t", "x", "y")), sp("Zip", in("t/x", "1"), in("t/y", "1"), out("z", "2"))},
		want: []string{"nondeterministic t", "downstream z <- t"},
	}, {
		name: "a cascade names its root through every step",
		old: []*spawn.Spawn{sp("Gen", out("a", "1")), sp("C1", in("a", "1"), out("b", "1")),
			sp("C2", in("b", "1"), out("c", "1")), sp("C3", in("c", "1"), out("d", "1"))},
		new: []*spawn.Spawn{sp("Gen", out("a", "2")), sp("C1", in("a", "2"), out("b", "2")),
			sp("C2", in("b", "2"), out("c", "2")), sp("C3", in("c", "2"), out("d", "1"))},
		want: []string{"nondeterministic a", "downstream b <- a", "downstream c <- a", "absorbed d <- a"},
	}, {
		name: "an action downstream of two roots names both",
		old:  []*spawn.Spawn{sp("G1", out("a", "1")), sp("G2", in("s", "x"), out("b", "1")), sp("Link", in("a", "1"), in("b", "1"), out("l", "1"))},
		new:  []*spawn.Spawn{sp("G1", out("a", "2")), sp("G2", in("s", "y"), out("b", "2")), sp("Link", in("a", "2"), in("b", "2"), out("l", "2"))},
		want: []string{"nondeterministic a", "input_changed b", "downstream l <- a b"},
	}, {
		name: "precedence: a command change with a changed source file is command_changed",
		old:  []*spawn.Spawn{sp("Gen", arg("-a"), in("src", "1"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", arg("-b"), in("src", "2"), out("o", "2"))},
		want: []string{"command_changed o"},
	}, {
		name: "precedence: a command change beats an environment change",
		old:  []*spawn.Spawn{sp("Gen", arg("-a"), env("A", "1"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", arg("-b"), env("A", "2"), out("o", "1"))},
		want: []string{"command_changed o"},
	}, {
		name: "precedence: an environment change with a changed source file is environment_changed",
		old:  []*spawn.Spawn{sp("Gen", env("A", "1"), in("src", "1"), out("o", "1"))},
		new:  []*spawn.Spawn{sp("Gen", env("A", "2"), in("src", "2"), out("o", "1"))},
		want: []string{"environment_changed o"},
	}, {
		name: "precedence: a changed source and a changed generated input make a root, input_changed",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Use", in("a", "1"), in("src", "x"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Use", in("a", "2"), in("src", "y"), out("b", "2"))},
		want: []string{"nondeterministic a", "input_changed b"},
	}, {
		name: "precedence: a command change downstream of a root is a root of its own",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Use", arg("-x"), in("a", "1"), out("b", "1")), sp("Next", in("b", "1"), out("c", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Use", arg("-y"), in("a", "2"), out("b", "2")), sp("Next", in("b", "2"), out("c", "2"))},
		want: []string{"nondeterministic a", "command_changed b", "downstream c <- b"},
	}, {
		name: "an input changed after an identical spawn produced it is a changed input, not a cascade",
		old:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Use", in("a", "1"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "1")), sp("Use", in("a", "9"), out("b", "2"))},
		want: []string{"input_changed b"}, identical: 1,
	}, {
		name: "a consumer of an only_new spawn's output is downstream of it",
		old:  []*spawn.Spawn{sp("Use", in("a", "1"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("a", "2")), sp("Use", in("a", "2"), out("b", "2"))},
		want: []string{"only_new a", "downstream b <- a"},
	}, {
		name: "roots come producers first, whatever their names",
		old:  []*spawn.Spawn{sp("Z", in("s1", "x"), out("z", "1")), sp("A", in("z", "1"), arg("-1"), out("a", "1"))},
		new:  []*spawn.Spawn{sp("Z", in("s1", "y"), out("z", "2")), sp("A", in("z", "2"), arg("-2"), out("a", "2"))},
		want: []string{"input_changed z", "command_changed a"},
	}, {
		name: "retried spawns with one key pair identical ones first",
		old:  []*spawn.Spawn{sp("Test", out("test.log", "f"), exit(1)), sp("Test", out("test.log", "p"), exit(0))},
		new:  []*spawn.Spawn{sp("Test", out("test.log", "p"), exit(0)), sp("Test", out("test.log", "p"), exit(0))},
		want: []string{"flaky_exit test.log"}, identical: 1,
	}, {
		name: "an extra retry is only_new",
		old:  []*spawn.Spawn{sp("Test", out("test.log", "p"), exit(0))},
		new:  []*spawn.Spawn{sp("Test", out("test.log", "f"), exit(1)), sp("Test", out("test.log", "p"), exit(0))},
		want: []string{"only_new test.log"}, identical: 1,
	}, {
		name: "with labels, a moved output pairs by target and mnemonic: command_changed",
		old:  []*spawn.Spawn{sp("Gen", target("//p:g"), out("bazel-out/k8-fastbuild/bin/p/g", "1"))},
		new:  []*spawn.Spawn{sp("Gen", target("//p:g"), out("bazel-out/k8-opt/bin/p/g", "1"))},
		want: []string{"command_changed bazel-out/k8-opt/bin/p/g"},
	}, {
		name: "without labels, a moved output is two spawns",
		old:  []*spawn.Spawn{sp("Gen", out("bazel-out/k8-fastbuild/bin/p/g", "1"))},
		new:  []*spawn.Spawn{sp("Gen", out("bazel-out/k8-opt/bin/p/g", "1"))},
		want: []string{"only_old bazel-out/k8-fastbuild/bin/p/g", "only_new bazel-out/k8-opt/bin/p/g"},
	}, {
		name: "several spawns of one target and mnemonic pair by outputs",
		old: []*spawn.Spawn{sp("CppCompile", target("//p:lib"), in("a.cc", "1"), out("a.o", "1")),
			sp("CppCompile", target("//p:lib"), in("b.cc", "1"), out("b.o", "1"))},
		new: []*spawn.Spawn{sp("CppCompile", target("//p:lib"), in("b.cc", "1"), out("b.o", "1")),
			sp("CppCompile", target("//p:lib"), in("a.cc", "2"), out("a.o", "2"))},
		want: []string{"input_changed a.o"}, identical: 1,
	}, {
		name: "a dependency cycle in a corrupt log ends",
		old:  []*spawn.Spawn{sp("G", out("r", "1")), sp("A", in("r", "1"), in("b", "1"), out("a", "1")), sp("B", in("a", "1"), out("b", "1"))},
		new:  []*spawn.Spawn{sp("G", out("r", "2")), sp("A", in("r", "2"), in("b", "2"), out("a", "2")), sp("B", in("a", "2"), out("b", "2"))},
		want: []string{"nondeterministic r", "downstream b <- r", "downstream a <- r"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := Diff(logOf(t, "old", tc.old...), logOf(t, "new", tc.new...))
			if got := summary(r); !slices.Equal(got, tc.want) {
				t.Errorf("actions\n%s\nexpected\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if r.Count(Identical) != tc.identical {
				t.Errorf("%d identical, expected %d", r.Count(Identical), tc.identical)
			}
			total := 0
			for _, v := range Verdicts() {
				if v != Identical {
					total += r.Count(v)
				}
			}
			if total != len(r.Actions) {
				t.Errorf("counts add up to %d, expected the %d actions", total, len(r.Actions))
			}
			// Shuffled logs give the same result.
			for seed := range uint64(5) {
				rng := rand.New(rand.NewPCG(seed, 1))
				old, new := slices.Clone(tc.old), slices.Clone(tc.new)
				rng.Shuffle(len(old), func(i, j int) { old[i], old[j] = old[j], old[i] })
				rng.Shuffle(len(new), func(i, j int) { new[i], new[j] = new[j], new[i] })
				shuffled := Diff(logOf(t, "old", old...), logOf(t, "new", new...))
				if !sameReports(t, r, shuffled) {
					t.Fatalf("shuffled logs (seed %d) give\n%s", seed, strings.Join(summary(shuffled), "\n"))
				}
			}
		})
	}
}

// sameReports reports whether two results print the same, in both
// formats.
func sameReports(t *testing.T, a, b *Result) bool {
	t.Helper()
	render := func(r *Result) string {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteText(&buf, r, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	return render(a) == render(b)
}

// What differs is kept for root causes: which argument, which variable,
// which inputs and outputs.
func TestDetails(t *testing.T) {
	old := []*spawn.Spawn{
		sp("Cmd", arg("-c"), arg("echo a"), out("cmd", "1")),
		sp("Short", arg("-x"), out("short", "1")),
		sp("Env", env("A", "1"), env("B", "2"), env("GONE", "x"), out("env", "1")),
		sp("In", in("h1", "a"), in("h2", "b"), in("same", "s"), out("in", "1")),
		sp("Out", out("o1", "1"), out("o2", "2")),
		sp("Flaky", out("f", "1"), exit(0)),
		sp("Moved", target("//m"), out("bazel-out/a/m", "1")),
	}
	new := []*spawn.Spawn{
		sp("Cmd", arg("-c"), arg("echo b"), out("cmd", "1")),
		sp("Short", out("short", "1")),
		sp("Env", env("A", "1"), env("B", "3"), env("NEW", "y"), out("env", "1")),
		sp("In", in("h1", "c"), in("same", "s"), in("h3", "d"), out("in", "1")),
		sp("Out", out("o1", "1"), out("o2", "3")),
		sp("Flaky", out("f", "1"), exit(2)),
		sp("Moved", target("//m"), out("bazel-out/b/m", "1")),
	}
	r := Diff(logOf(t, "old", old...), logOf(t, "new", new...))
	by := map[string]*Action{}
	for i := range r.Actions {
		by[r.Actions[i].Mnemonic] = &r.Actions[i]
	}
	s := func(v string) *string { return &v }
	c := func(hash string) *Content { return &Content{Digest: spawn.Digest{Hash: hash, Size: int64(len(hash))}} }
	check := func(mnemonic string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, expected %+v", mnemonic, got, want)
		}
	}
	check("Cmd", by["Cmd"].Argument, &ArgumentChange{Index: 2, Old: "echo a", New: "echo b"})
	check("Short", by["Short"].Argument, &ArgumentChange{Index: 1, Old: "-x", NewMissing: true})
	check("Env", by["Env"].Variable, &VariableChange{Name: "B", Old: s("2"), New: s("3")})
	check("Env count", by["Env"].VariableChanges, 3)
	check("In", by["In"].InputChanges, []FileChange{{Path: "h1", Old: c("a"), New: c("c")}, {Path: "h2", Old: c("b")}, {Path: "h3", New: c("d")}})
	check("In count", by["In"].SourceInputChanges, 3)
	check("Out", by["Out"].OutputChanges, []FileChange{{Path: "o2", Old: c("2"), New: c("3")}})
	check("Flaky", [2]int32{by["Flaky"].OldExit, by["Flaky"].NewExit}, [2]int32{0, 2})
	check("Moved", by["Moved"].Argument, (*ArgumentChange)(nil))
	check("Moved", by["Moved"].OldOutputs, []string{"bazel-out/a/m"})
	check("Moved differs", by["Moved"].Differs, DiffCommand|DiffOutputs)
}

// A root keeps the first MaxListed changed inputs by path and counts the
// rest.
func TestManyChangedInputs(t *testing.T) {
	var oldIn, newIn []opt
	for i := range 25 {
		p := fmt.Sprintf("src/%02d.h", 24-i)
		oldIn = append(oldIn, in(p, "old"))
		newIn = append(newIn, in(p, "new"))
	}
	r := Diff(logOf(t, "old", sp("Gen", append(oldIn, out("o", "1"))...)), logOf(t, "new", sp("Gen", append(newIn, out("o", "2"))...)))
	a := r.Actions[0]
	if a.SourceInputChanges != 25 || len(a.InputChanges) != MaxListed || a.InputChanges[0].Path != "src/00.h" || a.InputChanges[MaxListed-1].Path != "src/09.h" {
		t.Errorf("%d changes, kept %v", a.SourceInputChanges, a.InputChanges)
	}
}

// An input read with another digest than the path first had in the same
// log is compared with its own digest.
func TestInputDigestOverride(t *testing.T) {
	old := logOf(t, "old", sp("Gen", out("a", "1")), sp("U1", in("a", "1"), out("b", "1")), sp("U2", in("a", "1"), out("c", "1")))
	new := logOf(t, "new", sp("Gen", out("a", "1")), sp("U1", in("a", "1"), out("b", "1")), sp("U2", in("a", "7"), out("c", "1")))
	r := Diff(old, new)
	if got := summary(r); !slices.Equal(got, []string{"input_changed c"}) {
		t.Errorf("actions %v", got)
	}
	if got := r.Actions[0].InputChanges; len(got) != 1 || got[0].Old.Digest.Hash != "1" || got[0].New.Digest.Hash != "7" {
		t.Errorf("input changes %+v", got)
	}
}

func TestVerdictNames(t *testing.T) {
	want := []string{"nondeterministic", "input_changed", "command_changed", "environment_changed", "flaky_exit", "only_old", "only_new", "downstream", "absorbed", "identical"}
	var got []string
	for _, v := range Verdicts() {
		got = append(got, v.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("verdicts %v", got)
	}
	for _, v := range Verdicts() {
		if v.IsRoot() != (v < Downstream) {
			t.Errorf("%v.IsRoot() = %v", v, v.IsRoot())
		}
	}
}

// A reader sharing a Log's tables may intern strings after the last spawn
// (files no spawn read); they are no paths of the log.
func TestStringsAfterTheLastSpawn(t *testing.T) {
	old := logOf(t, "old", sp("Gen", in("src", "a"), out("o", "1")))
	new := logOf(t, "new", sp("Gen", in("src", "b"), out("o", "2")))
	for _, l := range []*Log{old, new} {
		l.Tables().Strings.Intern("bazel-out/k8-fastbuild/bin/never/read")
		l.Tables().Contents.Intern("content")
	}
	if got := summary(Diff(old, new)); !slices.Equal(got, []string{"input_changed o"}) {
		t.Errorf("actions %v", got)
	}
}

// Spawns that share their inputs (one nested set of a compact log named
// by them all) keep one list of them, and each pair of lists is compared
// once, not once per pair of spawns: 100k files read by 100k spawns must
// not be 10^10 steps (issue #26.3).
func TestSharedInputsAreComparedOnce(t *testing.T) {
	const spawns, files = 2000, 2000
	build := func(name, changed string) *Log {
		l := NewLog(name)
		tb := l.Tables()
		inputs := make([]spawn.FileID, files)
		for i := range inputs {
			content := "aa"
			if i == files/2 {
				content = changed
			}
			inputs[i] = tb.File(spawn.File{Path: fmt.Sprintf("src/f%d", i), Digest: spawn.Digest{Hash: content, Size: 1}})
		}
		var sum spawn.Summary
		for i := range spawns {
			s := &spawn.Spawn{Mnemonic: "Compile", Outputs: []string{fmt.Sprintf("out/o%d", i)},
				OutputFiles: []spawn.File{{Path: fmt.Sprintf("out/o%d", i), Digest: spawn.Digest{Hash: "bb", Size: 1}}}}
			tb.Summarize(s, &sum)
			sum.Inputs, sum.InputSet = inputs, 7
			sum.InputsHash = spawn.HashFiles(inputs)
			if err := l.Add(&sum); err != nil {
				t.Fatal(err)
			}
		}
		return l
	}
	old, new := build("old", "01"), build("new", "02")
	if old.rec(0).inPos != old.rec(spawns-1).inPos {
		t.Error("the spawns of one set do not share their list of inputs")
	}
	d := newDiffer(old, new)
	r := d.run()
	if got := r.Count(InputChanged); got != spawns {
		t.Errorf("%d input_changed, want %d", got, spawns)
	}
	if d.comparedInputs != 1 {
		t.Errorf("compared %d pairs of input lists, want 1", d.comparedInputs)
	}
	for _, a := range r.Actions[:3] {
		if len(a.InputChanges) != 1 || a.InputChanges[0].Path != fmt.Sprintf("src/f%d", files/2) {
			t.Errorf("%v: input changes %v", a.Outputs, a.InputChanges)
		}
	}
}
