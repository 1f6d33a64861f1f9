// Package exception reads exception files (§7.1, §7.3), matches
// exceptions against findings (§7.2) and filters a finding set through
// them, accounting for what each suppressed (§7.4) and which matched
// nothing (§7.5).
package exception

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
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
	// Variation and Command match what only Ahab's own judgement reports:
	// a variation_source's variation, and the shell command a finding is
	// about.
	Variation *string
	Command   *string

	// Origin is the base name of the file the exception came from (§7.5).
	Origin string
	// ReadyMade says the exception comes from one of Ahab's ready-made
	// sets (LoadSet): it is not warned about when it matches nothing.
	ReadyMade bool

	kind                                                     finding.Kind
	mnemonic, target, program, path, actual, requirement, ev glob.Glob
	variation, command                                       glob.Glob
}

// fieldNames is the entry's fields in the order of §7.1, then those of
// Ahab's own judgement; the stale warning lists predicates in this order,
// minus reason.
var fieldNames = []string{"reason", "kind", "mnemonic", "target", "program", "path", "actual", "requirement", "source", "location", "env_var",
	"variation", "command"}

// fieldNamesOf are the fields an exception file of mode m may use.
func fieldNamesOf(m mode.Mode) []string {
	if m == mode.Ahab02 {
		return fieldNames[:len(fieldNames)-2]
	}
	return fieldNames
}

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
	case "variation":
		return &e.Variation
	case "command":
		return &e.Command
	}
	return nil
}

// LoadFile reads and validates an exception file. An unreadable file
// gives `failed to read exceptions from <path>: <cause>`; a bad one a
// *jsonfile.Error, `<path>: exception <i>: <why>`. The file is read as
// mode m reads exceptions.
func LoadFile(path string, m mode.Mode) ([]Exception, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fileerr.Read("exceptions", path, err)
	}
	return Parse(path, data, m)
}

// Parse reads and validates the exception file named name (§7.1, §7.3):
//
//	{"exceptions": [{"reason": …, "kind": …, …}, …]}
//
// Only "exceptions" may appear at the top; an entry's fields are strings
// or null (null is the same as leaving the field out). The file is read
// strictly (package jsonfile). The first bad exception stops loading, and
// its 1-based index is the error's entry. Ahab 0.2's judgement (mode m)
// knows only its own kinds and fields, and matches globs as it did.
func Parse(name string, data []byte, m mode.Mode) ([]Exception, error) {
	origin := filepath.Base(name)
	if name == "" {
		origin = ""
	}
	d := jsonfile.NewBytesDecoder(name, data)
	var exs []Exception
	seen := false
	err := d.Fields("an object with an `exceptions` field", []string{"exceptions"}, func(string) error {
		seen = true
		return d.Array("a sequence of exceptions", func() error {
			entry := fmt.Sprintf("exception %d", len(exs)+1)
			d.SetEntry(entry)
			ex, err := decodeEntry(d, m)
			if err == nil {
				ex.Origin = origin
				if verr := ex.validate(m); verr != nil {
					// §7.3's messages are about the whole entry, not a
					// position in it.
					err = &jsonfile.Error{Path: name, Entry: entry, Err: verr}
				}
			}
			exs = append(exs, ex)
			return err
		})
	})
	d.SetEntry("")
	if err == nil && !seen {
		err = d.Errorf("missing field `exceptions`")
	}
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return nil, err
	}
	return exs, nil
}

func decodeEntry(d *jsonfile.Decoder, m mode.Mode) (Exception, error) {
	var ex Exception
	err := d.Fields("an exception object", fieldNamesOf(m), func(key string) error {
		v, ok, err := d.OptionalString("a string")
		if ok {
			*ex.field(key) = &v
		}
		return err
	})
	return ex, err
}

// kindOrder is the list the unknown-kind error gives (§7.3). It is the
// original's declaration order, which puts workspace_status fifth, unlike
// the report order.
var kindOrder = []finding.Kind{
	finding.EnvironmentLeak, finding.BadPath, finding.ExecutionRequirement, finding.AbsolutePath,
	finding.WorkspaceStatus, finding.SystemProgram, finding.HostDerivedProgram,
	finding.UnknownProgram, finding.NeverReproducible, finding.ConditionalReproducibility,
	finding.VariationSource,
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
	{"variation", finding.FieldVariation, func(e *Exception) *string { return e.Variation }},
	{"command", finding.FieldCommand, func(e *Exception) *string { return e.Command }},
}

// validate applies the checks of §7.3 in their order and compiles the
// globs for mode m.
func (e *Exception) validate(m mode.Mode) error {
	if e.Kind != nil {
		k, ok := finding.KindByTag(*e.Kind)
		if !ok || m == mode.Ahab02 && k.Info().New {
			var tags []string
			for _, k := range kindOrder {
				if m != mode.Ahab02 || !k.Info().New {
					tags = append(tags, k.String())
				}
			}
			return fmt.Errorf("unknown kind %s, expected one of: %s", quote.Value(*e.Kind), strings.Join(tags, ", "))
		}
		e.kind = k
	}
	if e.Source != nil {
		src, ok := finding.SourceByName(*e.Source)
		if !ok || src == finding.Inherited && m == mode.Ahab02 {
			if m == mode.Ahab02 {
				return fmt.Errorf("unknown source %s, expected one of: user, hostname", quote.Value(*e.Source))
			}
			return fmt.Errorf("unknown source %s, expected one of: user, hostname, inherited", quote.Value(*e.Source))
		}
	}
	if e.Location != nil && *e.Location != "argument" && *e.Location != "param_file" && *e.Location != "env_var" {
		return fmt.Errorf("unknown location %s, expected one of: argument, param_file, env_var", quote.Value(*e.Location))
	}
	if e.Kind != nil {
		for _, a := range applicability {
			if a.get(e) != nil && !e.kind.Carries(a.field) {
				return fmt.Errorf("%q does not apply to a %q violation", a.name, *e.Kind)
			}
		}
	}
	if e.EnvVar != nil && e.Location != nil && *e.Location != "env_var" {
		return fmt.Errorf(`"env_var" needs location "env_var", not %s`, quote.Value(*e.Location))
	}
	if !e.hasPredicate() {
		return errors.New(`no conditions, so it would suppress every violation; give it at least one field besides "reason"`)
	}
	compileFor := glob.For(m)
	compile := func(s *string) glob.Glob {
		if s == nil {
			return glob.Glob{}
		}
		return compileFor(*s)
	}
	e.mnemonic, e.target, e.program = compile(e.Mnemonic), compile(e.Target), compile(e.Program)
	e.path, e.actual, e.requirement, e.ev = compile(e.Path), compile(e.Actual), compile(e.Requirement), compile(e.EnvVar)
	e.variation, e.command = compile(e.Variation), compile(e.Command)
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
