package jsonfile

import (
	"errors"
	"strings"
	"testing"
)

// point is a tiny format for the tests: {"name": string, "tags": [string],
// "note": string|null}, name required.
type point struct {
	Name string
	Tags []string
	Note string
}

func readPoint(d *Decoder) (point, error) {
	var p point
	seen := false
	err := d.Fields("a point", []string{"name", "tags", "note"}, func(field string) error {
		var err error
		switch field {
		case "name":
			p.Name, err = d.String("a string")
			seen = true
		case "tags":
			p.Tags, err = d.Strings("a sequence of strings")
		case "note":
			p.Note, _, err = d.OptionalString("a string")
		}
		return err
	})
	if err == nil && !seen {
		err = d.Errorf("missing field `name`")
	}
	if err == nil {
		err = d.End()
	}
	return p, err
}

func TestRead(t *testing.T) {
	d := NewBytesDecoder("p.json", []byte(`{"name": "é", "tags": ["a", "b"], "note": null}`+"\n"))
	p, err := readPoint(d)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "é" || strings.Join(p.Tags, ",") != "a,b" || p.Note != "" {
		t.Errorf("got %+v", p)
	}
}

// Every way a file can be wrong gives an *Error naming the file, the
// entry and the position of the problem.
func TestStrictness(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
		line, col       int
	}{
		{"unknown field", `{"name": "a", "Name": "b"}`, "unknown field `Name`, expected one of `name`, `tags`, `note`", 1, 20},
		{"duplicate field", "{\"name\": \"a\",\n \"name\": \"b\"}", "duplicate field `name`", 2, 2},
		{"invalid UTF-8", "{\"name\": \"\xff\"}", "invalid UTF-8", 1, 11},
		{"lone surrogate", `{"name": "\ud800"}`, "surrogate", 1, 11},
		{"trailing data", `{"name": "a"} {}`, "trailing characters after the document", 1, 15},
		{"wrong type", `{"name": 5}`, "invalid type: integer `5`, expected a string", 1, 10},
		{"wrong element", `{"name": "a", "tags": [null]}`, "invalid type: null, expected a string", 1, 27},
		{"missing field", `{"tags": []}`, "missing field `name`", 1, 12},
		{"truncated", `{"name": "a"`, "unexpected end of the document", 1, 13},
		{"not an object", `[]`, "invalid type: sequence, expected a point", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewBytesDecoder("p.json", []byte(tc.doc))
			d.SetEntry("point 1")
			_, err := readPoint(d)
			e, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Path != "p.json" || e.Entry != "point 1" || !strings.Contains(e.Err.Error(), tc.want) {
				t.Errorf("got %q, want p.json: point 1: …%s…", err, tc.want)
			}
			if e.Line != tc.line || e.Col != tc.col {
				t.Errorf("got line %d column %d, want %d:%d (%v)", e.Line, e.Col, tc.line, tc.col, err)
			}
		})
	}
}

func TestErrorRendering(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{Path: "a.json", Entry: "exception 3", Line: 4, Col: 7, Err: errors.New("bad")}, "a.json: exception 3: bad at line 4 column 7"},
		{&Error{Path: "a.json", Err: errors.New("bad")}, "a.json: bad"},
		// A file or entry name can never break the one-line message.
		{&Error{Path: "a\nb.json", Entry: "\x1b[2J", Err: errors.New("bad")}, `"a\nb.json": "\u{1b}[2J": bad`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// The first error sticks: later reads return it rather than reading on
// from a confused position.
func TestErrorsStick(t *testing.T) {
	d := NewBytesDecoder("p.json", []byte(`[5, "a"]`))
	var errs []error
	d.Array("a sequence", func() error {
		_, err := d.String("a string")
		errs = append(errs, err)
		return nil
	})
	if len(errs) == 0 || errs[0] == nil {
		t.Fatalf("got %v, want an error for 5", errs)
	}
	if err := d.End(); err != errs[0] {
		t.Errorf("End after an error: got %v, want %v", err, errs[0])
	}
}

func TestUint(t *testing.T) {
	d := NewBytesDecoder("c.json", []byte(`[3, 18446744073709551615, -1, 1.5]`))
	var got []uint64
	err := d.Array("a sequence", func() error {
		n, err := d.Uint("a count", 1<<62)
		got = append(got, n)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "expected a count no greater than") || got[0] != 3 {
		t.Errorf("got %v, %v", got, err)
	}
}

func TestSkipAndNull(t *testing.T) {
	d := NewBytesDecoder("s.json", []byte(`{"a": {"deep": [1, {"x": null}]}, "b": null}`))
	err := d.Object("an object", func(name string) error {
		if name == "a" {
			return d.Skip()
		}
		if !d.IsNull() {
			t.Errorf("b: IsNull is false")
		}
		return d.Null("null")
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
}

func TestOneOf(t *testing.T) {
	if got := OneOf([]string{"a"}); got != "`a`" {
		t.Errorf("got %s", got)
	}
	if got := OneOf([]string{"a", "b"}); got != "one of `a`, `b`" {
		t.Errorf("got %s", got)
	}
	if got := Backquote("x`y"); got != "\"x`y\"" {
		t.Errorf("got %s", got)
	}
}
