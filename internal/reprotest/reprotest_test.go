package reprotest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahab-go/ahab/internal/bazel"
	"github.com/ahab-go/ahab/internal/outdiff"
)

func TestParseVariations(t *testing.T) {
	all, def := AllVariations(), DefaultVariations()
	without := func(v Variations, names ...string) Variations {
		for _, n := range names {
			*v.field(n) = false
		}
		return v
	}
	for _, tc := range []struct {
		in   string
		want Variations
		str  string
	}{
		{"", def, "default"},
		{"default", def, "default"},
		{"all", all, "all"},
		{"none", Variations{}, "none"},
		{"-hostname", without(def, "hostname"), "path,time,tz,locale,umask,file_order,user,home,jobs,aslr,env"},
		{"tz,locale", Variations{TZ: true, Locale: true}, "tz,locale"},
		{"none,+umask", Variations{Umask: true}, "umask"},
		{"+path", def, "default"},
		{"+kernel,+exec_path", all, "all"},
		{"all,-time,-path", without(all, "time", "path"), "tz,locale,umask,file_order,hostname,user,home,jobs,kernel,aslr,env,exec_path"},
		{"path, file_order", Variations{Path: true, FileOrder: true}, "path,file_order"},
		{"-all,hostname", Variations{Hostname: true}, "hostname"},
		{"none,default,-user", without(def, "user"), "path,time,tz,locale,umask,file_order,hostname,home,jobs,aslr,env"},
		{"user,jobs,aslr", Variations{User: true, Jobs: true, ASLR: true}, "user,jobs,aslr"},
	} {
		got, err := ParseVariations(tc.in)
		if err != nil {
			t.Errorf("ParseVariations(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseVariations(%q) = %+v, expected %+v", tc.in, got, tc.want)
		}
		if s := got.String(); s != tc.str {
			t.Errorf("ParseVariations(%q).String() = %q, expected %q", tc.in, s, tc.str)
		}
		if back, err := ParseVariations(got.String()); err != nil || back != got {
			t.Errorf("ParseVariations(%q) = %+v, %v: String does not round-trip", got.String(), back, err)
		}
	}
	for _, in := range []string{"clock", "-", "tz,,locale", "none,-tzz", "-default"} {
		if v, err := ParseVariations(in); err == nil {
			t.Errorf("ParseVariations(%q) = %+v, expected an error", in, v)
		} else if !strings.Contains(err.Error(), "expected default, all, none or one of: path, time, tz, locale, umask, file_order, hostname, user, home, jobs, kernel, aslr, env, exec_path") {
			t.Errorf("ParseVariations(%q): %v, expected the names listed", in, err)
		}
	}
}

func TestPlan(t *testing.T) {
	const dir, bazelPath = "/scratch/r", "/usr/bin/bazel"
	userEnv := []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "TZ=Europe/Paris", "LANG=fr_FR.UTF-8", "HOSTNAME=box", "LC_ALL=fr_FR.UTF-8"}
	bazelFlags := []string{"--config=ci", "--disk_cache=/home/u/cache"}
	startup1 := []string{bazelPath, "--output_base=/scratch/r/1/output_base", "--max_idle_secs=120"}
	startup2 := []string{bazelPath, "--output_base=/scratch/r/2/later/output_base_two", "--max_idle_secs=120"}
	args := func(log string, jobs ...string) []string {
		a := []string{"build", "--config=ci", "--disk_cache=/home/u/cache",
			"--disk_cache=", "--remote_cache=", "--noremote_accept_cached", "--noremote_upload_local_results"}
		return append(append(a, jobs...), "--execution_log_binary_file="+log, "--", "//a/...", "-//a:slow")
	}
	sh := func(script string) []string { return []string{"/bin/sh", "-c", script, "sh"} }
	// The variations that were all there were, before the account, the
	// home, parallelism, the kernel, ASLR, the environment and PATH.
	classic := Variations{Path: true, Time: true, TZ: true, Locale: true, Umask: true, FileOrder: true, Hostname: true}
	// A machine that allows everything: root, two CPUs, setarch.
	other := &account{name: "ahab-reprotest", group: "ahab-reprotest", uid: 998, gid: 997, home: "/nonexistent/ahab-reprotest"}
	everything := host{hostnameOK: true, account: other, cpus: []int{0, 1}, taskset: true, arch: "x86_64", kernelOK: true, aslrOK: true,
		bazelrc: "/scratch/r/bazelrc", netrc: "/home/u/.netrc"}
	for _, tc := range []struct {
		name       string
		vary       Variations
		hostnameOK bool
		otherFS    string
		h          *host // in place of hostnameOK and otherFS
		n          int
		copyDir    string
		client     []string
		jobs       []string
		log        string // when not in the scratch directory
		env        []string
		umask      int
		reverse    bool
	}{{
		name: "first build, every variation", vary: AllVariations(), h: &everything, n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client: append(append(sh(`umask 0022 && exec "$@"`), "taskset", "-a", "-c", "0", "setarch", "x86_64", "-R"),
			append(startup1, "--bazelrc=/scratch/r/bazelrc")...),
		jobs:  []string{"--jobs=1"},
		env:   []string{"PATH=/usr/bin:/bin", "HOSTNAME=box", "TZ=GMT+12", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME=/scratch/r/1/home", "NETRC=/home/u/.netrc"},
		umask: 0o022,
	}, {
		name: "second build, every variation", vary: AllVariations(), h: &everything, n: 2,
		copyDir: "/scratch/r/2/later/workspace-two/ws",
		client: append(append(append([]string{"unshare", "--uts"}, sh(`hostname ahab-reprotest-second && umask 0002 && exec "$@"`)...),
			"setpriv", "--reuid=998", "--regid=997", "--init-groups", "setarch", "x86_64", "--uname-2.6"), append(startup2, "--bazelrc=/scratch/r/bazelrc")...),
		jobs: []string{"--jobs=4"},
		log:  "/scratch/r/2/new.binlog",
		env: []string{"HOSTNAME=ahab-reprotest-second", "TZ=GMT-14", "LANG=C", "LC_ALL=C", "HOME=/scratch/r/2/later/home-two",
			"USER=ahab-reprotest", "LOGNAME=ahab-reprotest", "PATH=/bin:/usr/bin:/nonexistent/ahab-reprotest-exec-path",
			"REPROTEST_CAPTURE_ENVIRONMENT=i_capture_the_environment"},
		umask: 0o002, reverse: true,
	}, {
		name: "second build, the environment of --vary-env", vary: Variations{Env: true}, n: 2,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  []string{bazelPath, "--output_base=/scratch/r/1/output_base", "--max_idle_secs=120"},
		env:     append(slices.Clone(userEnv), "FLAVOR=second", "CC=clang"),
		umask:   -1,
	}, {
		name: "first build, the environment of --vary-env unset", vary: Variations{Env: true}, n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  startup1,
		env:     userEnv,
		umask:   -1,
	}, {
		name: "jobs on one CPU: no taskset", vary: Variations{Jobs: true}, h: &host{cpus: []int{3}, taskset: true}, n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  startup1,
		jobs:    []string{"--jobs=1"},
		env:     userEnv,
		umask:   -1,
	}, {
		name: "home without .bazelrc", vary: Variations{Home: true}, n: 2,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  []string{bazelPath, "--output_base=/scratch/r/1/output_base", "--max_idle_secs=120"},
		env:     []string{"PATH=/usr/bin:/bin", "TZ=Europe/Paris", "LANG=fr_FR.UTF-8", "HOSTNAME=box", "LC_ALL=fr_FR.UTF-8", "HOME=/scratch/r/2/later/home-two"},
		umask:   -1,
	}, {
		name: "first build, the classic variations", vary: classic, hostnameOK: true, n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  append(sh(`umask 0022 && exec "$@"`), startup1...),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "HOSTNAME=box", "TZ=GMT+12", "LANG=C.UTF-8", "LC_ALL=C.UTF-8"},
		umask:   0o022,
	}, {
		name: "second build, the classic variations", vary: classic, hostnameOK: true, n: 2,
		copyDir: "/scratch/r/2/later/workspace-two/ws",
		client:  append(append([]string{"unshare", "--uts"}, sh(`hostname ahab-reprotest-second && umask 0002 && exec "$@"`)...), startup2...),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "HOSTNAME=ahab-reprotest-second", "TZ=GMT-14", "LANG=C", "LC_ALL=C"},
		umask:   0o002, reverse: true,
	}, {
		name: "second build with a tmpfs: the copy goes there, not the output base", vary: classic, otherFS: "/dev/shm/x", n: 2,
		copyDir: "/dev/shm/x/later/workspace-two/ws",
		client:  append(sh(`umask 0002 && exec "$@"`), startup2...),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "HOSTNAME=box", "TZ=GMT-14", "LANG=C", "LC_ALL=C"},
		umask:   0o002, reverse: true,
	}, {
		name: "first build with a tmpfs: on the scratch directory's", vary: classic, otherFS: "/dev/shm/x", n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  append(sh(`umask 0022 && exec "$@"`), startup1...),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "HOSTNAME=box", "TZ=GMT+12", "LANG=C.UTF-8", "LC_ALL=C.UTF-8"},
		umask:   0o022,
	}, {
		name: "a tmpfs but the file order not varied", vary: Variations{Path: true}, otherFS: "/dev/shm/x", n: 2,
		copyDir: "/scratch/r/2/later/workspace-two/ws",
		client:  startup2,
		env:     userEnv,
		umask:   -1,
	}, {
		name: "second build where unshare is not permitted", vary: classic, hostnameOK: false, n: 2,
		copyDir: "/scratch/r/2/later/workspace-two/ws",
		client:  append(sh(`umask 0002 && exec "$@"`), startup2...),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "HOSTNAME=box", "TZ=GMT-14", "LANG=C", "LC_ALL=C"},
		umask:   0o002, reverse: true,
	}, {
		name: "no variations: the user's environment, the same paths, no wrapper", vary: Variations{}, hostnameOK: true, n: 2,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  []string{bazelPath, "--output_base=/scratch/r/1/output_base", "--max_idle_secs=120"},
		env:     userEnv,
		umask:   -1,
	}, {
		name: "only the host name", vary: Variations{Hostname: true}, hostnameOK: true, n: 2,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  append(append([]string{"unshare", "--uts"}, sh(`hostname ahab-reprotest-second && exec "$@"`)...), bazelPath, "--output_base=/scratch/r/1/output_base", "--max_idle_secs=120"),
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "TZ=Europe/Paris", "LANG=fr_FR.UTF-8", "HOSTNAME=ahab-reprotest-second", "LC_ALL=fr_FR.UTF-8"},
		umask:   -1,
	}, {
		name: "only TZ, first build", vary: Variations{TZ: true}, n: 1,
		copyDir: "/scratch/r/1/workspace/ws",
		client:  startup1,
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "LANG=fr_FR.UTF-8", "HOSTNAME=box", "LC_ALL=fr_FR.UTF-8", "TZ=GMT+12"},
		umask:   -1,
	}, {
		name: "only the locale, second build, path and file order", vary: Variations{Locale: true, Path: true, FileOrder: true}, n: 2,
		copyDir: "/scratch/r/2/later/workspace-two/ws",
		client:  startup2,
		env:     []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "TZ=Europe/Paris", "HOSTNAME=box", "LANG=C", "LC_ALL=C"},
		umask:   -1, reverse: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			o := &Options{Labels: []string{"//a/...", "-//a:slow"}, Workspace: "/home/u/ws", Env: append(slices.Clone(userEnv), "TMPDIR=/home/u/tmp"), BazelFlags: bazelFlags, Vary: &tc.vary}
			if strings.Contains(tc.name, "--vary-env") {
				o.VaryEnv = []string{"FLAVOR=second", "CC=clang"}
			}
			h := host{hostnameOK: tc.hostnameOK, otherFS: tc.otherFS}
			if tc.h != nil {
				h = *tc.h
			}
			p := plan(o, bazelPath, dir, tc.n, h)
			if p.copyDir != tc.copyDir {
				t.Errorf("copy in %s, expected %s", p.copyDir, tc.copyDir)
			}
			under := func(path string) bool {
				return slices.ContainsFunc(p.roots, func(root string) bool { return strings.HasPrefix(path, root+"/") })
			}
			if !under(p.copyDir) || !under(p.outputBase) {
				t.Errorf("copy %s and output base %s, expected both under %q", p.copyDir, p.outputBase, p.roots)
			}
			if !slices.Equal(p.client, tc.client) {
				t.Errorf("client\n%q, expected\n%q", p.client, tc.client)
			}
			log := map[int]string{1: "/scratch/r/old.binlog", 2: "/scratch/r/new.binlog"}[tc.n]
			if tc.log != "" {
				log = tc.log
			}
			if want := args(log, tc.jobs...); p.log != log || !slices.Equal(p.args, want) {
				t.Errorf("log %s, args\n%q, expected %s and\n%q", p.log, p.args, log, want)
			}
			// Each build has a TMPDIR of its own, in the first root (the
			// copy's, or the one on a tmpfs, is removed with it).
			tmp := "/scratch/r/1/tmp"
			if tc.n == 2 && tc.vary.Path {
				tmp = "/scratch/r/2/tmp"
			}
			if env := append(slices.Clone(tc.env), "TMPDIR="+tmp); !slices.Equal(p.env, env) {
				t.Errorf("env\n%q, expected\n%q", p.env, env)
			}
			if p.umask != tc.umask || p.reverse != tc.reverse {
				t.Errorf("umask %#o, reverse %v, expected %#o, %v", p.umask, p.reverse, tc.umask, tc.reverse)
			}
			if got := p.argv("shutdown"); !slices.Equal(got, append(slices.Clone(tc.client), "shutdown")) {
				t.Errorf("shutdown argv %q, expected the client's and shutdown", got)
			}
		})
	}
}

// A query's targets, resolved, are read from a file: however many there
// are, they fit.
func TestPlanTargets(t *testing.T) {
	o := &Options{Labels: []string{"deps(//a)"}, Targets: []string{"//a:a", "//b:b"}, Workspace: "/home/u/ws", Vary: &Variations{}}
	p := plan(o, "/usr/bin/bazel", "/scratch/r", 1, host{})
	if got := p.args[len(p.args)-1]; got != "--target_pattern_file=/scratch/r/targets.txt" || slices.Contains(p.args, "--") {
		t.Errorf("args %q, expected the targets read from /scratch/r/targets.txt", p.args)
	}
}

// The two copies differ in path length, so that a path reaching an output
// shifts what follows it.
func TestLayoutPathsDiffer(t *testing.T) {
	_, c1, o1 := layout("/s", "", "/w/x", 1, true)
	_, c2, o2 := layout("/s", "", "/w/x", 2, true)
	if len(c1) == len(c2) || len(o1) == len(o2) || filepath.Base(c1) != "x" || filepath.Base(c2) != "x" {
		t.Errorf("copies %s and %s, output bases %s and %s: expected other lengths, and the workspace's name last", c1, c2, o1, o2)
	}
}

func TestCopyWorkspace(t *testing.T) {
	src := t.TempDir()
	write := func(rel string, mode fs.FileMode) {
		p := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("WORKSPACE", 0o644)
	write("pkg/BUILD", 0o600)
	write("pkg/tool.sh", 0o755)
	write(".git/HEAD", 0o644)
	write("pkg/deep/bazel-x/f", 0o644) // a bazel-* name below the top is sources
	// A nested workspace built on its own has links into an output base
	// too, whatever their prefix.
	ob := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ob, "execroot", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ob, "DO_NOT_BUILD_HERE"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"bazel-bin": "/nowhere/bin", "bazel-ws": "/nowhere", "pkg/link": "BUILD", "pkg/bazel-out": "/abs",
		"pkg/deep/bazel-sub": filepath.Join(ob, "execroot", "sub"), "pkg/deep/out-sub": filepath.Join(ob, "execroot", "sub")} {
		if err := os.Symlink(target, filepath.Join(src, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		umask   int
		reverse bool
		modes   map[string]fs.FileMode
	}{
		{"umask 0022", 0o022, false, map[string]fs.FileMode{".": 0o755, "pkg": 0o755, "pkg/BUILD": 0o644, "pkg/tool.sh": 0o755}},
		{"umask 0002 in reverse", 0o002, true, map[string]fs.FileMode{".": 0o775, "pkg": 0o775, "pkg/BUILD": 0o664, "pkg/tool.sh": 0o775}},
		{"the source's modes", -1, false, map[string]fs.FileMode{"pkg": 0o755, "pkg/BUILD": 0o600, "pkg/tool.sh": 0o755}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "copy", "ws")
			if err := copyWorkspace(context.Background(), src, dst, tc.umask, tc.reverse); err != nil {
				t.Fatal(err)
			}
			want := []string{".git", ".git/HEAD", "WORKSPACE", "pkg", "pkg/BUILD", "pkg/bazel-out", "pkg/deep", "pkg/deep/bazel-x", "pkg/deep/bazel-x/f", "pkg/link", "pkg/tool.sh"}
			if got := listTree(t, dst); !slices.Equal(got, want) {
				t.Errorf("copied %q, expected %q", got, want)
			}
			for rel, mode := range tc.modes {
				info, err := os.Lstat(filepath.Join(dst, rel))
				if err != nil {
					t.Fatal(err)
				}
				if info.Mode().Perm() != mode {
					t.Errorf("%s: mode %#o, expected %#o", rel, info.Mode().Perm(), mode)
				}
			}
			if b, err := os.ReadFile(filepath.Join(dst, "pkg/tool.sh")); err != nil || string(b) != "pkg/tool.sh" {
				t.Errorf("pkg/tool.sh holds %q, %v", b, err)
			}
			for link, target := range map[string]string{"pkg/link": "BUILD", "pkg/bazel-out": "/abs"} {
				if got, err := os.Readlink(filepath.Join(dst, link)); err != nil || got != target {
					t.Errorf("%s -> %q, %v, expected a link to %s", link, got, err, target)
				}
			}
		})
	}
	t.Run("stopped", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := copyWorkspace(ctx, src, filepath.Join(t.TempDir(), "ws"), -1, false); !errors.Is(err, context.Canceled) {
			t.Errorf("copy with a cancelled context: %v, expected context.Canceled", err)
		}
	})
}

// fake runs Run with testdata/fake-bazel.sh as Bazel, in mode.
type fake struct {
	workspace, scratch, record string
}

func newFake(t *testing.T) *fake {
	t.Helper()
	root := t.TempDir()
	f := &fake{workspace: filepath.Join(root, "ws"), scratch: filepath.Join(root, "scratch"), record: filepath.Join(root, "record")}
	for _, d := range []string{f.workspace, f.scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.workspace, "WORKSPACE"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fake) run(t *testing.T, ctx context.Context, mode string, vary *Variations) (*Builds, error) {
	t.Helper()
	fakeBazel, err := filepath.Abs(filepath.Join("testdata", "fake-bazel.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return Run(ctx, Options{
		Labels:    []string{"//..."},
		Workspace: f.workspace,
		Bazel:     fakeBazel,
		Env:       []string{"PATH=" + os.Getenv("PATH"), "FAKE_BAZEL_RECORD=" + f.record, "FAKE_BAZEL_MODE=" + mode, "TZ=UTC"},
		Vary:      vary,
		Gap:       time.Millisecond,
		TempDir:   f.scratch,
	})
}

func (f *fake) calls(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(f.record)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// clean requires that Run left nothing: no scratch files, no "server".
func (f *fake) clean(t *testing.T) {
	t.Helper()
	if left := listTree(t, f.scratch); len(left) > 0 {
		t.Errorf("left behind in %s: %q", f.scratch, left)
	}
	if procs := processesNaming(t, f.scratch); len(procs) > 0 {
		t.Errorf("still running:\n%s", strings.Join(procs, "\n"))
	}
	if names := listTree(t, f.workspace); !slices.Equal(names, []string{"WORKSPACE"}) {
		t.Errorf("the workspace holds %q, expected it untouched", names)
	}
}

// call finds the recorded call whose argv contains s.
func call(t *testing.T, calls []string, s string) string {
	t.Helper()
	for _, c := range calls {
		if strings.Contains(c, s) {
			return c
		}
	}
	t.Fatalf("no call with %q in:\n%s", s, strings.Join(calls, "\n"))
	return ""
}

func TestRunWithFakeBazel(t *testing.T) {
	f := newFake(t)
	vary := DefaultVariations()
	// These need privileges the test may not have, and the other account
	// could not write the record; TestRealBuilds covers them.
	vary.Hostname, vary.User = false, false
	b, err := f.run(t, context.Background(), "ok", &vary)
	if err != nil {
		t.Fatal(err)
	}
	for _, log := range []string{b.Old, b.New} {
		if _, err := os.Stat(log); err != nil {
			t.Errorf("log: %v", err)
		}
	}
	calls := f.calls(t)
	if len(calls) != 4 {
		t.Errorf("%d calls, expected build, shutdown, build, shutdown:\n%s", len(calls), strings.Join(calls, "\n"))
	}
	first, second := call(t, calls, "old.binlog"), call(t, calls, "new.binlog")
	for _, want := range []string{"|umask=0022|", "|TZ=GMT+12|LANG=C.UTF-8|LC_ALL=C.UTF-8", "/1/workspace/ws|", " --jobs=1 "} {
		if !strings.Contains(first, want) {
			t.Errorf("first build %q, expected %q in it", first, want)
		}
	}
	for _, want := range []string{"|umask=0002|", "|TZ=GMT-14|LANG=C|LC_ALL=C", "/later/workspace-two/ws|", "/2/later/output_base_two "} {
		if !strings.Contains(second, want) {
			t.Errorf("second build %q, expected %q in it", second, want)
		}
	}
	otherFS := b.otherFS
	if otherFS != "" && !strings.Contains(second, "|pwd="+otherFS+"/") {
		t.Errorf("second build %q, expected it in %s", second, otherFS)
	}
	// Both builds' outputs are kept until Close, each build described.
	for i, d := range b.Described {
		out, err := os.ReadFile(filepath.Join(b.Outputs[i], "bazel-out", "k8-fastbuild", "bin", "pwd.txt"))
		if err != nil || strings.TrimSpace(string(out)) != d.Paths[0].Path || d.Paths[0].Role != "workspace" {
			t.Errorf("build %d: output %q, %v; described as %+v", i+1, out, err, d)
		}
		if d.Start.IsZero() || d.End.Before(d.Start) || d.Env["TZ"] != []string{FirstTZ, SecondTZ}[i] {
			t.Errorf("build %d described as %+v", i+1, d)
		}
	}
	names := make([]string, len(b.Reached))
	for i, r := range b.Reached {
		names[i] = r.Name
	}
	if want := vary.Names(); !slices.Equal(names, want) {
		t.Errorf("reached %q, expected a line for each of %q", names, want)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	f.clean(t)
	if _, err := os.Lstat(otherFS); otherFS != "" && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is left: %v", otherFS, err)
	}
}

func TestRunKeepDir(t *testing.T) {
	f := newFake(t)
	keep := filepath.Join(t.TempDir(), "kept")
	fakeBazel, _ := filepath.Abs(filepath.Join("testdata", "fake-bazel.sh"))
	b, err := Run(context.Background(), Options{
		Labels: []string{"//..."}, Workspace: f.workspace, Bazel: fakeBazel, TempDir: f.scratch, KeepDir: keep,
		Env: []string{"PATH=" + os.Getenv("PATH"), "FAKE_BAZEL_RECORD=" + f.record}, Vary: &Variations{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if b.Old != filepath.Join(keep, "old.binlog") || b.New != filepath.Join(keep, "new.binlog") {
		t.Errorf("logs %s and %s, expected them in %s", b.Old, b.New, keep)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	f.clean(t)
	if got := listTree(t, keep); !slices.Equal(got, []string{"new.binlog", "old.binlog"}) {
		t.Errorf("kept %q", got)
	}
}

// --keep keeps both builds' outputs and logs, each tree described, and
// nothing else.
func TestRunKeepOutputs(t *testing.T) {
	f := newFake(t)
	keep := filepath.Join(t.TempDir(), "kept")
	fakeBazel, _ := filepath.Abs(filepath.Join("testdata", "fake-bazel.sh"))
	b, err := Run(context.Background(), Options{
		Labels: []string{"//..."}, Workspace: f.workspace, Bazel: fakeBazel, TempDir: f.scratch, KeepOutputs: keep,
		Env: []string{"PATH=" + os.Getenv("PATH"), "FAKE_BAZEL_RECORD=" + f.record}, Vary: &Variations{Path: true, TZ: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if b.Outputs != [2]string{filepath.Join(keep, "old"), filepath.Join(keep, "new")} {
		t.Errorf("outputs in %q, expected %s/old and new", b.Outputs, keep)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	f.clean(t)
	want := []string{"new", "new/ahab-build.json", "new/bazel-out", "new/bazel-out/k8-fastbuild", "new/bazel-out/k8-fastbuild/bin",
		"new/bazel-out/k8-fastbuild/bin/pwd.txt", "new.binlog", "old", "old/ahab-build.json", "old/bazel-out", "old/bazel-out/k8-fastbuild",
		"old/bazel-out/k8-fastbuild/bin", "old/bazel-out/k8-fastbuild/bin/pwd.txt", "old.binlog"}
	if got := listTree(t, keep); !slices.Equal(got, want) {
		t.Errorf("kept %q, expected %q", got, want)
	}
	for i, name := range []string{"old", "new"} {
		d, err := outdiff.Tree{Dir: filepath.Join(keep, name)}.Describe()
		if err != nil || d.Env["TZ"] != []string{FirstTZ, SecondTZ}[i] {
			t.Errorf("%s described as %+v, %v", name, d, err)
		}
	}
}

func TestRunFailures(t *testing.T) {
	t.Run("the second build fails", func(t *testing.T) {
		f := newFake(t)
		_, err := f.run(t, context.Background(), "fail2", &Variations{})
		var be *BuildError
		if !errors.As(err, &be) {
			t.Fatalf("error %v, expected a *BuildError", err)
		}
		if be.Build != 2 || be.Exit.ExitCode != 1 || be.Exit.Status != "exit status: 1" {
			t.Errorf("build %d, %s (%d), expected build 2, exit status: 1", be.Build, be.Exit.Status, be.Exit.ExitCode)
		}
		wantTail := make([]string, 0, tailLines)
		for i := 40 - tailLines + 1; i <= 40; i++ {
			wantTail = append(wantTail, "line "+strconv.Itoa(i))
		}
		if got := be.Exit.LastLines(tailLines); got != strings.Join(wantTail, "\n") {
			t.Errorf("stderr %q, expected Bazel's last %d lines", got, tailLines)
		}
		if !strings.HasPrefix(err.Error(), "build 2 of 2 (`bazel build` in ") || !strings.Contains(err.Error(), ") exited with exit status: 1:\nline 11\n") {
			t.Errorf("message %q", err)
		}
		// The failed build's server was shut down too.
		if calls := f.calls(t); !strings.Contains(calls[len(calls)-1], "shutdown") {
			t.Errorf("last call %q, expected shutdown", calls[len(calls)-1])
		}
		f.clean(t)
	})
	t.Run("shutdown fails and the server is killed", func(t *testing.T) {
		f := newFake(t)
		b, err := f.run(t, context.Background(), "stuck", &Variations{})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		f.clean(t)
	})
	t.Run("not a workspace", func(t *testing.T) {
		f := newFake(t)
		os.Remove(filepath.Join(f.workspace, "WORKSPACE"))
		_, err := f.run(t, context.Background(), "ok", nil)
		if err == nil || !strings.Contains(err.Error(), f.workspace+": not a Bazel workspace root") {
			t.Errorf("error %v, expected the directory named", err)
		}
	})
	t.Run("kept builds in the way", func(t *testing.T) {
		f := newFake(t)
		keep := t.TempDir()
		if err := os.Mkdir(filepath.Join(keep, "new"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Run(context.Background(), Options{Labels: []string{"//..."}, Workspace: f.workspace, KeepOutputs: keep, TempDir: f.scratch})
		if err == nil || err.Error() != keep+": new exists already, expected a directory without old/ and new/ to keep the builds in" {
			t.Errorf("error %v, expected one naming %s/new", err, keep)
		}
		f.clean(t)
	})
	t.Run("no bazel", func(t *testing.T) {
		f := newFake(t)
		_, err := Run(context.Background(), Options{Labels: []string{"//..."}, Workspace: f.workspace, Bazel: filepath.Join(f.scratch, "nobazel")})
		if err == nil || !strings.Contains(err.Error(), "nobazel") {
			t.Errorf("error %v, expected the executable named", err)
		}
		f.clean(t)
	})
}

// Stopping Run, by its context or by SIGINT, stops the build, shuts its
// server down and removes everything.
func TestRunStopped(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cancel context.CancelFunc)
		want error
	}{
		{"context", func(cancel context.CancelFunc) { cancel() }, context.Canceled},
		{"sigint", func(context.CancelFunc) { syscall.Kill(os.Getpid(), syscall.SIGINT) }, bazel.ErrInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for {
					if _, err := os.Stat(f.record + ".started"); err == nil {
						if !bazel.Guarding() {
							t.Error("Run does not hold the signals while Bazel runs")
						}
						tc.stop(cancel)
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			_, err := f.run(t, ctx, "hang", &Variations{})
			var se *StoppedError
			if !errors.As(err, &se) || !errors.Is(err, tc.want) || se.Phase != "build 1 of 2" {
				t.Fatalf("error %v, expected a *StoppedError in build 1 of 2 wrapping %v", err, tc.want)
			}
			if bazel.Guarding() {
				t.Error("Run still holds the signals")
			}
			f.clean(t)
		})
	}
}

func TestParseCPUList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"0", []int{0}},
		{"0-3", []int{0, 1, 2, 3}},
		{"0-1,4,6-7", []int{0, 1, 4, 6, 7}},
	} {
		got, err := parseCPUList(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("parseCPUList(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if back := cpuList(got); back != tc.in {
			t.Errorf("cpuList(%v) = %q, want %q", got, back, tc.in)
		}
	}
	for _, in := range []string{"", "a", "3-1", "0-99999999", "1,"} {
		if got, err := parseCPUList(in); err == nil {
			t.Errorf("parseCPUList(%q) = %v, want an error", in, got)
		}
	}
}

// A variation the machine does not allow is left out, and Reached says
// why: here the account, whose scratch directory another account could not
// reach (the test's temporary directory is closed), or which only root may
// switch to.
func TestRunSkipsWhatTheMachineForbids(t *testing.T) {
	f := newFake(t)
	_, existed := user.Lookup(SecondUser)
	b, err := f.run(t, context.Background(), "ok", &Variations{Path: true, User: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
		if _, err := user.Lookup(SecondUser); existed != nil && err == nil {
			t.Errorf("the account %s was made, and is left", SecondUser)
		}
	}()
	if b.Varied.User {
		t.Errorf("the user varied, expected it skipped")
	}
	want := []string{"varied path: ", "not varied: user: "}
	if len(b.Reached) != len(want) {
		t.Fatalf("reached %q, expected a line for path and one for user", b.Reached)
	}
	for i, r := range b.Reached {
		if !strings.HasPrefix(r.String(), want[i]) {
			t.Errorf("%q, expected it to start with %q", r, want[i])
		}
	}
}
