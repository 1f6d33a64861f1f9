package execlog

import (
	"fmt"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// fields walks the fields of one protobuf message. Each call to next
// yields a field's number and wire type and leaves its value to exactly
// one of the take methods (or skip); errors stick, so a loop can check
// once at the end.
type fields struct {
	b   []byte
	num protowire.Number
	typ protowire.Type
	err error
}

func (f *fields) next() bool {
	if f.err != nil || len(f.b) == 0 {
		return false
	}
	num, typ, n := protowire.ConsumeTag(f.b)
	if n < 0 {
		f.err = fmt.Errorf("field tag: %w", protowire.ParseError(n))
		return false
	}
	f.b = f.b[n:]
	f.num, f.typ = num, typ
	return true
}

func (f *fields) fail(name string, err error) {
	if f.err == nil {
		f.err = fmt.Errorf("%s: %w", name, err)
	}
}

// want checks the current field's wire type.
func (f *fields) want(name string, typ protowire.Type) bool {
	if f.typ != typ {
		f.fail(name, fmt.Errorf("wire type %d, expected %d", f.typ, typ))
		f.b = nil
		return false
	}
	return true
}

func (f *fields) bytes(name string) []byte {
	if !f.want(name, protowire.BytesType) {
		return nil
	}
	v, n := protowire.ConsumeBytes(f.b)
	if n < 0 {
		f.fail(name, protowire.ParseError(n))
		f.b = nil
		return nil
	}
	f.b = f.b[n:]
	return v
}

func (f *fields) varint(name string) uint64 {
	if !f.want(name, protowire.VarintType) {
		return 0
	}
	v, n := protowire.ConsumeVarint(f.b)
	if n < 0 {
		f.fail(name, protowire.ParseError(n))
		f.b = nil
		return 0
	}
	f.b = f.b[n:]
	return v
}

// uint32s appends the values of a repeated uint32 field, packed or not.
func (f *fields) uint32s(name string, dst []uint32) []uint32 {
	if f.typ == protowire.VarintType {
		v := f.varint(name)
		if v > 1<<32-1 {
			f.fail(name, fmt.Errorf("%d overflows uint32", v))
		}
		return append(dst, uint32(v))
	}
	packed := f.bytes(name)
	for len(packed) > 0 {
		v, n := protowire.ConsumeVarint(packed)
		if n < 0 {
			f.fail(name, protowire.ParseError(n))
			return dst
		}
		if v > 1<<32-1 {
			f.fail(name, fmt.Errorf("%d overflows uint32", v))
			return dst
		}
		dst = append(dst, uint32(v))
		packed = packed[n:]
	}
	return dst
}

func (f *fields) uint32(name string) uint32 {
	v := f.varint(name)
	if v > 1<<32-1 {
		f.fail(name, fmt.Errorf("%d overflows uint32", v))
	}
	return uint32(v)
}

func (f *fields) bool(name string) bool { return f.varint(name) != 0 }

// int32 decodes an int32 field, which protobuf writes sign-extended to 64
// bits when negative.
func (f *fields) int32(name string) int32 { return int32(f.varint(name)) }

func (f *fields) int64(name string) int64 { return int64(f.varint(name)) }

// skip skips a field this reader does not use, group or not.
func (f *fields) skip() {
	n := protowire.ConsumeFieldValue(f.num, f.typ, f.b)
	if n < 0 {
		f.fail(fmt.Sprintf("field %d", f.num), protowire.ParseError(n))
		f.b = nil
		return
	}
	f.b = f.b[n:]
}

// strs turns bytes of the current message into strings: copies, or with
// borrow set, strings that share the message buffer and so are valid only
// until the next message is read (Options.ReuseSpawns).
type strs struct{ borrow bool }

func (s strs) of(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s.borrow {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}
