package report

// Palette paints the roles of §1.6. With Color unset every method returns
// its text unchanged, so a coloured report with its escape sequences
// removed is the plain report.
type Palette struct{ Color bool }

func (p Palette) paint(code, s string) string {
	if !p.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// The colour codes of the roles (§1.6).
const (
	headingColor = "1"
	cautionColor = "33"
	actionColor  = "35"
	findingColor = "36"
	faintColor   = "2"
)

// open and close paint what is appended between them, for printers that
// build a line piece by piece.
func (p Palette) open(b []byte, code string) []byte {
	if p.Color {
		b = append(b, "\x1b["...)
		b = append(b, code...)
		b = append(b, 'm')
	}
	return b
}

func (p Palette) close(b []byte) []byte {
	if p.Color {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// Heading is the "found …:" line.
func (p Palette) Heading(s string) string { return p.paint(headingColor, s) }

// Caution is the ×N multiplicity.
func (p Palette) Caution(s string) string { return p.paint(cautionColor, s) }

// Finding is each quoted path, program, requirement or PATH value, and
// the USER/HOSTNAME word.
func (p Palette) Finding(s string) string { return p.paint(findingColor, s) }

// Faint is for list numbers, the suppression note and the sign-off.
func (p Palette) Faint(s string) string { return p.paint(faintColor, s) }

// diffLine colours a whole diff line by its marker: removed red, added
// green, hunk headers cyan; context and "\ No newline" stay plain.
func (p Palette) diffLine(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '-':
		return p.paint("31", s)
	case '+':
		return p.paint("32", s)
	case '@':
		return p.paint("36", s)
	}
	return s
}
