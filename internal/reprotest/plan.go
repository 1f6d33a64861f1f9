package reprotest

import (
	"fmt"
	"os"
	"path/filepath"
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
	// client is the argv up to and including Bazel's startup options, the
	// same for every command in this output base; args follow it.
	client []string
	// bazelAt is where the Bazel executable is in client: what comes
	// before it is a wrapper (unshare, sh), its startup options after.
	bazelAt int
	args    []string
	env     []string
}

// host is what Run found out about the machine.
type host struct {
	// hostnameOK says whether `unshare --uts` works here.
	hostnameOK bool
	// otherFS is a scratch directory on another file system (a tmpfs) for
	// the second copy, or "".
	otherFS string
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

// logPath is where build n writes its execution log.
func logPath(dir string, n int) string {
	if n == 1 {
		return filepath.Join(dir, "old.binlog")
	}
	return filepath.Join(dir, "new.binlog")
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
	b.env = buildEnv(o, second, b.hostname, b.tmp)

	// Bazel runs through sh when the umask or the host name is set, so
	// that only Bazel (and the server it starts, which inherits both) is
	// changed, never this process: the umask is per process, and other
	// goroutines may create files meanwhile. The values are our own
	// constants, safe in the script as they are.
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
	b.bazelAt = len(b.client)
	b.client = append(b.client, bazelPath)
	b.client = append(b.client, startupFlags(b.outputBase)...)
	b.args = append(b.args, "build")
	b.args = append(b.args, o.BazelFlags...)
	b.args = append(b.args, noCacheFlags...)
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
// first or the second build, and TMPDIR set to tmp.
func buildEnv(o *Options, second bool, hostname, tmp string) []string {
	set := map[string]string{"TMPDIR": tmp}
	if o.Vary.TZ {
		set["TZ"] = pick(second, FirstTZ, SecondTZ)
	}
	if o.Vary.Locale {
		set["LANG"] = pick(second, FirstLocale, SecondLocale)
		set["LC_ALL"] = pick(second, FirstLocale, SecondLocale)
	}
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; ok {
			continue
		}
		if name == "HOSTNAME" && hostname != "" {
			// A shell's HOSTNAME should name the host it runs on.
			kv = "HOSTNAME=" + hostname
		}
		env = append(env, kv)
	}
	for _, name := range []string{"TZ", "LANG", "LC_ALL", "TMPDIR"} {
		if v, ok := set[name]; ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

func pick(second bool, first, other string) string {
	if second {
		return other
	}
	return first
}
