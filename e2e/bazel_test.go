package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/release"
	"github.com/ahab-go/ahab/internal/sarifschema"
)

// Reference §2: the values Ahab puts in USER and HOSTNAME for the analysis.
const (
	userSentinel     = "ahab-sentinel-user-4f8a1c6b9d2e7350"
	hostnameSentinel = "ahab-sentinel-hostname-4f8a1c6b9d2e7350"
)

// TestLeakyWorkspace drives testdata/leaky.txtar through the real Bazel, the
// way a user would: every Ahab run is `bazel run` of a target declared with
// the macros of defs.bzl, whose binary comes from AHAB_PREBUILT_LOCAL through
// ahab_dependencies(). The steps share one Bazel server and output base and
// run in order; later ones use what earlier ones wrote.
func TestLeakyWorkspace(t *testing.T) {
	requireBazel(t)
	w := newWorkspace(t, "leaky", nil)

	t.Run("findings", func(t *testing.T) {
		// Extra arguments reach the binary; a relative path is resolved
		// against the directory `bazel run` was started from (§1.2). A
		// flag the macro sets too (shut_up) is no conflict.
		w.mustRun(t, 0, "app", "run", "//:hermeticity", "--", "--write-json=../report.json", "--shut-up")
		r := w.readReport(t, "report.json")

		expect(t, r, "USER from a repository rule in a compile's copts", func(v violation) bool {
			return v.Kind == "environment_leak" && v.Action.Mnemonic == "CppCompile" && v.Action.Target == "//app:app" &&
				v.Source == "user" && v.Sentinel == userSentinel && v.Site.Location == "argument" &&
				strings.Contains(v.Site.Value, userSentinel)
		})
		expect(t, r, "HOSTNAME from a repository rule in a genrule command", func(v violation) bool {
			return v.Kind == "environment_leak" && v.Action.Mnemonic == "Genrule" && v.Action.Target == "//app:banner" &&
				v.Source == "hostname" && v.Sentinel == hostnameSentinel
		})
		for target, requirement := range map[string]string{
			"//app:schema":      "requires-network",
			"//app:unsandboxed": "no-sandbox",
			"//app:local":       "local",
		} {
			expect(t, r, "tag "+requirement+" on "+target, func(v violation) bool {
				return v.Kind == "execution_requirement" && v.Action.Target == target && v.Requirement == requirement
			})
		}
		expect(t, r, "a stamped genrule reading the workspace status", func(v violation) bool {
			return v.Kind == "workspace_status" && v.Action.Target == "//app:build_info" &&
				v.Path == "bazel-out/stable-status.txt"
		})
		expect(t, r, "a link option in the cc link's param file", func(v violation) bool {
			return v.Kind == "absolute_path" && v.Action.Mnemonic == "CppLink" && v.Action.Target == "//app:app" &&
				v.Path == "/opt/leaky/lib" && v.Site.Location == "param_file" && strings.HasSuffix(v.Site.ExecPath, ".params")
		})
		expect(t, r, "the same link option on the link's command line", func(v violation) bool {
			return v.Kind == "absolute_path" && v.Action.Mnemonic == "CppLink" && v.Path == "/opt/leaky/lib" && v.Site.Location == "argument"
		})
		expect(t, r, "a genrule running an sh_binary tool through the host's bash", func(v violation) bool {
			return v.Kind == "system_program" && v.Action.Mnemonic == "Genrule" && v.Action.Target == "//app:generated" &&
				v.Program.Path == "/bin/bash"
		})
		expectNone(t, r, "a PATH, though none was set", func(v violation) bool { return v.Kind == "bad_path" })
		expectNone(t, r, "the real account or host", func(v violation) bool {
			return strings.Contains(v.Site.Value, `"`+testUser+`"`) || strings.Contains(v.Site.Value, testHost)
		})
	})

	t.Run("a_label_on_the_command_line_replaces_the_macros", func(t *testing.T) {
		w.mustRun(t, 0, "", "run", "//:hermeticity", "--", "//app:banner", "--write-json=banner.json")
		r := w.readReport(t, "banner.json")
		if len(r.Violations) == 0 {
			t.Fatal("no findings for //app:banner, whose genrule leaks HOSTNAME")
		}
		for _, v := range r.Violations {
			if v.Violation.Action.Target != "//app:banner" {
				t.Errorf("a finding of %s: the macro's //app/... was analysed too", v.Violation.Action.Target)
			}
		}
	})

	t.Run("exception_sets", func(t *testing.T) {
		w.mustRun(t, 0, "", "run", "//:hermeticity.sets")
		r := w.readReport(t, "sets.json")
		expectNone(t, r, "the host compiler, which host-cc excuses", func(v violation) bool {
			return v.Kind == "system_program" && strings.HasPrefix(v.Action.Mnemonic, "Cpp")
		})
		expect(t, r, "the genrule's bash, which host-cc does not excuse", func(v violation) bool {
			return v.Kind == "system_program" && v.Action.Mnemonic == "Genrule"
		})
	})

	t.Run("compat", func(t *testing.T) {
		w.mustRun(t, 0, "", "run", "//:hermeticity.compat")
		if r := w.readReport(t, "compat.json"); r.Mode != "" {
			t.Errorf("compat = \"0.2\" wrote a report of mode %q, expected Ahab 0.2's, which has none", r.Mode)
		}
		if r := w.readReport(t, "report.json"); r.Mode != "default" {
			t.Errorf("the default judgement wrote a report of mode %q, expected \"default\"", r.Mode)
		}
	})

	t.Run("sarif", func(t *testing.T) {
		// The sarif attribute writes a SARIF log at the workspace root, in
		// which each result points at the line of its target's rule, as
		// one bazel query in the analysis's output base found it.
		w.mustRun(t, 0, "app", "run", "//:hermeticity.sarif")
		data, err := os.ReadFile(w.path("hermeticity.sarif"))
		if err != nil {
			t.Fatal(err)
		}
		if err := sarifschema.Validate(data); err != nil {
			t.Fatalf("hermeticity.sarif is not valid SARIF 2.1.0: %v", err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           *struct{ StartLine int }
						}
					}
					Properties struct{ Target string }
				}
			}
		}
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		build, err := os.ReadFile(w.path("app/BUILD.bazel"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(build), "\n")
		declared := func(name string) int {
			for i, l := range lines {
				if l == fmt.Sprintf("    name = %q,", name) {
					return i // the rule's call is the line before, 1-based i
				}
			}
			t.Fatalf("app/BUILD.bazel declares no %s", name)
			return 0
		}
		want := map[string]int{"//app:banner": declared("banner"), "//app:schema": declared("schema"), "//app:app": declared("app")}
		for _, r := range log.Runs[0].Results {
			line, ok := want[r.Properties.Target]
			if !ok {
				continue
			}
			loc := r.Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URI != "app/BUILD.bazel" || loc.Region == nil || loc.Region.StartLine != line {
				t.Errorf("%s result of %s at %+v, expected app/BUILD.bazel line %d", r.RuleID, r.Properties.Target, loc, line)
			}
			delete(want, r.Properties.Target)
		}
		if len(want) > 0 {
			t.Errorf("no results for %v", want)
		}
	})

	t.Run("normal_output_base", func(t *testing.T) {
		// Ahab ran Bazel with USER set to its sentinel, which would move
		// Bazel's default output root (~/.cache/bazel/_bazel_$USER) and
		// start a second server, had Ahab not pinned the output base (§2).
		outputBase := strings.TrimSpace(w.mustRun(t, 0, "", "info", "output_base").stdout)
		cache := filepath.Join(w.home, ".cache", "bazel")
		roots := dirNames(t, cache)
		if !slices.Equal(roots, []string{"_bazel_" + testUser}) {
			t.Errorf("%s holds %v, expected only _bazel_%s: Ahab's analysis did not use the project's output base", cache, roots, testUser)
		}
		var bases []string
		for _, name := range dirNames(t, filepath.Join(cache, "_bazel_"+testUser)) {
			if name != "cache" && name != "install" {
				bases = append(bases, name)
			}
		}
		if len(bases) != 1 || filepath.Join(cache, "_bazel_"+testUser, bases[0]) != outputBase {
			t.Errorf("output bases %v, expected exactly the project's %s", bases, outputBase)
		}
	})

	t.Run("action_env_path", func(t *testing.T) {
		w.mustRun(t, 0, "", "run", "//:hermeticity.badpath")
		r := w.readReport(t, "badpath.json")
		expect(t, r, "--action_env=PATH on a genrule", func(v violation) bool {
			return v.Kind == "bad_path" && v.Action.Mnemonic == "Genrule" && v.Actual == "/usr/local/bin:/usr/bin:/bin"
		})
	})

	t.Run("strict_action_env", func(t *testing.T) {
		w.mustRun(t, 0, "", "run", "//:hermeticity.strict")
		r := w.readReport(t, "strict.json")
		// Strict action env gives every action exactly the default PATH.
		expectNone(t, r, "a PATH under --incompatible_strict_action_env", func(v violation) bool { return v.Kind == "bad_path" })
		// compilation_mode = "opt" reached the analysis: outputs are in k8-opt.
		expect(t, r, "the hostname leak, which strict env does not fix, in an opt build", func(v violation) bool {
			return v.Kind == "environment_leak" && v.Action.Target == "//app:banner" && strings.Contains(v.Site.Value, "-opt/bin/app/banner.txt")
		})
	})

	t.Run("update", func(t *testing.T) {
		// Started from a subdirectory, it still writes at the workspace root.
		w.mustRun(t, 0, "app", "run", "//:hermeticity.update")
		if _, err := os.Stat(w.path("app/expectation.json")); err == nil {
			t.Error("app/expectation.json was written; the baseline belongs at the workspace root")
		}
		r := w.readReport(t, "expectation.json")
		expect(t, r, "the USER leak, recorded", func(v violation) bool {
			return v.Kind == "environment_leak" && v.Sentinel == userSentinel
		})
		// Both exception files applied: the label and the inline dict.
		expectNone(t, r, "gcc, excused by exceptions.json", func(v violation) bool { return v.Program.Path == "/usr/bin/gcc" })
		expectNone(t, r, "strip, excused inline", func(v violation) bool { return v.Program.Path == "/usr/bin/strip" })
	})

	t.Run("check_passes", func(t *testing.T) {
		res := w.mustRun(t, 0, "", "run", "//:hermeticity.check")
		if strings.Contains(res.stderr, "@@") {
			t.Errorf("a matching check printed a diff:\n%s", res.stderr)
		}
	})

	t.Run("explain", func(t *testing.T) {
		// A non-empty saved report fails, like the run that found it (§1.3)...
		res := w.mustRun(t, 1, "", "run", "//:hermeticity.explain")
		if !strings.Contains(res.stdout+res.stderr, userSentinel) {
			t.Errorf("explaining the baseline did not print its USER leak:\n%s", tail(res.stderr, 40))
		}
		// ...unless told not to, through the pass-through arguments.
		w.mustRun(t, 0, "", "run", "//:hermeticity.explain", "--", "--no-fail")
	})

	t.Run("check_fails_after_change", func(t *testing.T) {
		build, err := os.ReadFile(w.path("app/BUILD.bazel"))
		if err != nil {
			t.Fatal(err)
		}
		w.write(t, "app/BUILD.bazel", string(build)+`
genrule(
    name = "download",
    outs = ["download.txt"],
    cmd = "touch $@",
    tags = ["requires-network"],
)
`)
		res := w.mustRun(t, 1, "", "run", "//:hermeticity.check")
		var added bool
		for _, line := range strings.Split(res.stderr, "\n") {
			if strings.HasPrefix(line, "+") && strings.Contains(line, "//app:download") {
				added = true
			}
		}
		if !added {
			t.Errorf("the check's diff has no added line naming //app:download:\n%s", tail(res.stderr, 60))
		}
	})
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestConsumerWorkspace provisions Ahab as a consumer does, from a release
// archive checked against the sum the release recorded, and checks that a
// tampered archive is refused, that a host the release lacks and an
// unreleased version without Go on PATH are refused with an error naming
// both ways out, and that macro calls that cannot work are refused when
// their BUILD file loads.
func TestConsumerWorkspace(t *testing.T) {
	requireBazel(t)
	host, ok := hostPlatform()
	if !ok {
		t.Skipf("no release platform for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	binary, err := os.ReadFile(filepath.Join(ahabBinDir(t), "ahab"))
	if err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	if err := release.WriteArchive(&archive, binary); err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, release.ArchiveName("0.3.0", host)), archive.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(archive.Bytes())
	w := newWorkspace(t, "released", map[string]string{
		"HOST":                host.Name,
		"SHA256":              hex.EncodeToString(sum[:]),
		"DIST":                dist,
		"AHAB_PREBUILT_LOCAL": "",
	})

	t.Run("download", func(t *testing.T) {
		res := w.mustRun(t, 0, "", "run", "@ahab//:ahab", "--", "--version")
		if !strings.Contains(res.stdout, "ahab 0.3.0") {
			t.Errorf("bazel run @ahab//:ahab -- --version printed %q, expected the version", res.stdout)
		}
		res = w.mustRun(t, 0, "", "run", "//:explain")
		if !strings.Contains(res.stdout, "All hermeticity checks passed.") {
			t.Errorf("explaining an empty report printed:\n%s", res.stdout)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		res := w.bazel(t, "", "build", "@tampered//:ahab")
		if want := "but wanted 0000000000000000"; res.exitCode == 0 || !strings.Contains(res.stderr, want) {
			t.Errorf("bazel build @tampered//:ahab: exit %d, expected a failure saying %q:\n%s", res.exitCode, want, tail(res.stderr, 30))
		}
	})

	// Where no published binary matches, the rule builds Ahab from source
	// (TestSourceWorkspace); without Go, the error names both ways out.
	noGo := w.withEnv("PATH=" + pathWithout(t, "go"))
	const ways = ", and there is no `go` on PATH to build it from source. Either install Go "
	const yourOwn = "or build one yourself with `go build -o /some/dir/ahab ./cmd/ahab` in a checkout of Ahab and add `build --repo_env=AHAB_PREBUILT_LOCAL=/some/dir`"
	for _, tc := range []struct{ repo, why string }{
		{"elsewhere", "Ahab 0.3.0 publishes no binary for this host (" + host.Name + "), expected one of: plan9_x86_64"},
		{"unreleased", "Ahab 0.3.0 is a source checkout or an unreleased commit, for which no binary is published"},
	} {
		t.Run(tc.repo+"_without_go", func(t *testing.T) {
			res := noGo.bazel(t, "", "build", "@"+tc.repo+"//:ahab")
			if res.exitCode == 0 || !strings.Contains(res.stderr, tc.why+ways) || !strings.Contains(res.stderr, yourOwn) {
				t.Errorf("bazel build @%s//:ahab without go on PATH: exit %d, expected a failure saying %q and %q:\n%s", tc.repo, res.exitCode, tc.why+ways, yourOwn, tail(res.stderr, 30))
			}
		})
	}

	// Reference §10.3 and our own checks: each call fails when loaded.
	for i, tc := range []struct{ name, call, want string }{
		{"no_label", `ahab(name = "t")`, "t: needs a `label` to analyze, unless `explain_json` is set"},
		{"baseline_elsewhere", `ahab_update(name = "t", label = "//...", baseline = "@other//:expectation.json")`,
			`t: baseline "@other//:expectation.json" is in another repository, so this workspace cannot write it`},
		{"inline_not_a_dict", `ahab(name = "t", label = "//...", exceptions = ["//:e.json", 7])`,
			"t: exceptions[1]: expected a dict or a label, got int"},
		{"write_json_outside", `ahab(name = "t", label = "//...", write_json = "../out.json")`,
			`t: write_json "../out.json" leaves the workspace, expected a path relative to the workspace root`},
		{"sarif_outside", `ahab(name = "t", label = "//...", sarif = "/tmp/out.sarif")`,
			`t: sarif "/tmp/out.sarif" leaves the workspace, expected a path relative to the workspace root`},
		{"no_fail_with_expect_json", `ahab(name = "t", label = "//...", no_fail = True, expect_json = "clean.json")`,
			"t: `no_fail` cannot be combined with `expect_json`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkg := fmt.Sprintf("bad%d", i)
			if err := os.MkdirAll(w.path(pkg), 0o755); err != nil {
				t.Fatal(err)
			}
			w.write(t, pkg+"/BUILD.bazel", "load(\"@ahab//:defs.bzl\", \"ahab\", \"ahab_update\")\n\n"+tc.call+"\n")
			res := w.bazel(t, "", "build", "//"+pkg+":all")
			if res.exitCode == 0 || !strings.Contains(res.stderr, tc.want) {
				t.Errorf("%s: exit %d, expected a failure saying %q:\n%s", tc.call, res.exitCode, tc.want, tail(res.stderr, 20))
			}
		})
	}
}

// TestSourceWorkspace provisions Ahab from a checkout before any release
// (issue #24): WORKSPACE, local_repository, no AHAB_PREBUILT_LOCAL and no
// published binary, so the repository rule builds Ahab from the checkout
// with the Go on PATH, offline, and Bazel keeps the result.
func TestSourceWorkspace(t *testing.T) {
	requireBazel(t)
	w := newWorkspace(t, "source", map[string]string{"AHAB_PREBUILT_LOCAL": ""}).withEnv(goEnv(t)...)

	res := w.mustRun(t, 0, "", "run", "@ahab//:ahab", "--", "--version")
	if !strings.Contains(res.stdout, "ahab 0.3.0") {
		t.Errorf("bazel run @ahab//:ahab -- --version printed %q, expected the version", res.stdout)
	}
	out := w.mustRun(t, 0, "", "info", "output_base").stdout
	build, err := os.ReadFile(filepath.Join(strings.TrimSpace(out), "external", "ahab_prebuilt", "BUILD.bazel"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "is a source checkout or an unreleased commit, for which no binary is published: built from "; !strings.Contains(string(build), want) {
		t.Errorf("@ahab_prebuilt's BUILD.bazel does not say the binary was built from source (%q):\n%s", want, build)
	}
	res = w.mustRun(t, 0, "", "run", "//:explain")
	if !strings.Contains(res.stdout, "All hermeticity checks passed.") {
		t.Errorf("explaining an empty report printed:\n%s", res.stdout)
	}
	// Kept like any repository: without Go now, nothing needs building.
	w.withEnv("PATH="+pathWithout(t, "go")).mustRun(t, 0, "", "run", "@ahab//:ahab", "--", "--version")
}

// goEnv is what lets the repository rule's go build run offline with this
// machine's caches: the workspace has a HOME of its own.
func goEnv(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != 2 {
		t.Fatalf("go env GOMODCACHE GOCACHE printed %q", out)
	}
	return []string{"GOMODCACHE=" + dirs[0], "GOCACHE=" + dirs[1], "GOPROXY=off", "GOTOOLCHAIN=local"}
}

// pathWithout is $PATH without the directories that hold program, or
// skips the test when one of them is also where Bazel or the shell is.
func pathWithout(t *testing.T, program string) string {
	t.Helper()
	var kept []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, program)); err == nil {
			for _, needed := range []string{"bazel", "bash"} {
				if _, err := os.Stat(filepath.Join(dir, needed)); err == nil {
					t.Skipf("%s holds both %s and %s, which Bazel needs", dir, program, needed)
				}
			}
			continue
		}
		kept = append(kept, dir)
	}
	return strings.Join(kept, string(filepath.ListSeparator))
}

// hostPlatform is the release platform of this machine.
func hostPlatform() (release.Platform, bool) {
	for _, p := range release.Platforms {
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			return p, true
		}
	}
	return release.Platform{}, false
}
