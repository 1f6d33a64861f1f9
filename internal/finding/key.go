package finding

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/program"
)

// A key is a finding encoded so that comparing two keys byte by byte
// orders them exactly as Compare orders the findings (§8.2), and decodes
// back to the finding. A Set keeps findings as keys: they are a fraction of
// the size of a Finding, sort with plain string comparison, and decode one
// at a time as a report is written.
//
// Only the members a kind has are encoded, in its report order (see
// Member), then the finding's evidence:
//   - a string is its bytes with 0x00 written 0x00 0xff, then 0x00 0x01,
//     so that a prefix sorts before what it prefixes;
//   - a small number (kind, source, location, origin) is one byte;
//   - an optional value is 0x00 when null, else 0x01 and the value;
//   - a list is 0x01 before each element and 0x00 after the last, so a
//     shorter list sorts before a longer one it begins;
//   - a line number is eight big-endian bytes with the sign bit flipped,
//     so that it sorts as the number does;
//   - the target's id, which only findings whose target is not resolved
//     yet carry, comes last, as four big-endian bytes, so it never changes
//     the order of resolved findings (whose id is 0).

func appendKey(b []byte, f *Finding) []byte {
	b = append(b, byte(f.Kind))
	b = appendString(b, f.Action.Mnemonic)
	b = appendString(b, f.Action.Target)
	for _, m := range f.Kind.Members() {
		switch m {
		case MemberSource:
			b = append(b, byte(f.Source))
		case MemberSentinel:
			b = appendString(b, f.Sentinel)
		case MemberSite:
			b = appendSite(b, f.Site)
		case MemberActual:
			b = appendString(b, f.Actual)
		case MemberRequirement:
			b = appendString(b, f.Requirement)
		case MemberPath:
			b = appendString(b, f.Path)
		case MemberProgram:
			b = appendID(b, f.Program)
		case MemberWrappers:
			for _, w := range f.Wrappers {
				b = appendID(append(b, 1), w)
			}
			b = append(b, 0)
		case MemberSynonym:
			if f.Synonym == nil {
				b = append(b, 0)
			} else {
				b = appendID(append(b, 1), *f.Synonym)
			}
		case MemberUnmet:
			for _, u := range f.Unmet {
				b = appendString(append(b, 1), u.Because)
				b = appendStrings(b, u.AnyOf)
				b = appendStrings(b, u.Present)
			}
			b = append(b, 0)
		case MemberVariation:
			b = appendString(b, f.Variation)
		case MemberCommand, MemberScriptCommand:
			b = appendString(b, f.Command)
		}
	}
	// Evidence is a set: a finding with the same evidence in another
	// order is the same finding.
	evidence := f.Evidence
	for i := 1; i < len(evidence); i++ {
		if CompareEvidence(evidence[i-1], evidence[i]) >= 0 {
			evidence = slices.CompactFunc(slices.SortedFunc(slices.Values(evidence), CompareEvidence),
				func(a, b Evidence) bool { return a == b })
			break
		}
	}
	for _, e := range evidence {
		b = appendString(append(b, 1), e.File)
		b = binary.BigEndian.AppendUint64(b, uint64(e.Line)^(1<<63))
		b = appendString(b, e.Text)
	}
	b = append(b, 0)
	return binary.BigEndian.AppendUint32(b, f.Action.TargetID)
}

func appendString(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		b = append(b, s[:i]...)
		b = append(b, 0, 0xff)
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, 0, 1)
}

func appendStrings(b []byte, ss []string) []byte {
	for _, s := range ss {
		b = appendString(append(b, 1), s)
	}
	return append(b, 0)
}

func appendSite(b []byte, s Site) []byte {
	b = append(b, byte(s.Location))
	switch s.Location {
	case ParamFile:
		b = appendString(b, s.ExecPath)
	case EnvVar:
		b = appendString(b, s.Key)
	}
	return appendString(b, s.Value)
}

// appendID follows program.Compare: origin kind; a module's name; the
// extension (null first) for main and module origins; then the path.
func appendID(b []byte, p program.ID) []byte {
	b = append(b, byte(p.Origin.Kind))
	if p.Origin.Kind == program.Module {
		b = appendString(b, p.Origin.Module)
	}
	if p.Origin.Kind != program.System {
		if p.Origin.HasExtension {
			b = appendString(append(b, 1), p.Origin.Extension)
		} else {
			b = append(b, 0)
		}
	}
	return appendString(b, p.Path)
}

// decodeKey is the inverse of appendKey. Strings without a NUL share the
// key's memory.
func decodeKey(key string) Finding {
	d := keyDecoder{s: key}
	var f Finding
	f.Kind = Kind(d.byte())
	f.Action.Mnemonic = d.str()
	f.Action.Target = d.str()
	for _, m := range f.Kind.Members() {
		switch m {
		case MemberSource:
			f.Source = Source(d.byte())
		case MemberSentinel:
			f.Sentinel = d.str()
		case MemberSite:
			f.Site = d.site()
		case MemberActual:
			f.Actual = d.str()
		case MemberRequirement:
			f.Requirement = d.str()
		case MemberPath:
			f.Path = d.str()
		case MemberProgram:
			f.Program = d.id()
		case MemberWrappers:
			for d.byte() == 1 {
				f.Wrappers = append(f.Wrappers, d.id())
			}
		case MemberSynonym:
			if d.byte() == 1 {
				syn := d.id()
				f.Synonym = &syn
			}
		case MemberUnmet:
			for d.byte() == 1 {
				f.Unmet = append(f.Unmet, Unmet{Because: d.str(), AnyOf: d.strs(), Present: d.strs()})
			}
		case MemberVariation:
			f.Variation = d.str()
		case MemberCommand, MemberScriptCommand:
			f.Command = d.str()
		}
	}
	for d.byte() == 1 {
		e := Evidence{File: d.str()}
		e.Line = int(binary.BigEndian.Uint64([]byte(d.s[:8])) ^ (1 << 63))
		d.s = d.s[8:]
		e.Text = d.str()
		f.Evidence = append(f.Evidence, e)
	}
	f.Action.TargetID = binary.BigEndian.Uint32([]byte(d.s))
	return f
}

type keyDecoder struct{ s string }

func (d *keyDecoder) byte() byte {
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

func (d *keyDecoder) str() string {
	// Most strings hold no NUL to escape: they are substrings of the
	// key, not copies.
	i := strings.IndexByte(d.s, 0)
	if d.s[i+1] == 1 {
		s := d.s[:i]
		d.s = d.s[i+2:]
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(d.s, 0)
		b.WriteString(d.s[:i])
		end := d.s[i+1] == 1
		d.s = d.s[i+2:]
		if end {
			return b.String()
		}
		b.WriteByte(0)
	}
}

func (d *keyDecoder) strs() []string {
	var out []string
	for d.byte() == 1 {
		out = append(out, d.str())
	}
	return out
}

func (d *keyDecoder) site() Site {
	s := Site{Location: Location(d.byte())}
	switch s.Location {
	case ParamFile:
		s.ExecPath = d.str()
	case EnvVar:
		s.Key = d.str()
	}
	s.Value = d.str()
	return s
}

func (d *keyDecoder) id() program.ID {
	var p program.ID
	p.Origin.Kind = program.OriginKind(d.byte())
	if p.Origin.Kind == program.Module {
		p.Origin.Module = d.str()
	}
	if p.Origin.Kind != program.System && d.byte() == 1 {
		p.Origin.HasExtension = true
		p.Origin.Extension = d.str()
	}
	p.Path = d.str()
	return p
}
