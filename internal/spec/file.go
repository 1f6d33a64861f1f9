package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/program"
	"github.com/ahab-go/ahab/internal/quote"
)

// FileError is a problem with a spec file. It renders as
// `<path>: <entry>: <what is wrong>[ at line L column C]`; Path and Entry
// are left out when empty.
type FileError struct {
	Path   string // the file as the user named it
	Entry  string // the program key as written; empty for the file as a whole
	Line   int    // 1-based position of the problem; 0 when it has none
	Column int
	Err    error
}

func (e *FileError) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Entry != "" {
		b.WriteString(displayKey(e.Entry))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	if e.Line > 0 {
		fmt.Fprintf(&b, " at line %d column %d", e.Line, e.Column)
	}
	return b.String()
}

func (e *FileError) Unwrap() error { return e.Err }

// displayKey keeps messages on one line: a key with control characters is
// quoted.
func displayKey(key string) string {
	for _, r := range key {
		if r < 0x20 || r == 0x7f {
			return quote.Quote(key)
		}
	}
	return key
}

// The field names of the format, in the order error messages list them.
var (
	entryVariants = []string{"spec", "same_as", "wraps"}
	specFields    = []string{
		"reproducibility", "required_flags", "breaking_flags", "requirements",
		"prohibitions", "takes_value", "declared_paths", "recognize",
		// Our extension: the name of a recogniser implemented in Go
		// (RecognizerNames), applied before recognize.
		"recognize_with",
	}
	clauseFields       = []string{"because", "any_of", "when"}
	guardFields        = []string{"family", "off"}
	transitionVariants = []string{"after_separator", "first_argument"}
)

// ParseFile reads a spec file (§5.4):
//
//	{"programs": {"<program name>": <entry>, ...}}
//
// where an entry is exactly one of {"spec": {...}}, {"same_as": "<name>"}
// or {"wraps": {"after_separator": "<sep>"} | "first_argument"}. Other
// top-level keys are ignored; unknown fields inside a spec, clause or
// guard are errors. A key given twice keeps its last value. Entries come
// back in byte-sorted key order, the order the library applies them in.
// name is the file's path; errors are *FileError.
func ParseFile(name string, data []byte) ([]Entry, error) {
	if !utf8.Valid(data) {
		return nil, &FileError{Path: name, Err: errors.New("stream did not contain valid UTF-8")}
	}
	p := &parser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	raw, err := p.file()
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Path = name
			return nil, fe
		}
		return nil, &FileError{Path: name, Err: err}
	}

	// §5.4: names are parsed after the whole file was read, in sorted key
	// order, so the first failing entry in that order is the one reported.
	keys := slices.Sorted(maps.Keys(raw))
	entries := make([]Entry, 0, len(keys))
	for _, key := range keys {
		r := raw[key]
		id, err := program.Parse(key)
		if err != nil {
			return nil, &FileError{Path: name, Entry: key, Err: fmt.Errorf("program: %w", err)}
		}
		e := r.entry
		e.Key, e.Program, e.Origin = key, id, name
		if e.Kind == SameAsEntry {
			if e.SameAs, err = program.Parse(r.sameAs); err != nil {
				return nil, &FileError{Path: name, Entry: key, Err: fmt.Errorf("same_as: %w", err)}
			}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// rawEntry is an entry whose names are not parsed yet.
type rawEntry struct {
	entry  Entry
	sameAs string
}

// parser reads the format token by token, which keeps field names
// case-sensitive (encoding/json's struct decoding is not), lets it reject
// unknown and duplicate fields by name, and gives every error a position.
type parser struct {
	data []byte
	dec  *json.Decoder
}

func (p *parser) file() (map[string]rawEntry, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, p.typeError(tok, "an object with a `programs` field")
	}
	var programs map[string]rawEntry
	for p.dec.More() {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if key != "programs" {
			// §5.4: other top-level keys are ignored.
			if err := p.skipValue(); err != nil {
				return nil, err
			}
			continue
		}
		if programs != nil {
			return nil, p.errorf("duplicate field `programs`")
		}
		if programs, err = p.programs(); err != nil {
			return nil, err
		}
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	if programs == nil {
		return nil, p.errorf("missing field `programs`")
	}
	if _, err := p.dec.Token(); err != io.EOF {
		offset := p.dec.InputOffset()
		for offset < int64(len(p.data)) && strings.IndexByte(" \t\r\n", p.data[offset]) >= 0 {
			offset++
		}
		return nil, p.errorAt(offset+1, errors.New("trailing characters"))
	}
	return programs, nil
}

func (p *parser) programs() (map[string]rawEntry, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, p.typeError(tok, "an object from program names to entries")
	}
	programs := make(map[string]rawEntry)
	for p.dec.More() {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		e, err := p.entry()
		if err != nil {
			var fe *FileError
			if errors.As(err, &fe) && fe.Entry == "" {
				fe.Entry = key
			}
			return nil, err
		}
		programs[key] = e // §5.4: a key given twice keeps its last value
	}
	_, err = p.token()
	return programs, err
}

func (p *parser) entry() (rawEntry, error) {
	var e rawEntry
	tok, err := p.token()
	if err != nil {
		return e, err
	}
	if tok != json.Delim('{') {
		return e, p.typeError(tok, "an entry, one of "+backquoteList(entryVariants))
	}
	if !p.dec.More() {
		return e, p.errorf("an entry needs one of %s", backquoteList(entryVariants))
	}
	variant, err := p.key()
	if err != nil {
		return e, err
	}
	switch variant {
	case "spec":
		e.entry.Kind = SpecEntry
		e.entry.Spec, err = p.spec()
	case "same_as":
		e.entry.Kind = SameAsEntry
		e.sameAs, err = p.string()
	case "wraps":
		e.entry.Kind = WrapsEntry
		e.entry.Wraps, err = p.transition()
	default:
		return e, p.errorf("unknown variant %s, expected one of %s", backquote(variant), backquoteList(entryVariants))
	}
	if err != nil {
		return e, err
	}
	if p.dec.More() {
		second, err := p.key()
		if err != nil {
			return e, err
		}
		return e, p.errorf("an entry has exactly one of %s, found %s after %s",
			backquoteList(entryVariants), backquote(second), backquote(variant))
	}
	_, err = p.token()
	return e, err
}

func (p *parser) spec() (*Spec, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, p.typeError(tok, "a spec object")
	}
	var d Definition
	seen := make(map[string]bool)
	for p.dec.More() {
		field, err := p.field(specFields, seen)
		if err != nil {
			return nil, err
		}
		switch field {
		case "reproducibility":
			d.Reproducibility, err = p.disposition()
		case "required_flags":
			d.RequiredFlags, err = p.stringList()
		case "breaking_flags":
			d.BreakingFlags, err = p.stringList()
		case "requirements":
			d.Requirements, err = p.clauses()
		case "prohibitions":
			d.Prohibitions, err = p.clauses()
		case "takes_value":
			d.TakesValue, err = p.stringList()
		case "declared_paths":
			d.DeclaredPaths, err = p.stringList()
		case "recognize":
			d.Recognize, err = p.stringMap()
		case "recognize_with":
			if d.RecognizeWith, err = p.string(); err == nil {
				if _, ok := recognizers[d.RecognizeWith]; !ok {
					err = p.positioned(unknownRecognizerError(d.RecognizeWith))
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	if !seen["reproducibility"] {
		return nil, p.errorf("missing field `reproducibility`")
	}
	s, err := New(d)
	if err != nil {
		return nil, p.positioned(err)
	}
	return s, nil
}

func (p *parser) disposition() (Disposition, error) {
	tok, err := p.token()
	if err != nil {
		return 0, err
	}
	s, ok := tok.(string)
	if !ok {
		return 0, p.typeError(tok, "one of "+backquoteList(dispositionNames[:]))
	}
	if i := slices.Index(dispositionNames[:], s); i >= 0 {
		return Disposition(i), nil
	}
	return 0, p.errorf("unknown variant %s, expected one of %s", backquote(s), backquoteList(dispositionNames[:]))
}

func (p *parser) clauses() ([]Clause, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, p.typeError(tok, "a sequence of clauses")
	}
	var clauses []Clause
	for p.dec.More() {
		c, err := p.clause()
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, c)
	}
	_, err = p.token()
	return clauses, err
}

func (p *parser) clause() (Clause, error) {
	var c Clause
	tok, err := p.token()
	if err != nil {
		return c, err
	}
	if tok != json.Delim('{') {
		return c, p.typeError(tok, "a clause object")
	}
	seen := make(map[string]bool)
	for p.dec.More() {
		field, err := p.field(clauseFields, seen)
		if err != nil {
			return c, err
		}
		switch field {
		case "because":
			c.Because, err = p.string()
		case "any_of":
			c.AnyOf, err = p.globList()
		case "when":
			c.When, err = p.guard()
		}
		if err != nil {
			return c, err
		}
	}
	if _, err := p.token(); err != nil {
		return c, err
	}
	for _, required := range []string{"because", "any_of"} {
		if !seen[required] {
			return c, p.errorf("missing field `%s`", required)
		}
	}
	return c, nil
}

// guard reads a clause's `when`; null means no condition.
func (p *parser) guard() (*Guard, error) {
	tok, err := p.token()
	if err != nil || tok == nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, p.typeError(tok, "a guard object")
	}
	g := &Guard{}
	seen := make(map[string]bool)
	for p.dec.More() {
		field, err := p.field(guardFields, seen)
		if err != nil {
			return nil, err
		}
		switch field {
		case "family":
			g.Family, err = p.globList()
		case "off":
			g.Off, err = p.globList()
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := p.token(); err != nil {
		return nil, err
	}
	if !seen["family"] {
		return nil, p.errorf("missing field `family`")
	}
	return g, nil
}

func (p *parser) transition() (Transition, error) {
	tok, err := p.token()
	if err != nil {
		return Transition{}, err
	}
	if s, ok := tok.(string); ok {
		switch s {
		case "first_argument":
			return Transition{Kind: FirstArgument}, nil
		case "after_separator":
			return Transition{}, p.errorf("`after_separator` needs a separator, expected {\"after_separator\": \"<separator>\"}")
		}
		return Transition{}, p.errorf("unknown variant %s, expected one of %s", backquote(s), backquoteList(transitionVariants))
	}
	if tok != json.Delim('{') {
		return Transition{}, p.typeError(tok, "one of "+backquoteList(transitionVariants))
	}
	if !p.dec.More() {
		return Transition{}, p.errorf("a transition needs one of %s", backquoteList(transitionVariants))
	}
	variant, err := p.key()
	if err != nil {
		return Transition{}, err
	}
	var t Transition
	switch variant {
	case "after_separator":
		t.Kind = AfterSeparator
		t.Separator, err = p.string()
	case "first_argument":
		t.Kind = FirstArgument
		// serde reads a unit variant written as a map with a null value.
		if tok, err = p.token(); err == nil && tok != nil {
			err = p.typeError(tok, "null")
		}
	default:
		return t, p.errorf("unknown variant %s, expected one of %s", backquote(variant), backquoteList(transitionVariants))
	}
	if err != nil {
		return t, err
	}
	if p.dec.More() {
		return t, p.errorf("a transition has exactly one of %s", backquoteList(transitionVariants))
	}
	_, err = p.token()
	return t, err
}

// field reads an object key that must be one of known and not repeated.
func (p *parser) field(known []string, seen map[string]bool) (string, error) {
	field, err := p.key()
	if err != nil {
		return "", err
	}
	if !slices.Contains(known, field) {
		return "", p.errorf("unknown field %s, expected one of %s", backquote(field), backquoteList(known))
	}
	if seen[field] {
		return "", p.errorf("duplicate field %s", backquote(field))
	}
	seen[field] = true
	return field, nil
}

// key reads an object key; the decoder guarantees it is a string.
func (p *parser) key() (string, error) {
	tok, err := p.token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", p.typeError(tok, "a string key")
	}
	return s, nil
}

func (p *parser) string() (string, error) {
	tok, err := p.token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", p.typeError(tok, "a string")
	}
	return s, nil
}

func (p *parser) stringList() ([]string, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, p.typeError(tok, "a sequence")
	}
	list := []string{}
	for p.dec.More() {
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		list = append(list, s)
	}
	_, err = p.token()
	return list, err
}

func (p *parser) globList() ([]Glob, error) {
	patterns, err := p.stringList()
	if err != nil {
		return nil, err
	}
	globs := make([]Glob, len(patterns))
	for i, s := range patterns {
		globs[i] = CompileGlob(s)
	}
	return globs, nil
}

func (p *parser) stringMap() (map[string]string, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, p.typeError(tok, "a map")
	}
	m := make(map[string]string)
	for p.dec.More() {
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		if m[k], err = p.string(); err != nil {
			return nil, err
		}
	}
	_, err = p.token()
	return m, err
}

// skipValue reads past one value of any shape.
func (p *parser) skipValue() error {
	depth := 0
	for {
		tok, err := p.token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// token reads the next token, giving syntax errors a position.
func (p *parser) token() (json.Token, error) {
	tok, err := p.dec.Token()
	if err == nil {
		return tok, nil
	}
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		// Offset counts the bytes before the offending one; point at it.
		return nil, p.errorAt(syntax.Offset+1, errors.New(syntax.Error()))
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, p.errorAt(int64(len(p.data)), errors.New("EOF while parsing a value"))
	}
	return nil, p.positioned(err)
}

// typeError says a value has the wrong shape, naming what it is.
func (p *parser) typeError(tok json.Token, expected string) error {
	return p.errorf("invalid type: %s, expected %s", describeToken(tok), expected)
}

func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "sequence"
		}
		return "map"
	case string:
		return "string " + quote.Quote(v)
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return "integer `" + string(v) + "`"
		}
		return "floating point `" + string(v) + "`"
	case bool:
		return fmt.Sprintf("boolean `%t`", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

func (p *parser) errorf(format string, args ...any) error {
	return p.positioned(fmt.Errorf(format, args...))
}

// positioned places err just after the last token read.
func (p *parser) positioned(err error) error {
	return p.errorAt(p.dec.InputOffset(), err)
}

func (p *parser) errorAt(offset int64, err error) error {
	offset = min(max(offset, 0), int64(len(p.data)))
	before := p.data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	column := int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	return &FileError{Line: line, Column: column, Err: err}
}

func unknownRecognizerError(name string) error {
	return fmt.Errorf("unknown recognizer %s, expected one of %s", backquote(name), backquoteList(RecognizerNames()))
}

// backquote shows a name from the file the way the format's own names are
// shown, falling back to quoting when backquotes could mislead.
func backquote(s string) string {
	if strings.ContainsRune(s, '`') || quote.Quote(s) != `"`+s+`"` {
		return quote.Quote(s)
	}
	return "`" + s + "`"
}

func backquoteList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return strings.Join(quoted, ", ")
}
