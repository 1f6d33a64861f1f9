package wire

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Fields walks the fields of one message, as prost (and so the original
// Ahab) decodes them: Next reads a field's tag and value, and the accessor
// for the field's type takes the value, refusing a known field of the
// wrong wire type, which the generated Go code would keep as an unknown
// field. Unknown fields are skipped, groups included, down to the
// recursion limit; a field number past protobuf's limit is refused
// wherever it is. The first error sticks: Next then reports false, and
// Err returns it.
//
// The message's descriptor names fields in errors, so that the readers
// need not: "field mnemonic has wire type 0, expected 2".
type Fields struct {
	b     []byte
	desc  protoreflect.MessageDescriptor
	level int
	// Num and Type are the current field's number and wire type.
	Num  protowire.Number
	Type protowire.Type
	v    uint64 // a varint's value
	val  []byte // a length-delimited value
	err  error
}

// NewFields walks b, a message of type desc (which may be nil: fields are
// then named by number) whose fields are at the given nesting level
// (RecursionLimit for a message at the top of a stream).
func NewFields(b []byte, desc protoreflect.MessageDescriptor, level int) Fields {
	return Fields{b: b, desc: desc, level: level}
}

// Sub walks the current field's value as a message of type desc, one
// level below.
func (f *Fields) Sub(desc protoreflect.MessageDescriptor) Fields {
	return Fields{b: f.Bytes(), desc: desc, level: f.level - 1}
}

// ErrFieldNumber is a field number past protobuf's limit of 2^29-1, which
// prost refuses wherever it is (the generated Go code allows up to 2^31-1
// inside unknown groups).
var ErrFieldNumber = errors.New("invalid field number")

// ErrTooDeep is a field past the recursion limit.
var ErrTooDeep = fmt.Errorf("nested more than %d levels deep, expected at most %d (protobuf's recursion limit)", RecursionLimit, RecursionLimit)

// ErrWireType is a known field encoded with the wrong wire type.
var ErrWireType = errors.New("wrong wire type")

// Next moves to the next field, reading its tag and value; it reports
// false at the end of the message or on an error.
func (f *Fields) Next() bool {
	if f.err != nil || len(f.b) == 0 {
		return false
	}
	var num protowire.Number
	var typ protowire.Type
	var n int
	if c := f.b[0]; c >= 1<<3 && c < 0x80 {
		// Most tags are one byte: fields 1 to 15.
		num, typ, n = protowire.Number(c>>3), protowire.Type(c&7), 1
	} else if num, typ, n = protowire.ConsumeTag(f.b); n < 0 {
		f.err = fmt.Errorf("field tag: %w", parseError(n))
		return false
	} else if num > protowire.MaxValidNumber {
		f.err = fmt.Errorf("%w %d", ErrFieldNumber, num)
		return false
	}
	f.Num, f.Type = num, typ
	var m int
	switch typ {
	case protowire.VarintType:
		f.v, m = protowire.ConsumeVarint(f.b[n:])
	case protowire.BytesType:
		f.val, m = protowire.ConsumeBytes(f.b[n:])
	default:
		var err error
		if m, err = skipValue(num, typ, f.b[n:], f.level); err != nil {
			f.err = err
			return false
		}
	}
	if m < 0 {
		f.err = fmt.Errorf("field %s: %w", f.name(), parseError(m))
		return false
	}
	f.b = f.b[n+m:]
	return true
}

// TakeStr takes the next field when its tag is the one byte tag (a
// length-delimited field numbered 1 to 15) and its value is whole and
// UTF-8, and returns the value; otherwise it takes nothing, for Next to
// read the field. It is the fast path for the field most of a message's
// bytes are in: an action's arguments.
func (f *Fields) TakeStr(tag byte) ([]byte, bool) {
	if f.err != nil || len(f.b) < 2 || f.b[0] != tag {
		return nil, false
	}
	v, n := protowire.ConsumeBytes(f.b[1:])
	if n < 0 || !utf8.Valid(v) {
		return nil, false
	}
	f.b = f.b[1+n:]
	return v, true
}

// Err is the first error the walk met, or that Fail recorded.
func (f *Fields) Err() error { return f.err }

// Fail records an error about the message, unless one is recorded already,
// and ends the walk.
func (f *Fields) Fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// name is the current field's name, or its number when the message has
// no descriptor or the field is unknown.
func (f *Fields) name() string {
	if f.desc != nil {
		if fd := f.desc.Fields().ByNumber(f.Num); fd != nil {
			return string(fd.Name())
		}
	}
	return fmt.Sprint(int32(f.Num))
}

func (f *Fields) want(typ protowire.Type) bool {
	if f.Type == typ {
		return true
	}
	f.Fail(&wireTypeError{f.name(), f.Type, typ})
	return false
}

// Uint32 is a uint32 field's value: the varint's low 32 bits, as protobuf
// decoders (prost, Java's, Go's) keep them.
func (f *Fields) Uint32() uint32 {
	if !f.want(protowire.VarintType) {
		return 0
	}
	return uint32(f.v)
}

// Int32 is an int32 field's value, which protobuf writes sign-extended to
// 64 bits when negative.
func (f *Fields) Int32() int32 { return int32(f.Int64()) }

// Int64 is an int64 field's value.
func (f *Fields) Int64() int64 {
	if !f.want(protowire.VarintType) {
		return 0
	}
	return int64(f.v)
}

// Bool is a bool field's value.
func (f *Fields) Bool() bool {
	if !f.want(protowire.VarintType) {
		return false
	}
	return f.v != 0
}

// Bytes is a length-delimited field's value (bytes, or a message), which
// shares the message's memory.
func (f *Fields) Bytes() []byte {
	if !f.want(protowire.BytesType) {
		return nil
	}
	return f.val
}

// Str is a string field's value, checked to be UTF-8 as proto3 requires;
// it shares the message's memory.
func (f *Fields) Str() []byte {
	if !f.want(protowire.BytesType) {
		return nil
	}
	if !utf8.Valid(f.val) {
		f.Fail(fmt.Errorf("field %s is not valid UTF-8, expected a UTF-8 string", f.name()))
		return nil
	}
	return f.val
}

// AppendUint32s appends the values of a repeated uint32 field, packed or
// not.
func (f *Fields) AppendUint32s(dst []uint32) []uint32 {
	switch f.Type {
	case protowire.VarintType:
		return append(dst, uint32(f.v))
	case protowire.BytesType:
		for b := f.val; len(b) > 0; {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				f.Fail(fmt.Errorf("field %s: %w", f.name(), parseError(n)))
				return dst
			}
			dst = append(dst, uint32(v))
			b = b[n:]
		}
		return dst
	}
	f.want(protowire.BytesType)
	return dst
}

// wireTypeError is a known field encoded with the wrong wire type.
type wireTypeError struct {
	field     string
	got, want protowire.Type
}

func (e *wireTypeError) Error() string {
	return fmt.Sprintf("field %s has wire type %d, expected %d", e.field, e.got, e.want)
}

func (e *wireTypeError) Is(target error) bool { return target == ErrWireType }

// WireTypeError is the error for a known field of the given name encoded
// with the wrong wire type.
func WireTypeError(field string, got, want protowire.Type) error {
	return &wireTypeError{field, got, want}
}

// skipValue returns the length of the value of an unknown field at the
// given nesting level, as prost skips it: a group's fields are one level
// below the group, and a field at level 0 is refused. (protowire's own
// skipping allows groups 10000 deep.)
func skipValue(num protowire.Number, typ protowire.Type, b []byte, level int) (int, error) {
	if level <= 0 {
		return 0, fmt.Errorf("field %d: %w", num, ErrTooDeep)
	}
	if typ != protowire.StartGroupType {
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return 0, fmt.Errorf("field %d: %w", num, parseError(m))
		}
		return m, nil
	}
	n := 0
	for {
		inner, ityp, k := protowire.ConsumeTag(b[n:])
		if k < 0 {
			return 0, fmt.Errorf("field %d: %w", num, parseError(k))
		}
		if inner > protowire.MaxValidNumber {
			return 0, fmt.Errorf("field %d: %w %d", num, ErrFieldNumber, inner)
		}
		n += k
		if ityp == protowire.EndGroupType {
			if inner != num {
				return 0, fmt.Errorf("field %d: mismatched end of group", num)
			}
			return n, nil
		}
		m, err := skipValue(inner, ityp, b[n:], level-1)
		if err != nil {
			return 0, err
		}
		n += m
	}
}

// SkipValue returns the length of the value of a field, group or not, at
// the given nesting level, as Fields skips an unknown field.
func SkipValue(num protowire.Number, typ protowire.Type, b []byte, level int) (int, error) {
	return skipValue(num, typ, b, level)
}

// Check walks a message of type desc whose fields are at the given level,
// each known message field one level below its parent, and refuses what
// prost refuses and the generated Go code accepts: unknown groups nested
// past the recursion limit, and known fields of the wrong wire type (a
// repeated scalar may also be packed). What else is wrong with the
// message is left to proto.Unmarshal.
func Check(b []byte, desc protoreflect.MessageDescriptor, level int) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return parseError(n)
		}
		b = b[n:]
		fd := desc.Fields().ByNumber(num)
		var m int
		switch {
		case fd == nil:
			var err error
			if m, err = skipValue(num, typ, b, level); err != nil {
				return err
			}
		case typ != wireTypeOf(fd) && !(fd.IsList() && typ == protowire.BytesType && wireTypeOf(fd) != protowire.BytesType):
			return WireTypeError(string(fd.Name()), typ, wireTypeOf(fd))
		case fd.Message() != nil:
			var v []byte
			if v, m = protowire.ConsumeBytes(b); m >= 0 {
				if err := Check(v, fd.Message(), level-1); err != nil {
					return err
				}
			}
		default:
			m = protowire.ConsumeFieldValue(num, typ, b)
		}
		if m < 0 {
			return fmt.Errorf("field %d: %w", num, parseError(m))
		}
		b = b[m:]
	}
	return nil
}

// wireTypeOf is the wire type prost expects for a field of that kind.
func wireTypeOf(fd protoreflect.FieldDescriptor) protowire.Type {
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type
	case protoreflect.GroupKind:
		return protowire.StartGroupType
	}
	return protowire.VarintType
}

// Truncated reports whether code, a negative length from protowire's
// Consume functions, says that the input ends early.
func Truncated(code int) bool { return code == truncatedCode }

var truncatedCode = func() int {
	_, n := protowire.ConsumeVarint([]byte{0x80})
	return n
}()

// CompleteFields returns the longest prefix of b made of whole fields: of
// a message cut off, the part that can be judged.
func CompleteFields(b []byte) []byte {
	end := 0
	for end < len(b) {
		num, typ, n := protowire.ConsumeTag(b[end:])
		if n < 0 {
			break
		}
		m := protowire.ConsumeFieldValue(num, typ, b[end+n:])
		if m < 0 {
			break
		}
		end += n + m
	}
	return b[:end]
}

// CheckNumbers returns an error naming each field of nums (name → number)
// that desc does not have with that number: what holds the field
// constants of a hand-written decoder to the schema.
func CheckNumbers(desc protoreflect.MessageDescriptor, nums map[string]protowire.Number) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(nums)) {
		num := nums[name]
		fd := desc.Fields().ByName(protoreflect.Name(name))
		switch {
		case fd == nil:
			errs = append(errs, fmt.Errorf("%s has no field %s, expected one numbered %d", desc.FullName(), name, num))
		case fd.Number() != num:
			errs = append(errs, fmt.Errorf("%s.%s is field %d, not %d", desc.FullName(), name, fd.Number(), num))
		}
	}
	return errors.Join(errs...)
}

// parseError is protowire's error for code, without the "proto: " that
// the protobuf module puts before its texts: errors here say what was
// being read already. Input that ends early stays io.ErrUnexpectedEOF.
func parseError(code int) error {
	err := protowire.ParseError(code)
	if err == io.ErrUnexpectedEOF {
		return err
	}
	text := strings.TrimPrefix(err.Error(), "proto: ")
	text = strings.TrimPrefix(text, "proto:\u00a0") // protobuf-go sometimes uses a non-breaking space
	return errors.New(strings.TrimSpace(text))
}
