package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/jsonfile"
)

const sha = "0123456789abcdef0123456789abcdef01234567"

func TestParseSpec(t *testing.T) {
	tests := []struct {
		name string
		json string
		want Spec
	}{
		{
			name: "defaults",
			json: `{"repo": "https://example.com/p", "commit": "` + sha + `"}`,
			want: Spec{Repo: "https://example.com/p", Commit: sha, Label: "//...", Workspace: ".", Weight: 1},
		},
		{
			name: "every field",
			json: `{"repo": "source.bundle", "commit": "` + sha + `", "label": "//a/... - //a/x/...",
				"configs": ["ci", "opt"], "compilation_mode": "dbg", "workspace": "e2e", "weight": 4}`,
			want: Spec{Repo: "source.bundle", Commit: sha, Label: "//a/... - //a/x/...", Configs: []string{"ci", "opt"},
				CompilationMode: "dbg", Workspace: "e2e", Weight: 4},
		},
		{
			name: "no configs",
			json: `{"repo": "r", "commit": "` + sha + `", "configs": [], "workspace": "a/../b"}` + "\n",
			want: Spec{Repo: "r", Commit: sha, Label: "//...", Workspace: "a/../b", Weight: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSpec("spec.json", []byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSpec = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestParseSpecErrors: every mistake is a *jsonfile.Error naming the file,
// the field at fault (none for the document as a whole) and the position.
func TestParseSpecErrors(t *testing.T) {
	const ok = `"repo": "r", "commit": "` + sha + `"`
	tests := []struct {
		name      string
		json      string
		entry     string
		message   string
		line, col int
	}{
		{"unknown field", `{` + ok + `, "compilation-mode": "opt"}`, "",
			"unknown field `compilation-mode`, expected one of `repo`, `commit`, `label`, `configs`, `compilation_mode`, `workspace`, `weight`", 1, 86},
		{"field given twice", `{` + ok + `,` + "\n" + `"label": "//a", "label": "//b"}`, "", "duplicate field `label`", 2, 17},
		{"missing repo", `{"commit": "` + sha + `"}`, "repo", "missing, expected the project's git URL or a path to a bundle", 1, 54},
		{"empty repo", `{"repo": "", "commit": "` + sha + `"}`, "repo", "empty, expected", 1, 11},
		{"missing commit", `{"repo": "r"}`, "commit", "missing, expected a full 40-character commit SHA", 1, 13},
		{"short commit", `{"repo": "r", "commit": "0123abc"}`, "commit", `"0123abc" is not a full commit SHA, expected 40 lowercase hex digits`, 1, 33},
		{"upper-case commit", `{"repo": "r", "commit": "` + strings.ToUpper(sha) + `"}`, "commit", "is not a full commit SHA", 1, 66},
		{"configs not a list", `{` + ok + `, "configs": "ci"}`, "configs", `invalid type: string "ci", expected a sequence of config names`, 1, 83},
		{"empty config", `{` + ok + `, "configs": ["ci", ""]}`, "configs", "entry 2 is empty, expected a config name", 1, 88},
		{"null label", `{` + ok + `, "label": null}`, "label", "invalid type: null, expected a string", 1, 81},
		{"empty label", `{` + ok + `, "label": ""}`, "label", `empty, expected a query expression such as "//..."`, 1, 79},
		{"fractional weight", `{` + ok + `, "weight": 1.5}`, "weight", "invalid value: floating point `1.5`, expected a positive integer", 1, 81},
		{"zero weight", `{` + ok + `, "weight": 0}`, "weight", "invalid value: integer `0`, expected a positive integer", 1, 79},
		{"negative weight", `{` + ok + `, "weight": -2}`, "weight", "invalid value: integer `-2`, expected a positive integer", 1, 80},
		{"huge weight", `{` + ok + `, "weight": 1048577}`, "weight", "expected a positive integer no greater than 1048576", 1, 85},
		{"workspace escapes", `{` + ok + `, "workspace": "a/../../x"}`, "workspace", `"a/../../x" leaves work/, expected a relative directory inside the checkout`, 1, 92},
		{"absolute workspace", `{` + ok + `, "workspace": "/x"}`, "workspace", "leaves work/", 1, 85},
		{"empty workspace", `{` + ok + `, "workspace": ""}`, "workspace", `"" leaves work/`, 1, 83},
		{"empty compilation mode", `{` + ok + `, "compilation_mode": ""}`, "compilation_mode", "empty, expected fastbuild, dbg or opt", 1, 90},
		{"not an object", `[]`, "", "invalid type: sequence, expected a spec object", 1, 1},
		{"null document", `null`, "", "invalid type: null, expected a spec object", 1, 4},
		{"empty file", ``, "", "unexpected end of the document", 1, 0},
		{"trailing data", `{` + ok + `} {}`, "", "trailing characters after the document", 1, 69},
		{"invalid UTF-8", `{` + ok + ", \"label\": \"\xff\"}", "label", "invalid UTF-8", 1, 79},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpec("fishery/demo/spec.json", []byte(tt.json))
			e, isJSONError := errors.AsType[*jsonfile.Error](err)
			if !isJSONError {
				t.Fatalf("ParseSpec error = %v, want a *jsonfile.Error", err)
			}
			if e.Path != "fishery/demo/spec.json" || e.Entry != tt.entry || !strings.Contains(e.Err.Error(), tt.message) ||
				e.Line != tt.line || e.Col != tt.col {
				t.Errorf("ParseSpec error = {Path: %q, Entry: %q, Line: %d, Col: %d, Err: %q}\nwant {Path: \"fishery/demo/spec.json\", Entry: %q, Line: %d, Col: %d, Err: …%s…}",
					e.Path, e.Entry, e.Line, e.Col, e.Err, tt.entry, tt.line, tt.col, tt.message)
			}
		})
	}
}

// TestCheckedInTargets loads the real fishery/ directory: every spec.json
// must parse, and the split between local and network targets is the one
// docs/fishery.md describes.
func TestCheckedInTargets(t *testing.T) {
	targets, err := LoadTargets(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	var local, network []string
	for _, tg := range targets {
		if tg.Spec.NeedsNetwork() {
			network = append(network, tg.Name)
		} else {
			local = append(local, tg.Name)
		}
		if !isFile(filepath.Join(tg.Dir, "expectation.json")) {
			t.Errorf("%s has no expectation.json on record", tg.Name)
		}
	}
	wantNetwork := []string{"abseil-cpp", "buildtools", "dagger", "envoy", "gazelle", "nativelink", "rules_distroless",
		"rules_foreign_cc", "rules_img", "rules_js", "rules_pkg", "rules_tar", "rules_ts"}
	if !reflect.DeepEqual(network, wantNetwork) {
		t.Errorf("network targets = %v, want %v", network, wantNetwork)
	}
	if len(local) < 3 {
		t.Errorf("local targets = %v, want at least the three kept as bundles", local)
	}
}

func TestNeedsNetwork(t *testing.T) {
	for repo, want := range map[string]bool{
		"https://github.com/abseil/abseil-cpp": true,
		"ssh://git@example.com/p.git":          true,
		"git://example.com/p":                  true,
		"file:///srv/git/p":                    false,
		"source.bundle":                        false,
		"../shared/p.bundle":                   false,
		"/srv/git/p":                           false,
	} {
		if got := (Spec{Repo: repo}).NeedsNetwork(); got != want {
			t.Errorf("NeedsNetwork(%q) = %v, want %v", repo, got, want)
		}
	}
}

func TestParseShard(t *testing.T) {
	good := map[string]Shard{"1/1": {1, 1}, "1/4": {1, 4}, "4/4": {4, 4}, "02/10": {2, 10}}
	for in, want := range good {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "0/4", "5/4", "1/0", "-1/4", "+1/4", "1/4/2", "a/b", "1 /4", "1/"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) succeeded, want an error", in)
		}
	}
}

// TestAssignShards uses the reference's CI split (§11): 4 shards, envoy
// weighing 4, rules_img 2, every other project 1.
func TestAssignShards(t *testing.T) {
	var targets []Weighted
	for _, name := range []string{"abseil-cpp", "buildtools", "dagger", "envoy", "gazelle", "nativelink",
		"rules_distroless", "rules_foreign_cc", "rules_img", "rules_js", "rules_pkg", "rules_tar", "rules_ts"} {
		w := 1
		switch name {
		case "envoy":
			w = 4
		case "rules_img":
			w = 2
		}
		targets = append(targets, Weighted{name, w})
	}
	got := AssignShards(targets, 4)
	want := [][]string{
		{"envoy", "rules_ts"},
		{"nativelink", "rules_img", "rules_js"},
		{"abseil-cpp", "dagger", "rules_distroless", "rules_pkg"},
		{"buildtools", "gazelle", "rules_foreign_cc", "rules_tar"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AssignShards = %v\nwant %v", got, want)
	}
	t.Run("more shards than targets", func(t *testing.T) {
		got := AssignShards([]Weighted{{"b", 1}, {"a", 1}}, 3)
		want := [][]string{{"a"}, {"b"}, nil}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("AssignShards = %#v, want %#v", got, want)
		}
	})
	t.Run("input order does not matter", func(t *testing.T) {
		reversed := make([]Weighted, len(targets))
		for i, w := range targets {
			reversed[len(targets)-1-i] = w
		}
		if again := AssignShards(reversed, 4); !reflect.DeepEqual(again, want) {
			t.Errorf("AssignShards(reversed) = %v, want %v", again, want)
		}
	})
}

func TestSummary(t *testing.T) {
	report := reportOf(
		entry(1, "execution_requirement", 1), entry(2, "absolute_path", 2), entry(3, "system_program", 1),
		entry(4, "system_program", 3), entry(5, "absolute_path", 1))
	s, err := Summarize([]byte(report), "expectation.json")
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"    demo: 5 distinct, 8 occurrences\n" +
		"           2 distinct       3 occurrences  absolute_path\n" +
		"           2 distinct       4 occurrences  system_program\n" +
		"           1 distinct       1 occurrences  execution_requirement\n"
	if got := s.Format("demo"); got != want {
		t.Errorf("Format =\n%s\nwant\n%s", got, want)
	}

	var total Summary
	total.Add(s)
	total.Add(s)
	if total.Distinct != 10 || total.Occurrences != 16 || total.Kinds["system_program"].Occurrences != 8 {
		t.Errorf("Add twice = %+v", total)
	}

	empty, err := Summarize([]byte(emptyExpectation), "expectation.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := empty.Format("empty"); got != "    empty: 0 distinct, 0 occurrences\n" {
		t.Errorf("empty Format = %q", got)
	}

	for _, bad := range []string{`{}`, `[]`, `{"violations": [{"count": 1}]}`, `{"violations": [{"violation": {"kind": "bad_path"}}]}`} {
		if _, err := Summarize([]byte(bad), "expectation.json"); err == nil || !strings.HasPrefix(err.Error(), "expectation.json: ") {
			t.Errorf("Summarize(%s) error = %v, want one naming the file", bad, err)
		}
	}
}

// TestReferenceSummaries checks the summary against the reference's table
// (§11.1) for the recorded expectations.
func TestReferenceSummaries(t *testing.T) {
	want := map[string][2]int{"abseil-cpp": {261, 393}, "buildtools": {62, 76}, "envoy": {5, 5}, "rules_js": {136, 144}, "rules_pkg": {36, 38}}
	for name, counts := range want {
		data, err := os.ReadFile(filepath.Join(repoRoot(t), "fishery", name, "expectation.json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Summarize(data, name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Distinct != counts[0] || s.Occurrences != counts[1] {
			t.Errorf("%s: %d/%d, want %d/%d", name, s.Distinct, s.Occurrences, counts[0], counts[1])
		}
	}
}

func newTestDriver(t *testing.T) (*Driver, Target, *bytes.Buffer) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "fishery", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	d := &Driver{Root: root, CacheDir: filepath.Join(root, "cache", "ahab-fishery"), Stdout: &out, Stderr: &out}
	return d, Target{Name: "demo", Dir: dir, Spec: Spec{Repo: "source.bundle", Commit: sha, Label: "//...", Workspace: ".", Weight: 1}}, &out
}

func TestEnsureExpectation(t *testing.T) {
	d, tg, out := newTestDriver(t)
	if err := d.EnsureExpectation(tg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(tg.Dir, "expectation.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "{\n  \"mode\": \"default\",\n  \"violations\": []\n}\n" {
		t.Errorf("empty expectation = %q", data)
	}
	if want := "fishery: no expectation on record, wrote an empty fishery/demo/expectation.json\n"; out.String() != want {
		t.Errorf("message = %q, want %q", out.String(), want)
	}

	recorded := []byte(reportOf(entry(1, "bad_path", 1)))
	os.WriteFile(filepath.Join(tg.Dir, "expectation.json"), recorded, 0o644)
	out.Reset()
	if err := d.EnsureExpectation(tg); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(tg.Dir, "expectation.json")); !bytes.Equal(data, recorded) || out.Len() != 0 {
		t.Errorf("an existing expectation was touched: %q, printed %q", data, out.String())
	}
}

func TestParseArgs(t *testing.T) {
	known := []string{"envoy", "local-geometry"}
	tests := []struct {
		name    string // the args when empty
		args    string
		want    Invocation
		wantErr string
	}{
		{args: "check envoy", want: Invocation{Command: "check", Target: "envoy"}},
		{args: "update local-geometry", want: Invocation{Command: "update", Target: "local-geometry"}},
		{args: "ci", want: Invocation{Command: "ci"}},
		{args: "ci --shard 2/4", want: Invocation{Command: "ci", Shard: &Shard{2, 4}}},
		{args: "--shard=1/3 ci --network", want: Invocation{Command: "ci", Shard: &Shard{1, 3}, Network: true}},
		{args: "ci --network=false", want: Invocation{Command: "ci"}},
		{args: "--help", want: Invocation{Help: true}},
		{args: "ci -h", want: Invocation{Help: true}},
		{args: "help", want: Invocation{Help: true}},
		{args: "-- check envoy", want: Invocation{Command: "check", Target: "envoy"}},
		{name: "no_arguments", args: "", wantErr: "no command, expected one of: check, ci, clean, explain, setup, update"},
		{args: "fish", wantErr: `unknown command "fish", expected one of: check, ci, clean, explain, setup, update`},
		{args: "check", wantErr: "check needs a target, expected one of: envoy, local-geometry"},
		{args: "check nope", wantErr: `unknown target "nope", expected one of: envoy, local-geometry`},
		{args: "check envoy envoy", wantErr: "check takes one target, got 2: envoy envoy"},
		{args: "ci envoy", wantErr: `ci takes no target, got "envoy"; to run one target use check`},
		{args: "check envoy --shard 1/4", wantErr: "--shard applies only to ci, not to check"},
		{args: "setup envoy --network", wantErr: "--network applies only to ci, not to setup"},
		{args: "setup envoy --network=false", wantErr: "--network applies only to ci, not to setup"},
		{args: "ci --shard", wantErr: "--shard needs a value, expected I/N such as 1/4"},
		{args: "ci --shard 0/4", wantErr: `--shard: "0/4", expected I/N with 1 <= I <= N, such as 1/4`},
		{args: "ci --shard=4/3", wantErr: `--shard: "4/3", expected I/N with 1 <= I <= N, such as 1/4`},
		{args: "ci --shard 1/4 --shard 2/4", wantErr: "--shard given twice, expected it once"},
		{args: "ci --network=maybe", wantErr: `invalid argument "maybe" for "--network" flag`},
		{args: "ci --verbose", wantErr: `unknown flag "--verbose", expected --shard I/N or --network (with ci)`},
		{args: "ci -x", wantErr: `unknown flag "-x", expected --shard I/N or --network (with ci)`},
	}
	for _, tt := range tests {
		t.Run(cmp.Or(tt.name, tt.args), func(t *testing.T) {
			got, err := ParseArgs(strings.Fields(tt.args), known)
			if tt.wantErr != "" {
				if _, isUsage := errors.AsType[usageError](err); !isUsage || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error = %#v, want a usageError starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseArgs = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestUsage: --help lists every command and every flag pflag knows.
func TestUsage(t *testing.T) {
	text := usage()
	var want []string
	for _, c := range commands {
		want = append(want, "\n  "+c+" ")
	}
	for _, want := range append(want, "--shard I/N", "--network", "-h, --help", "docs/fishery.md") {
		if !strings.Contains(text, want) {
			t.Errorf("usage lacks %q:\n%s", want, text)
		}
	}
}

func TestAhabArgs(t *testing.T) {
	d, tg, _ := newTestDriver(t)
	tg.Spec.Configs = []string{"ci", "remote"}
	tg.Spec.CompilationMode = "opt"
	tg.Spec.Label = "//... - //x/..."
	ob := filepath.Join(d.CacheDir, "demo")
	got := d.AhabArgs(tg, "--expect-json=/e.json")
	want := []string{"--output-base=" + ob, "--config=ci", "--config=remote", "--compilation-mode=opt", "--expect-json=/e.json", "//... - //x/..."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AhabArgs = %q\nwant %q", got, want)
	}
	os.WriteFile(filepath.Join(tg.Dir, "exceptions.json"), []byte(`{"exceptions": []}`), 0o644)
	got = d.AhabArgs(Target{Name: "demo", Dir: tg.Dir, Spec: Spec{Label: "//..."}})
	want = []string{"--output-base=" + ob, "--exceptions-json=" + filepath.Join(tg.Dir, "exceptions.json"), "//..."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AhabArgs with exceptions = %q\nwant %q", got, want)
	}
}

func TestSelectCI(t *testing.T) {
	mk := func(name, repo string, weight int) Target {
		return Target{Name: name, Spec: Spec{Repo: repo, Commit: sha, Weight: weight}}
	}
	targets := []Target{
		mk("envoy", "https://github.com/envoyproxy/envoy", 4),
		mk("local-a", "source.bundle", 1),
		mk("local-b", "file:///srv/b", 1),
		mk("rules_img", "https://github.com/bazel-contrib/rules_img", 2),
	}
	names := func(ts []Target) (out []string) {
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}
	run, skipped, _ := SelectCI(targets, CIOptions{})
	if got := names(run); !reflect.DeepEqual(got, []string{"local-a", "local-b"}) {
		t.Errorf("default ci runs %v, want only the local targets", got)
	}
	if got := names(skipped); !reflect.DeepEqual(got, []string{"envoy", "rules_img"}) {
		t.Errorf("default ci skips %v", got)
	}
	run, skipped, _ = SelectCI(targets, CIOptions{Network: true})
	if len(run) != 4 || len(skipped) != 0 {
		t.Errorf("--network runs %v, skips %v; want all", names(run), names(skipped))
	}
	run, _, shard := SelectCI(targets, CIOptions{Network: true, Shard: &Shard{2, 2}})
	if got := names(run); !reflect.DeepEqual(got, []string{"local-a", "local-b", "rules_img"}) || !reflect.DeepEqual(shard, got) {
		t.Errorf("shard 2/2 runs %v (names %v), want the three targets outweighed by envoy", got, shard)
	}
}

// TestSetup fetches pinned commits from a bundle and from a local git
// directory, including a commit that is not a branch tip: the depth-1 fetch
// of §11 must work without a network server.
func TestSetup(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := subprocess(dir, append([]string{"git"}, args...)...)
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(src, "init", "--quiet", "-b", "main")
	os.WriteFile(filepath.Join(src, "WORKSPACE"), []byte("old\n"), 0o644)
	git(src, "add", "-A")
	git(src, "commit", "--quiet", "-m", "old")
	old := git(src, "rev-parse", "HEAD")
	os.WriteFile(filepath.Join(src, "WORKSPACE"), []byte("new\n"), 0o644)
	git(src, "commit", "--quiet", "-am", "new")

	for _, kind := range []string{"bundle", "directory"} {
		t.Run(kind, func(t *testing.T) {
			d, tg, out := newTestDriver(t)
			tg.Spec.Commit = old
			if kind == "bundle" {
				git(src, "bundle", "create", "--quiet", filepath.Join(tg.Dir, "source.bundle"), "HEAD", "main")
			} else {
				tg.Spec.Repo = "file://" + src
			}
			if err := d.Setup(tg); err != nil {
				t.Fatalf("Setup: %v\n%s", err, out)
			}
			work := filepath.Join(tg.Dir, "work")
			if head := git(work, "rev-parse", "HEAD"); head != old {
				t.Errorf("work/ is at %s, want the pinned %s", head, old)
			}
			if data, _ := os.ReadFile(filepath.Join(work, "WORKSPACE")); string(data) != "old\n" {
				t.Errorf("checked-out WORKSPACE = %q", data)
			}
			if kind == "directory" && !isFile(filepath.Join(work, ".git", "shallow")) {
				t.Errorf("fetch from a git directory was not shallow")
			}
			if !strings.Contains(out.String(), "fishery: demo is ready in "+work) {
				t.Errorf("output lacks the ready line:\n%s", out)
			}
			if err := d.checkWork(tg); err != nil {
				t.Errorf("checkWork after setup: %v", err)
			}
			if err := d.Setup(tg); err == nil || !strings.Contains(err.Error(), "fishery/demo/work already exists") {
				t.Errorf("second Setup error = %v, want a refusal", err)
			}
			stale := tg
			stale.Spec.Commit = sha
			if err := d.checkWork(stale); err == nil || !strings.Contains(err.Error(), "but spec.json pins") {
				t.Errorf("checkWork of a stale checkout = %v, want a refusal", err)
			}
			out.Reset()
			if err := d.Clean(tg); err != nil || exists(work) {
				t.Fatalf("Clean: %v, work exists: %v", err, exists(work))
			}
			if want := "fishery: removed fishery/demo/work\n"; out.String() != want {
				t.Errorf("Clean printed %q, want %q", out.String(), want)
			}
		})
	}

	// Run from a git hook or `git rebase --exec`, the driver inherits
	// GIT_DIR; its git commands must still work on work/ and leave that
	// repository alone.
	t.Run("GIT_DIR set", func(t *testing.T) {
		outer := filepath.Join(t.TempDir(), "outer.git")
		git(src, "init", "--quiet", "--bare", outer)
		config, err := os.ReadFile(filepath.Join(outer, "config"))
		if err != nil {
			t.Fatal(err)
		}
		d, tg, out := newTestDriver(t)
		git(src, "bundle", "create", "--quiet", filepath.Join(tg.Dir, "source.bundle"), "HEAD", "main")
		tg.Spec.Commit = old
		t.Setenv("GIT_DIR", outer)
		t.Setenv("GIT_WORK_TREE", src)
		if err := d.Setup(tg); err != nil {
			t.Fatalf("Setup: %v\n%s", err, out)
		}
		if head := git(filepath.Join(tg.Dir, "work"), "rev-parse", "HEAD"); head != old {
			t.Errorf("work/ is at %s, want the pinned %s", head, old)
		}
		if after, _ := os.ReadFile(filepath.Join(outer, "config")); !bytes.Equal(after, config) {
			t.Errorf("Setup changed $GIT_DIR/config:\n%s\nwas:\n%s", after, config)
		}
	})

	t.Run("missing commit", func(t *testing.T) {
		d, tg, _ := newTestDriver(t)
		git(src, "bundle", "create", "--quiet", filepath.Join(tg.Dir, "source.bundle"), "HEAD", "main")
		tg.Spec.Commit = sha
		if err := d.Setup(tg); err == nil || !strings.Contains(err.Error(), "expected the bundle to contain it") {
			t.Errorf("Setup of a commit missing from the bundle = %v", err)
		}
	})
}

func TestFetchArgs(t *testing.T) {
	net := Spec{Repo: "https://example.com/p", Commit: sha}
	if got := strings.Join(FetchArgs(net, false), " "); got != "git fetch --quiet --depth 1 origin "+sha {
		t.Errorf("network fetch = %s", got)
	}
	if got := strings.Join(FetchArgs(Spec{Repo: "file:///p", Commit: sha}, false), " "); got != "git -c protocol.version=2 fetch --quiet --depth 1 origin "+sha {
		t.Errorf("local directory fetch = %s", got)
	}
	if got := strings.Join(FetchArgs(Spec{Repo: "p.bundle", Commit: sha}, true), " "); got != "git fetch --quiet origin "+sha {
		t.Errorf("bundle fetch = %s", got)
	}
}

// TestCheckedInShards pins the split docs/fishery.md shows for
// `ci --network --shard I/4` over the checked-in targets.
func TestCheckedInShards(t *testing.T) {
	targets, err := LoadTargets(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"envoy", "rules_js"},
		{"local-codegen", "nativelink", "rules_img", "rules_pkg"},
		{"abseil-cpp", "dagger", "local-geometry", "rules_distroless", "rules_tar"},
		{"buildtools", "gazelle", "local-release", "rules_foreign_cc", "rules_ts"},
	}
	for i := range want {
		run, skipped, names := SelectCI(targets, CIOptions{Network: true, Shard: &Shard{i + 1, 4}})
		if !reflect.DeepEqual(names, want[i]) || len(run) != len(want[i]) || len(skipped) != 0 {
			t.Errorf("shard %d/4 = %v, want %v", i+1, names, want[i])
		}
	}
	_, _, local := SelectCI(targets, CIOptions{Shard: &Shard{1, 4}})
	if !reflect.DeepEqual(local, []string{"local-codegen"}) {
		t.Errorf("local shard 1/4 = %v, want [local-codegen]", local)
	}
}

// TestCINetworkTargetsSkipped: by default ci neither fetches nor fails on a
// network target, and says which ones it skipped.
func TestCINetworkTargetsSkipped(t *testing.T) {
	d, tg, out := newTestDriver(t)
	tg.Spec.Repo = "https://github.com/envoyproxy/envoy"
	d.Targets = []Target{tg}
	if err := d.CI(CIOptions{}); err != nil {
		t.Fatalf("CI = %v, want success", err)
	}
	want := "=== fishery: skipping 1 targets that need the network (pass --network to run them): demo\n" +
		"=== fishery: 0/0 passed\n"
	if out.String() != want {
		t.Errorf("CI printed\n%s\nwant\n%s", out, want)
	}
	if d.ahab != "" || exists(filepath.Join(tg.Dir, "work")) {
		t.Errorf("CI built Ahab or fetched a skipped target")
	}
}

// TestCIFailure: a target that cannot be set up fails ci with exit 1, is
// named, and its expectation is still summarised.
func TestCIFailure(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	d, tg, out := newTestDriver(t)
	tg.Spec.Repo = "missing.bundle"
	os.WriteFile(filepath.Join(tg.Dir, "expectation.json"), []byte(reportOf(entry(1, "bad_path", 2))), 0o644)
	d.Targets = []Target{tg}
	err := d.CI(CIOptions{Shard: &Shard{1, 1}})
	if code, ok := err.(exitCode); !ok || code != 1 {
		t.Fatalf("CI = %v, want exit code 1", err)
	}
	for _, line := range []string{
		"=== fishery: shard 1/1: demo\n",
		`fishery: demo: fishery/demo/spec.json: repo "missing.bundle": `,
		"=== fishery: demo FAILED at setup (",
		"    demo: 1 distinct, 2 occurrences\n           1 distinct       2 occurrences  bad_path\n",
		"=== fishery: 0/1 passed\n=== fishery: failed: demo\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("CI output lacks %q:\n%s", line, out)
		}
	}
}

func TestCleanNothing(t *testing.T) {
	d, tg, out := newTestDriver(t)
	if err := d.Clean(tg); err != nil {
		t.Fatal(err)
	}
	if want := "fishery: demo has nothing to clean\n"; out.String() != want {
		t.Errorf("Clean printed %q, want %q", out.String(), want)
	}
}

// TestMainExitStatus runs the driver as main does, from this directory
// inside the repository: a mistake on the command line exits 2, as Ahab's
// own do, with the message and a pointer to --help.
func TestMainExitStatus(t *testing.T) {
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"--help"}, 0, usage(), ""},
		{[]string{"fish"}, 2, "", "fishery: unknown command \"fish\", expected one of: check, ci, clean, explain, setup, update\n" +
			"Run 'go run ./internal/devtools/fishery --help' for usage.\n"},
		{[]string{"explain", "--shard=1/2", "local-release"}, 2, "", "fishery: --shard applies only to ci, not to explain\n" +
			"Run 'go run ./internal/devtools/fishery --help' for usage.\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, &stdout, &stderr, t.TempDir())
			if code != tt.code || stdout.String() != tt.stdout || stderr.String() != tt.stderr {
				t.Errorf("Main(%q) = %d\nstdout:\n%s\nstderr:\n%s\nwant %d\nstdout:\n%s\nstderr:\n%s",
					tt.args, code, &stdout, &stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestMainBadSpec: one bad spec.json stops every command with one line
// naming the file, the field and the position, and exit status 1.
func TestMainBadSpec(t *testing.T) {
	root := t.TempDir()
	spec := filepath.Join(root, "fishery", "demo", "spec.json")
	if err := os.MkdirAll(filepath.Dir(spec), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644)
	os.WriteFile(spec, []byte("{\n  \"repo\": \"source.bundle\",\n  \"commit\": \"0123abc\"\n}\n"), 0o644)
	t.Chdir(filepath.Join(root, "fishery"))
	var stdout, stderr bytes.Buffer
	code := Main([]string{"ci"}, &stdout, &stderr, t.TempDir())
	want := "fishery: fishery/demo/spec.json: commit: \"0123abc\" is not a full commit SHA, expected 40 lowercase hex digits at line 3 column 21\n"
	if code != 1 || stdout.Len() != 0 || stderr.String() != want {
		t.Errorf("Main(ci) = %d\nstdout:\n%s\nstderr:\n%s\nwant 1 and\n%s", code, &stdout, &stderr, want)
	}
}

// entry is one violation of a report: a finding of kind about target
// //t:N, seen count times, with the fields its kind needs.
func entry(n int, kind string, count int) string {
	fields := map[string]string{
		"execution_requirement": `"requirement": "local"`,
		"absolute_path":         `"path": "/opt", "site": {"location": "argument", "value": "/opt"}`,
		"system_program":        `"program": {"origin": "system", "path": "/usr/bin/gcc"}, "wrappers": []`,
		"bad_path":              `"actual": "/bin"`,
	}[kind]
	return fmt.Sprintf(`{"count": %d, "violation": {"kind": %q, "action": {"mnemonic": "M", "target": "//t:%d"}, %s}}`, count, kind, n, fields)
}

// reportOf is a report of Ahab 0.2's judgement holding entries.
func reportOf(entries ...string) string {
	return "{\n  \"violations\": [" + strings.Join(entries, ",\n") + "]\n}\n"
}

// repoRoot is the repository this package is in, found as the driver
// finds it.
func repoRoot(t *testing.T) string {
	t.Helper()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := FindRoot(cwd)
	if err != nil {
		t.Fatal(err)
	}
	return root
}
