// Package report prints findings: the JSON report (§8.1) and reading it
// back (§8.4), the text report (§8.3) with its sign-off (§1.8), and the
// diff of --expect-json (§8.6). Printers are pure functions over finding
// data; colour is a bool the caller decides (§1.6).
package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

// The JSON report is a contract down to its bytes (§8.1): the original's
// serde_json pretty printer, field order per kind, and serde's escaping.
// It is built as a small ordered tree and printed by one function, rather
// than through encoding/json, whose struct tags can say neither the field
// order per kind nor the escaping.

// jsonValue is one of: jsonString, jsonNumber, jsonNull, jsonObject, jsonArray.
type jsonValue interface{ isJSON() }

type (
	jsonString string
	jsonNumber int
	jsonNull   struct{}
	jsonObject []jsonMember
	jsonArray  []jsonValue
)

type jsonMember struct {
	key   string
	value jsonValue
}

func (jsonString) isJSON() {}
func (jsonNumber) isJSON() {}
func (jsonNull) isJSON()   {}
func (jsonObject) isJSON() {}
func (jsonArray) isJSON()  {}

// WriteJSON writes the report of §8.1 for findings, which must be in
// finding.Compare order (Set.Sorted gives it), followed by a newline.
func WriteJSON(w io.Writer, findings []finding.Counted) error {
	return WriteJSONSeq(w, slices.Values(findings))
}

// WriteJSONSeq is WriteJSON for findings that arrive one at a time
// (Set.InOrder): a big report is never a big string or a big slice.
func WriteJSONSeq(w io.Writer, findings iter.Seq[finding.Counted]) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	writeReport(bw, findings)
	bw.WriteByte('\n')
	return bw.Flush()
}

// renderJSON is the pretty-printed document without its final newline,
// which is also what the --expect-json diff compares (§8.6).
func renderJSON(findings []finding.Counted) string {
	var b strings.Builder
	writeReport(&b, slices.Values(findings))
	return b.String()
}

// writer is what the printer writes to: a strings.Builder or a bufio.Writer.
type writer interface {
	io.ByteWriter
	io.StringWriter
	WriteRune(rune) (int, error)
}

// writeReport prints {"violations": [...]} exactly as writeValue would
// print the whole tree, building the tree of one entry at a time.
func writeReport(b writer, findings iter.Seq[finding.Counted]) {
	n := 0
	for c := range findings {
		if n == 0 {
			b.WriteString("{\n  \"violations\": [")
		} else {
			b.WriteByte(',')
		}
		n++
		newline(b, 2)
		writeValue(b, jsonObject{
			{"count", jsonNumber(c.Count)},
			{"violation", findingJSON(&c.Finding)},
		}, 2)
	}
	if n == 0 {
		b.WriteString("{\n  \"violations\": []\n}")
		return
	}
	b.WriteString("\n  ]\n}")
}

// findingJSON lays a finding out with "kind" first and then its kind's
// fields in the order of the table in §8.1.
func findingJSON(f *finding.Finding) jsonObject {
	o := jsonObject{
		{"kind", jsonString(f.Kind.String())},
		{"action", jsonObject{
			{"mnemonic", jsonString(f.Action.Mnemonic)},
			{"target", jsonString(f.Action.Target)},
		}},
	}
	switch f.Kind {
	case finding.EnvironmentLeak:
		o = append(o,
			jsonMember{"source", jsonString(f.Source.String())},
			jsonMember{"sentinel", jsonString(f.Sentinel)},
			jsonMember{"site", siteJSON(f.Site)})
	case finding.BadPath:
		o = append(o, jsonMember{"actual", jsonString(f.Actual)})
	case finding.ExecutionRequirement:
		o = append(o, jsonMember{"requirement", jsonString(f.Requirement)})
	case finding.AbsolutePath:
		o = append(o,
			jsonMember{"path", jsonString(f.Path)},
			jsonMember{"site", siteJSON(f.Site)})
	case finding.WorkspaceStatus:
		o = append(o, jsonMember{"path", jsonString(f.Path)})
	default:
		wrappers := make(jsonArray, 0, len(f.Wrappers))
		for _, w := range f.Wrappers {
			wrappers = append(wrappers, programJSON(w))
		}
		o = append(o,
			jsonMember{"program", programJSON(f.Program)},
			jsonMember{"wrappers", wrappers})
		if f.Kind == finding.NeverReproducible || f.Kind == finding.ConditionalReproducibility {
			var syn jsonValue = jsonNull{}
			if f.Synonym != nil {
				syn = programJSON(*f.Synonym)
			}
			o = append(o, jsonMember{"synonym", syn})
		}
		if f.Kind == finding.ConditionalReproducibility {
			unmet := make(jsonArray, 0, len(f.Unmet))
			for _, u := range f.Unmet {
				unmet = append(unmet, unmetJSON(u))
			}
			o = append(o, jsonMember{"unmet", unmet})
		}
	}
	return o
}

// siteJSON puts the location tag first, then the location's own fields.
func siteJSON(s finding.Site) jsonObject {
	o := jsonObject{{"location", jsonString(s.Location.String())}}
	switch s.Location {
	case finding.ParamFile:
		o = append(o, jsonMember{"exec_path", jsonString(s.ExecPath)})
	case finding.EnvVar:
		o = append(o, jsonMember{"key", jsonString(s.Key)})
	}
	return append(o, jsonMember{"value", jsonString(s.Value)})
}

func programJSON(id program.ID) jsonObject {
	ext := func() jsonValue {
		if id.Origin.HasExtension {
			return jsonString(id.Origin.Extension)
		}
		return jsonNull{}
	}
	var origin jsonValue
	switch id.Origin.Kind {
	case program.System:
		origin = jsonString("system")
	case program.Main:
		origin = jsonObject{{"main", jsonObject{{"extension", ext()}}}}
	default:
		origin = jsonObject{{"module", jsonObject{
			{"name", jsonString(id.Origin.Module)},
			{"extension", ext()},
		}}}
	}
	return jsonObject{{"origin", origin}, {"path", jsonString(id.Path)}}
}

// unmetJSON omits empty lists, as the original's serializer skips them.
func unmetJSON(u finding.Unmet) jsonObject {
	o := jsonObject{{"because", jsonString(u.Because)}}
	strs := func(ss []string) jsonArray {
		a := make(jsonArray, len(ss))
		for i, s := range ss {
			a[i] = jsonString(s)
		}
		return a
	}
	if len(u.AnyOf) > 0 {
		o = append(o, jsonMember{"any_of", strs(u.AnyOf)})
	}
	if len(u.Present) > 0 {
		o = append(o, jsonMember{"present", strs(u.Present)})
	}
	return o
}

// writeValue is serde_json's pretty printer: two-space indent, one member
// or element per line, and empty containers written as {} and [].
func writeValue(b writer, v jsonValue, depth int) {
	switch v := v.(type) {
	case jsonString:
		writeString(b, string(v))
	case jsonNumber:
		b.WriteString(strconv.Itoa(int(v)))
	case jsonNull:
		b.WriteString("null")
	case jsonObject:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, m := range v {
			if i > 0 {
				b.WriteString(",")
			}
			newline(b, depth+1)
			writeString(b, m.key)
			b.WriteString(": ")
			writeValue(b, m.value, depth+1)
		}
		newline(b, depth)
		b.WriteString("}")
	case jsonArray:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		for i, e := range v {
			if i > 0 {
				b.WriteString(",")
			}
			newline(b, depth+1)
			writeValue(b, e, depth+1)
		}
		newline(b, depth)
		b.WriteString("]")
	}
}

func newline(b writer, depth int) {
	b.WriteByte('\n')
	for range depth {
		b.WriteString("  ")
	}
}

const hexDigits = "0123456789abcdef"

// writeString escapes as serde_json does (§8.1): the quote, the backslash,
// the five short escapes and the other C0 controls as \u00xx in lower-case
// hex; everything else, DEL and U+2028/2029 included, is written as is.
// Go strings may hold invalid UTF-8, which the original's strings could
// not; each invalid byte is written as U+FFFD so the output stays JSON.
func writeString(b writer, s string) {
	b.WriteByte('"')
	// Runs of bytes that need no escaping are written whole: one call per
	// run, not per byte.
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(s[start:i])
				b.WriteRune(utf8.RuneError)
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
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// WriteJSONFile writes the report to path atomically: a temporary file in
// the same directory is written, synced and renamed over path, so a failed
// write never leaves a truncated report. An existing file's permission
// bits are kept; a new file gets 0644.
func WriteJSONFile(path string, findings []finding.Counted) error {
	return WriteJSONFileSeq(path, slices.Values(findings))
}

// WriteJSONFileSeq is WriteJSONFile for findings that arrive one at a time.
func WriteJSONFileSeq(path string, findings iter.Seq[finding.Counted]) error {
	if err := writeFileAtomic(path, findings); err != nil {
		return fmt.Errorf("failed to write JSON report to %s: %w", path, err)
	}
	return nil
}

func writeFileAtomic(path string, findings iter.Seq[finding.Counted]) (err error) {
	target := path
	// Writing through a symlink should update the file it points to, not
	// replace the link with a regular file.
	if resolved, rerr := filepath.EvalSymlinks(path); rerr == nil {
		target = resolved
	}
	perm := fs.FileMode(0o644)
	if info, serr := os.Stat(target); serr == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("not a regular file")
		}
		perm = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return causeOf(err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := WriteJSONSeq(tmp, findings); err != nil {
		return causeOf(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return causeOf(err)
	}
	if err := tmp.Sync(); err != nil {
		return causeOf(err)
	}
	if err := tmp.Close(); err != nil {
		return causeOf(err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return causeOf(err)
	}
	return nil
}

// causeOf drops the operation and path from a *fs.PathError or
// *os.LinkError: the message around it already names the report's path,
// and the temporary file's name would only confuse.
func causeOf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
