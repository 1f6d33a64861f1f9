// Package savedreport reads a JSON report back (§8.4), whether Ahab or the
// original wrote it: for --explain-json, --expect-json, ahab merge and ahab
// diff --report. Writing it is package report's; reading is apart because
// it is a parser of user files, with the strictness and the errors that
// calls for, where report only prints.
package savedreport

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// Report is a report read back: its findings, and the judgement they were
// found with.
type Report struct {
	Mode     mode.Mode
	Findings *finding.Set
}

// ReadFile reads a report written by report.WriteJSON or by the original
// (§8.4). An unreadable file gives `failed to read JSON report from
// <path>: <cause>`; one that is not a report a *jsonfile.Error naming the
// entry at fault.
func ReadFile(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileerr.Read("JSON report", path, err)
	}
	defer f.Close()
	return Read(path, f)
}

// Read reads a report (§8.4) from r, one entry at a time; name names
// it in errors. The optional fields (synonym, extension, any_of, present)
// may be left out. A report without a "mode" member is one of Ahab 0.2's
// judgement, as the original and --compat 0.2 write them. Unlike the
// original, which ignored unknown fields and summed repeated entries,
// Read refuses both: a report is written by a program, so either is a
// sign that it was edited by hand or is not a report at all, and a
// baseline read wrongly passes or fails CI for the wrong reason.
func Read(name string, r io.Reader) (*Report, error) {
	d := jsonfile.NewDecoder(name, r)
	rep := &Report{Mode: mode.Ahab02}
	modeSeen := false
	newKindAt := "" // the first entry only Ahab's own judgement writes
	err := d.Object("a report, an object with a `violations` field", func(name string) error {
		switch name {
		case "mode":
			m, err := d.String("a mode")
			if err != nil {
				return err
			}
			if m != mode.Default.String() {
				return d.Errorf("unknown mode %s, expected `%s` (a report of Ahab 0.2's judgement has no mode)", jsonfile.Backquote(m), mode.Default)
			}
			rep.Mode, modeSeen = mode.Default, true
			return nil
		case "violations":
		default:
			return d.Errorf("not a report Ahab wrote: unknown field %s, expected `mode` or `violations`", jsonfile.Backquote(name))
		}
		set := finding.NewSet()
		rep.Findings = set
		total := uint64(0)
		return d.Array("a sequence of violations", func() error {
			entry := fmt.Sprintf("violation %d", set.Len()+1)
			d.SetEntry(entry)
			f, n, err := readEntry(d)
			if err != nil {
				return err
			}
			if set.Has(f) {
				return d.Errorf("the same violation as an earlier entry; a report lists each once, with its count")
			}
			if n > maxOccurrences-total {
				return d.Errorf("counts add up to more than %d", uint64(maxOccurrences))
			}
			if newKindAt == "" && (f.Kind.Info().New || f.Command != "" || f.Source == finding.Inherited || len(f.Evidence) > 0) {
				newKindAt = entry
			}
			total += n
			set.Add(f, int(n))
			return nil
		})
	})
	d.SetEntry("")
	if err == nil && rep.Findings == nil {
		err = d.Errorf("not a report Ahab wrote: missing field `violations`")
	}
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return nil, err
	}
	if !modeSeen && newKindAt != "" {
		return nil, &jsonfile.Error{Path: name, Entry: newKindAt,
			Err: errors.New("only Ahab's own judgement reports this, but the report has no \"mode\", so it claims to be of Ahab 0.2's judgement")}
	}
	return rep, nil
}

// maxOccurrences bounds the sum of all counts so that no count, and no
// total a printer or a merge computes, can overflow.
const maxOccurrences = math.MaxInt64

func readEntry(d *jsonfile.Decoder) (f finding.Finding, n uint64, err error) {
	var count, violation bool
	err = d.Fields("an entry, an object with `count` and `violation`", []string{"count", "violation"}, func(field string) error {
		var err error
		if field == "count" {
			count = true
			if n, err = d.Uint("a positive count", maxOccurrences); err == nil && n == 0 {
				err = d.Errorf("count 0, expected a positive count")
			}
			return err
		}
		violation = true
		f, err = readViolation(d)
		return err
	})
	switch {
	case err != nil:
	case !count:
		err = d.Errorf("missing field `count`")
	case !violation:
		err = d.Errorf("missing field `violation`")
	}
	return f, n, err
}

// violationFields are every field a violation object may have, over all
// kinds. Each has one meaning whatever the kind, so a violation is read in
// one pass, whatever the order of its fields, and then checked against
// its kind's members (Kind.Members).
var violationFields = append(append([]string{"kind", "action"}, finding.MemberNames()...), "evidence")

func readViolation(d *jsonfile.Decoder) (finding.Finding, error) {
	var f finding.Finding
	seen := map[string]bool{}
	err := d.Fields("a violation object", violationFields, func(field string) error {
		seen[field] = true
		var err error
		switch field {
		case "kind":
			var tag string
			if tag, err = d.String("a kind"); err == nil {
				var ok bool
				if f.Kind, ok = finding.KindByTag(tag); !ok {
					err = d.Errorf("unknown kind %s, expected %s", jsonfile.Backquote(tag), jsonfile.OneOf(kindTags()))
				}
			}
		case "action":
			f.Action, err = readAction(d)
		case "evidence":
			f.Evidence, err = readEvidence(d)
		default:
			err = readMember(d, field, &f)
		}
		return err
	})
	if err != nil {
		return f, err
	}
	if !seen["kind"] {
		return f, d.Errorf("missing field `kind`")
	}
	want := []string{"action"}
	for _, m := range f.Kind.Members() {
		want = append(want, m.String())
	}
	for field := range seen {
		if field != "kind" && field != "evidence" && !slices.Contains(want, field) {
			return f, d.Errorf("field %s does not belong to a %s violation, expected %s", jsonfile.Backquote(field), jsonfile.Backquote(f.Kind.String()), jsonfile.OneOf(want))
		}
	}
	if !seen["action"] {
		return f, d.Errorf("missing field `action`")
	}
	for _, m := range f.Kind.Members() {
		if !seen[m.String()] && !m.Optional() {
			return f, d.Errorf("missing field `%s`", m)
		}
	}
	return f, nil
}

// readMember reads the member named field into f; the name says which
// field of a finding it is, whatever the kind.
func readMember(d *jsonfile.Decoder, field string, f *finding.Finding) error {
	var err error
	switch field {
	case "source":
		var src string
		if src, err = d.String("a source"); err == nil {
			var ok bool
			if f.Source, ok = finding.SourceByName(src); !ok {
				err = d.Errorf("unknown source %s, expected one of `user`, `hostname`, `inherited`", jsonfile.Backquote(src))
			}
		}
	case "sentinel":
		f.Sentinel, err = d.String("a string")
	case "site":
		f.Site, err = readSite(d)
	case "actual":
		f.Actual, err = d.String("a string")
	case "requirement":
		f.Requirement, err = d.String("a string")
	case "path":
		f.Path, err = d.String("a string")
	case "program":
		f.Program, err = readProgram(d)
	case "wrappers":
		err = d.Array("a sequence of programs", func() error {
			w, err := readProgram(d)
			f.Wrappers = append(f.Wrappers, w)
			return err
		})
	case "synonym":
		if d.IsNull() {
			return d.Null("null")
		}
		var syn program.ID
		syn, err = readProgram(d)
		f.Synonym = &syn
	case "unmet":
		err = d.Array("a sequence of unmet conditions", func() error {
			u, err := readUnmet(d)
			f.Unmet = append(f.Unmet, u)
			return err
		})
		// The original holds unmet conditions as a sorted set.
		slices.SortFunc(f.Unmet, finding.CompareUnmet)
		f.Unmet = slices.CompactFunc(f.Unmet, func(a, b finding.Unmet) bool { return finding.CompareUnmet(a, b) == 0 })
	case "variation":
		f.Variation, err = d.String("a string")
	case "command":
		f.Command, err = d.String("a string")
	}
	return err
}

// readEvidence reads a list of {"file": …, "line": …, "text": …}, line
// optional, as a sorted set: a finding's evidence, whatever the order it
// was written in.
func readEvidence(d *jsonfile.Decoder) ([]finding.Evidence, error) {
	var list []finding.Evidence
	err := d.Array("a sequence of evidence", func() error {
		var e finding.Evidence
		var file, text bool
		err := d.Fields("an evidence object", []string{"file", "line", "text"}, func(field string) error {
			var err error
			switch field {
			case "file":
				file = true
				e.File, err = d.String("a string")
			case "line":
				var n uint64
				if n, err = d.Uint("a positive line number", maxLine); err == nil && n == 0 {
					err = d.Errorf("line 0, expected a positive line number (leave line out for the whole file)")
				}
				e.Line = int(n)
			case "text":
				text = true
				e.Text, err = d.String("a string")
			}
			return err
		})
		switch {
		case err != nil:
		case !file:
			err = d.Errorf("missing field `file`")
		case !text:
			err = d.Errorf("missing field `text`")
		}
		list = append(list, e)
		return err
	})
	slices.SortFunc(list, finding.CompareEvidence)
	return slices.Compact(list), err
}

// maxLine bounds a line number, far beyond any file's.
const maxLine = math.MaxInt32

func kindTags() []string {
	var tags []string
	for _, k := range finding.Kinds() {
		tags = append(tags, k.String())
	}
	return tags
}

func readAction(d *jsonfile.Decoder) (finding.ActionRef, error) {
	var a finding.ActionRef
	var mnemonic, target bool
	err := d.Fields("an action object", []string{"mnemonic", "target"}, func(field string) error {
		var err error
		if field == "mnemonic" {
			mnemonic = true
			a.Mnemonic, err = d.String("a string")
		} else {
			target = true
			a.Target, err = d.String("a string")
		}
		return err
	})
	switch {
	case err != nil:
	case !mnemonic:
		err = d.Errorf("missing field `mnemonic`")
	case !target:
		err = d.Errorf("missing field `target`")
	}
	return a, err
}

func readSite(d *jsonfile.Decoder) (finding.Site, error) {
	var s finding.Site
	seen := map[string]bool{}
	err := d.Fields("a site object", []string{"location", "exec_path", "key", "value"}, func(field string) error {
		seen[field] = true
		var err error
		switch field {
		case "location":
			var loc string
			if loc, err = d.String("a location"); err == nil {
				var ok bool
				if s.Location, ok = locationByName(loc); !ok {
					err = d.Errorf("unknown location %s, expected one of `argument`, `param_file`, `env_var`", jsonfile.Backquote(loc))
				}
			}
		case "exec_path":
			s.ExecPath, err = d.String("a string")
		case "key":
			s.Key, err = d.String("a string")
		case "value":
			s.Value, err = d.String("a string")
		}
		return err
	})
	if err != nil {
		return s, err
	}
	want := []string{"location", "value"}
	switch s.Location {
	case finding.ParamFile:
		want = append(want, "exec_path")
	case finding.EnvVar:
		want = append(want, "key")
	}
	for field := range seen {
		if !slices.Contains(want, field) {
			return s, d.Errorf("field %s does not belong to a %s site", jsonfile.Backquote(field), jsonfile.Backquote(s.Location.String()))
		}
	}
	for _, field := range want {
		if !seen[field] {
			return s, d.Errorf("missing field `%s`", field)
		}
	}
	return s, nil
}

func readUnmet(d *jsonfile.Decoder) (finding.Unmet, error) {
	var u finding.Unmet
	because := false
	err := d.Fields("an unmet condition", []string{"because", "any_of", "present"}, func(field string) error {
		var err error
		switch field {
		case "because":
			because = true
			u.Because, err = d.String("a string")
		case "any_of":
			u.AnyOf, err = stringSet(d)
		case "present":
			u.Present, err = stringSet(d)
		}
		return err
	})
	if err == nil && !because {
		err = d.Errorf("missing field `because`")
	}
	return u, err
}

// stringSet reads a list of strings as the sorted set the original keeps
// (§8.1: any_of and present); empty is nil, as when the list is left out.
func stringSet(d *jsonfile.Decoder) ([]string, error) {
	list, err := d.Strings("a sequence of strings")
	if err != nil || len(list) == 0 {
		return nil, err
	}
	slices.Sort(list)
	return slices.Compact(list), nil
}

// readProgram reads {"origin": O, "path": …} with O one of "system",
// {"main": {"extension": …}} or {"module": {"name": …, "extension": …}}.
func readProgram(d *jsonfile.Decoder) (program.ID, error) {
	var id program.ID
	var origin, path bool
	err := d.Fields("a program object", []string{"origin", "path"}, func(field string) error {
		var err error
		if field == "path" {
			path = true
			id.Path, err = d.String("a string")
			return err
		}
		origin = true
		id.Origin, err = readOrigin(d)
		return err
	})
	switch {
	case err != nil:
	case !origin:
		err = d.Errorf("missing field `origin`")
	case !path:
		err = d.Errorf("missing field `path`")
	}
	return id, err
}

const originForms = "expected `\"system\"`, `{\"main\": …}` or `{\"module\": …}`"

func readOrigin(d *jsonfile.Decoder) (program.Origin, error) {
	var o program.Origin
	if d.IsString() {
		tag, err := d.String("an origin")
		if err == nil && tag != "system" {
			err = d.Errorf("unknown origin %s, %s", jsonfile.Backquote(tag), originForms)
		}
		o.Kind = program.System
		return o, err
	}
	forms := 0
	err := d.Object("an origin, "+originForms, func(form string) error {
		if forms++; forms > 1 {
			return d.Errorf("an origin has exactly one form, %s", originForms)
		}
		fields := []string{"extension"}
		switch form {
		case "main":
			o.Kind = program.Main
		case "module":
			o.Kind = program.Module
			fields = []string{"name", "extension"}
		default:
			return d.Errorf("unknown origin %s, %s", jsonfile.Backquote(form), originForms)
		}
		name := false
		err := d.Fields("an object", fields, func(field string) error {
			var err error
			if field == "name" {
				name = true
				o.Module, err = d.String("a string")
				return err
			}
			o.Extension, o.HasExtension, err = d.OptionalString("a string")
			return err
		})
		if err == nil && o.Kind == program.Module && !name {
			err = d.Errorf("missing field `name`")
		}
		return err
	})
	if err == nil && forms == 0 {
		err = d.Errorf("an origin needs a form, %s", originForms)
	}
	return o, err
}

// locationByName is the inverse of Location.String.
func locationByName(name string) (finding.Location, bool) {
	for _, loc := range []finding.Location{finding.Argument, finding.ParamFile, finding.EnvVar} {
		if loc.String() == name {
			return loc, true
		}
	}
	return 0, false
}
