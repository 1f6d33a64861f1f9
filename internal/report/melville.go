package report

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

// The sign-off (§1.8): a line of Ahab's from Moby-Dick, aimed at whatever
// the report complains about most.

type captainsLine struct {
	text     string
	fragment string // the grievance the subject replaces; "" for none
}

// lines is the original's table, in its order: the index is contract
// because the selection hash picks by position.
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
func SignOff(findings []finding.Counted, p Palette) string {
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
func SignOffLine(findings []finding.Counted) string {
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
func subject(findings []finding.Counted) string {
	placeCounts := map[string]int{}
	for _, f := range findings {
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
	for _, f := range findings {
		if f.Kind.HasProgram() {
			name := f.Program.Path[strings.LastIndexByte(f.Program.Path, '/')+1:]
			programCounts[name] += f.Count
		}
	}
	if s, ok := mostCommon(programCounts); ok {
		return s
	}
	kindCounts := map[string]int{}
	for _, f := range findings {
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

// selectLine picks the line as the original did, so that our reports end
// with the same quote as upstream's: SipHash-1-3 with zero keys over Rust's
// Hash encoding of the report's map, modulo the table size (§1.8).
func selectLine(findings []finding.Counted) int {
	var e rustHash
	e.usize(len(findings))
	for i := range findings {
		e.finding(&findings[i].Finding)
		e.usize(findings[i].Count)
	}
	return int(sipHash13(e.buf) % uint64(len(lines)))
}

// rustHash accumulates the bytes Rust's derived Hash feeds a Hasher. The
// SipHasher treats them as one stream, so concatenating them is exact.
type rustHash struct{ buf []byte }

func (e *rustHash) usize(n int) { e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(n)) }

// str is str::hash: the bytes, then 0xFF to keep it prefix-free.
func (e *rustHash) str(s string) { e.buf = append(append(e.buf, s...), 0xff) }

func (e *rustHash) option(present bool) {
	if present {
		e.usize(1)
	} else {
		e.usize(0)
	}
}

// rustVariant is the variant index of the original's Violation enum,
// which differs from the report rank for workspace_status.
var rustVariant = map[finding.Kind]int{
	finding.EnvironmentLeak:            0,
	finding.BadPath:                    1,
	finding.ExecutionRequirement:       2,
	finding.AbsolutePath:               3,
	finding.SystemProgram:              4,
	finding.HostDerivedProgram:         5,
	finding.UnknownProgram:             6,
	finding.NeverReproducible:          7,
	finding.WorkspaceStatus:            8,
	finding.ConditionalReproducibility: 9,
}

func (e *rustHash) finding(f *finding.Finding) {
	e.usize(rustVariant[f.Kind])
	e.str(f.Action.Mnemonic)
	e.str(f.Action.Target)
	switch f.Kind {
	case finding.EnvironmentLeak:
		e.usize(int(f.Source))
		e.str(f.Sentinel)
		e.site(f.Site)
	case finding.BadPath:
		e.str(f.Actual)
	case finding.ExecutionRequirement:
		e.str(f.Requirement)
	case finding.AbsolutePath:
		e.str(f.Path)
		e.site(f.Site)
	case finding.WorkspaceStatus:
		e.str(f.Path)
	default:
		e.program(f.Program)
		e.usize(len(f.Wrappers))
		for _, w := range f.Wrappers {
			e.program(w)
		}
		if f.Kind == finding.NeverReproducible || f.Kind == finding.ConditionalReproducibility {
			e.option(f.Synonym != nil)
			if f.Synonym != nil {
				e.program(*f.Synonym)
			}
		}
		if f.Kind == finding.ConditionalReproducibility {
			e.usize(len(f.Unmet))
			for _, u := range f.Unmet {
				e.str(u.Because)
				e.strs(u.AnyOf)
				e.strs(u.Present)
			}
		}
	}
}

func (e *rustHash) strs(ss []string) {
	e.usize(len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *rustHash) site(s finding.Site) {
	e.usize(int(s.Location))
	switch s.Location {
	case finding.ParamFile:
		e.str(s.ExecPath)
	case finding.EnvVar:
		e.str(s.Key)
	}
	e.str(s.Value)
}

// program hashes origin (main 0 {extension}, module 1 {name, extension},
// system 2) and then the path.
func (e *rustHash) program(id program.ID) {
	e.usize(int(id.Origin.Kind))
	switch id.Origin.Kind {
	case program.Main:
		e.extension(id.Origin)
	case program.Module:
		e.str(id.Origin.Module)
		e.extension(id.Origin)
	}
	e.str(id.Path)
}

func (e *rustHash) extension(o program.Origin) {
	e.option(o.HasExtension)
	if o.HasExtension {
		e.str(o.Extension)
	}
}

// sipHash13 is SipHash with one compression and three finalisation rounds
// and both keys zero: Rust's DefaultHasher as std::collections builds it
// with DefaultHasher::new().
func sipHash13(msg []byte) uint64 { return sipHash(0, 0, 1, 3, msg) }

// sipHash is SipHash-c-d keyed with k0, k1 (c compression and d
// finalisation rounds); the test checks it against the published
// SipHash-2-4 vectors.
func sipHash(k0, k1 uint64, c, d int, msg []byte) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(msg)
	for len(msg) >= 8 {
		m := binary.LittleEndian.Uint64(msg)
		v3 ^= m
		for range c {
			round()
		}
		v0 ^= m
		msg = msg[8:]
	}
	b := uint64(n) << 56
	for i, x := range msg {
		b |= uint64(x) << (8 * i)
	}
	v3 ^= b
	for range c {
		round()
	}
	v0 ^= b
	v2 ^= 0xff
	for range d {
		round()
	}
	return v0 ^ v1 ^ v2 ^ v3
}
