package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/savedreport"
)

// Target is one directory under fishery/ that holds a spec.json.
type Target struct {
	Name string
	Dir  string // absolute path of fishery/<name>
	Spec Spec
}

// LoadTargets finds every fishery/<name>/spec.json under root, sorted by
// name, and parses each; one bad spec fails the load, so a typo cannot
// quietly drop a project from ci.
func LoadTargets(root string) ([]Target, error) {
	entries, err := os.ReadDir(filepath.Join(root, "fishery"))
	if err != nil {
		return nil, err
	}
	var targets []Target
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, "fishery", e.Name())
		data, err := os.ReadFile(filepath.Join(dir, "spec.json"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if slices.Contains(reservedNames, e.Name()) {
			return nil, fmt.Errorf("fishery/%s: the name is taken by Bazel's own directory in %s, expected another target name", e.Name(), "the shared output user root")
		}
		spec, err := ParseSpec("fishery/"+e.Name()+"/spec.json", data)
		if err != nil {
			return nil, err
		}
		targets = append(targets, Target{Name: e.Name(), Dir: dir, Spec: spec})
	}
	return targets, nil // in name order, as os.ReadDir returns entries
}

// reservedNames cannot be targets: every output base lives in one Bazel
// output user root, where Bazel keeps these directories of its own.
var reservedNames = []string{"cache", "install"}

// FindRoot walks up from dir to the repository root: the first directory
// holding both go.mod and fishery/.
func FindRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if isFile(filepath.Join(d, "go.mod")) && isDir(filepath.Join(d, "fishery")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: not inside the ahab repository, expected a parent directory with go.mod and fishery/", dir)
		}
	}
}

// Driver runs the fishery commands. Everything it prints goes to Stdout
// (progress and summaries) and Stderr (echoed subprocesses, errors).
type Driver struct {
	Root     string // repository root
	CacheDir string // parent of the output bases: <user cache>/ahab-fishery
	Stdout   io.Writer
	Stderr   io.Writer
	Targets  []Target

	// keepServer leaves the Bazel server running after Ahab: ci expunges
	// the output base right after check, which stops it anyway.
	keepServer bool

	ahab string // the built Ahab binary, once built
	tmp  string // where it was built
}

// exitCode carries a subprocess's exit status out of a command without a
// message: Ahab has already said what was wrong (a diff, a report).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// OutputBase is the target's own Bazel output base, kept out of the user's
// normal one so that clean can expunge it without touching anything else.
func (d *Driver) OutputBase(t Target) string { return filepath.Join(d.CacheDir, t.Name) }

func (d *Driver) workDir(t Target) string { return filepath.Join(t.Dir, "work") }

func (d *Driver) analysisDir(t Target) string {
	return filepath.Join(d.workDir(t), filepath.FromSlash(t.Spec.Workspace))
}

func (d *Driver) expectationPath(t Target) string { return filepath.Join(t.Dir, "expectation.json") }

func rel(t Target, file string) string { return "fishery/" + t.Name + "/" + file }

func (d *Driver) say(format string, args ...any) {
	fmt.Fprintf(d.Stderr, "fishery: "+format+"\n", args...)
}

// subprocess is a command run in dir. Its environment is the driver's without
// the variables that tie git to one repository (`git rev-parse
// --local-env-vars`, git 2.39): inherited from a git hook or `git rebase
// --exec`, GIT_DIR would make `git init work` re-initialise the repository
// the driver runs in and `git remote add` change its configuration.
func subprocess(dir string, argv ...string) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(gitLocalEnv, name)
	})
	return cmd
}

var gitLocalEnv = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
	"GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
}

// run echoes and runs a subprocess in dir, forwarding its output.
func (d *Driver) run(dir string, argv ...string) error {
	d.say("$ %s", strings.Join(argv, " "))
	cmd := subprocess(dir, argv...)
	cmd.Stdout = d.Stdout
	cmd.Stderr = d.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exitCode(exit.ExitCode())
	}
	return err
}

// output echoes and runs a subprocess in dir, returning its stdout.
func (d *Driver) output(dir string, argv ...string) (string, error) {
	d.say("$ %s", strings.Join(argv, " "))
	cmd := subprocess(dir, argv...)
	cmd.Stderr = d.Stderr
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// EnsureExpectation writes an empty expectation when none is on record, so
// that the first check of a new target shows everything it finds as a diff.
func (d *Driver) EnsureExpectation(t Target) error {
	p := d.expectationPath(t)
	if isFile(p) {
		return nil
	}
	if err := os.WriteFile(p, []byte(emptyExpectation), 0o644); err != nil {
		return err
	}
	d.say("no expectation on record, wrote an empty %s", rel(t, "expectation.json"))
	return nil
}

// Setup fetches the pinned commit alone into work/.
func (d *Driver) Setup(t Target) error {
	work := d.workDir(t)
	if exists(work) {
		return fmt.Errorf("%s already exists, expected no checkout; run `go run ./internal/devtools/fishery clean %s` first", rel(t, "work"), t.Name)
	}
	source, isBundle, err := t.Spec.fetchSource(t.Dir)
	if err != nil {
		return fmt.Errorf("%s: %v", rel(t, "spec.json"), err)
	}
	// init.defaultBranch only silences git's hint: the checkout is detached.
	if err := d.run(t.Dir, "git", "-c", "init.defaultBranch=fishery", "init", "--quiet", "work"); err != nil {
		return fmt.Errorf("git init failed: %v", err)
	}
	if err := d.run(work, "git", "remote", "add", "origin", source); err != nil {
		return fmt.Errorf("git remote add failed: %v", err)
	}
	if err := d.run(work, FetchArgs(t.Spec, isBundle)...); err != nil {
		if isBundle {
			return fmt.Errorf("cannot fetch %s from the bundle %s, expected the bundle to contain it (git bundle list-heads shows its refs)", t.Spec.Commit, t.Spec.Repo)
		}
		return fmt.Errorf("cannot fetch %s from %s: the network is unreachable or the server refuses to serve a bare commit (uploadpack.allowReachableSHA1InWant), expected a commit the server will send", t.Spec.Commit, t.Spec.Repo)
	}
	if err := d.run(work, "git", "checkout", "--quiet", "FETCH_HEAD"); err != nil {
		return fmt.Errorf("git checkout of %s failed: %v", t.Spec.Commit, err)
	}
	if err := d.EnsureExpectation(t); err != nil {
		return err
	}
	d.say("%s is ready in %s", t.Name, work)
	return nil
}

// FetchArgs is the git command that fetches the pinned commit alone (§11:
// depth 1). A bundle is fetched whole, since git ignores --depth for it (and
// warns), and by SHA, which works for any commit it contains. A local git
// directory needs protocol v2, whose upload-pack serves any commit by SHA;
// v0 refuses a commit that is not a ref tip.
func FetchArgs(s Spec, isBundle bool) []string {
	switch {
	case isBundle:
		return []string{"git", "fetch", "--quiet", "origin", s.Commit}
	case !s.NeedsNetwork():
		return []string{"git", "-c", "protocol.version=2", "fetch", "--quiet", "--depth", "1", "origin", s.Commit}
	default:
		return []string{"git", "fetch", "--quiet", "--depth", "1", "origin", s.Commit}
	}
}

// checkWork refuses to analyse a missing or stale checkout: a report of the
// wrong commit compared against the expectation would be a confusing diff.
func (d *Driver) checkWork(t Target) error {
	work := d.workDir(t)
	if !isDir(work) {
		return fmt.Errorf("%s does not exist; run `go run ./internal/devtools/fishery setup %s` first", rel(t, "work"), t.Name)
	}
	head, err := d.output(work, "git", "rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("%s: git rev-parse HEAD failed: %v", rel(t, "work"), err)
	}
	if head != t.Spec.Commit {
		return fmt.Errorf("%s is at %s but spec.json pins %s; run `go run ./internal/devtools/fishery clean %s` and setup again", rel(t, "work"), head, t.Spec.Commit, t.Name)
	}
	if !isDir(d.analysisDir(t)) {
		return fmt.Errorf("%s: workspace %q does not exist in the checkout, expected a directory", rel(t, "spec.json"), t.Spec.Workspace)
	}
	return nil
}

// AhabArgs is the Ahab command line for a target (§11), extra going just
// before the label.
func (d *Driver) AhabArgs(t Target, extra ...string) []string {
	args := []string{"--output-base=" + d.OutputBase(t)}
	for _, c := range t.Spec.Configs {
		args = append(args, "--config="+c)
	}
	if t.Spec.CompilationMode != "" {
		args = append(args, "--compilation-mode="+t.Spec.CompilationMode)
	}
	if p := filepath.Join(t.Dir, "exceptions.json"); isFile(p) {
		args = append(args, "--exceptions-json="+p)
	}
	args = append(args, extra...)
	return append(args, t.Spec.Label)
}

func (d *Driver) runAhab(t Target, extra ...string) error {
	if err := d.checkWork(t); err != nil {
		return err
	}
	bin, err := d.buildAhab()
	if err != nil {
		return err
	}
	err = d.run(d.analysisDir(t), append([]string{bin}, d.AhabArgs(t, extra...)...)...)
	// An idle Bazel server holds about a gigabyte for hours; the output
	// base stays, so the next run only pays the server's start-up.
	if !d.keepServer {
		d.bazel(t, "shutdown")
	}
	return err
}

// Check compares what Ahab finds now with the recorded expectation, in
// the judgement the expectation was recorded with: the reports the
// original recorded are checked with --compat 0.2.
func (d *Driver) Check(t Target) error {
	if err := d.EnsureExpectation(t); err != nil {
		return err
	}
	compat, err := d.compatArgs(t)
	if err != nil {
		return err
	}
	return d.runAhab(t, append(compat, "--expect-json="+d.expectationPath(t))...)
}

// compatArgs asks Ahab for the judgement of the target's expectation.
func (d *Driver) compatArgs(t Target) ([]string, error) {
	rep, err := savedreport.ReadFile(d.expectationPath(t))
	if err != nil {
		return nil, err
	}
	if rep.Mode == mode.Ahab02 {
		return []string{"--compat=0.2"}, nil
	}
	return nil, nil
}

// Update records what Ahab finds now as the expectation, in the judgement
// of the one on record.
func (d *Driver) Update(t Target) error {
	if err := d.EnsureExpectation(t); err != nil {
		return err
	}
	compat, err := d.compatArgs(t)
	if err != nil {
		return err
	}
	if err := d.runAhab(t, append(compat, "--no-fail", "--write-json="+d.expectationPath(t))...); err != nil {
		return err
	}
	d.say("recorded %s", rel(t, "expectation.json"))
	return nil
}

// Explain prints the recorded expectation as Ahab's text report.
func (d *Driver) Explain(t Target) error {
	p := d.expectationPath(t)
	if !isFile(p) {
		return fmt.Errorf("%s does not exist; run `go run ./internal/devtools/fishery update %s` first", rel(t, "expectation.json"), t.Name)
	}
	bin, err := d.buildAhab()
	if err != nil {
		return err
	}
	return d.run(d.Root, bin, "--explain-json="+p)
}

// Clean expunges the target's output base and removes its checkout.
func (d *Driver) Clean(t Target) error {
	work := d.workDir(t)
	if !exists(work) {
		d.say("%s has nothing to clean", t.Name)
		return nil
	}
	d.bazel(t, "clean", "--expunge")
	if err := removeAll(work); err != nil {
		return err
	}
	if err := removeAll(d.OutputBase(t)); err != nil {
		return err
	}
	d.say("removed %s", rel(t, "work"))
	return nil
}

// bazel runs a housekeeping command against the target's output base, with
// the same startup options Ahab uses (§2) so the client talks to the same
// server instead of restarting it. Errors are ignored: a missing server or
// a half-fetched checkout must not stop a clean.
func (d *Driver) bazel(t Target, command ...string) {
	ob := d.OutputBase(t)
	dir := d.analysisDir(t)
	if !isDir(ob) || !isDir(dir) {
		return
	}
	argv := append([]string{"bazel", "--output_base=" + ob, "--output_user_root=" + filepath.Dir(ob)}, command...)
	d.say("$ %s", strings.Join(argv, " "))
	cmd := subprocess(dir, argv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		d.say("ignoring failed bazel %s: %v", command[0], err)
	}
}

// buildAhab builds the working copy's Ahab once per invocation.
func (d *Driver) buildAhab() (string, error) {
	if d.ahab != "" {
		return d.ahab, nil
	}
	tmp, err := os.MkdirTemp("", "ahab-fishery-")
	if err != nil {
		return "", err
	}
	d.tmp = tmp
	bin := filepath.Join(tmp, "ahab")
	if err := d.run(d.Root, "go", "build", "-o", bin, "./cmd/ahab"); err != nil {
		return "", fmt.Errorf("building ./cmd/ahab failed: %v", err)
	}
	d.ahab = bin
	return bin, nil
}

// Close removes the built binary.
func (d *Driver) Close() {
	if d.tmp != "" {
		os.RemoveAll(d.tmp)
	}
}

// CIOptions selects what ci runs.
type CIOptions struct {
	Shard   *Shard
	Network bool
}

// SelectCI returns the targets ci runs and those it skips for needing the
// network. Sharding applies to the selection.
func SelectCI(targets []Target, opts CIOptions) (run, skipped []Target, shardNames []string) {
	for _, t := range targets {
		if t.Spec.NeedsNetwork() && !opts.Network {
			skipped = append(skipped, t)
		} else {
			run = append(run, t)
		}
	}
	if opts.Shard == nil {
		return run, skipped, nil
	}
	weighted := make([]Weighted, len(run))
	for i, t := range run {
		weighted[i] = Weighted{t.Name, t.Spec.Weight}
	}
	shardNames = AssignShards(weighted, opts.Shard.Count)[opts.Shard.Index-1]
	var mine []Target
	for _, t := range run {
		if slices.Contains(shardNames, t.Name) {
			mine = append(mine, t)
		}
	}
	return mine, skipped, shardNames
}

// CI runs every selected target from scratch and summarises the
// expectations. It returns exitCode(1) when any target failed.
func (d *Driver) CI(opts CIOptions) error {
	run, skipped, shardNames := SelectCI(d.Targets, opts)
	d.keepServer = true
	defer func() { d.keepServer = false }()
	if len(skipped) > 0 {
		names := make([]string, len(skipped))
		for i, t := range skipped {
			names[i] = t.Name
		}
		fmt.Fprintf(d.Stdout, "=== fishery: skipping %d targets that need the network (pass --network to run them): %s\n", len(skipped), strings.Join(names, ", "))
	}
	if opts.Shard != nil {
		list := cmp.Or(strings.Join(shardNames, ", "), "nothing")
		fmt.Fprintf(d.Stdout, "=== fishery: shard %d/%d: %s\n", opts.Shard.Index, opts.Shard.Count, list)
	}
	var failed []string
	var total Summary
	for _, t := range run {
		start := time.Now()
		fmt.Fprintf(d.Stdout, "=== fishery: %s\n", t.Name)
		step, err := d.ciTarget(t)
		elapsed := time.Since(start).Round(100 * time.Millisecond)
		if err != nil {
			if _, silent := err.(exitCode); !silent {
				d.say("%s: %v", t.Name, err)
			}
			fmt.Fprintf(d.Stdout, "=== fishery: %s FAILED at %s (%s)\n", t.Name, step, elapsed)
			failed = append(failed, t.Name)
		} else {
			fmt.Fprintf(d.Stdout, "=== fishery: %s ok (%s)\n", t.Name, elapsed)
		}
		if data, err := os.ReadFile(d.expectationPath(t)); err == nil {
			if s, err := Summarize(data, rel(t, "expectation.json")); err == nil {
				fmt.Fprint(d.Stdout, s.Format(t.Name))
				total.Add(s)
			} else {
				d.say("%v", err)
			}
		}
		if err := d.Clean(t); err != nil {
			d.say("%s: clean: %v", t.Name, err)
		}
	}
	fmt.Fprintf(d.Stdout, "=== fishery: %d/%d passed\n", len(run)-len(failed), len(run))
	if len(run) > 1 {
		fmt.Fprint(d.Stdout, total.Format(fmt.Sprintf("all %d targets", len(run))))
	}
	if len(failed) > 0 {
		fmt.Fprintf(d.Stdout, "=== fishery: failed: %s\n", strings.Join(failed, ", "))
		return exitCode(1)
	}
	return nil
}

// ciTarget is one target's ci run; it names the step that failed.
func (d *Driver) ciTarget(t Target) (step string, err error) {
	if exists(d.workDir(t)) {
		if err := d.Clean(t); err != nil {
			return "clean", err
		}
	}
	if err := d.Setup(t); err != nil {
		return "setup", err
	}
	if err := d.Check(t); err != nil {
		return "check", err
	}
	return "", nil
}

// removeAll removes a tree, making directories writable first if needed:
// Bazel leaves read-only directories in its output base.
func removeAll(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	filepath.WalkDir(p, func(q string, e fs.DirEntry, err error) error {
		if err == nil && e.IsDir() {
			os.Chmod(q, 0o755)
		}
		return nil
	})
	return os.RemoveAll(p)
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func isFile(p string) bool { info, err := os.Stat(p); return err == nil && info.Mode().IsRegular() }

func isDir(p string) bool { info, err := os.Stat(p); return err == nil && info.IsDir() }
