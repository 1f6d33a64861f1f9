package outdiff

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	monthNames = `Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec`
	dayNames   = `Mon|Tue|Wed|Thu|Fri|Sat|Sun`
)

// compactTime is the kind of a time in digits, as date +%Y%m%d%H%M%S
// writes it.
const compactTime = "%Y%m%d%H%M%S time"

// The forms of a time in text, most specific first: the first one that
// overlaps a difference on each side decides.
var timeForms = []struct {
	kind    string
	re      *regexp.Regexp
	layouts []string // to read an absolute time; none for a part of one
}{
	{"ISO 8601 time", regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?`),
		[]string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999Z07",
			"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z0700", "2006-01-02 15:04:05.999999999Z07",
			"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04"}},
	{"RFC 2822 time", regexp.MustCompile(`(?:(?:` + dayNames + `),\s*)?\d{1,2}\s+(?:` + monthNames + `)\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s+(?:[+-]\d{4}|UTC?|GMT)`),
		[]string{"Mon, _2 Jan 2006 15:04:05 -0700", "_2 Jan 2006 15:04:05 -0700", "Mon, _2 Jan 2006 15:04 -0700", "_2 Jan 2006 15:04 -0700",
			"Mon, _2 Jan 2006 15:04:05 MST", "_2 Jan 2006 15:04:05 MST"}},
	{"date(1) time", regexp.MustCompile(`(?:(?:` + dayNames + `)\s+)?(?:` + monthNames + `)\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}(?:\s+[A-Z]{2,5}(?:[+-]\d{1,2})?)?\s+\d{4}`),
		[]string{"Mon Jan _2 15:04:05 MST 2006", "Jan _2 15:04:05 MST 2006", "Mon Jan _2 15:04:05 2006", "Jan _2 15:04:05 2006"}},
	// date +%Y%m%d%H%M%S and its kin, alone or in a version
	// (1.0.dev20261201224741, 2.4.1-20261201.224737), read as UTC: digits
	// only, so close to a build like an epoch time.
	{compactTime, regexp.MustCompile(`\d{8}[T._-]?\d{4}(?:\d{2})?`), []string{"20060102150405", "200601021504"}},
	{"ls -l time", regexp.MustCompile(`(?:` + monthNames + `)\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})\b`), nil},
	{"ISO 8601 week date", regexp.MustCompile(`\b\d{4}-?W(?:0[1-9]|[1-4]\d|5[0-3])(?:-?[1-7])?\b`), nil}, // date +%G-W%V-%u
	{"ISO 8601 date", regexp.MustCompile(`\d{4}-\d{2}-\d{2}`), nil},
	{"date", regexp.MustCompile(`(?:` + monthNames + `)\s+\d{1,2}\s+\d{4}`), nil}, // __DATE__
	{"time of day", regexp.MustCompile(`\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?`), nil},
	{"day or month name", regexp.MustCompile(`\b(?:` + dayNames + `|` + monthNames + `)[a-z]*\b`), nil},
	{"number", regexp.MustCompile(`\d+(?:\.\d+)?`), nil}, // epoch times; see epoch
}

// A timeToken is a time found in text.
type timeToken struct {
	kind string
	t    time.Time // zero when the form is not a whole time
	// bare: the form is digits alone, which other numbers share, so the
	// time counts only close to a build.
	bare bool
}

// timeAt finds the first form of a time that overlaps s[p:e].
func timeAt(s []byte, p, e int) (timeToken, bool) {
	if e <= p {
		p, e = max(0, p-1), p+1
	}
	for _, f := range timeForms {
		for _, m := range f.re.FindAllIndex(s, -1) {
			if m[0] >= e || m[1] <= p {
				continue
			}
			text := string(s[m[0]:m[1]])
			if f.kind == "number" {
				if m[0] > 0 && isWordByte(s[m[0]-1]) || m[1] < len(s) && isWordByte(s[m[1]]) {
					continue // part of a word: a hash, a name
				}
				if t, kind, ok := epoch(text); ok {
					return timeToken{kind: kind, t: t, bare: true}, true
				}
				continue
			}
			if f.kind == compactTime {
				if m[0] > 0 && isDigit(s[m[0]-1]) || m[1] < len(s) && isDigit(s[m[1]]) {
					continue // part of a longer number
				}
				digits := strings.Map(func(r rune) rune {
					if r >= '0' && r <= '9' {
						return r
					}
					return -1
				}, text)
				for _, layout := range f.layouts {
					if t, err := time.Parse(layout, digits); err == nil {
						return timeToken{kind: f.kind, t: t, bare: true}, true
					}
				}
				continue
			}
			tok := timeToken{kind: f.kind}
			for _, layout := range f.layouts {
				if t, err := time.Parse(layout, collapseSpaces(text)); err == nil && zoneKnown(t, text) {
					tok.t = t
					break
				}
			}
			return tok, true
		}
	}
	return timeToken{}, false
}

// collapseSpaces turns runs of spaces into one, except a space padding a
// day of the month, which the layouts' _2 reads.
func collapseSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// zoneKnown says whether t's zone was read from text as an offset or as
// UTC: time.Parse makes up a zone with offset 0 for other names.
func zoneKnown(t time.Time, text string) bool {
	name, off := t.Zone()
	return off != 0 || name == "UTC" || name == "GMT" || name == "" || strings.HasSuffix(text, "Z") ||
		strings.Contains(text, "+00") || strings.Contains(text, "-00")
}

// epoch reads a number as a time since the Unix epoch, its unit told by
// its digits: 10 (seconds, perhaps with a fraction), 13 (milliseconds),
// 16 (microseconds), 19 (nanoseconds). Whether it is a time is decided
// later, from how close it is to the builds.
func epoch(text string) (time.Time, string, bool) {
	whole, frac, hasFrac := strings.Cut(text, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return time.Time{}, "", false
	}
	switch {
	case len(whole) == 10:
		t := time.Unix(n, 0)
		if hasFrac {
			if f, err := strconv.ParseFloat("0."+frac, 64); err == nil {
				t = t.Add(time.Duration(f * 1e9))
			}
		}
		return t.UTC(), "epoch seconds", true
	case hasFrac:
	case len(whole) == 13:
		return time.UnixMilli(n).UTC(), "epoch milliseconds", true
	case len(whole) == 16:
		return time.UnixMicro(n).UTC(), "epoch microseconds", true
	case len(whole) == 19:
		return time.Unix(0, n).UTC(), "epoch nanoseconds", true
	}
	return time.Time{}, "", false
}

// maxSkew is how far from a build's start or end a time may be and still
// be the build's: a checkout's files are a little older than the build.
const maxSkew = 24 * time.Hour

// maxApart is how far apart two times of unknown builds may be and still
// be taken for the builds' times: random numbers are not a month apart.
const maxApart = 30 * 24 * time.Hour

// time says whether the difference is a time on each side (or, on one
// side, a time close to that build).
func (c *classifier) time(a, b []byte, x part) (string, bool) {
	ta, okA := timeAt(a, x.pa, x.ea)
	tb, okB := timeAt(b, x.pb, x.eb)
	return c.judgeTimes(ta, tb, okA, okB)
}

func (c *classifier) judgeTimes(ta, tb timeToken, okA, okB bool) (string, bool) {
	if !okA && !okB {
		return "", false
	}
	closeA, closeB := okA && c.close(0, ta.t), okB && c.close(1, tb.t)
	switch {
	case okA && okB && !ta.bare && !tb.bare:
		// Two times in a form of their own: no need to be close.
	case closeA || closeB:
	case okA && okB && plausible(ta.t) && plausible(tb.t) && absDuration(ta.t.Sub(tb.t)) <= maxApart &&
		(c.builds[0].Start.IsZero() || c.builds[1].Start.IsZero()):
	default:
		return "", false
	}
	kind := ta.kind
	if !okA || ta.kind != tb.kind && okB {
		kind = tb.kind
		if okA {
			kind = ta.kind + " and " + tb.kind
		}
	}
	var rel []string
	if okA && !ta.t.IsZero() {
		rel = append(rel, c.relative(0, ta.t))
	}
	if okB && !tb.t.IsZero() {
		rel = append(rel, c.relative(1, tb.t))
	}
	return joinNonEmpty(kind, strings.Join(nonEmpty(rel), " and ")), true
}

func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + ", " + b
}

func nonEmpty(ss []string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// plausible says whether t could be a build's time at all.
func plausible(t time.Time) bool {
	return t.Year() >= 1990 && t.Year() < 2100
}

// close says whether t is close to build i.
func (c *classifier) close(i int, t time.Time) bool {
	b := &c.builds[i]
	if t.IsZero() || b.Start.IsZero() {
		return false
	}
	end := b.End
	if end.IsZero() {
		end = b.Start
	}
	return !t.Before(b.Start.Add(-maxSkew)) && !t.After(end.Add(maxSkew))
}

// relative says where t falls against build i: "2 s into build 1", "5 s
// before build 2 started"; "" when the build's times are not known.
func (c *classifier) relative(i int, t time.Time) string {
	b := &c.builds[i]
	stamp := t.UTC().Format(time.RFC3339)
	if b.Start.IsZero() {
		return stamp
	}
	n := i + 1
	end := b.End
	if end.IsZero() {
		end = b.Start
	}
	switch {
	case t.Before(b.Start):
		return fmt.Sprintf("%s, %s before build %d started", stamp, roundDuration(b.Start.Sub(t)), n)
	case t.After(end):
		return fmt.Sprintf("%s, %s after build %d ended", stamp, roundDuration(t.Sub(end)), n)
	}
	return fmt.Sprintf("%s, %s into build %d", stamp, roundDuration(t.Sub(b.Start)), n)
}

func roundDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return "under a second"
	case d < 2*time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < 2*time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

// binaryTime looks for a binary time stamp that covers byte p of a and b,
// 32 or 64 bits, little- or big-endian, in seconds (or, in 64 bits, in
// milli-, micro- or nanoseconds), close to the builds: a .pyc's source
// time, a PE or gzip header.
func (c *classifier) binaryTime(a, b []byte, p int) (string, bool) {
	for _, width := range []int{4, 8} {
		for start := max(0, p-width+1); start <= p; start++ {
			if start+width > len(a) || start+width > len(b) {
				continue
			}
			for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
				for _, unit := range units(width) {
					ta, tb := unit.at(order, a[start:start+width]), unit.at(order, b[start:start+width])
					if !c.close(0, ta) && !c.close(1, tb) {
						continue
					}
					if !plausible(ta) || !plausible(tb) {
						continue
					}
					endian := "little"
					if order == binary.BigEndian {
						endian = "big"
					}
					return fmt.Sprintf("%s-endian %d-bit %s at byte %d, %s and %s", endian, 8*width, unit.name, start,
						c.relative(0, ta), c.relative(1, tb)), true
				}
			}
		}
	}
	return "", false
}

type timeUnit struct {
	name string
	at   func(binary.ByteOrder, []byte) time.Time
}

func units(width int) []timeUnit {
	if width == 4 {
		return []timeUnit{{"epoch seconds", func(o binary.ByteOrder, b []byte) time.Time { return time.Unix(int64(o.Uint32(b)), 0).UTC() }}}
	}
	u64 := func(o binary.ByteOrder, b []byte) int64 { return int64(o.Uint64(b) & (1<<63 - 1)) }
	return []timeUnit{
		{"epoch seconds", func(o binary.ByteOrder, b []byte) time.Time { return time.Unix(min(u64(o, b), 1<<40), 0).UTC() }},
		{"epoch milliseconds", func(o binary.ByteOrder, b []byte) time.Time { return time.UnixMilli(min(u64(o, b), 1<<50)).UTC() }},
		{"epoch microseconds", func(o binary.ByteOrder, b []byte) time.Time { return time.UnixMicro(min(u64(o, b), 1<<60)).UTC() }},
		{"epoch nanoseconds", func(o binary.ByteOrder, b []byte) time.Time { return time.Unix(0, u64(o, b)).UTC() }},
	}
}

// fieldTime is the why of an archive member's time field: how close it
// is to the builds.
func (c *classifier) fieldTime(old, new time.Time) string {
	var rel []string
	if !old.IsZero() {
		rel = append(rel, c.relative(0, old))
	}
	if !new.IsZero() {
		rel = append(rel, c.relative(1, new))
	}
	return strings.Join(rel, " and ")
}
