package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// The JSON report is a contract down to its bytes (§8.1): the original's
// serde_json pretty printer, field order per kind, and serde's escaping.
// It is written field by field through a small pretty printer rather than
// through encoding/json, whose struct tags can say neither the field order
// per kind nor the escaping, and so that a report of a million findings
// costs no allocation per field (BenchmarkWriteJSON: about one per
// finding, for decoding it from its key).

// WriteJSON writes the report of §8.1 for findings, which must be in
// finding.Compare order (Set.Ordered gives it), followed by a newline.
// The report is rendered a few thousand findings at a time, so a report
// of a million findings is never one string.
//
// A report of Ahab 0.2's judgement (mode.Ahab02) is the original's, byte
// for byte: it has no evidence. One of Ahab's own judgement says so in a
// "mode" member first, so that a baseline is never compared with a run
// that judges otherwise.
func WriteJSON(w io.Writer, findings Findings, m mode.Mode) error {
	b := []byte("{\n")
	if m != mode.Ahab02 {
		b = append(b, `  "mode": `...)
		b = appendJSONString(b, m.String())
		b = append(b, ",\n"...)
	}
	n := findings.Len()
	if n == 0 {
		b = append(b, "  \"violations\": []\n}\n"...)
		_, err := w.Write(b)
		return err
	}
	b = append(b, "  \"violations\": ["...)
	for lo := 0; lo < n; lo += chunkLen {
		b = appendEntries(b, findings, lo, min(lo+chunkLen, n), m)
		if lo+chunkLen >= n {
			b = append(b, "\n  ]\n}\n"...)
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	return nil
}

// chunkLen is how many findings are rendered between writes.
const chunkLen = 1024

// FindingJSON is one finding as the JSON report writes it, on one line:
// the element of "causes" in the reports that put static findings beside
// something else (ahab diff, ahab trace), in the format users already read.
func FindingJSON(f *finding.Finding) json.RawMessage {
	return findingJSON(f, true)
}

// CausesJSON is FindingJSON of each finding, never nil: the "causes" of
// the reports that put static findings beside something else.
func CausesJSON(fs []finding.Finding) []json.RawMessage {
	out := make([]json.RawMessage, len(fs))
	for i := range fs {
		out[i] = FindingJSON(&fs[i])
	}
	return out
}

// FingerprintJSON is FindingJSON without the evidence: what identifies
// a finding from run to run, whatever the analysis learns of where it
// comes from.
func FingerprintJSON(f *finding.Finding) json.RawMessage {
	return findingJSON(f, false)
}

func findingJSON(f *finding.Finding, evidence bool) json.RawMessage {
	p := printer{}
	p.finding(f, evidence)
	var b bytes.Buffer
	// The printer's layout is only whitespace; compacting cannot fail.
	if err := json.Compact(&b, p.b); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// appendEntries appends the report's entries [lo, hi), each preceded by
// the comma and newline that separate it from the one before.
func appendEntries(b []byte, findings Findings, lo, hi int, m mode.Mode) []byte {
	p := printer{b: b}
	for i := lo; i < hi; i++ {
		if i > 0 {
			p.b = append(p.b, ',')
		}
		p.depth = 2
		p.newline()
		c := findings.At(i)
		p.open('{')
		p.key("count")
		p.b = strconv.AppendInt(p.b, int64(c.Count), 10)
		p.key("violation")
		p.finding(&c.Finding, m != mode.Ahab02)
		p.close('}')
	}
	return p.b
}

// printer appends serde_json's pretty layout as it goes: two-space indent,
// one member or element per line, and empty containers written as {} and
// [].
type printer struct {
	b     []byte
	depth int
	empty bool // the innermost open container has nothing in it yet
}

func (p *printer) open(c byte) {
	p.b = append(p.b, c)
	p.depth++
	p.empty = true
}

func (p *printer) close(c byte) {
	p.depth--
	if !p.empty {
		p.newline()
	}
	p.b = append(p.b, c)
	p.empty = false // the container itself is its parent's content
}

// item starts the next member or element of the open container.
func (p *printer) item() {
	if !p.empty {
		p.b = append(p.b, ',')
	}
	p.empty = false
	p.newline()
}

// key starts a member; keys are plain ASCII, so they need no escaping.
func (p *printer) key(k string) {
	p.item()
	p.b = append(p.b, '"')
	p.b = append(p.b, k...)
	p.b = append(p.b, `": `...)
}

func (p *printer) str(k, v string) {
	p.key(k)
	p.b = appendJSONString(p.b, v)
}

func (p *printer) raw(s string) { p.b = append(p.b, s...) }

const indent = "\n                                "

func (p *printer) newline() {
	if n := 1 + 2*p.depth; n <= len(indent) {
		p.b = append(p.b, indent[:n]...)
		return
	}
	p.b = append(p.b, '\n')
	for range p.depth {
		p.b = append(p.b, "  "...)
	}
}

// finding lays a finding out with "kind" first, then its action and its
// kind's members in the order of the table in §8.1 (Kind.Members), then,
// with evidence set, its evidence (which Ahab 0.2's reports never have).
func (p *printer) finding(f *finding.Finding, evidence bool) {
	p.open('{')
	p.str("kind", f.Kind.String())
	p.key("action")
	p.open('{')
	p.str("mnemonic", f.Action.Mnemonic)
	p.str("target", f.Action.Target)
	p.close('}')
	for _, m := range f.Kind.Members() {
		p.member(m, f)
	}
	if evidence && len(f.Evidence) > 0 {
		p.key("evidence")
		p.open('[')
		for _, e := range f.Evidence {
			p.item()
			p.open('{')
			p.str("file", e.File)
			if e.Line != 0 {
				p.key("line")
				p.b = strconv.AppendInt(p.b, int64(e.Line), 10)
			}
			p.str("text", e.Text)
			p.close('}')
		}
		p.close(']')
	}
	p.close('}')
}

// member writes one member of f.
func (p *printer) member(m finding.Member, f *finding.Finding) {
	switch m {
	case finding.MemberSource:
		p.str("source", f.Source.String())
	case finding.MemberSentinel:
		p.str("sentinel", f.Sentinel)
	case finding.MemberSite:
		p.site(f.Site)
	case finding.MemberActual:
		p.str("actual", f.Actual)
	case finding.MemberRequirement:
		p.str("requirement", f.Requirement)
	case finding.MemberPath:
		p.str("path", f.Path)
	case finding.MemberProgram:
		p.key("program")
		p.program(f.Program)
	case finding.MemberWrappers:
		p.key("wrappers")
		p.open('[')
		for _, w := range f.Wrappers {
			p.item()
			p.program(w)
		}
		p.close(']')
	case finding.MemberSynonym:
		p.key("synonym")
		if f.Synonym != nil {
			p.program(*f.Synonym)
		} else {
			p.raw("null")
		}
	case finding.MemberUnmet:
		p.key("unmet")
		p.open('[')
		for _, u := range f.Unmet {
			p.item()
			p.unmet(u)
		}
		p.close(']')
	case finding.MemberVariation:
		p.str("variation", f.Variation)
	case finding.MemberCommand:
		p.str("command", f.Command)
	case finding.MemberScriptCommand:
		if f.Command != "" {
			p.str("command", f.Command)
		}
	}
}

// site puts the location tag first, then the location's own fields.
func (p *printer) site(s finding.Site) {
	p.key("site")
	p.open('{')
	p.str("location", s.Location.String())
	switch s.Location {
	case finding.ParamFile:
		p.str("exec_path", s.ExecPath)
	case finding.EnvVar:
		p.str("key", s.Key)
	}
	p.str("value", s.Value)
	p.close('}')
}

func (p *printer) program(id program.ID) {
	p.open('{')
	p.key("origin")
	switch id.Origin.Kind {
	case program.System:
		p.raw(`"system"`)
	case program.Main:
		p.open('{')
		p.key("main")
		p.open('{')
		p.extension(id.Origin)
		p.close('}')
		p.close('}')
	default:
		p.open('{')
		p.key("module")
		p.open('{')
		p.str("name", id.Origin.Module)
		p.extension(id.Origin)
		p.close('}')
		p.close('}')
	}
	p.str("path", id.Path)
	p.close('}')
}

func (p *printer) extension(o program.Origin) {
	p.key("extension")
	if o.HasExtension {
		p.b = appendJSONString(p.b, o.Extension)
	} else {
		p.raw("null")
	}
}

// unmet omits empty lists, as the original's serializer skips them.
func (p *printer) unmet(u finding.Unmet) {
	p.open('{')
	p.str("because", u.Because)
	for _, l := range []struct {
		key  string
		strs []string
	}{{"any_of", u.AnyOf}, {"present", u.Present}} {
		if len(l.strs) == 0 {
			continue
		}
		p.key(l.key)
		p.open('[')
		for _, s := range l.strs {
			p.item()
			p.b = appendJSONString(p.b, s)
		}
		p.close(']')
	}
	p.close('}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString escapes as serde_json does (§8.1): the quote, the
// backslash, the five short escapes and the other C0 controls as \u00xx in
// lower-case hex; everything else, DEL and U+2028/2029 included, is
// written as is. Go strings may hold invalid UTF-8, which the original's
// strings could not; each invalid byte is written as U+FFFD so the output
// stays JSON.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	// Runs of bytes that need no escaping are appended whole.
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = utf8.AppendRune(b, utf8.RuneError)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
