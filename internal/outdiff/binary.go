package outdiff

import (
	"fmt"
	"strings"
)

// diffBinary says where two byte strings first differ, and what is there:
// the printable string around that byte if there is one, a binary time
// stamp, random bytes. where prefixes the place ("section .rodata").
func (d *Diagnoser) diffBinary(c *collector, where string, a, b []byte) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	if p == len(a) && p == len(b) {
		return
	}
	at := fmt.Sprintf("byte %d", p)
	if where != "" {
		at = where + ", " + at
	}
	diff := Difference{At: at, What: "contents", Old: hexAt(a, p), New: hexAt(b, p), Class: Unclassified}
	if len(a) != len(b) {
		diff.Why = fmt.Sprintf("%d bytes, then %d", len(a), len(b))
	} else {
		n := 0
		for i := p; i < len(a); i++ {
			if a[i] != b[i] {
				n++
			}
		}
		diff.Why = fmt.Sprintf("%d of %d bytes differ", n, len(a))
	}
	if class, why, old, new, ok := d.printableAt(a, b, p); ok {
		diff.Class, diff.Why, diff.Old, diff.New = class, why, old, new
	} else if why, ok := d.classify.binaryTime(a, b, p); ok {
		diff.Class, diff.Why = Time, why
	} else if n, ok := randomBytes(a, b, p); ok {
		diff.Class, diff.Why = Random, fmt.Sprintf("%d bytes that differ throughout, of equal length", n)
	}
	c.add(diff)
}

// minString is the shortest printable run taken for a string.
const minString = 4

// printableAt classifies the difference at byte p by the printable
// strings around it, when there are some and they name a class.
func (d *Diagnoser) printableAt(a, b []byte, p int) (Class, string, string, string, bool) {
	sa, xa := printableRun(a, p)
	sb, xb := printableRun(b, p)
	if xa-sa < minString && xb-sb < minString {
		return None, "", "", "", false
	}
	// The runs share their bytes before p; align them there.
	start := max(sa, sb)
	ra, rb := a[start:xa], b[start:xb]
	x := whole(ra, rb)
	class, why := d.classify.span(ra, rb, x)
	if class == Unclassified {
		return None, "", "", "", false
	}
	return class, why, excerptLine(ra, x.pa), excerptLine(rb, x.pb), true
}

// printableRun is the run of printable ASCII around s[p] (or ending
// just before it).
func printableRun(s []byte, p int) (int, int) {
	printable := func(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\t' }
	start, end := p, p
	for start > 0 && printable(s[start-1]) {
		start--
	}
	for end < len(s) && printable(s[end]) {
		end++
	}
	return start, end
}

// randomBytes says whether a and b, of equal length, differ at p in a
// stretch of at least minRandom bytes most of which differ.
func randomBytes(a, b []byte, p int) (int, bool) {
	if len(a) != len(b) {
		return 0, false
	}
	q, same, differ := p, 0, 0
	for ; q < len(a) && same < 8; q++ {
		if a[q] == b[q] {
			same++
		} else {
			same = 0
			differ++
		}
	}
	n := q - same - p
	return n, n >= minRandom && 2*differ >= n
}

// hexAt is s around byte p in hexadecimal: up to 8 bytes before it, a
// bar, and up to 16 from it.
func hexAt(s []byte, p int) string {
	var sb strings.Builder
	start, end := max(0, p-8), min(len(s), p+16)
	if start > 0 {
		sb.WriteString("… ")
	}
	for i := start; i < end; i++ {
		if i == p {
			sb.WriteString("| ")
		}
		fmt.Fprintf(&sb, "%02x ", s[i])
	}
	if p >= len(s) {
		sb.WriteString("| (end)")
	} else if end < len(s) {
		sb.WriteString("…")
	}
	return strings.TrimSuffix(sb.String(), " ")
}
