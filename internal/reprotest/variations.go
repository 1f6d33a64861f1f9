package reprotest

import (
	"fmt"
	"strings"
)

// Variations says what the second build changes. Each variation has a
// fixed pair of values, so that it varies whatever the user's own
// environment holds (as the distributions' reprotest does); a variation
// that is off leaves both builds as the user's environment has them.
// Each says, below, what kind of output it reaches; docs/diff.md has the
// same as a table.
type Variations struct {
	// Path builds the second time from a copy of the workspace at another
	// path, of another length, with an output base at another path too:
	// paths reach outputs through `pwd`, debug information, __FILE__ and
	// repository rules. Off, both builds use the same two paths (the first
	// copy and output base are removed before the second are made there).
	Path bool
	// Time makes the second copy at least Options.Gap after the first, so
	// its files' modification times and the clocks actions read differ by
	// at least that much (the builds are seconds apart anyway; the gap
	// matters only when the first build is quicker than Gap). Off, the
	// second build starts as soon as the first has finished.
	Time bool
	// TZ sets TZ to FirstTZ, then SecondTZ. Actions see it only through
	// --action_env=TZ (Bazel passes the client's PATH alone by default).
	TZ bool
	// Locale sets LANG and LC_ALL to FirstLocale, then SecondLocale; they
	// reach actions as TZ does, and Bazel itself and repository rules
	// always.
	Locale bool
	// Umask runs Bazel under FirstUmask, then SecondUmask, and gives each
	// copy's files and directories the modes a checkout under that umask
	// would have (0644 and 0755, then 0664 and 0775). Bazel 4.2.3 ran the
	// actions of both builds with umask 0022 (the corpus's //shell:umask),
	// so this reaches outputs through the copies' modes: an archive that
	// records them (tar without --mode).
	Umask bool
	// FileOrder creates the second copy's files and directories in reverse
	// order, and, with Path on, on another file system: on the tmpfs at
	// /dev/shm when there is one with room for twice the workspace. So
	// directories list in another order (`find`, `ls -U`, `zip -r`, `tar`
	// of a directory): a tmpfs lists them in reverse creation order, ext4
	// in an order of its own. Only the copy goes there, never the output
	// base.
	FileOrder bool
	// Hostname runs the second Bazel in a new UTS namespace (`unshare
	// --uts`) whose host name is SecondHostname: `hostname`, `uname -a`
	// and Bazel's BUILD_HOST in stable-status.txt. It needs the privilege
	// to unshare; where that fails, Run leaves the host name alone and
	// says why (Builds.Reached).
	Hostname bool
	// User runs the second build as another account (setpriv): the one
	// Options.User names, or SecondUser, which Run makes with useradd when
	// there is none and Close removes. That account owns the second copy,
	// its output base and a HOME of its own: `whoami`, `id`, the owners
	// archives record (tar without --owner), `~`. It needs root.
	User bool
	// Home gives each build a HOME of its own, at paths of other lengths
	// (HOME is then no longer yours: your ~/.bazelrc is passed with
	// --bazelrc, your ~/.netrc with NETRC): repository rules, and actions
	// given --action_env=HOME.
	Home bool
	// Jobs runs the first build with --jobs=1 on one CPU (taskset) and the
	// second with --jobs twice the CPUs, on all of them: the order in which
	// independent actions start and run side by side follows (Bazel has no
	// other way to change it), and what a tool makes of the CPUs it may use
	// (`nproc`, `make -j`, parallel writers to one file).
	Jobs bool
	// Kernel makes the second build's kernel say it is Linux 2.6 (`setarch
	// --uname-2.6`): `uname -r`. Off by default: a tool that checks the
	// kernel's version may refuse to run ("FATAL: kernel too old").
	Kernel bool
	// ASLR runs the first build without address-space layout
	// randomisation (`setarch -R`) and the second with the machine's: what
	// a program prints of its addresses, orders seeded by them.
	ASLR bool
	// Env sets, in the second build only, Options.VaryEnv's variables
	// (REPROTEST_CAPTURE_ENVIRONMENT=i_capture_the_environment by default,
	// as the distributions' reprotest does): whatever writes the whole
	// environment, repository rules, actions given --action_env.
	Env bool
	// ExecPath gives the second build PATH in reverse order, with a
	// directory that does not exist at its end: another program of the
	// same name found first, PATH written into an output. Off by default:
	// Bazel before 7 passes PATH to every action, so every action's
	// environment would differ and hide the rest.
	ExecPath bool
}

// The values the variations give the two builds.
const (
	FirstTZ        = "GMT+12"
	SecondTZ       = "GMT-14"
	FirstLocale    = "C.UTF-8"
	SecondLocale   = "C" // C.UTF-8 and C are the locales every glibc system has
	FirstUmask     = 0o022
	SecondUmask    = 0o002
	SecondHostname = "ahab-reprotest-second"
	// SecondUser is the account the second build runs as when
	// Options.User names none.
	SecondUser = "ahab-reprotest"
	// CaptureEnvironment is the variable Env sets when Options.VaryEnv
	// names none, the distributions' reprotest's.
	CaptureEnvironment = "REPROTEST_CAPTURE_ENVIRONMENT=i_capture_the_environment"
	// missingExecDir ends the second build's PATH under ExecPath.
	missingExecDir = "/nonexistent/ahab-reprotest-exec-path"
)

// AllVariations turns every variation on.
func AllVariations() Variations {
	return Variations{Path: true, Time: true, TZ: true, Locale: true, Umask: true, FileOrder: true, Hostname: true,
		User: true, Home: true, Jobs: true, Kernel: true, ASLR: true, Env: true, ExecPath: true}
}

// DefaultVariations are those on by default: every variation that cannot
// break a correct build nor hide what differs. Kernel and ExecPath are
// off (see them).
func DefaultVariations() Variations {
	v := AllVariations()
	v.Kernel, v.ExecPath = false, false
	return v
}

// variationNames are the names ParseVariations and String use, in order.
var variationNames = []string{"path", "time", "tz", "locale", "umask", "file_order", "hostname",
	"user", "home", "jobs", "kernel", "aslr", "env", "exec_path"}

func (v *Variations) field(name string) *bool {
	switch name {
	case "path":
		return &v.Path
	case "time":
		return &v.Time
	case "tz":
		return &v.TZ
	case "locale":
		return &v.Locale
	case "umask":
		return &v.Umask
	case "file_order":
		return &v.FileOrder
	case "hostname":
		return &v.Hostname
	case "user":
		return &v.User
	case "home":
		return &v.Home
	case "jobs":
		return &v.Jobs
	case "kernel":
		return &v.Kernel
	case "aslr":
		return &v.ASLR
	case "env":
		return &v.Env
	case "exec_path":
		return &v.ExecPath
	}
	return nil
}

// ParseVariations reads a comma-separated list of changes applied left to
// right: "default", "all" and "none" set every variation, "NAME" or
// "+NAME" turns one on, "-NAME" turns one off. The list starts from the
// default variations, unless its first item is a bare NAME: then it starts
// from none. So "tz,locale" is only those two, "-hostname" is the default
// but the host name, "+kernel" the default and the kernel, and "" the
// default. The names are path, time, tz, locale, umask, file_order,
// hostname, user, home, jobs, kernel, aslr, env and exec_path.
func ParseVariations(s string) (Variations, error) {
	v := DefaultVariations()
	if s == "" {
		return v, nil
	}
	first, _, _ := strings.Cut(s, ",")
	if first = strings.TrimSpace(first); !strings.HasPrefix(first, "-") && !strings.HasPrefix(first, "+") &&
		first != "all" && first != "none" && first != "default" {
		v = Variations{}
	}
	for item := range strings.SplitSeq(s, ",") {
		name, on := strings.TrimSpace(item), true
		switch {
		case strings.HasPrefix(name, "-"):
			name, on = name[1:], false
		case strings.HasPrefix(name, "+"):
			name = name[1:]
		}
		switch name {
		case "all":
			v = AllVariations()
			if !on {
				v = Variations{}
			}
			continue
		case "none":
			v = Variations{}
			if !on {
				v = AllVariations()
			}
			continue
		case "default":
			if on {
				v = DefaultVariations()
				continue
			}
		}
		f := v.field(name)
		if f == nil {
			return Variations{}, fmt.Errorf("variation %q in %q, expected default, all, none or one of: %s, each optionally after + or -",
				name, s, strings.Join(variationNames, ", "))
		}
		*f = on
	}
	return v, nil
}

// String lists the variations that are on, as ParseVariations reads them:
// "default", "all", "none" or the names.
func (v Variations) String() string {
	switch v {
	case DefaultVariations():
		return "default"
	case AllVariations():
		return "all"
	case Variations{}:
		return "none"
	}
	var on []string
	for _, name := range variationNames {
		if *v.field(name) {
			on = append(on, name)
		}
	}
	return strings.Join(on, ",")
}

// Names lists the names of the variations that are on, in order.
func (v Variations) Names() []string {
	var on []string
	for _, name := range variationNames {
		if *v.field(name) {
			on = append(on, name)
		}
	}
	return on
}

// A Reach says what one variation that was asked for did: the values it
// gave the two builds, or why it was skipped.
type Reach struct {
	Name          string
	First, Second string
	// Skipped says why the machine did not allow it; "" when it varied.
	Skipped string
}

func (r Reach) String() string {
	if r.Skipped != "" {
		return fmt.Sprintf("not varied: %s: %s", r.Name, r.Skipped)
	}
	return fmt.Sprintf("varied %s: %s -> %s", r.Name, r.First, r.Second)
}
