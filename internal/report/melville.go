package report

import (
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
)

// The sign-off (§1.8): a line of Ahab's from Moby-Dick, aimed at whatever
// the report complains about most.

type captainsLine struct {
	text     string
	fragment string // the grievance the subject replaces; "" for none
}

// lines is the original's table, in its order.
var lines = [16]captainsLine{
	{"Hard down out of that! Mind what I said about the marchant service—don't aggravate me—I won't have it.", "the marchant service"},
	{"Merchant service be damned. Talk not that lingo to me.", "Merchant service"},
	{"I'll take that leg away from thy stern, if ever thou talkest of the marchant service to me again.", "the marchant service"},
	{"Fiery pit! fiery pit! ye insult me, man; past all natural bearing, ye insult me.", ""},
	{"It's an all-fired outrage to tell any human creature that he's bound to hell.", ""},
	{"Out of the cabin, ye canting, drab-coloured son of a wooden gun—a straight wake with ye!", ""},
	{"Below to thy nightly grave; where such as ye sleep between shrouds, to use ye to the filling one at last.", ""},
	{"But what's this long face about, Mr. Starbuck; wilt thou not chase the white whale?", "the white whale"},
	{"Take off thine eye! more intolerable than fiends' glarings is a doltish stare!", ""},
	{"So, so; thou reddenest and palest; my heat has melted thee to anger-glow.", ""},
	{"Hark ye yet again—the little lower layer. All visible objects, man, are but as pasteboard masks.", ""},
	{"Ha! boy, come back? bad pennies come not sooner.", ""},
	{"Stab me not with that keen steel! Cant them; cant them over! know ye not the goblet end?", ""},
	{"Swerve me? ye cannot swerve me, else ye swerve yourselves! man has ye there.", ""},
	{"Swerve me? The path to my fixed purpose is laid with iron rails, whereon my soul is grooved to run.", "my fixed purpose"},
	{"Why don't ye spring, I say, all of ye—spring!", ""},
}

// signOffWidth is the report width (76) less the two-space indent.
const signOffWidth = 74

// SignOff is the quote as the report ends with it: a blank line, then
// each wrapped line indented by two spaces and painted faint.
func SignOff(findings Findings, p Palette) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range wrap(SignOffLine(findings), signOffWidth) {
		b.WriteString("\n  ")
		b.WriteString(p.Faint(l))
	}
	return b.String()
}

// SignOffLine is the line chosen for findings, with its grievance replaced by
// the subject.
func SignOffLine(findings Findings) string {
	return render(lines[selectLine(findings)], subject(findings))
}

func render(l captainsLine, subject string) string {
	if l.fragment == "" {
		return l.text
	}
	at := strings.Index(l.text, l.fragment)
	if at < 0 {
		return l.text
	}
	// A phrase that opens the sentence takes a capital; a bare file name
	// such as cc_wrapper.sh keeps its case.
	if at == 0 && strings.Contains(subject, " ") {
		r, size := utf8.DecodeRuneInString(subject)
		subject = string(unicode.ToUpper(r)) + subject[size:]
	}
	return l.text[:at] + subject + l.text[at+len(l.fragment):]
}

// places are checked in order; the first prefix that matches names the
// place.
var places = []struct{ prefix, name string }{
	{"/nix/store", "the nix store"},
	{"/home/", "somebody's home directory"},
	{"/Users/", "somebody's home directory"},
	{"/tmp/", "the temp directory"},
	{"/opt/", "the opt directory"},
	{"/var/", "the var directory"},
	{"/usr/", "the host"},
}

var kindComplaints = map[finding.Kind]string{
	finding.EnvironmentLeak:      "the name of whoever built it",
	finding.BadPath:              "that wayward PATH",
	finding.ExecutionRequirement: "thy sandbox-shunning ways",
	finding.AbsolutePath:         "these absolute paths",
}

// subject is what the captain is cross about: the place most findings
// point into, else the program most of them run, else their commonest
// kind.
func subject(findings Findings) string {
	placeCounts := map[string]int{}
	for f := range all(findings) {
		var paths []string
		if f.Kind == finding.AbsolutePath || f.Kind == finding.WorkspaceStatus {
			paths = append(paths, f.Path)
		}
		if f.Kind.HasProgram() {
			paths = append(paths, f.Program.Path)
		}
		for _, path := range paths {
			for _, pl := range places {
				if strings.HasPrefix(path, pl.prefix) {
					placeCounts[pl.name] += f.Count
					break
				}
			}
		}
	}
	if s, ok := mostCommon(placeCounts); ok {
		return s
	}
	programCounts := map[string]int{}
	for f := range all(findings) {
		if f.Kind.HasProgram() {
			name := f.Program.Path[strings.LastIndexByte(f.Program.Path, '/')+1:]
			programCounts[name] += f.Count
		}
	}
	if s, ok := mostCommon(programCounts); ok {
		return s
	}
	kindCounts := map[string]int{}
	for f := range all(findings) {
		kindCounts[f.Kind.String()] += f.Count
	}
	if tag, ok := mostCommon(kindCounts); ok {
		if k, found := finding.KindByTag(tag); found {
			if c, ok := kindComplaints[k]; ok {
				return c
			}
		}
	}
	return "this build"
}

// mostCommon picks the highest total, the smallest name on a tie.
func mostCommon(counts map[string]int) (string, bool) {
	best, bestN := "", -1
	for name, n := range counts {
		if n > bestN || n == bestN && name < best {
			best, bestN = name, n
		}
	}
	return best, bestN >= 0
}

// wrap fills words greedily into lines of at most width runes; a word
// longer than the width gets a line of its own and is never broken.
func wrap(text string, width int) []string {
	var out []string
	var line strings.Builder
	lineLen := 0
	for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
		n := utf8.RuneCountInString(w)
		if lineLen > 0 && lineLen+1+n <= width {
			line.WriteByte(' ')
			line.WriteString(w)
			lineLen += 1 + n
			continue
		}
		if lineLen > 0 {
			out = append(out, line.String())
			line.Reset()
		}
		line.WriteString(w)
		lineLen = n
	}
	if lineLen > 0 {
		out = append(out, line.String())
	}
	return out
}

// selectLine picks a line by a hash of the whole report, so the same
// findings always end with the same line and different ones usually
// with another. The original hashed with Rust's SipHash over Rust's own
// encoding of its map; the reference leaves the choice free, and any
// stable hash will do.
func selectLine(findings Findings) int {
	h := fnv.New64a()
	var b []byte
	for i := range findings.Len() {
		c := findings.At(i)
		b = appendSentence(b[:0], &c.Finding, Palette{})
		b = strconv.AppendInt(append(b, 0), int64(c.Count), 10)
		h.Write(append(b, 0))
	}
	return int(h.Sum64() % uint64(len(lines)))
}
