package reprotest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ahab-go/ahab/internal/atomicfile"
	"github.com/ahab-go/ahab/internal/outdiff"
)

// prepare makes what build p needs beside its copy before Bazel starts:
// its HOME, and, for another account, everything of the build its own.
func prepare(p build) error {
	if p.home != "" {
		if err := os.MkdirAll(p.home, 0o755); err != nil {
			return err
		}
	}
	if p.account == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p.outputBase), 0o755); err != nil {
		return err
	}
	for _, root := range p.roots {
		if err := chownTree(root, p.account); err != nil {
			return fmt.Errorf("giving build 2's files to %s: %w", p.account.name, err)
		}
	}
	return nil
}

// harvest keeps what the comparison needs of build p before its roots go:
// its log, and its outputs (the execution root's bazel-out, moved to
// DIR/outputs/N); it describes the build as outdiff reads it.
func (b *Builds) harvest(p build, o *Options, start time.Time) error {
	if final := logPath(b.dir, p.n); p.log != final && regular(p.log) {
		if err := os.Rename(p.log, final); err != nil {
			return err
		}
	}
	d := &b.Described[p.n-1]
	*d = describe(p, o, start)
	dst := filepath.Join(b.dir, "outputs", strconv.Itoa(p.n))
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	// The scratch directory is 0711 for another account: its outputs stay
	// ours.
	if err := os.Chmod(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	b.Outputs[p.n-1] = dst
	roots, _ := filepath.Glob(filepath.Join(p.outputBase, "execroot", "*"))
	slices.Sort(roots)
	for _, root := range roots {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue // execroot/DO_NOT_BUILD_HERE
		}
		d.Paths = append(d.Paths, spellings("execution root", root)...)
		out, err := filepath.EvalSymlinks(filepath.Join(root, "bazel-out"))
		if err != nil {
			continue // no outputs: the build made none, or is not Bazel's
		}
		if err := os.Rename(out, filepath.Join(dst, "bazel-out")); err != nil {
			return fmt.Errorf("keeping build %d's outputs: %w", p.n, err)
		}
		break
	}
	return nil
}

// describe says what build p was, for the diagnosis: its directories in
// each spelling, its times, host, account, homes and varied variables.
func describe(p build, o *Options, start time.Time) outdiff.Build {
	d := outdiff.Build{Start: start, End: time.Now(), Env: map[string]string{}}
	d.Paths = append(spellings("workspace", p.copyDir), spellings("output base", p.outputBase)...)
	d.Hostname = p.hostname
	if d.Hostname == "" {
		d.Hostname, _ = os.Hostname()
	}
	env := p.env
	if home, ok := lookup(env, "HOME"); ok && home != "" {
		d.Homes = append(d.Homes, home)
	}
	if a := p.account; a != nil {
		d.User, d.Group, d.UID, d.GID = a.name, a.group, strconv.Itoa(a.uid), strconv.Itoa(a.gid)
		d.Homes = append(d.Homes, a.home)
	} else if u, err := user.Current(); err == nil {
		d.User, d.UID, d.GID = u.Username, u.Uid, u.Gid
		if g, err := user.LookupGroupId(u.Gid); err == nil {
			d.Group = g.Name
		}
		d.Homes = append(d.Homes, u.HomeDir)
	}
	d.Homes = slices.Compact(d.Homes)
	names := []string{"TZ", "LANG", "LC_ALL"}
	if o.Vary.Env {
		for _, kv := range varyEnv(o) {
			name, _, _ := strings.Cut(kv, "=")
			names = append(names, name)
		}
	}
	for _, name := range names {
		if v, ok := lookup(env, name); ok {
			d.Env[name] = v
		}
	}
	return d
}

// spellings are a directory as given and with its links resolved.
func spellings(role, path string) []outdiff.Dir {
	ds := []outdiff.Dir{{Role: role, Path: path}}
	if r, err := filepath.EvalSymlinks(path); err == nil && r != path {
		ds = append(ds, outdiff.Dir{Role: role, Path: r})
	}
	return ds
}

// keepOutputs moves both builds' outputs and logs into dir, as old/ and
// new/ with old.binlog and new.binlog beside them, each tree with the
// outdiff.BuildFile that describes its build: what `ahab diff --outputs`
// and diffoscope read.
func (b *Builds) keepOutputs(ctx context.Context, dir string) error {
	if err := b.keep(dir); err != nil {
		return err
	}
	for i, name := range []string{"old", "new"} {
		to := filepath.Join(dir, name)
		if err := os.Rename(b.Outputs[i], to); err != nil {
			if err := copyTree(ctx, b.Outputs[i], to); err != nil {
				return fmt.Errorf("keeping build %d's outputs in %s: %w", i+1, to, err)
			}
		}
		b.Outputs[i] = to
		err := atomicfile.Write(filepath.Join(to, outdiff.BuildFile), "the build's description", func(w io.Writer) error {
			return outdiff.WriteBuild(w, b.Described[i])
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies a tree of outputs as it is, links as links, where a
// rename cannot move it (to another file system).
func copyTree(ctx context.Context, src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(path, to, info.Mode().Perm()|0o200)
		}
		return nil // sockets and the like
	})
}

// reached says what each variation asked for did, in the order of their
// names: the values it gave the two builds, or why it was skipped.
func (b *Builds) reached(asked Variations, o *Options, h host, plans [2]build, gap time.Duration) []Reach {
	var rs []Reach
	for _, name := range asked.Names() {
		if i := slices.IndexFunc(b.skipped, func(r Reach) bool { return r.Name == name }); i >= 0 {
			rs = append(rs, b.skipped[i])
			continue
		}
		r := Reach{Name: name}
		p1, p2 := &plans[0], &plans[1]
		env := func(p *build, name string) string {
			if v, ok := lookup(p.env, name); ok {
				return name + "=" + v
			}
			return name + " unset"
		}
		switch name {
		case "path":
			r.First, r.Second = p1.copyDir, p2.copyDir
		case "time":
			r.First = "the copy made at " + b.Described[0].Start.UTC().Format(time.RFC3339)
			r.Second = fmt.Sprintf("at %s, %v after the first was done", b.Described[1].Start.UTC().Format(time.RFC3339), gap.Round(100*time.Millisecond))
		case "tz":
			r.First, r.Second = env(p1, "TZ"), env(p2, "TZ")
		case "locale":
			r.First, r.Second = env(p1, "LC_ALL"), env(p2, "LC_ALL")
		case "umask":
			r.First, r.Second = fmt.Sprintf("%04o", p1.umask), fmt.Sprintf("%04o", p2.umask)
		case "file_order":
			r.First, r.Second = "files created in order", "in reverse order, on the same file system"
			if b.otherFS != "" {
				r.Second = "in reverse order, on the tmpfs " + b.otherFS
			}
		case "hostname":
			host, _ := os.Hostname()
			r.First, r.Second = host, p2.hostname
		case "user":
			d1, a := b.Described[0], p2.account
			r.First = fmt.Sprintf("%s (uid %s, gid %s)", d1.User, d1.UID, d1.GID)
			r.Second = fmt.Sprintf("%s (uid %d, gid %d)", a.name, a.uid, a.gid)
			if b.madeUser != "" {
				r.Second += ", made for this run"
			}
		case "home":
			r.First, r.Second = "HOME="+p1.home, "HOME="+p2.home
		case "jobs":
			r.First, r.Second = p1.jobsSaid(h), p2.jobsSaid(h)
		case "kernel":
			r.First, r.Second = "the machine's", "Linux 2.6 (setarch --uname-2.6)"
		case "aslr":
			r.First, r.Second = "off (setarch -R)", "the machine's"
		case "env":
			var first, second []string
			for _, kv := range varyEnv(o) {
				n, _, _ := strings.Cut(kv, "=")
				first, second = append(first, env(p1, n)), append(second, env(p2, n))
			}
			r.First, r.Second = strings.Join(first, " "), strings.Join(second, " ")
		case "exec_path":
			r.First, r.Second = env(p1, "PATH"), env(p2, "PATH")
		}
		rs = append(rs, r)
	}
	return rs
}

// jobsSaid says how build p runs in parallel.
func (p *build) jobsSaid(h host) string {
	flag := ""
	for _, a := range p.args {
		if strings.HasPrefix(a, "--jobs=") {
			flag = a
		}
	}
	i := slices.Index(p.client, "taskset")
	switch {
	case i >= 0:
		return flag + " on CPU " + p.client[i+3]
	case len(h.cpus) == 1:
		return flag + " on the one CPU this machine lets it use"
	case len(h.cpus) > 1:
		return flag + " on CPUs " + cpuList(h.cpus)
	}
	return flag
}
