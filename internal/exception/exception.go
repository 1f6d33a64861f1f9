// Package exception reads exception files (§7.1, §7.3), matches
// exceptions against findings (§7.2) and filters a finding set through
// them, accounting for what each suppressed (§7.4) and which matched
// nothing (§7.5).
package exception

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/quote"
	"github.com/ahab-go/ahab/internal/spec"
)

// Exception excuses the findings for which every present predicate holds.
// A nil field is absent (JSON null is the same as absent). Fields are
// kept as written, in file order, so the stale warning can show them.
type Exception struct {
	Reason      *string
	Kind        *string
	Mnemonic    *string
	Target      *string
	Program     *string
	Path        *string
	Actual      *string
	Requirement *string
	Source      *string
	Location    *string
	EnvVar      *string

	// Origin is the base name of the file the exception came from (§7.5).
	Origin string

	kind                                                     finding.Kind
	mnemonic, target, program, path, actual, requirement, ev spec.Glob
}

// fieldNames is the entry's fields in the order of §7.1; the stale
// warning lists predicates in this order, minus reason.
var fieldNames = []string{"reason", "kind", "mnemonic", "target", "program", "path", "actual", "requirement", "source", "location", "env_var"}

func (e *Exception) field(name string) **string {
	switch name {
	case "reason":
		return &e.Reason
	case "kind":
		return &e.Kind
	case "mnemonic":
		return &e.Mnemonic
	case "target":
		return &e.Target
	case "program":
		return &e.Program
	case "path":
		return &e.Path
	case "actual":
		return &e.Actual
	case "requirement":
		return &e.Requirement
	case "source":
		return &e.Source
	case "location":
		return &e.Location
	case "env_var":
		return &e.EnvVar
	}
	return nil
}

// Error is a problem with an exception file. Entry is the 1-based index
// of the exception, or 0 when the problem is with the file as a whole.
type Error struct {
	Path  string
	Entry int
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	if e.Entry > 0 {
		fmt.Fprintf(&b, "exception %d: ", e.Entry)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// LoadFile reads and validates an exception file. An unreadable file
// gives `failed to read exceptions from <path>: <cause>`; a bad one
// `<path>: exception <i>: <why>`.
func LoadFile(path string) ([]Exception, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("failed to read exceptions from %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads and validates the exception file named name (§7.1, §7.3).
// The first bad exception stops loading.
func Parse(name string, data []byte) ([]Exception, error) {
	origin := filepath.Base(name)
	if name == "" {
		origin = ""
	}
	exs, entry, err := decode(data)
	if err != nil {
		return nil, &Error{Path: name, Entry: entry, Err: err}
	}
	for i := range exs {
		exs[i].Origin = origin
		if err := exs[i].validate(); err != nil {
			return nil, &Error{Path: name, Entry: i + 1, Err: err}
		}
	}
	return exs, nil
}

// decode reads the file's shape strictly: only "exceptions" at the top,
// entries of known fields whose values are strings or null. It walks the
// tokens itself because encoding/json would accept unknown and repeated
// fields and match names case-insensitively. On failure it returns the
// 1-based entry at fault, or 0.
func decode(data []byte) ([]Exception, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var exs []Exception
	seen := false
	if err := expectDelim(dec, '{', "the file"); err != nil {
		return nil, 0, err
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, 0, err
		}
		if key != "exceptions" {
			return nil, 0, fmt.Errorf("unknown field %q, expected \"exceptions\"", key)
		}
		if seen {
			return nil, 0, errors.New(`duplicate field "exceptions"`)
		}
		seen = true
		if err := expectDelim(dec, '[', `"exceptions"`); err != nil {
			return nil, 0, err
		}
		for dec.More() {
			ex, err := decodeEntry(dec)
			if err != nil {
				return nil, len(exs) + 1, err
			}
			exs = append(exs, ex)
		}
		if _, err := dec.Token(); err != nil { // ]
			return nil, 0, syntaxError(err)
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return nil, 0, syntaxError(err)
	}
	if !seen {
		return nil, 0, errors.New(`missing field "exceptions"`)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, 0, errors.New("trailing characters after the top-level object")
	}
	return exs, 0, nil
}

func decodeEntry(dec *json.Decoder) (Exception, error) {
	var ex Exception
	if err := expectDelim(dec, '{', "an exception"); err != nil {
		return ex, err
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return ex, err
		}
		slot := ex.field(key)
		if slot == nil {
			return ex, fmt.Errorf("unknown field %q, expected one of: %s", key, strings.Join(fieldNames, ", "))
		}
		if *slot != nil {
			return ex, fmt.Errorf("duplicate field %q", key)
		}
		tok, err := dec.Token()
		if err != nil {
			return ex, syntaxError(err)
		}
		switch v := tok.(type) {
		case nil:
			// null is the same as leaving the field out (§7.1).
		case string:
			*slot = &v
		default:
			return ex, fmt.Errorf("%q: expected a string or null, found %s", key, describeToken(tok))
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return ex, syntaxError(err)
	}
	return ex, nil
}

func expectDelim(dec *json.Decoder, d json.Delim, what string) error {
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	if tok != d {
		kind := "an object"
		if d == '[' {
			kind = "an array"
		}
		return fmt.Errorf("%s: expected %s, found %s", what, kind, describeToken(tok))
	}
	return nil
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", syntaxError(err)
	}
	return tok.(string), nil // json.Decoder only yields string keys inside objects
}

func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "an array"
		}
		return string(v)
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

func syntaxError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("invalid JSON: unexpected end of input")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, se.Error())
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

// kindOrder is the list the unknown-kind error gives (§7.3). It is the
// original's declaration order, which puts workspace_status fifth, unlike
// the report order.
var kindOrder = []finding.Kind{
	finding.EnvironmentLeak, finding.BadPath, finding.ExecutionRequirement, finding.AbsolutePath,
	finding.WorkspaceStatus, finding.SystemProgram, finding.HostDerivedProgram,
	finding.UnknownProgram, finding.NeverReproducible, finding.ConditionalReproducibility,
}

// applicability lists the kind-specific fields in the order §7.3 checks
// them.
var applicability = []struct {
	name  string
	field finding.Field
	get   func(*Exception) *string
}{
	{"program", finding.FieldProgram, func(e *Exception) *string { return e.Program }},
	{"path", finding.FieldPath, func(e *Exception) *string { return e.Path }},
	{"actual", finding.FieldActual, func(e *Exception) *string { return e.Actual }},
	{"requirement", finding.FieldRequirement, func(e *Exception) *string { return e.Requirement }},
	{"source", finding.FieldSource, func(e *Exception) *string { return e.Source }},
	{"location", finding.FieldLocation, func(e *Exception) *string { return e.Location }},
	{"env_var", finding.FieldEnvVar, func(e *Exception) *string { return e.EnvVar }},
}

// validate applies the checks of §7.3 in their order and compiles the
// globs.
func (e *Exception) validate() error {
	if e.Kind != nil {
		k, ok := finding.KindByTag(*e.Kind)
		if !ok {
			tags := make([]string, len(kindOrder))
			for i, k := range kindOrder {
				tags[i] = k.String()
			}
			return fmt.Errorf("unknown kind %s, expected one of: %s", quote.Quote(*e.Kind), strings.Join(tags, ", "))
		}
		e.kind = k
	}
	if e.Source != nil && *e.Source != "user" && *e.Source != "hostname" {
		return fmt.Errorf("unknown source %s, expected one of: user, hostname", quote.Quote(*e.Source))
	}
	if e.Location != nil && *e.Location != "argument" && *e.Location != "param_file" && *e.Location != "env_var" {
		return fmt.Errorf("unknown location %s, expected one of: argument, param_file, env_var", quote.Quote(*e.Location))
	}
	if e.Kind != nil {
		for _, a := range applicability {
			if a.get(e) != nil && !e.kind.Carries(a.field) {
				return fmt.Errorf("%q does not apply to a %q violation", a.name, *e.Kind)
			}
		}
	}
	if e.EnvVar != nil && e.Location != nil && *e.Location != "env_var" {
		return fmt.Errorf(`"env_var" needs location "env_var", not %s`, quote.Quote(*e.Location))
	}
	if !e.hasPredicate() {
		return errors.New(`no conditions, so it would suppress every violation; give it at least one field besides "reason"`)
	}
	compile := func(s *string) spec.Glob {
		if s == nil {
			return spec.Glob{}
		}
		return spec.CompileGlob(*s)
	}
	e.mnemonic, e.target, e.program = compile(e.Mnemonic), compile(e.Target), compile(e.Program)
	e.path, e.actual, e.requirement, e.ev = compile(e.Path), compile(e.Actual), compile(e.Requirement), compile(e.EnvVar)
	return nil
}

func (e *Exception) hasPredicate() bool {
	for _, name := range fieldNames[1:] {
		if *e.field(name) != nil {
			return true
		}
	}
	return false
}

// String shows the exception as the stale warning does (§7.5): its
// reason, or else its predicates, followed by the file it came from.
func (e *Exception) String() string {
	var s string
	if e.Reason != nil {
		s = quote.Quote(*e.Reason)
	} else {
		var parts []string
		for _, name := range fieldNames[1:] {
			if v := *e.field(name); v != nil {
				parts = append(parts, name+": "+quote.Quote(*v))
			}
		}
		s = "{" + strings.Join(parts, ", ") + "}"
	}
	return s + " (" + e.Origin + ")"
}
