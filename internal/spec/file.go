package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/glob"
	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/program"
)

// The field names of the format, in the order error messages list them.
var (
	entryVariants = []string{"spec", "same_as", "wraps"}
	specFields    = []string{
		"reproducibility", "required_flags", "breaking_flags", "requirements",
		"prohibitions", "takes_value", "declared_paths", "recognize",
		// Our extension: the name of a recogniser implemented in Go
		// (RecognizerNames), applied before recognize.
		"recognize_with",
		// Our extension: what the program does (Behaviour, docs/specs.md).
		"options", "bundle_first", "operands", "stdin", "stdout", "effects", "sets", "removes", "cases", "computes", "writes_elsewhere",
		"keeps",
	}
	topFields    = []string{"programs", "files", "functions"}
	effectFields = []string{"value", "because", "when", "unless"}
	// The fields of a file's and a function's entry.
	fileFields         = []string{"effects"}
	functionFields     = []string{"effects", "returns", "runs", "removes", "sets", "opens", "writes"}
	factFields         = []string{"fact", "when"}
	caseFields         = []string{"when", "operands", "stdin", "stdout", "roles", "removes"}
	conditionFields    = []string{"family", "off", "all", "none"}
	clauseFields       = []string{"because", "any_of", "when"}
	guardFields        = []string{"family", "off"}
	transitionVariants = []string{"after_separator", "first_argument"}
)

// File is what a spec file holds: the programs of §5.4 and, in our
// extension, the files of the machine whose content varies and the
// functions of each language that make a value vary (docs/specs.md).
type File struct {
	Programs  []Entry
	Files     []FileEntry
	Functions []Function
}

// ParseFile reads a spec file (§5.4) and returns its programs; see Parse.
func ParseFile(name string, data []byte, m mode.Mode) ([]Entry, error) {
	f, err := Parse(name, data, m)
	if err != nil {
		return nil, err
	}
	return f.Programs, nil
}

// Parse reads a spec file (§5.4):
//
//	{"programs": {"<program name>": <entry>, ...}}
//
// where an entry is exactly one of {"spec": {...}}, {"same_as": "<name>"}
// or {"wraps": {"after_separator": "<sep>"} | "first_argument"}; and, our
// extension, "files" and "functions" beside "programs". The file is read
// strictly (package jsonfile): unknown fields anywhere, a program given
// twice and invalid UTF-8 are errors, where the original ignored other
// top-level keys and kept a repeated key's last value. Entries come back
// in byte-sorted key order, the order the library applies them in. name is
// the file's path; errors are *jsonfile.Error. Names and globs are read as
// mode m reads them.
func Parse(name string, data []byte, m mode.Mode) (*File, error) {
	d := jsonfile.NewBytesDecoder(name, data)
	r := reader{d: d, mode: m}
	var raw map[string]rawEntry
	file := &File{}
	err := d.Fields("an object with a `programs` field", topFields, func(field string) error {
		var err error
		switch field {
		case "programs":
			raw, err = r.programs()
		case "files":
			file.Files, err = r.files(name)
		case "functions":
			file.Functions, err = r.functions(name)
		}
		return err
	})
	if err == nil && raw == nil && file.Files == nil && file.Functions == nil {
		err = d.Errorf("missing field `programs`")
	}
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return nil, err
	}

	// §5.4: names are parsed after the whole file was read, in sorted key
	// order, so the first failing entry in that order is the one reported.
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	entries := make([]Entry, 0, len(keys))
	parse := program.ParseFor(m)
	for _, key := range keys {
		r := raw[key]
		id, err := parse(key)
		if err != nil {
			return nil, &jsonfile.Error{Path: name, Entry: key, Err: fmt.Errorf("program: %w", err)}
		}
		e := r.entry
		e.Key, e.Program, e.Origin = key, id, name
		if e.Kind == SameAsEntry {
			if e.SameAs, err = parse(r.sameAs); err != nil {
				return nil, &jsonfile.Error{Path: name, Entry: key, Err: fmt.Errorf("same_as: %w", err)}
			}
		}
		entries = append(entries, e)
	}
	file.Programs = entries
	return file, nil
}

// reader reads the parts of a spec file for one mode.
type reader struct {
	d    *jsonfile.Decoder
	mode mode.Mode
}

// rawEntry is an entry whose names are not parsed yet.
type rawEntry struct {
	entry  Entry
	sameAs string
}

func (r reader) programs() (map[string]rawEntry, error) {
	d := r.d
	programs := make(map[string]rawEntry)
	err := d.Object("an object from program names to entries", func(key string) error {
		d.SetEntry(key)
		e, err := r.entry()
		programs[key] = e
		d.SetEntry("")
		return err
	})
	return programs, err
}

func (r reader) entry() (rawEntry, error) {
	d := r.d
	var e rawEntry
	variants := 0
	err := d.Object("an entry, one of "+backquoteList(entryVariants), func(variant string) error {
		if !slices.Contains(entryVariants, variant) {
			return d.Errorf("unknown variant %s, expected one of %s", jsonfile.Backquote(variant), backquoteList(entryVariants))
		}
		if variants++; variants > 1 {
			return d.Errorf("an entry has exactly one of %s, found %s after `%s`",
				backquoteList(entryVariants), jsonfile.Backquote(variant), entryVariants[e.entry.Kind])
		}
		var err error
		switch variant {
		case "spec":
			e.entry.Kind = SpecEntry
			e.entry.Spec, err = r.spec()
		case "same_as":
			e.entry.Kind = SameAsEntry
			e.sameAs, err = d.String("a program name")
		case "wraps":
			e.entry.Kind = WrapsEntry
			e.entry.Wraps, err = r.transition()
		}
		return err
	})
	if err == nil && variants == 0 {
		err = d.Errorf("an entry needs one of %s", backquoteList(entryVariants))
	}
	return e, err
}

func (r reader) spec() (*Spec, error) {
	d := r.d
	def := Definition{Mode: r.mode}
	seen := false
	var b behaviourReader
	err := d.Fields("a spec object", specFields, func(field string) error {
		if slices.Index(specFields, field) >= slices.Index(specFields, "options") {
			return b.field(r, field)
		}
		var err error
		switch field {
		case "reproducibility":
			seen = true
			def.Reproducibility, err = r.disposition()
		case "required_flags":
			def.RequiredFlags, err = d.Strings("a sequence")
		case "breaking_flags":
			def.BreakingFlags, err = d.Strings("a sequence")
		case "requirements":
			def.Requirements, err = r.clauses()
		case "prohibitions":
			def.Prohibitions, err = r.clauses()
		case "takes_value":
			def.TakesValue, err = d.Strings("a sequence")
		case "declared_paths":
			def.DeclaredPaths, err = d.Strings("a sequence")
		case "recognize":
			def.Recognize, err = r.stringMap()
		case "recognize_with":
			if def.RecognizeWith, err = d.String("a recognizer name"); err == nil {
				if _, ok := recognizers[def.RecognizeWith]; !ok {
					err = unknownRecognizerError(def.RecognizeWith)
				}
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if b.seen {
		if def.Behaviour, err = b.finish(r); err != nil {
			return nil, err
		}
	}
	switch {
	case !seen && b.seen && r.mode == mode.Ahab02:
		return nil, d.Errorf("missing field `reproducibility` (a spec that only describes what the program does is read by Ahab's own judgement, not by --compat 0.2)")
	case !seen && !b.seen:
		return nil, d.Errorf("missing field `reproducibility`")
	}
	s, err := New(def)
	if err != nil {
		return nil, d.Wrap(err)
	}
	return s, nil
}

func (r reader) disposition() (Disposition, error) {
	d := r.d
	s, err := d.String("one of " + backquoteList(dispositionNames[:]))
	if err != nil {
		return 0, err
	}
	if i := slices.Index(dispositionNames[:], s); i >= 0 {
		return Disposition(i), nil
	}
	return 0, d.Errorf("unknown variant %s, expected one of %s", jsonfile.Backquote(s), backquoteList(dispositionNames[:]))
}

func (r reader) clauses() ([]Clause, error) {
	d := r.d
	var list []Clause
	err := d.Array("a sequence of clauses", func() error {
		c, err := r.clause()
		list = append(list, c)
		return err
	})
	return list, err
}

func (r reader) clause() (Clause, error) {
	d := r.d
	var c Clause
	var because, anyOf bool
	err := d.Fields("a clause object", clauseFields, func(field string) error {
		var err error
		switch field {
		case "because":
			because = true
			c.Because, err = d.String("a string")
		case "any_of":
			anyOf = true
			c.AnyOf, err = r.globList()
		case "when":
			c.When, err = r.guard()
		}
		return err
	})
	switch {
	case err != nil:
	case !because:
		err = d.Errorf("missing field `because`")
	case !anyOf:
		err = d.Errorf("missing field `any_of`")
	}
	return c, err
}

// guard reads a clause's `when`; null means no condition.
func (r reader) guard() (*Guard, error) {
	d := r.d
	if d.IsNull() {
		return nil, d.Null("null")
	}
	g := &Guard{}
	family := false
	err := d.Fields("a guard object", guardFields, func(field string) error {
		var err error
		switch field {
		case "family":
			family = true
			g.Family, err = r.globList()
		case "off":
			g.Off, err = r.globList()
		}
		return err
	})
	if err == nil && !family {
		err = d.Errorf("missing field `family`")
	}
	return g, err
}

func (r reader) transition() (Transition, error) {
	d := r.d
	var t Transition
	if !d.IsNull() {
		// A bare string names a unit variant.
		if s, err := peekString(d); err != nil || s != nil {
			if err != nil {
				return t, err
			}
			switch *s {
			case "first_argument":
				return Transition{Kind: FirstArgument}, nil
			case "after_separator":
				return t, d.Errorf("`after_separator` needs a separator, expected {\"after_separator\": \"<separator>\"}")
			}
			return t, d.Errorf("unknown variant %s, expected one of %s", jsonfile.Backquote(*s), backquoteList(transitionVariants))
		}
	}
	variants := 0
	err := d.Object("one of "+backquoteList(transitionVariants), func(variant string) error {
		if !slices.Contains(transitionVariants, variant) {
			return d.Errorf("unknown variant %s, expected one of %s", jsonfile.Backquote(variant), backquoteList(transitionVariants))
		}
		if variants++; variants > 1 {
			return d.Errorf("a transition has exactly one of %s", backquoteList(transitionVariants))
		}
		var err error
		switch variant {
		case "after_separator":
			t.Kind = AfterSeparator
			t.Separator, err = d.String("a separator")
		case "first_argument":
			// serde reads a unit variant written as a map with a null value.
			t.Kind = FirstArgument
			err = d.Null("null")
		}
		return err
	})
	if err == nil && variants == 0 {
		err = d.Errorf("a transition needs one of %s", backquoteList(transitionVariants))
	}
	return t, err
}

// peekString reads the next value if it is a string; s is nil when it is
// not, and then nothing was read.
func peekString(d *jsonfile.Decoder) (s *string, err error) {
	if !d.IsString() {
		return nil, nil
	}
	v, err := d.String("a string")
	return &v, err
}

func (r reader) globList() ([]glob.Glob, error) {
	d := r.d
	patterns, err := d.Strings("a sequence")
	if err != nil {
		return nil, err
	}
	globs := make([]glob.Glob, len(patterns))
	for i, s := range patterns {
		globs[i] = glob.For(r.mode)(s)
	}
	return globs, nil
}

func (r reader) stringMap() (map[string]string, error) {
	d := r.d
	m := make(map[string]string)
	err := d.Object("a map", func(k string) error {
		v, err := d.String("a string")
		m[k] = v
		return err
	})
	return m, err
}

func unknownRecognizerError(name string) error {
	return fmt.Errorf("unknown recognizer %s, expected one of %s", jsonfile.Backquote(name), backquoteList(RecognizerNames()))
}

func backquoteList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return strings.Join(quoted, ", ")
}
