package outdiff

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Class is what the bytes of a difference name. A diagnosis's class is the
// first of its differences' classes in the order of the constants: a value
// one of the builds gave (a path, a home, an account, a host, a variable, a
// time) before a shape (permissions, order, randomness).
type Class uint8

const (
	// None: nothing differs.
	None Class = iota
	// BuildPath: the difference holds one of the builds' directories (its
	// workspace, output base or execution root, in any of the spellings
	// the caller gave), or an absolute path into an output base.
	BuildPath
	// Home: the difference holds one of the builds' home directories.
	Home
	// User: the difference holds one of the builds' user or group, by
	// name or number, or is an archive member's owner.
	User
	// Hostname: the difference holds one of the builds' host names.
	Hostname
	// Environment: the difference holds the value of an environment
	// variable the builds set differently (Build.Env).
	Environment
	// Time: the difference is a time: in epoch seconds, milli-, micro- or
	// nanoseconds close to either build (or to each other), in ISO 8601,
	// RFC 2822 or date(1)'s form, a time of day, a day or month name, an
	// archive member's time (tar, ar, cpio, zip's DOS and extended times,
	// gzip's MTIME) or a binary time stamp close to either build.
	Time
	// Permissions: a mode differs: an archive member's, or ls -l's.
	Permissions
	// Order: the same lines, words, members or symbols, in another order.
	Order
	// Random: random-looking bytes of equal length (a mktemp name, a
	// UUID, a process id, bytes of /dev/urandom).
	Random
	// Unclassified: the bytes do not say.
	Unclassified
	numClasses
)

var classTags = [numClasses]string{
	None:         "none",
	BuildPath:    "build_path",
	Home:         "home",
	User:         "user",
	Hostname:     "hostname",
	Environment:  "environment",
	Time:         "time",
	Permissions:  "permissions",
	Order:        "order",
	Random:       "random",
	Unclassified: "unclassified",
}

// String is the class's tag, as the JSON report writes it.
func (c Class) String() string {
	if c < numClasses {
		return classTags[c]
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// MarshalText writes the tag.
func (c Class) MarshalText() ([]byte, error) {
	if c >= numClasses {
		return nil, fmt.Errorf("outdiff: no class %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a tag.
func (c *Class) UnmarshalText(b []byte) error {
	k, err := ParseClass(string(b))
	*c = k
	return err
}

// ParseClass reads a class's tag.
func ParseClass(tag string) (Class, error) {
	if i := slices.Index(classTags[:], tag); i >= 0 {
		return Class(i), nil
	}
	return None, fmt.Errorf("class %q, expected one of: %s", tag, strings.Join(classTags[1:], ", "))
}

// Classes lists every class but None, in order.
func Classes() []Class {
	cs := make([]Class, 0, numClasses-1)
	for c := BuildPath; c < numClasses; c++ {
		cs = append(cs, c)
	}
	return cs
}

// A needle is a value of one build that names a class where it appears.
type needle struct {
	value string
	class Class
	what  string // "build 1's execution root"
	role  string // "execution root"
	// word: it must stand as a whole word (a host name, a user name).
	word bool
	// both: it counts only when the other version holds the other build's
	// value of the same class at that place (numbers and very short names,
	// which appear everywhere).
	both bool
}

// classifier says what a difference names, from the values of the two
// builds.
type classifier struct {
	builds  [2]Build
	needles [2][]needle // longest first
	// known says whether any value was given, else paths are recognised
	// by their shape alone.
	known bool
}

func newClassifier(old, new Build) classifier {
	c := classifier{builds: [2]Build{old, new}}
	for i := range 2 {
		b, other := &c.builds[i], &c.builds[1-i]
		who := fmt.Sprintf("build %d's ", i+1)
		add := func(n needle) {
			if n.value != "" {
				c.needles[i] = append(c.needles[i], n)
			}
		}
		for _, d := range b.Paths {
			if !slices.ContainsFunc(other.Paths, func(o Dir) bool { return o.Path == d.Path }) && d.Path != "/" {
				add(needle{value: strings.TrimSuffix(d.Path, "/"), class: BuildPath, what: who + d.Role, role: d.Role})
			}
		}
		for _, h := range b.Homes {
			if !slices.Contains(other.Homes, h) && h != "/" {
				add(needle{value: strings.TrimSuffix(h, "/"), class: Home, what: who + "home", role: "home"})
			}
		}
		name := func(v, o string, class Class, role string) {
			if v != o {
				add(needle{value: v, class: class, what: who + role, role: role, word: true, both: len(v) < 2 || isDigits(v)})
			}
		}
		name(b.Hostname, other.Hostname, Hostname, "host name")
		name(b.User, other.User, User, "user")
		name(b.Group, other.Group, User, "group")
		name(b.UID, other.UID, User, "uid")
		name(b.GID, other.GID, User, "gid")
		for _, k := range sortedKeys(b.Env) {
			if v := b.Env[k]; v != other.Env[k] {
				add(needle{value: v, class: Environment, what: who + k, role: k, word: true, both: len(v) < 3})
			}
		}
		slices.SortStableFunc(c.needles[i], func(x, y needle) int { return cmp.Compare(len(y.value), len(x.value)) })
		c.known = c.known || len(c.needles[i]) > 0 || !b.Start.IsZero()
	}
	return c
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// window bounds how much of a line around a difference is looked at.
const window = 256

// span says what the difference between a and b names: two versions of one
// line or string, differing in a[p:ea] and b[p:eb] (the bytes before p
// and after ea and eb being the same).
func (c *classifier) span(a, b []byte, p, ea, eb int) (Class, string) {
	// Look at a window around the difference only: a line may be a whole
	// minified file.
	lo := max(0, p-window)
	a, b = a[lo:min(len(a), max(ea, p)+window)], b[lo:min(len(b), max(eb, p)+window)]
	p, ea, eb = p-lo, min(ea-lo, len(a)), min(eb-lo, len(b))

	if class, why, ok := c.needle(a, b, p, ea, eb); ok {
		return class, why
	}
	if !c.known {
		if why, ok := outputBasePath(a, p); ok {
			return BuildPath, why
		}
		if why, ok := outputBasePath(b, p); ok {
			return BuildPath, why
		}
	}
	if why, ok := c.time(a, b, p, ea, eb); ok {
		return Time, why
	}
	if modeAt(a, p, ea) && modeAt(b, p, eb) {
		return Permissions, "an ls -l mode"
	}
	if sameWords(a, b) {
		return Order, "the same words in another order"
	}
	if n, ok := randomWord(a, b, p, ea, eb); ok {
		return Random, fmt.Sprintf("%d random-looking characters in both", n)
	}
	return Unclassified, ""
}

// needleMatch is where a needle was found.
type needleMatch struct {
	n          needle
	start, end int
}

// needle finds the builds' values at the difference, each version's own.
func (c *classifier) needle(a, b []byte, p, ea, eb int) (Class, string, bool) {
	ma, okA := c.find(0, a, p, ea)
	mb, okB := c.find(1, b, p, eb)
	if okA && okB {
		if ma.n.class == mb.n.class {
			return ma.n.class, ma.n.what + " and " + mb.n.what, true
		}
		// Two classes: a weak value says nothing beside a strong one.
		okA, okB = !ma.n.both, !mb.n.both
		if okA && okB {
			if mb.n.class < ma.n.class {
				ma, mb = mb, ma
			}
			return ma.n.class, ma.n.what + " beside " + mb.n.what, true
		}
	}
	switch {
	case okA && !ma.n.both:
		return ma.n.class, ma.n.what, true
	case okB && !mb.n.both:
		return mb.n.class, mb.n.what, true
	}
	return None, "", false
}

// find returns the longest needle of build i in s that overlaps s[p:e]
// (or touches p, for a difference that is an insertion).
func (c *classifier) find(i int, s []byte, p, e int) (needleMatch, bool) {
	if e <= p {
		p, e = max(0, p-1), p+1
	}
	for _, n := range c.needles[i] {
		v := []byte(n.value)
		for off := 0; off < len(s); {
			j := bytes.Index(s[off:], v)
			if j < 0 {
				break
			}
			start, end := off+j, off+j+len(v)
			off = start + 1
			if start >= e || end <= p {
				continue
			}
			if n.word && (start > 0 && isWordByte(s[start-1]) || end < len(s) && isWordByte(s[end])) {
				continue
			}
			if !n.word && end < len(s) && isPathByte(s[end]) {
				continue // a longer name that starts with it
			}
			return needleMatch{n, start, end}, true
		}
	}
	return needleMatch{}, false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// isPathByte says whether c continues a path component.
func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '+' || c == '~'
}

// outputBasePaths are what an absolute path into a Bazel output base
// holds, whichever build made it.
var outputBasePaths = []string{"/execroot/", "/_bazel_", "/bazel-out/", "/sandbox/"}

// outputBasePath says whether the token around s[p] holds an absolute path
// into an output base (at its start, or after = or :, as in PWD=/… or
// -I:/…), for outputs whose builds were not described.
func outputBasePath(s []byte, p int) (string, bool) {
	if p >= len(s) {
		return "", false
	}
	start, end := p, p
	for start > 0 && !isSpaceOrQuote(s[start-1]) {
		start--
	}
	for end < len(s) && !isSpaceOrQuote(s[end]) {
		end++
	}
	tok := s[start:end]
	i := bytes.IndexByte(tok, '/')
	if i < 0 || i > 0 && tok[i-1] != '=' && tok[i-1] != ':' {
		return "", false
	}
	for _, marker := range outputBasePaths {
		if bytes.Contains(tok[i:], []byte(marker)) {
			return "an absolute path into an output base (…" + strings.TrimSuffix(marker, "/") + "…)", true
		}
	}
	return "", false
}

func isSpaceOrQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == 0 || c == '`'
}

// modeAt says whether an ls -l mode ("-rw-r--r--") overlaps s[p:e].
func modeAt(s []byte, p, e int) bool {
	for _, m := range reMode.FindAllIndex(s, -1) {
		if m[0] <= max(p, e-1) && m[1] > p {
			return true
		}
	}
	return false
}

// sameWords says whether a and b hold the same words (runs of letters and
// digits) in another order.
func sameWords(a, b []byte) bool {
	wa, wb := words(a), words(b)
	if len(wa) < 2 || slices.Equal(wa, wb) {
		return false
	}
	slices.Sort(wa)
	slices.Sort(wb)
	return slices.Equal(wa, wb)
}

func words(s []byte) []string {
	return strings.FieldsFunc(string(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	})
}

// randomWord says whether the difference lies in a stretch of tokens of
// equal length in both versions, at least minRandom characters long, most
// of which differ, the separators between the tokens (spaces, colons,
// dashes) at the same places: a mktemp name, a UUID, a number, bytes
// written in hexadecimal.
func randomWord(a, b []byte, p, ea, eb int) (int, bool) {
	sa, _ := token(a, p)
	sb, _ := token(b, p)
	_, xa := token(a, max(p, ea-1))
	_, xb := token(b, max(p, eb-1))
	if sa != sb || xa-sa != xb-sb || xa-sa < minRandom || ea > xa || eb > xb {
		return 0, false
	}
	differ, n := 0, 0
	for i := sa; i < xa; i++ {
		ta, tb := isTokenByte(a[i]), isTokenByte(b[i])
		switch {
		case ta != tb:
			return 0, false // the tokens are not of the same shape
		case !ta:
			if a[i] != b[i] {
				return 0, false
			}
		case a[i] != b[i]:
			differ++
			fallthrough
		default:
			n++
		}
	}
	return xa - sa, 2*differ >= n
}

// minRandom is the shortest token that may look random: shorter ones (a
// count, a digit) say nothing.
const minRandom = 4

// token is the run of token bytes around s[p], empty when s[p] is not
// one.
func token(s []byte, p int) (int, int) {
	if p >= len(s) || !isTokenByte(s[p]) {
		return p, p
	}
	start, end := p, p
	for start > 0 && isTokenByte(s[start-1]) {
		start--
	}
	for end < len(s) && isTokenByte(s[end]) {
		end++
	}
	return start, end
}

// isTokenByte says whether c may be part of a random-looking token:
// letters, digits and base64's + and =.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '='
}
