package reprotest

import (
	"fmt"
	"strings"
)

// Variations says what the second build changes. Each variation has a
// fixed pair of values, so that it varies whatever the user's own
// environment holds (as the distributions' reprotest does); a variation
// that is off leaves both builds as the user's environment has them.
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
	// Builds.Varied says so.
	Hostname bool
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
)

// AllVariations turns every variation on: the default.
func AllVariations() Variations {
	return Variations{Path: true, Time: true, TZ: true, Locale: true, Umask: true, FileOrder: true, Hostname: true}
}

// variationNames are the names ParseVariations and String use, in order.
var variationNames = []string{"path", "time", "tz", "locale", "umask", "file_order", "hostname"}

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
	}
	return nil
}

// ParseVariations reads a comma-separated list of changes applied left to
// right: "all" and "none" set every variation, "NAME" or "+NAME" turns one
// on, "-NAME" turns one off. The list starts from all variations on,
// unless its first item is a bare NAME: then it starts from none. So
// "tz,locale" is only those two, "-hostname" is all but the host name,
// and "" is all. The names are path, time, tz, locale, umask, file_order
// and hostname.
func ParseVariations(s string) (Variations, error) {
	v := AllVariations()
	if s == "" {
		return v, nil
	}
	first, _, _ := strings.Cut(s, ",")
	if first = strings.TrimSpace(first); !strings.HasPrefix(first, "-") && !strings.HasPrefix(first, "+") &&
		first != "all" && first != "none" {
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
		}
		f := v.field(name)
		if f == nil {
			return Variations{}, fmt.Errorf("variation %q in %q, expected all, none or one of: %s, each optionally after + or -",
				name, s, strings.Join(variationNames, ", "))
		}
		*f = on
	}
	return v, nil
}

// String lists the variations that are on, as ParseVariations reads them:
// "all", "none" or the names.
func (v Variations) String() string {
	switch v {
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
