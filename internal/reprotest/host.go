package reprotest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
)

// probe finds out what the machine allows of the variations asked for,
// and makes what the builds need: the second build's account, a copy of
// the user's ~/.bazelrc. What it cannot vary it says in b.Reached, and
// leaves off in b.Varied.
func (b *Builds) probe(ctx context.Context, o *Options) (host, error) {
	var h host
	v := &b.Varied
	if v.Hostname {
		if h.hostnameOK = canUnshareUTS(ctx); !h.hostnameOK {
			b.skip(&v.Hostname, "hostname", "`unshare --uts` is not permitted here")
		}
	}
	if v.FileOrder && v.Path {
		b.otherFS = otherFileSystem(o.Workspace, o.TempDir)
		h.otherFS = b.otherFS
	}
	if v.User {
		var a *account
		var made bool
		var err error
		skipped := closedAncestor(b.dir)
		if skipped == "" {
			a, made, skipped, err = secondAccount(ctx, o.User)
		}
		if made {
			b.madeUser = a.name // removed by Close, whatever happens next
		}
		switch {
		case err != nil:
			return h, err
		case skipped != "":
			b.skip(&v.User, "user", skipped)
		default:
			h.account = a
			// The account must reach its root in the scratch directories.
			for _, d := range []string{b.dir, b.otherFS} {
				if d != "" {
					if err := os.Chmod(d, 0o711); err != nil {
						return h, fmt.Errorf("reprotest: %w", err)
					}
				}
			}
		}
	}
	if v.Jobs {
		h.cpus = allowedCPUs()
		_, err := exec.LookPath("taskset")
		h.taskset = err == nil
	}
	if v.Kernel || v.ASLR {
		h.arch, h.kernelOK, h.aslrOK = personality(ctx)
		if v.Kernel && !h.kernelOK {
			b.skip(&v.Kernel, "kernel", "`setarch --uname-2.6` is not permitted here")
		}
		switch {
		case v.ASLR && aslrOff():
			b.skip(&v.ASLR, "aslr", "address-space layout randomisation is off on this machine (kernel.randomize_va_space is 0)")
		case v.ASLR && !h.aslrOK:
			b.skip(&v.ASLR, "aslr", "`setarch -R` is not permitted here")
		}
	}
	if v.Home || h.account != nil {
		home, _ := lookup(o.environ(), "HOME")
		if rc := filepath.Join(home, ".bazelrc"); home != "" && regular(rc) {
			// A copy, which the other account can read as well.
			h.bazelrc = filepath.Join(b.dir, "bazelrc")
			if err := copyFile(rc, h.bazelrc, 0o644); err != nil {
				return h, err
			}
		}
		if rc := filepath.Join(home, ".netrc"); home != "" && regular(rc) {
			h.netrc = rc
		}
	}
	return h, nil
}

// closedAncestor says which directory above dir another account could not
// pass through, or "".
func closedAncestor(dir string) string {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.Mode().Perm()&0o001 == 0 {
			return fmt.Sprintf("the scratch directory's parent %s is closed to other accounts (mode %04o)", d, st.Mode().Perm())
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func (b *Builds) skip(on *bool, name, why string) {
	*on = false
	b.skipped = append(b.skipped, Reach{Name: name, Skipped: why})
}

func (o *Options) environ() []string {
	if o.Env != nil {
		return o.Env
	}
	return os.Environ()
}

func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// canUnshareUTS says whether a new UTS namespace with another host name
// can be made here (root, or CAP_SYS_ADMIN).
func canUnshareUTS(ctx context.Context) bool {
	cmd := exec.CommandContext(ctx, "unshare", "--uts", "/bin/sh", "-c", "hostname "+SecondHostname)
	return cmd.Run() == nil
}

// secondAccount is the account the second build runs as: name, or
// SecondUser, which it makes with useradd when there is none (made). It
// says why it cannot be, when this process cannot switch accounts; a name
// given that does not exist is an error.
func secondAccount(ctx context.Context, name string) (a *account, made bool, skipped string, err error) {
	if os.Geteuid() != 0 {
		return nil, false, "only root can run a build as another account", nil
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		return nil, false, "no setpriv (util-linux) on PATH to switch accounts with", nil
	}
	given := name != ""
	if !given {
		name = SecondUser
	}
	u, err := user.Lookup(name)
	if err != nil {
		if given {
			return nil, false, "", fmt.Errorf("reprotest: --user %s: no such account, expected one to run the second build as", name)
		}
		cmd := exec.CommandContext(ctx, "useradd", "--system", "--user-group", "--no-create-home",
			"--home-dir", "/nonexistent/"+name, "--shell", "/usr/sbin/nologin", name)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, false, fmt.Sprintf("`useradd %s` failed: %v: %s", name, err, strings.TrimSpace(string(out))), nil
		}
		made = true
		if u, err = user.Lookup(name); err != nil {
			return &account{name: name}, made, "", fmt.Errorf("reprotest: %s, made with useradd: %w", name, err)
		}
	}
	a = &account{name: u.Username, home: u.HomeDir}
	if a.uid, err = strconv.Atoi(u.Uid); err == nil {
		a.gid, err = strconv.Atoi(u.Gid)
	}
	if err != nil {
		return a, made, "", fmt.Errorf("reprotest: %s: uid %q, gid %q: %w", name, u.Uid, u.Gid, err)
	}
	a.group = u.Gid
	if g, err := user.LookupGroupId(u.Gid); err == nil {
		a.group = g.Name
	}
	if a.uid == os.Geteuid() {
		return a, made, name + " is the account the first build runs as", nil
	}
	return a, made, "", nil
}

// removeAccount removes an account Run made, and what the Bazel server's
// JVM left of it: its performance data, which the JVM always writes under
// /tmp.
func removeAccount(name string) error {
	if out, err := exec.Command("userdel", name).CombinedOutput(); err != nil {
		return fmt.Errorf("reprotest: `userdel %s`: %v: %s", name, err, strings.TrimSpace(string(out)))
	}
	return os.RemoveAll(filepath.Join("/tmp", "hsperfdata_"+name))
}

// chownTree gives everything under dir to the account: the second build's
// copy, output base and home are its.
func chownTree(dir string, a *account) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, a.uid, a.gid)
	})
}

// allowedCPUs are the CPUs this process may run on, from
// /proc/self/status ("Cpus_allowed_list: 0-3,6"); nil where that cannot
// be read.
func allowedCPUs() []int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	for line := range strings.Lines(string(status)) {
		list, ok := strings.CutPrefix(line, "Cpus_allowed_list:")
		if !ok {
			continue
		}
		cpus, err := parseCPUList(strings.TrimSpace(list))
		if err != nil {
			return nil
		}
		return cpus
	}
	return nil
}

// maxCPUs bounds a CPU list: no machine has more.
const maxCPUs = 1 << 16

// parseCPUList reads a Linux CPU list: "0-3,6,8-9".
func parseCPUList(s string) ([]int, error) {
	var cpus []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, err
			}
		}
		if a < 0 || b < a || b >= maxCPUs || len(cpus)+b-a >= maxCPUs {
			return nil, fmt.Errorf("CPU list %q", s)
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// cpuList writes CPUs as taskset reads them.
func cpuList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// personality says what setarch may do here: the machine to name, and
// whether it may report a 2.6 kernel and turn ASLR off.
func personality(ctx context.Context) (arch string, kernelOK, aslrOK bool) {
	out, err := exec.CommandContext(ctx, "uname", "-m").Output()
	if err != nil {
		return "", false, false
	}
	arch = strings.TrimSpace(string(out))
	try := func(flag string) bool { return exec.CommandContext(ctx, "setarch", arch, flag, "true").Run() == nil }
	return arch, try("--uname-2.6"), try("-R")
}

// aslrOff says whether the kernel randomises no address space at all.
func aslrOff() bool {
	b, err := os.ReadFile("/proc/sys/kernel/randomize_va_space")
	return err == nil && strings.TrimSpace(string(b)) == "0"
}
