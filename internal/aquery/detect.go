package aquery

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/wire"
)

// detectElements is how many top-level elements (or streamed messages)
// detection tries to parse each way.
const detectElements = 4

// detect recognises the format of the dump from its first bytes, without
// consuming them. The binary formats can look alike (a streamed message of
// length 10 starts with byte 0x0a, the tag of a proto dump's first artifact),
// so the rule is:
//
//  1. A prefix that reads as protobuf JSON (optional whitespace, "{", optional
//     whitespace, then `"` or "}") is jsonproto; one that reads as protobuf
//     text (optional whitespace, then "#" or a lower-case field name followed
//     by "{" or ":") is textproto. No binary dump Bazel writes can start
//     like either: it would need unknown fields in its first element.
//  2. Otherwise the first few top-level fields in the peeked prefix are
//     parsed both as proto (container fields 1 to 8, each a message that
//     decodes, and well-formed unknown fields, which a newer Bazel may
//     write) and as streamed_proto (length-prefixed containers holding
//     exactly one such field each). The one that parses wins; when both
//     do, the one that parsed more complete elements of fields 1 to 8
//     wins, and proto wins ties. A field cut off by the end of the prefix
//     counts as neither good nor bad, unless the input itself ends there.
//  3. When neither parses, a dump whose first byte is a container field tag
//     is decoded as proto, so that the decoder reports exactly what is
//     wrong with it; anything else is not a dump.
//
// Empty input is a proto dump with nothing in it.
func (s *stream) detect() (Format, error) {
	prefix, complete, err := s.r.Peek(wire.DetectPrefix)
	if err != nil {
		return Detect, s.errorAt("", 0, err)
	}
	f, err := detectFormat(prefix, complete)
	if err != nil {
		return f, &Error{File: s.name, Offset: -1, Err: err}
	}
	return f, nil
}

func detectFormat(prefix []byte, complete bool) (Format, error) {
	if len(prefix) == 0 {
		return Proto, nil
	}
	if wire.LooksLikeJSON(prefix) {
		return JSONProto, nil
	}
	if looksLikeTextProto(prefix) {
		return TextProto, nil
	}
	pn, pok := parsesAsProto(prefix, complete, detectElements)
	sn, sok := parsesAsStreamed(prefix, complete)
	switch {
	case pok && sok:
		if sn > pn {
			return StreamedProto, nil
		}
		return Proto, nil
	case pok:
		return Proto, nil
	case sok:
		return StreamedProto, nil
	}
	if num, typ, n := protowire.ConsumeTag(prefix); n > 0 && isContainerField(num) && typ == protowire.BytesType {
		return Proto, nil
	}
	first := prefix[:min(len(prefix), 8)]
	return Detect, fmt.Errorf("not an aquery dump: it starts with bytes % x, expected the output of --output=proto, streamed_proto or jsonproto", first)
}

func looksLikeTextProto(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return false
	}
	if b[0] == '#' {
		return true
	}
	i := 0
	for i < len(b) && (b[i] == '_' || b[i] >= 'a' && b[i] <= 'z' || i > 0 && b[i] >= '0' && b[i] <= '9') {
		i++
	}
	if i == 0 {
		return false
	}
	b = bytes.TrimLeft(b[i:], " \t\r\n")
	return len(b) > 0 && (b[0] == '{' || b[0] == ':')
}

// parsesAsProto reports whether b starts with container fields that
// decode, and how many complete container elements it parsed among its
// first max fields. Unknown fields are skipped, as decoding skips them (a
// newer Bazel may add container fields), but do not count: a streamed
// dump read as proto is a run of such fields. When complete is false, b is
// a prefix of the input and a field cut off at its end stops the parse
// without failing it.
func parsesAsProto(b []byte, complete bool, max int) (int, bool) {
	d := &elementDecoder{}
	n := 0
	for range max {
		if len(b) == 0 {
			break
		}
		num, typ, tl := protowire.ConsumeTag(b)
		if tl < 0 {
			return n, !complete && wire.Truncated(tl)
		}
		if num > protowire.MaxValidNumber {
			return n, false
		}
		if !isContainerField(num) {
			vl, err := wire.SkipValue(num, typ, b[tl:], containerLevel)
			if err != nil {
				return n, !complete && errors.Is(err, io.ErrUnexpectedEOF)
			}
			b = b[tl+vl:]
			continue
		}
		if typ != protowire.BytesType {
			return n, false
		}
		body, bl := protowire.ConsumeBytes(b[tl:])
		if bl < 0 {
			return n, !complete && wire.Truncated(bl)
		}
		if d.element(num, body, place{}) != nil {
			return n, false
		}
		n++
		b = b[tl+bl:]
	}
	return n, true
}

// parsesAsStreamed is parsesAsProto for streamed_proto, whose messages must
// each hold exactly one field.
func parsesAsStreamed(b []byte, complete bool) (int, bool) {
	n := 0
	for range detectElements {
		if len(b) == 0 {
			break
		}
		size, vl := protowire.ConsumeVarint(b)
		if vl < 0 {
			return n, !complete && wire.Truncated(vl)
		}
		if size == 0 {
			return n, false
		}
		b = b[vl:]
		if uint64(len(b)) < size {
			if complete {
				return n, false
			}
			_, ok := parsesAsProto(b, false, 1)
			return n, ok
		}
		m, ok := parsesAsProto(b[:size], true, 1)
		if !ok || !holdsOneField(b[:size]) {
			return n, false
		}
		n += m
		b = b[size:]
	}
	return n, true
}

// holdsOneField reports whether b, which parses, is exactly one field.
func holdsOneField(b []byte) bool {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return false
	}
	m := protowire.ConsumeFieldValue(num, typ, b[n:])
	return m >= 0 && n+m == len(b)
}
