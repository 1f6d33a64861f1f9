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
	actionColor  = "35"
	findingColor = "36"
)

// open and close paint what is written between them, for printers that
// write a line piece by piece.
func (p Palette) open(b writer, code string) {
	if p.Color {
		b.WriteString("\x1b[" + code + "m")
	}
}

func (p Palette) close(b writer) {
	if p.Color {
		b.WriteString("\x1b[0m")
	}
}

// Heading is the "found …:" line.
func (p Palette) Heading(s string) string { return p.paint("1", s) }

// Caution is the ×N multiplicity.
func (p Palette) Caution(s string) string { return p.paint("33", s) }

// Finding is each quoted path, program, requirement or PATH value, and
// the USER/HOSTNAME word.
func (p Palette) Finding(s string) string { return p.paint(findingColor, s) }

// Faint is for list numbers, the suppression note and the sign-off.
func (p Palette) Faint(s string) string { return p.paint("2", s) }

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
