// Package jsonfile reads the JSON files people write and keep — spec,
// exception and report files — strictly and one token at a time, with one
// kind of error that names the file, the entry and the position.
//
// Strict means: a member name given twice in one object, invalid UTF-8
// (escaped lone surrogates included) and anything after the document are
// errors, and callers compare member names exactly, so a field spelt in
// another case is an unknown field. A dropped or misread field widens an
// exception or changes a verdict without anyone noticing, which is the one
// direction a mistake in these files must not go.
//
// The tokenizer is jsontext from github.com/go-json-experiment/json, the
// same package as the standard library's encoding/json/jsontext, which Go
// 1.26 still keeps behind GOEXPERIMENT=jsonv2 (with the experiment on, the
// module is an alias of it). Unlike encoding/json's Token API it rejects
// duplicate names and invalid UTF-8 itself.
package jsonfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/ahab-go/ahab/internal/quote"
)

// Error is a problem with a JSON file. It renders as one line,
// `<path>: <entry>: <what is wrong> at line L column C`, leaving out what
// is not known.
type Error struct {
	Path  string // the file as the user named it
	Entry string // the part of the file at fault, e.g. "exception 3"; empty for the file as a whole
	Line  int    // 1-based; 0 when the position is not known
	Col   int    // 1-based byte column
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(quote.IfNeeded(e.Path))
		b.WriteString(": ")
	}
	if e.Entry != "" {
		b.WriteString(quote.IfNeeded(e.Entry))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	if e.Line > 0 {
		fmt.Fprintf(&b, " at line %d column %d", e.Line, e.Col)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Decoder reads one JSON document. Its methods read one value each and
// return an *Error on any problem; after the first error every method
// returns that error.
type Decoder struct {
	path  string
	src   io.Reader
	dec   *jsontext.Decoder
	entry string
	err   error
}

// NewDecoder reads the document in r; path names it in errors. Errors
// carry a line and column when r is an io.ReaderAt (a file or a
// bytes.Reader), found by reading the document again up to the problem.
func NewDecoder(path string, r io.Reader) *Decoder {
	return &Decoder{path: path, src: r, dec: jsontext.NewDecoder(r)}
}

// NewBytesDecoder reads the document in data.
func NewBytesDecoder(path string, data []byte) *Decoder {
	return NewDecoder(path, bytes.NewReader(data))
}

// SetEntry says which entry of the file is being read, for errors; ""
// means the file as a whole.
func (d *Decoder) SetEntry(entry string) { d.entry = entry }

// Object reads an object, calling member with each member's name; member
// must read the value (with any method of d). what describes the expected
// object for the error when the value is something else.
func (d *Decoder) Object(what string, member func(name string) error) error {
	if _, err := d.open('{', what); err != nil {
		return err
	}
	for d.err == nil && d.dec.PeekKind() != '}' {
		tok, err := d.token()
		if err != nil {
			return err
		}
		if err := member(tok.String()); err != nil {
			return d.fail(err)
		}
	}
	_, err := d.token()
	return err
}

// Fields is Object for an object whose member names must be among known;
// an unknown name is an error that lists them.
func (d *Decoder) Fields(what string, known []string, member func(name string) error) error {
	return d.Object(what, func(name string) error {
		if !slices.Contains(known, name) {
			return d.Errorf("unknown field %s, expected %s", Backquote(name), OneOf(known))
		}
		return member(name)
	})
}

// Array reads an array, calling elem for each element; elem must read it.
func (d *Decoder) Array(what string, elem func() error) error {
	if _, err := d.open('[', what); err != nil {
		return err
	}
	for d.err == nil && d.dec.PeekKind() != ']' {
		if err := elem(); err != nil {
			return d.fail(err)
		}
	}
	_, err := d.token()
	return err
}

// String reads a string.
func (d *Decoder) String(what string) (string, error) {
	tok, err := d.token()
	if err != nil {
		return "", err
	}
	if tok.Kind() != '"' {
		return "", d.typeError(tok, what)
	}
	return tok.String(), nil
}

// OptionalString reads a string or null; ok is false for null.
func (d *Decoder) OptionalString(what string) (s string, ok bool, err error) {
	if d.dec.PeekKind() == 'n' {
		_, err := d.token()
		return "", false, err
	}
	s, err = d.String(what + " or null")
	return s, err == nil, err
}

// Strings reads an array of strings.
func (d *Decoder) Strings(what string) ([]string, error) {
	list := []string{}
	err := d.Array(what, func() error {
		s, err := d.String("a string")
		list = append(list, s)
		return err
	})
	return list, err
}

// IsNull reports whether the next value is null, without reading it.
func (d *Decoder) IsNull() bool { return d.err == nil && d.dec.PeekKind() == 'n' }

// Null reads a null.
func (d *Decoder) Null(what string) error {
	tok, err := d.token()
	if err == nil && tok.Kind() != 'n' {
		err = d.typeError(tok, what)
	}
	return err
}

// Bool reads true or false.
func (d *Decoder) Bool(what string) (bool, error) {
	tok, err := d.token()
	if err != nil {
		return false, err
	}
	if tok.Kind() != 't' && tok.Kind() != 'f' {
		return false, d.typeError(tok, what)
	}
	return tok.Kind() == 't', nil
}

// Uint reads a non-negative integer no greater than limit.
func (d *Decoder) Uint(what string, limit uint64) (uint64, error) {
	tok, err := d.token()
	if err != nil {
		return 0, err
	}
	if tok.Kind() != '0' {
		return 0, d.typeError(tok, what)
	}
	n, perr := strconv.ParseUint(tok.String(), 10, 64)
	if perr != nil || n > limit {
		return 0, d.Errorf("invalid value: %s, expected %s no greater than %d", describe(tok), what, limit)
	}
	return n, nil
}

// Skip reads past one value of any shape.
func (d *Decoder) Skip() error {
	if d.err != nil {
		return d.err
	}
	if err := d.dec.SkipValue(); err != nil {
		return d.syntaxError(err)
	}
	return nil
}

// End checks that nothing but white space follows the document.
func (d *Decoder) End() error {
	if d.err != nil {
		return d.err
	}
	if d.dec.PeekKind() == 0 {
		if _, err := d.dec.ReadToken(); err == io.EOF {
			return nil
		}
	}
	// The column is that of the first byte that is not white space.
	offset := d.dec.InputOffset()
	for _, c := range d.dec.UnreadBuffer() {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		offset++
	}
	return d.errorAt(offset+1, errors.New("trailing characters after the document"))
}

// Errorf makes an error placed at the last byte of the last token read,
// which is where serde, and so the original, placed its errors.
func (d *Decoder) Errorf(format string, args ...any) error {
	return d.errorAt(d.dec.InputOffset(), fmt.Errorf(format, args...))
}

// Wrap places err, a problem with the value just read, as Errorf does.
// An *Error is returned as it is.
func (d *Decoder) Wrap(err error) error {
	if err == nil {
		return nil
	}
	return d.fail(err)
}

// Backquote shows a name from the file the way the formats' own names are
// shown in messages, `name`, falling back to quoting when backquotes could
// mislead; a long name is cut in the middle (quote.Cut).
func Backquote(s string) string {
	if strings.ContainsRune(s, '`') || quote.Quote(s) != `"`+s+`"` {
		return quote.Value(s)
	}
	return "`" + quote.Cut(s) + "`"
}

// OneOf lists names for an "expected" clause: `a`, or one of `a`, `b`.
func OneOf(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return "one of " + strings.Join(quoted, ", ")
}

func (d *Decoder) open(delim jsontext.Kind, what string) (jsontext.Token, error) {
	tok, err := d.token()
	if err == nil && tok.Kind() != delim {
		err = d.typeError(tok, what)
	}
	return tok, err
}

func (d *Decoder) token() (jsontext.Token, error) {
	if d.err != nil {
		return jsontext.Token{}, d.err
	}
	tok, err := d.dec.ReadToken()
	if err != nil {
		return tok, d.syntaxError(err)
	}
	return tok, nil
}

func (d *Decoder) typeError(tok jsontext.Token, what string) error {
	return d.Errorf("invalid type: %s, expected %s", describe(tok), what)
}

// describe names a token as serde does in its messages, which users of the
// original know: "string \"x\"", "integer `5`", "map", "sequence".
func describe(tok jsontext.Token) string {
	switch tok.Kind() {
	case '{':
		return "map"
	case '[':
		return "sequence"
	case '"':
		return "string " + quote.Quote(tok.String())
	case '0':
		s := tok.String()
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return "integer `" + s + "`"
		}
		return "floating point `" + s + "`"
	case 't', 'f':
		return "boolean `" + tok.String() + "`"
	case 'n':
		return "null"
	}
	return tok.Kind().String()
}

// fail records err as the decoder's error, placing it unless it already
// is an *Error.
func (d *Decoder) fail(err error) error {
	if d.err != nil {
		return d.err
	}
	if _, ok := errors.AsType[*Error](err); ok {
		d.err = err
		return err
	}
	return d.errorAt(d.dec.InputOffset(), err)
}

func (d *Decoder) syntaxError(err error) error {
	offset := d.dec.InputOffset()
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok {
		// The offset is the offending byte's; the column is 1-based.
		offset = se.ByteOffset + 1
		if se.Err == jsontext.ErrDuplicateName {
			return d.errorAt(offset, fmt.Errorf("duplicate field %s", Backquote(se.JSONPointer.LastToken())))
		}
		err = se.Err
	}
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		err = errors.New("unexpected end of the document")
	case err != nil:
		// jsontext's own messages start with its package name.
		err = errors.New(strings.TrimPrefix(err.Error(), "jsontext: "))
	}
	return d.errorAt(offset, err)
}

func (d *Decoder) errorAt(offset int64, err error) error {
	if d.err != nil {
		return d.err
	}
	e := &Error{Path: d.path, Entry: d.entry, Err: err}
	if ra, ok := d.src.(io.ReaderAt); ok {
		e.Line, e.Col = position(ra, offset)
	}
	d.err = e
	return e
}

// position finds the line (1-based) of offset, and the number of bytes on
// that line before offset, which is the 1-based column of the byte before
// it, by reading the document again up to it.
func position(ra io.ReaderAt, offset int64) (line, col int) {
	line, lineStart := 1, int64(0)
	buf := make([]byte, 64<<10)
	for at := int64(0); at < offset; {
		n, err := ra.ReadAt(buf[:min(int64(len(buf)), offset-at)], at)
		for i, c := range buf[:n] {
			if c == '\n' {
				line++
				lineStart = at + int64(i) + 1
			}
		}
		at += int64(n)
		if err != nil || n == 0 {
			break
		}
	}
	return line, int(offset - lineStart)
}

// IsArray reports whether the next value is an array, without reading it.
func (d *Decoder) IsArray() bool { return d.err == nil && d.dec.PeekKind() == '[' }

// IsString reports whether the next value is a string, without reading it.
func (d *Decoder) IsString() bool { return d.err == nil && d.dec.PeekKind() == '"' }
