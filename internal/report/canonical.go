package report

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

// readCanonical decodes a report laid out exactly as WriteJSON lays it out
// (the original's serde_json layout, so its reports too), an order of
// magnitude faster than the careful decoder, which goes through
// encoding/json: a baseline of a few hundred thousand findings is read on
// every --expect-json run. ok is false for anything else, and the caller
// then decodes the careful way. Nothing is taken on trust: the set found is
// written back with WriteJSON and must give the same bytes, so the two
// decoders cannot disagree on a report this one accepts.
func readCanonical(data []byte) (set *finding.Set, ok bool) {
	r := canonReader{b: data}
	set = finding.NewSet()
	r.byte('{')
	r.key("violations")
	r.byte('[')
	total := uint64(0)
	for !r.bad && r.peek() != ']' {
		if total > 0 {
			r.byte(',')
		}
		r.byte('{')
		r.key("count")
		n := r.count()
		r.byte(',')
		r.key("violation")
		f := r.finding()
		r.byte('}')
		if r.bad || n > maxOccurrences-total {
			return nil, false
		}
		total += n
		set.Add(f, int(n))
	}
	r.byte(']')
	r.byte('}')
	r.ws()
	if r.bad || r.i != len(data) {
		return nil, false
	}
	// What WriteJSON writes for the set must be the report itself.
	same := &sameWriter{want: data}
	if WriteJSONOf(same, set.Ordered()) != nil || !same.equal() {
		return nil, false
	}
	return set, true
}

// sameWriter checks that what is written to it is want, byte for byte.
type sameWriter struct {
	want []byte
	off  int
	diff bool
}

func (w *sameWriter) Write(p []byte) (int, error) {
	if !w.diff && bytes.HasPrefix(w.want[w.off:], p) {
		w.off += len(p)
	} else {
		w.diff = true
	}
	return len(p), nil
}

func (w *sameWriter) equal() bool { return !w.diff && w.off == len(w.want) }

// canonReader reads JSON tokens; bad records the first thing that is not
// what the canonical layout has, and every read after it is a no-op.
type canonReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *canonReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\n', '\t', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *canonReader) peek() byte {
	r.ws()
	if r.bad || r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

func (r *canonReader) byte(c byte) {
	if r.peek() != c {
		r.bad = true
		return
	}
	r.i++
}

// key reads "name":.
func (r *canonReader) key(name string) {
	if r.str() != name {
		r.bad = true
	}
	r.byte(':')
}

// field reads , "name": for every member but an object's first.
func (r *canonReader) field(name string) {
	r.byte(',')
	r.key(name)
}

// strField reads a member, not an object's first, whose value is a string.
func (r *canonReader) strField(name string) string {
	r.field(name)
	return r.str()
}

func (r *canonReader) count() uint64 {
	r.ws()
	start := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	n, err := strconv.ParseUint(string(r.b[start:r.i]), 10, 64)
	if err != nil || n == 0 {
		r.bad = true
	}
	return n
}

// str reads a string with the escapes WriteJSON writes; the rest
// (surrogates, \/) is left to the careful decoder.
func (r *canonReader) str() string {
	if r.peek() != '"' {
		r.bad = true
		return ""
	}
	r.i++
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c == '"' {
			s := r.b[start:r.i]
			r.i++
			if !utf8.Valid(s) {
				r.bad = true
			}
			return string(s)
		}
		if c == '\\' || c < 0x20 {
			break
		}
		r.i++
	}
	out := slices.Clone(r.b[start:r.i])
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			if !utf8.Valid(out) {
				r.bad = true
			}
			return string(out)
		case c < 0x20 || c == '\\' && r.i+1 >= len(r.b):
			r.bad = true
			return ""
		case c == '\\':
			e := r.b[r.i+1]
			r.i += 2
			switch e {
			case '"', '\\':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				// WriteJSON escapes only C0 controls this way.
				if r.i+4 > len(r.b) || string(r.b[r.i:r.i+2]) != "00" {
					r.bad = true
					return ""
				}
				v, err := strconv.ParseUint(string(r.b[r.i+2:r.i+4]), 16, 8)
				if err != nil || v >= 0x20 {
					r.bad = true
					return ""
				}
				out = append(out, byte(v))
				r.i += 4
			default:
				r.bad = true
				return ""
			}
		default:
			out = append(out, c)
			r.i++
		}
	}
	r.bad = true
	return ""
}

// finding reads a violation in the order printer.finding writes it.
func (r *canonReader) finding() finding.Finding {
	var f finding.Finding
	r.byte('{')
	r.key("kind")
	kind, ok := finding.KindByTag(r.str())
	if !ok {
		r.bad = true
		return f
	}
	f.Kind = kind
	r.field("action")
	r.byte('{')
	r.key("mnemonic")
	f.Action.Mnemonic = r.str()
	f.Action.Target = r.strField("target")
	r.byte('}')
	switch kind {
	case finding.EnvironmentLeak:
		r.field("source")
		var ok bool
		if f.Source, ok = sourceByName(r.str()); !ok {
			r.bad = true
		}
		f.Sentinel = r.strField("sentinel")
		f.Site = r.site()
	case finding.BadPath:
		f.Actual = r.strField("actual")
	case finding.ExecutionRequirement:
		f.Requirement = r.strField("requirement")
	case finding.AbsolutePath:
		f.Path = r.strField("path")
		f.Site = r.site()
	case finding.WorkspaceStatus:
		f.Path = r.strField("path")
	default:
		r.field("program")
		f.Program = r.program()
		r.field("wrappers")
		r.byte('[')
		for !r.bad && r.peek() != ']' {
			if len(f.Wrappers) > 0 {
				r.byte(',')
			}
			f.Wrappers = append(f.Wrappers, r.program())
		}
		r.byte(']')
		if kind == finding.NeverReproducible || kind == finding.ConditionalReproducibility {
			r.field("synonym")
			if r.peek() == 'n' {
				r.literal("null")
			} else {
				syn := r.program()
				f.Synonym = &syn
			}
		}
		if kind == finding.ConditionalReproducibility {
			r.field("unmet")
			f.Unmet = r.unmet()
		}
	}
	r.byte('}')
	return f
}

func (r *canonReader) literal(s string) {
	r.ws()
	if r.bad || !bytes.HasPrefix(r.b[r.i:], []byte(s)) {
		r.bad = true
		return
	}
	r.i += len(s)
}

func (r *canonReader) site() finding.Site {
	var s finding.Site
	r.field("site")
	r.byte('{')
	r.key("location")
	var ok bool
	if s.Location, ok = locationByName(r.str()); !ok {
		r.bad = true
	}
	switch s.Location {
	case finding.ParamFile:
		s.ExecPath = r.strField("exec_path")
	case finding.EnvVar:
		s.Key = r.strField("key")
	}
	s.Value = r.strField("value")
	r.byte('}')
	return s
}

func (r *canonReader) program() program.ID {
	var id program.ID
	r.byte('{')
	r.key("origin")
	if r.peek() == '"' {
		if r.str() != "system" {
			r.bad = true
		}
		id.Origin.Kind = program.System
	} else {
		r.byte('{')
		switch r.str() {
		case "main":
			id.Origin.Kind = program.Main
			r.byte(':')
			r.byte('{')
		case "module":
			id.Origin.Kind = program.Module
			r.byte(':')
			r.byte('{')
			r.key("name")
			id.Origin.Module = r.str()
			r.byte(',')
		default:
			r.bad = true
		}
		r.key("extension")
		if r.peek() == 'n' {
			r.literal("null")
		} else {
			id.Origin.Extension, id.Origin.HasExtension = r.str(), true
		}
		r.byte('}')
		r.byte('}')
	}
	id.Path = r.strField("path")
	r.byte('}')
	return id
}

// unmet reads the unmet conditions, which must be in the order the careful
// decoder would sort them into, each once, with sorted lists.
func (r *canonReader) unmet() []finding.Unmet {
	var out []finding.Unmet
	r.byte('[')
	for !r.bad && r.peek() != ']' {
		if len(out) > 0 {
			r.byte(',')
		}
		var u finding.Unmet
		r.byte('{')
		r.key("because")
		u.Because = r.str()
		for r.peek() == ',' {
			r.byte(',')
			switch r.str() {
			case "any_of":
				r.byte(':')
				u.AnyOf = r.strs()
			case "present":
				r.byte(':')
				u.Present = r.strs()
			default:
				r.bad = true
			}
			if r.bad {
				break
			}
		}
		r.byte('}')
		if n := len(out); n > 0 && finding.CompareUnmet(out[n-1], u) >= 0 {
			r.bad = true
		}
		out = append(out, u)
	}
	r.byte(']')
	return out
}

// strs reads a list of strings, which must be sorted and distinct.
func (r *canonReader) strs() []string {
	var out []string
	r.byte('[')
	for !r.bad && r.peek() != ']' {
		if len(out) > 0 {
			r.byte(',')
		}
		s := r.str()
		if n := len(out); n > 0 && out[n-1] >= s {
			r.bad = true
		}
		out = append(out, s)
	}
	r.byte(']')
	return out
}
