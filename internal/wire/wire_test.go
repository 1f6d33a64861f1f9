package wire

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/quote"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestErrorText(t *testing.T) {
	cause := errors.New("unexpected EOF")
	for _, tc := range []struct {
		name string
		err  *Error
		want string
	}{
		{"entry_and_offset", &Error{File: "dump.pb", Entry: "action 3", Offset: 17, Err: cause}, "dump.pb: action 3 (byte 17): unexpected EOF"},
		{"decompressed", &Error{File: "x.log", Entry: "spawn 1", Offset: 0, Decompressed: true, Err: cause}, "x.log: spawn 1 (byte 0 of the decompressed stream): unexpected EOF"},
		{"entry_only", &Error{File: "dump.pb", Entry: "target with id 4", Offset: -1, Err: cause}, "dump.pb: target with id 4: unexpected EOF"},
		{"offset_only", &Error{File: "dump.pb", Offset: 34, Err: cause}, "dump.pb: byte 34: unexpected EOF"},
		{"neither", &Error{File: "dump.pb", Offset: -1, Err: cause}, "dump.pb: unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !errors.Is(tc.err, cause) {
				t.Error("the cause is lost")
			}
		})
	}
}

func TestCallerError(t *testing.T) {
	mine := errors.New("stop")
	if err, ok := CallerError(FromCaller(mine)); !ok || err != mine {
		t.Errorf("CallerError(FromCaller(e)) = %v, %v", err, ok)
	}
	if _, ok := CallerError(mine); ok {
		t.Error("an error FromCaller never saw is the caller's")
	}
	if FromCaller(nil) != nil {
		t.Error("FromCaller(nil) is not nil")
	}
}

func TestReaderMessages(t *testing.T) {
	var stream []byte
	stream = protowire.AppendBytes(stream, []byte("one"))
	stream = protowire.AppendBytes(stream, []byte("second"))
	r := NewReader(bytes.NewReader(stream), 16)
	for _, want := range []string{"one", "second"} {
		msg, err := r.Message("a test message")
		if err != nil || string(msg) != want {
			t.Fatalf("Message() = %q, %v, want %q", msg, err, want)
		}
	}
	if _, err := r.Message("a test message"); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
	if r.Offset() != int64(len(stream)) {
		t.Errorf("Offset() = %d, want %d", r.Offset(), len(stream))
	}
}

func TestReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input []byte
		want  string
	}{
		{"truncated_length", []byte{0x80}, "length: unexpected EOF"},
		{"overlong_length", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "length: varint overflows 64 bits"},
		{"past_the_limit", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "length 4398046511103 exceeds the protobuf limit of 2 GiB"},
		{"empty", []byte{0}, "empty message, expected a test message"},
		{"truncated_body", []byte{5, 'a', 'b'}, "unexpected EOF after 2 of 5 bytes, expected a complete message"},
		{"read_failure", nil, "read failed: disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var src io.Reader = bytes.NewReader(tc.input)
			if tc.input == nil {
				src = failingReader{}
			}
			_, err := NewReader(src, 16).Message("a test message")
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// A length that claims 2 GiB fails at the end of the input having
// allocated about what the input held.
func TestReaderDoesNotTrustLengths(t *testing.T) {
	input := append(protowire.AppendVarint(nil, MaxMessageSize), make([]byte, 1<<20)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewReader(bytes.NewReader(input), 64<<10).Message("a test message")
	runtime.ReadMemStats(&after)
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v, want unexpected EOF", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("allocated %d bytes for a 1 MiB input", grew)
	}
}

func TestSkipField(t *testing.T) {
	var in []byte
	in = protowire.AppendVarint(in, 300)                  // a varint
	in = protowire.AppendBytes(in, []byte("hello"))       // a length-delimited value
	in = append(in, 1, 2, 3, 4)                           // a fixed32
	in = protowire.AppendTag(in, 9, protowire.VarintType) // inside a group 7
	in = protowire.AppendVarint(in, 1)
	in = protowire.AppendTag(in, 7, protowire.EndGroupType)
	r := NewReader(bytes.NewReader(in), 64)
	for _, typ := range []protowire.Type{protowire.VarintType, protowire.BytesType, protowire.Fixed32Type, protowire.StartGroupType} {
		if err := r.SkipField(7, typ, RecursionLimit); err != nil {
			t.Fatalf("skipping a field of wire type %d: %v", typ, err)
		}
	}
	if r.Offset() != int64(len(in)) {
		t.Errorf("skipped %d bytes of %d", r.Offset(), len(in))
	}
	deep := bytes.Repeat(protowire.AppendTag(nil, 7, protowire.StartGroupType), RecursionLimit+1)
	if err := NewReader(bytes.NewReader(deep), 64).SkipField(7, protowire.StartGroupType, RecursionLimit); !errors.Is(err, ErrTooDeep) {
		t.Errorf("groups nested past the limit: %v, want ErrTooDeep", err)
	}
}

var structDesc = (&structpb.Value{}).ProtoReflect().Descriptor()

func TestFields(t *testing.T) {
	// google.protobuf.Value: 1 null_value (enum), 2 number_value (double),
	// 3 string_value, 4 bool_value, 5 struct_value, 6 list_value.
	var msg []byte
	msg = protowire.AppendTag(msg, 3, protowire.BytesType)
	msg = protowire.AppendString(msg, "text")
	msg = protowire.AppendTag(msg, 4, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 1)
	msg = protowire.AppendTag(msg, 99, protowire.Fixed64Type) // unknown, skipped
	msg = protowire.AppendFixed64(msg, 7)
	msg = protowire.AppendTag(msg, 1, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 1<<32+5) // the low 32 bits are kept
	f := NewFields(msg, structDesc, RecursionLimit)
	var nums []protowire.Number
	var s string
	var b bool
	var u uint32
	for f.Next() {
		nums = append(nums, f.Num)
		switch f.Num {
		case 3:
			s = string(f.Str())
		case 4:
			b = f.Bool()
		case 1:
			u = f.Uint32()
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if len(nums) != 4 || s != "text" || !b || u != 5 {
		t.Errorf("fields %v, string %q, bool %v, uint32 %d", nums, s, b, u)
	}
}

func TestFieldsErrors(t *testing.T) {
	field := func(num protowire.Number, typ protowire.Type, v ...byte) []byte {
		return append(protowire.AppendTag(nil, num, typ), v...)
	}
	for _, tc := range []struct {
		name string
		msg  []byte
		want string
	}{
		{"wrong_wire_type", field(3, protowire.VarintType, 1), "field string_value has wire type 0, expected 2"},
		{"invalid_utf8", field(3, protowire.BytesType, 2, 'o', 0xff), "field string_value is not valid UTF-8, expected a UTF-8 string"},
		{"truncated_value", field(3, protowire.BytesType, 5, 'a'), "field string_value: unexpected EOF"},
		{"truncated_unknown", field(99, protowire.BytesType, 5, 'a'), "field 99: unexpected EOF"},
		{"truncated_tag", []byte{0x80}, "field tag: unexpected EOF"},
		{"field_zero", []byte{0x00}, "field tag: invalid field number"},
		{"field_number_past_the_limit", protowire.AppendVarint(nil, uint64(protowire.MaxValidNumber+1)<<3), "invalid field number 536870912"},
		{"mismatched_group", append(field(99, protowire.StartGroupType), protowire.AppendTag(nil, 98, protowire.EndGroupType)...), "field 99: mismatched end of group"},
		{"groups_too_deep", bytes.Repeat(field(99, protowire.StartGroupType), RecursionLimit+1), "field 99: nested more than 100 levels deep, expected at most 100 (protobuf's recursion limit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFields(tc.msg, structDesc, RecursionLimit)
			for f.Next() {
				if f.Num == 3 {
					f.Str()
				}
			}
			if err := f.Err(); err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if err := NewFields([]byte{0x18, 1}, structDesc, RecursionLimit); true {
		err.Next()
		err.Str()
		if !errors.Is(err.Err(), ErrWireType) {
			t.Errorf("%v is not ErrWireType", err.Err())
		}
	}
}

func TestFormats(t *testing.T) {
	type format int
	fs := Formats[format]{What: "test format", Names: []string{"detect", "a", "b"}, Detect: true}
	for f, name := range []string{"detect", "a", "b", "Format(3)"} {
		if got := fs.String(format(f)); got != name {
			t.Errorf("String(%d) = %q, want %q", f, got, name)
		}
	}
	if f, err := fs.Parse("b"); f != 2 || err != nil {
		t.Errorf("Parse(b) = %v, %v", f, err)
	}
	for _, bad := range []string{"detect", "c", ""} {
		if _, err := fs.Parse(bad); err == nil || err.Error() != `unknown test format `+quote.Value(bad)+`, expected one of: a, b` {
			t.Errorf("Parse(%q): %v", bad, err)
		}
	}
	written := Formats[format]{What: "output format", Names: []string{"a", "b"}}
	if f, err := written.Parse("a"); f != 0 || err != nil {
		t.Errorf("without Detect, Parse(a) = %v, %v", f, err)
	}
}

func TestLooksLikeJSON(t *testing.T) {
	for in, want := range map[string]bool{
		`{"a": 1}`: true, " \n{ }": true, "{": true, `{ "`: true,
		"": false, "[1]": false, "{x": false, "\x0a\x03abc": false,
	} {
		if got := LooksLikeJSON([]byte(in)); got != want {
			t.Errorf("LooksLikeJSON(%q) = %v", in, got)
		}
	}
}

func TestCompleteFields(t *testing.T) {
	whole := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("abc"))
	cut := append(slicesClone(whole), protowire.AppendTag(nil, 2, protowire.BytesType)...)
	cut = append(cut, 9, 'x')
	if got := CompleteFields(cut); !bytes.Equal(got, whole) {
		t.Errorf("CompleteFields = % x, want % x", got, whole)
	}
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }

func TestCheck(t *testing.T) {
	// A list_value (6) holding a value whose string_value is a varint.
	inner := protowire.AppendVarint(protowire.AppendTag(nil, 3, protowire.VarintType), 1)
	list := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), inner)
	msg := protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), list)
	if err := Check(msg, structDesc, RecursionLimit); err == nil || !strings.Contains(err.Error(), "field string_value has wire type 0, expected 2") {
		t.Errorf("Check: %v", err)
	}
}
