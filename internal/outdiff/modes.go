package outdiff

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// reMode is an ls -l mode.
var reMode = regexp.MustCompile(`[-dlcbps][-r][-w][-xsS][-r][-w][-xsS][-r][-w][-xtT]`)

// modeAt says whether an ls -l mode ("-rw-r--r--") overlaps s[p:e].
func modeAt(s []byte, p, e int) bool {
	for _, m := range reMode.FindAllIndex(s, -1) {
		if m[0] <= max(p, e-1) && m[1] > p {
			return true
		}
	}
	return false
}

// modeAround says whether an ls -l mode holds all of s[p:e].
func modeAround(s []byte, p, e int) bool {
	for _, m := range reMode.FindAllIndex(s, -1) {
		if m[0] <= p && e <= m[1] && p < m[1] {
			return true
		}
	}
	return false
}

// reOctalMode is a mode in octal as programs print one: 644 or 0644
// (stat -c %a, printf %o, %04o), 100644 (a whole st_mode), each perhaps
// with Python's 0o.
var reOctalMode = regexp.MustCompile(`(?:0[oO])?[0-7]{3,6}`)

// The bits of a mode.
const (
	groupBits = 0o077 // what a umask takes away, but for the owner's own
	ownerRead = 0o400 // every file a build makes has it
	typeBits  = 0o170000
)

// fileTypes are the values of a st_mode's type bits (S_IFMT).
var fileTypes = []uint64{0o010000, 0o020000, 0o040000, 0o060000, 0o100000, 0o120000, 0o140000}

// octalModes says whether the difference is a mode in octal on each side,
// in one form, the two differing in the group's and others' bits alone:
// what a umask changes (0644, then 0664). Octal digits that differ in the
// owner's bits or the file type, or lack the owner's read bit, are taken
// for another number.
func octalModes(a, b []byte, x part) (string, bool) {
	ma, okA := octalModeAt(a, x.pa, x.ea)
	mb, okB := octalModeAt(b, x.pb, x.eb)
	if !okA || !okB || len(ma) != len(mb) {
		return "", false
	}
	da, db := trimOctalPrefix(ma), trimOctalPrefix(mb)
	if len(da) != len(db) {
		return "", false // 0o644 against 00644
	}
	va, _ := strconv.ParseUint(da, 8, 32)
	vb, _ := strconv.ParseUint(db, 8, 32)
	differ := va ^ vb
	if differ == 0 || differ&^groupBits != 0 || !plausibleMode(va, len(da)) || !plausibleMode(vb, len(db)) {
		return "", false
	}
	return fmt.Sprintf("an octal mode, %s then %s: the group's and others' bits differ, as under another umask", ma, mb), true
}

// octalModeAt returns the octal number that overlaps s[p:e] (or touches
// p), when it stands alone: not part of a word or a longer number.
func octalModeAt(s []byte, p, e int) (string, bool) {
	if e <= p {
		p, e = max(0, p-1), p+1
	}
	for _, m := range reOctalMode.FindAllIndex(s, -1) {
		if m[0] >= e || m[1] <= p {
			continue
		}
		if !standsAlone(s, m[0], m[1]) {
			return "", false
		}
		return string(s[m[0]:m[1]]), true
	}
	return "", false
}

func trimOctalPrefix(s string) string {
	if len(s) > 2 && (s[:2] == "0o" || s[:2] == "0O") {
		return s[2:]
	}
	return s
}

// plausibleMode says whether v, written in n octal digits, is a mode a
// build's file could have: the owner may read it, and five or six digits
// begin with a file type.
func plausibleMode(v uint64, n int) bool {
	if v&ownerRead == 0 {
		return false
	}
	if n <= 4 {
		return true
	}
	t := v & typeBits
	return v&^(typeBits|0o7777) == 0 && slices.Contains(fileTypes, t)
}
