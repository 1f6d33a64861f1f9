package outdiff

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
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
	// nanoseconds, or in digits as date +%Y%m%d%H%M%S writes them, close
	// to either build (or to each other); in ISO 8601 (a week date too),
	// RFC 2822 or date(1)'s form, a time of day, a day or month name, an
	// archive member's time (tar, ar, cpio, zip's DOS and extended times,
	// gzip's MTIME) or a binary time stamp close to either build.
	Time
	// Permissions: a mode differs: an archive member's, ls -l's, or one
	// in octal whose group and others' bits alone differ (a umask's).
	Permissions
	// Order: the same lines, words, members or symbols, in another order.
	Order
	// Random: random-looking bytes of equal length (a mktemp name, a
	// UUID, a process id, bytes of /dev/urandom), numbers unalike digit
	// by digit, or an ELF build id when nothing else differs.
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

// A part is where two versions of a line or string differ: a[pa:ea]
// against b[pb:eb], the bytes around them being the same (an empty range
// is an insertion).
type part struct{ pa, ea, pb, eb int }

// whole is where a and b differ, after their longest common prefix and
// before their longest common suffix.
func whole(a, b []byte) part {
	p, ea, eb := differing(a, b)
	return part{p, ea, p, eb}
}

// span says what the difference between a and b, two versions of one line
// or string, names at x.
func (c *classifier) span(a, b []byte, x part) (Class, string) {
	// Look at a window around the difference only: a line may be a whole
	// minified file.
	loA, loB := max(0, x.pa-window), max(0, x.pb-window)
	a, b = a[loA:min(len(a), max(x.ea, x.pa)+window)], b[loB:min(len(b), max(x.eb, x.pb)+window)]
	x = part{x.pa - loA, min(x.ea-loA, len(a)), x.pb - loB, min(x.eb-loB, len(b))}

	if class, why, ok := c.needle(a, b, x); ok {
		return class, why
	}
	if !c.known {
		if why, ok := outputBasePath(a, x.pa); ok {
			return BuildPath, why
		}
		if why, ok := outputBasePath(b, x.pb); ok {
			return BuildPath, why
		}
	}
	// A part that lies within an ls -l mode cannot be a time's: say so
	// before looking for one, which costs more (BenchmarkDiagnose).
	if modeAround(a, x.pa, x.ea) && modeAround(b, x.pb, x.eb) {
		return Permissions, "an ls -l mode"
	}
	if why, ok := c.time(a, b, x); ok {
		return Time, why
	}
	if modeAt(a, x.pa, x.ea) && modeAt(b, x.pb, x.eb) {
		return Permissions, "an ls -l mode"
	}
	if why, ok := octalModes(a, b, x); ok {
		return Permissions, why
	}
	if sameWords(a, b) {
		return Order, "the same words in another order"
	}
	if n, ok := randomWord(a, b, x); ok {
		return Random, fmt.Sprintf("%d random-looking characters in both", n)
	}
	if why, ok := randomNumbers(a, b, x); ok {
		return Random, why
	}
	return Unclassified, ""
}

// needleMatch is where a needle was found.
type needleMatch struct {
	n          needle
	start, end int
}

// needle finds the builds' values at the difference, each version's own.
func (c *classifier) needle(a, b []byte, x part) (Class, string, bool) {
	ma, okA := c.find(0, a, x.pa, x.ea)
	mb, okB := c.find(1, b, x.pb, x.eb)
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
func randomWord(a, b []byte, x part) (int, bool) {
	sa, _ := token(a, x.pa)
	sb, _ := token(b, x.pb)
	_, xa := token(a, max(x.pa, x.ea-1))
	_, xb := token(b, max(x.pb, x.eb-1))
	if x.pa-sa != x.pb-sb || xa-sa != xb-sb || xa-sa < minRandom || x.ea > xa || x.eb > xb {
		return 0, false
	}
	differ, n := 0, 0
	for i := range xa - sa {
		ca, cb := a[sa+i], b[sb+i]
		ta, tb := isTokenByte(ca), isTokenByte(cb)
		switch {
		case ta != tb:
			return 0, false // the tokens are not of the same shape
		case !ta:
			if ca != cb {
				return 0, false
			}
		case ca != cb:
			differ++
			fallthrough
		default:
			n++
		}
	}
	return xa - sa, 2*differ >= n
}

// randomNumbers says whether the difference is two whole numbers of
// different lengths (randomWord takes those of equal length), of at least
// minRandom-1 digits and the longer of minRandom, whose digits differ at
// most places, by place value, and which are not within a quarter of each
// other: two draws of $RANDOM, not a size that grew past a power of ten.
func randomNumbers(a, b []byte, x part) (string, bool) {
	sa, xa, okA := digitsAround(a, x.pa, x.ea)
	sb, xb, okB := digitsAround(b, x.pb, x.eb)
	if !okA || !okB {
		return "", false
	}
	long, short := a[sa:xa], b[sb:xb]
	if len(long) < len(short) {
		long, short = short, long
	}
	if len(long) == len(short) || len(short) < minRandom-1 || len(long) < minRandom {
		return "", false
	}
	differ := len(long) - len(short)
	for i := 1; i <= len(short); i++ {
		if long[len(long)-i] != short[len(short)-i] {
			differ++
		}
	}
	l, errL := strconv.ParseFloat(string(long), 64)
	s, errS := strconv.ParseFloat(string(short), 64)
	if errL != nil || errS != nil || 2*differ < len(long) || 4*l < 5*s {
		return "", false
	}
	return fmt.Sprintf("numbers of %d and %d digits, unalike digit by digit", xa-sa, xb-sb), true
}

// digitsAround returns the run of decimal digits in s that holds s[p:e]
// (or, for an insertion, touches p), when it is a number of its own: not
// part of a word, nor of a decimal fraction.
func digitsAround(s []byte, p, e int) (int, int, bool) {
	if e <= p {
		p, e = max(0, p-1), min(len(s), p+1)
	}
	if p >= e {
		return 0, 0, false
	}
	for _, c := range s[p:e] {
		if !isDigit(c) {
			return 0, 0, false
		}
	}
	for p > 0 && isDigit(s[p-1]) {
		p--
	}
	for e < len(s) && isDigit(s[e]) {
		e++
	}
	return p, e, standsAlone(s, p, e)
}

// standsAlone says whether the number s[start:end] is one of its own: not
// part of a word or of a longer number, nor of a decimal fraction (after a
// dot, or before a dot and a digit). A dash may stand beside it (-15475).
func standsAlone(s []byte, start, end int) bool {
	joined := func(c byte) bool { return isWordByte(c) && c != '-' }
	return !(start > 0 && (joined(s[start-1]) || s[start-1] == '.') ||
		end < len(s) && (joined(s[end]) || s[end] == '.' && end+1 < len(s) && isDigit(s[end+1])))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// minRandom is the shortest token that may look random: shorter ones (a
// count, a digit) say nothing.
const minRandom = 4

// token is the run of token bytes around s[p], empty when s[p] is not
// one. An = that other token bytes follow separates a key from its value
// (salt=1234): only a run of them at the end is base64's padding.
func token(s []byte, p int) (int, int) {
	if p >= len(s) || !isTokenByte(s[p]) || isKeySeparator(s, p) {
		return p, p
	}
	start, end := p, p
	for start > 0 && isTokenByte(s[start-1]) && !isKeySeparator(s, start-1) {
		start--
	}
	for end < len(s) && isTokenByte(s[end]) && !isKeySeparator(s, end) {
		end++
	}
	return start, end
}

func isKeySeparator(s []byte, i int) bool {
	return s[i] == '=' && i+1 < len(s) && isTokenByte(s[i+1]) && s[i+1] != '='
}

// isTokenByte says whether c may be part of a random-looking token:
// letters, digits and base64's + and =.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '='
}
