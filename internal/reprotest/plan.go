package reprotest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// maxIdleSecs is the servers' --max_idle_secs. Run shuts each server down
// as soon as its build ends; this only bounds how long one outlives a Run
// that was killed (SIGKILL) before it could.
const maxIdleSecs = 120

// noCacheFlags come after the user's flags, so that they win: no cache may
// replay the first build's outputs into the second (nor the user's earlier
// builds into either), and the builds' outputs, made under odd variations,
// must not reach the user's caches.
var noCacheFlags = []string{
	"--disk_cache=",
	"--remote_cache=",
	"--noremote_accept_cached",
	"--noremote_upload_local_results",
}

// build is one of the two builds, as Run carries it out.
type build struct {
	n          int      // 1 or 2
	roots      []string // everything of this build but its log is under these
	copyDir    string   // the workspace's copy, where Bazel runs
	outputBase string
	log        string // --execution_log_binary_file
	tmp        string // the TMPDIR of Bazel and its actions, under roots
	umask      int    // the copy's and Bazel's umask, or -1 to inherit ours
	reverse    bool   // create the copy's files in reverse order
	hostname   string // the host name Bazel runs under; "" for the machine's
	home       string // the HOME made for this build, or ""
	account    *account
	// client is the argv up to and including Bazel's startup options, the
	// same for every command in this output base; args follow it.
	client []string
	// bazelAt is where the Bazel executable is in client: what comes
	// before it is a wrapper (unshare, sh, setpriv…), its startup options
	// after.
	bazelAt int
	args    []string
	env     []string
}

// host is what Run found out about the machine, and made for the builds.
type host struct {
	// hostnameOK says whether `unshare --uts` works here.
	hostnameOK bool
	// otherFS is a scratch directory on another file system (a tmpfs) for
	// the second copy, or "".
	otherFS string
	// account is the second build's, when User varies and can here.
	account *account
	// cpus are the CPUs this process may run on; taskset says whether
	// taskset can pin the first build to one.
	cpus    []int
	taskset bool
	// arch is the machine for setarch; kernelOK and aslrOK say whether
	// setarch may change the kernel's version and turn ASLR off here.
	arch             string
	kernelOK, aslrOK bool
	// bazelrc is the user's ~/.bazelrc, passed with --bazelrc when HOME
	// changes; netrc their ~/.netrc, passed as NETRC.
	bazelrc, netrc string
}

// account is a user account a build runs as.
type account struct {
	name, group string
	uid, gid    int
	home        string // from the password database
}

// layout is where build n's copy and output base live, and the
// directories to remove after it: under the scratch directory, and on
// otherFS when that is given. The two copies' paths differ in length as
// well as in name, so that a path that reaches an output shifts what
// follows it.
func layout(dir, otherFS, workspace string, n int, varyPath bool) (roots []string, copyDir, outputBase string) {
	name := filepath.Base(workspace)
	if n == 1 || !varyPath {
		root := filepath.Join(dir, "1")
		return []string{root}, filepath.Join(root, "workspace", name), filepath.Join(root, "output_base")
	}
	root := filepath.Join(dir, "2")
	roots, copyRoot := []string{root}, root
	if otherFS != "" {
		roots, copyRoot = append(roots, otherFS), otherFS
	}
	return roots, filepath.Join(copyRoot, "later", "workspace-two", name), filepath.Join(root, "later", "output_base_two")
}

// logPath is where build n's execution log is once it has ended.
func logPath(dir string, n int) string {
	if n == 1 {
		return filepath.Join(dir, "old.binlog")
	}
	return filepath.Join(dir, "new.binlog")
}

// homePath is the HOME Home or User make for build n, of another length
// for each.
func homePath(dir string, n int) string {
	if n == 1 {
		return filepath.Join(dir, "1", "home")
	}
	return filepath.Join(dir, "2", "later", "home-two")
}

// plan says how build n (1 or 2) runs, in the scratch directory dir.
// bazelPath is the Bazel executable.
func plan(o *Options, bazelPath, dir string, n int, h host) build {
	b := build{n: n, umask: -1, log: logPath(dir, n)}
	otherFS := ""
	if o.Vary.FileOrder {
		otherFS = h.otherFS
	}
	b.roots, b.copyDir, b.outputBase = layout(dir, otherFS, o.Workspace, n, o.Vary.Path)
	// A TMPDIR of the build's own, removed with it: what an action leaves
	// there when the build is stopped must not stay in the user's.
	b.tmp = filepath.Join(b.roots[0], "tmp")
	second := n == 2
	if o.Vary.Umask {
		b.umask = FirstUmask
		if second {
			b.umask = SecondUmask
		}
	}
	b.reverse = second && o.Vary.FileOrder
	if second && o.Vary.Hostname && h.hostnameOK {
		b.hostname = SecondHostname
	}
	if second && o.Vary.User {
		b.account = h.account
	}
	if b.account != nil {
		// The account cannot write the scratch directory: the log goes in
		// its own root, and moves out when the build has ended.
		b.log = filepath.Join(b.roots[0], filepath.Base(b.log))
	}
	if o.Vary.Home || b.account != nil {
		b.home = homePath(dir, n)
	}
	b.env = buildEnv(o, h, b, second)

	// Bazel runs through sh when the umask or the host name is set, so
	// that only Bazel (and the server it starts, which inherits both) is
	// changed, never this process: the umask is per process, and other
	// goroutines may create files meanwhile. The values are our own
	// constants, safe in the script as they are. The host name is set as
	// root, before setpriv drops to the other account; the umask, the
	// account, the CPUs and the personality pass through each exec.
	var script []string
	if b.hostname != "" {
		script = append(script, "hostname "+b.hostname)
	}
	if b.umask >= 0 {
		script = append(script, fmt.Sprintf("umask %04o", b.umask))
	}
	if b.hostname != "" {
		b.client = append(b.client, "unshare", "--uts")
	}
	if len(script) > 0 {
		b.client = append(b.client, "/bin/sh", "-c", strings.Join(append(script, `exec "$@"`), " && "), "sh")
	}
	if a := b.account; a != nil {
		b.client = append(b.client, "setpriv", "--reuid="+strconv.Itoa(a.uid), "--regid="+strconv.Itoa(a.gid), "--init-groups")
	}
	if o.Vary.Jobs && !second && h.taskset && len(h.cpus) > 1 {
		b.client = append(b.client, "taskset", "-a", "-c", strconv.Itoa(h.cpus[0]))
	}
	if personality := setarchFlags(o, h, second); len(personality) > 0 {
		b.client = append(append(b.client, "setarch", h.arch), personality...)
	}
	b.bazelAt = len(b.client)
	b.client = append(b.client, bazelPath)
	b.client = append(b.client, startupFlags(b.outputBase)...)
	if b.home != "" && h.bazelrc != "" {
		b.client = append(b.client, "--bazelrc="+h.bazelrc)
	}
	b.args = append(b.args, "build")
	b.args = append(b.args, o.BazelFlags...)
	b.args = append(b.args, noCacheFlags...)
	if o.Vary.Jobs {
		b.args = append(b.args, "--jobs="+strconv.Itoa(jobs(second, h.cpus)))
	}
	b.args = append(b.args, "--execution_log_binary_file="+b.log)
	if len(o.Targets) > 0 {
		b.args = append(b.args, "--target_pattern_file="+targetFile(dir))
		return b
	}
	b.args = append(b.args, "--")
	b.args = append(b.args, o.Labels...)
	return b
}

// targetFile is where Run writes Options.Targets, in the scratch
// directory dir.
func targetFile(dir string) string { return filepath.Join(dir, "targets.txt") }

// jobs is the --jobs of the first or the second build under Jobs: one,
// then twice the CPUs, so that actions start in other orders and run side
// by side.
func jobs(second bool, cpus []int) int {
	if !second {
		return 1
	}
	return max(2, 2*len(cpus))
}

// setarchFlags are the personality flags of a build: the first without
// ASLR, the second with a 2.6 kernel.
func setarchFlags(o *Options, h host, second bool) []string {
	var flags []string
	if o.Vary.ASLR && !second && h.aslrOK {
		flags = append(flags, "-R")
	}
	if o.Vary.Kernel && second && h.kernelOK {
		flags = append(flags, "--uname-2.6")
	}
	return flags
}

// argv is the whole command line of `bazel ARGS...` in this build.
func (b *build) argv(args ...string) []string {
	return append(append(make([]string, 0, len(b.client)+len(args)), b.client...), args...)
}

// startupFlags are the startup options of every command in outputBase;
// they must be the same each time, or Bazel restarts the server.
func startupFlags(outputBase string) []string {
	return []string{"--output_base=" + outputBase, "--max_idle_secs=" + strconv.Itoa(maxIdleSecs)}
}

// buildEnv is the user's environment with the variations' values for the
// first or the second build, and its own TMPDIR.
func buildEnv(o *Options, h host, b build, second bool) []string {
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	set := map[string]string{}
	var order []string
	put := func(name, value string) {
		if _, ok := set[name]; !ok {
			order = append(order, name)
		}
		set[name] = value
	}
	unset := map[string]bool{}
	if o.Vary.TZ {
		put("TZ", pick(second, FirstTZ, SecondTZ))
	}
	if o.Vary.Locale {
		put("LANG", pick(second, FirstLocale, SecondLocale))
		put("LC_ALL", pick(second, FirstLocale, SecondLocale))
	}
	if b.home != "" {
		put("HOME", b.home)
		if _, ok := lookup(base, "NETRC"); !ok && h.netrc != "" && b.account == nil {
			put("NETRC", h.netrc)
		}
	}
	if a := b.account; a != nil {
		put("USER", a.name)
		put("LOGNAME", a.name)
	}
	if o.Vary.ExecPath && second {
		path, _ := lookup(base, "PATH")
		dirs := filepath.SplitList(path)
		slices.Reverse(dirs)
		put("PATH", strings.Join(append(dirs, missingExecDir), string(filepath.ListSeparator)))
	}
	if o.Vary.Env {
		for _, kv := range varyEnv(o) {
			name, value, _ := strings.Cut(kv, "=")
			if second {
				put(name, value)
			} else {
				unset[name] = true
			}
		}
	}
	if b.tmp != "" {
		put("TMPDIR", b.tmp)
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; ok || unset[name] {
			continue
		}
		if name == "HOSTNAME" && b.hostname != "" {
			// A shell's HOSTNAME should name the host it runs on.
			kv = "HOSTNAME=" + b.hostname
		}
		env = append(env, kv)
	}
	for _, name := range order {
		env = append(env, name+"="+set[name])
	}
	return env
}

// varyEnv are the variables Env sets in the second build.
func varyEnv(o *Options) []string {
	if len(o.VaryEnv) > 0 {
		return o.VaryEnv
	}
	return []string{CaptureEnvironment}
}

// lookup finds a variable in an environment.
func lookup(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func pick(second bool, first, other string) string {
	if second {
		return other
	}
	return first
}
