package aquery

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// maxJSONElement bounds one element of a jsonproto dump, and the white
// space before it: encoding/json holds a value whole while it reads it. A
// variable so that tests need not feed it 256 MiB.
var maxJSONElement int64 = 256 << 20

// maxTextProto bounds a textproto dump, which is read whole: the format is
// for graphs written by hand in tests.
const maxTextProto = 64 << 20

// containerFields are the ActionGraphContainer's fields, for the names a
// jsonproto dump gives them.
var containerFields = (&analysispb.ActionGraphContainer{}).ProtoReflect().Descriptor().Fields()

// newElement returns an empty element of a container field.
func newElement(num protowire.Number) proto.Message {
	switch num {
	case fieldArtifacts:
		return &analysispb.Artifact{}
	case fieldActions:
		return &analysispb.Action{}
	case fieldTargets:
		return &analysispb.Target{}
	case fieldDepSetOfFiles:
		return &analysispb.DepSetOfFiles{}
	case fieldConfiguration:
		return &analysispb.Configuration{}
	case fieldAspectDescriptors:
		return &analysispb.AspectDescriptor{}
	case fieldRuleClasses:
		return &analysispb.RuleClass{}
	}
	return &analysispb.PathFragment{}
}

// jsonproto decodes --output=jsonproto one element at a time: encoding/json
// walks the container's tokens and cuts out each element, and protojson
// decodes it into its message, which goes to the graph and fn as a binary
// element does (elementDecoder.message). Memory is bounded by the largest
// element, as for the binary formats.
func (s *stream) jsonproto(d *elementDecoder) error {
	r := &boundedReader{r: s.r.Rest()}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	r.dec = dec
	fail := func(at place, err error) error {
		switch {
		case errors.Is(err, errJSONTooBig):
			err = jsonTooBig()
		case err == io.EOF:
			err = fmt.Errorf("invalid jsonproto: %w", io.ErrUnexpectedEOF)
		default:
			err = fmt.Errorf("invalid jsonproto: %s", protoErrorText(err))
		}
		if at.num == 0 {
			return s.errorAt("", at.off, err)
		}
		return s.errorAt(at.entry(), at.off, err)
	}
	token := func(want json.Delim) error {
		tok, err := dec.Token()
		if err != nil {
			return fail(place{off: dec.InputOffset()}, err)
		}
		if tok != want {
			return fail(place{off: tokenStart(dec, tok)}, fmt.Errorf("unexpected %v, expected %q", describeToken(tok), string(want)))
		}
		return nil
	}
	if err := token('{'); err != nil {
		return err
	}
	seen := map[protowire.Number]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(place{off: dec.InputOffset()}, err)
		}
		off := tokenStart(dec, tok)
		key, _ := tok.(string)
		fd := containerFields.ByJSONName(key)
		if fd == nil {
			fd = containerFields.ByTextName(key)
		}
		if fd == nil {
			// Unknown fields are skipped (§2), token by token, so that
			// not even a huge one is held.
			if err := skipJSONValue(dec); err != nil {
				return fail(place{off: off}, err)
			}
			continue
		}
		num := fd.Number()
		if seen[num] {
			return fail(place{off: off}, fmt.Errorf("duplicate field %q", fd.JSONName()))
		}
		seen[num] = true
		if tok, err = dec.Token(); err != nil {
			return fail(place{off: dec.InputOffset()}, err)
		}
		if tok == nil { // null is an empty list
			continue
		}
		if tok != json.Delim('[') {
			return fail(place{off: tokenStart(dec, tok)}, fmt.Errorf("unexpected %v for field %q, expected a list", describeToken(tok), fd.JSONName()))
		}
		for dec.More() {
			s.counts[num]++
			var raw json.RawMessage
			err := dec.Decode(&raw)
			at := place{off: dec.InputOffset() - int64(len(raw)), index: s.counts[num], num: num}
			if err != nil {
				at.off = dec.InputOffset()
				return fail(at, err)
			}
			m := newElement(num)
			if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, m); err != nil {
				return fail(at, err)
			}
			if err := d.message(m, at); err != nil {
				if err, ok := wire.CallerError(err); ok {
					return err
				}
				return s.errorAt(at.entry(), at.off, err)
			}
			s.textOff = dec.InputOffset()
			s.tick()
		}
		if err := token(']'); err != nil {
			return err
		}
	}
	if err := token('}'); err != nil {
		return err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = fmt.Errorf("unexpected %v after the container", describeToken(tok))
		}
		return fail(place{off: tokenStart(dec, tok)}, err)
	}
	s.textOff = dec.InputOffset()
	return nil
}

// skipJSONValue reads past the next value, token by token.
func skipJSONValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
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

// tokenStart is where the token just read starts: where the decoder is,
// less the token's length (a string's as written without escapes).
func tokenStart(dec *json.Decoder, tok json.Token) int64 {
	n := 0
	switch t := tok.(type) {
	case json.Delim:
		n = 1
	case string:
		n = len(t) + 2
	case json.Number:
		n = len(t)
	case bool:
		n = len("false")
		if t {
			n = len("true")
		}
	case nil:
		n = len("null")
	}
	return max(dec.InputOffset()-int64(n), 0)
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(t))
	case string:
		return fmt.Sprintf("string %q", t)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// errJSONTooBig is an element, or a run of white space, too big to hold.
var errJSONTooBig = errors.New("too big")

func jsonTooBig() error {
	return fmt.Errorf("more than %d MiB without an element ending, expected elements of a few MiB at most", maxJSONElement>>20)
}

// boundedReader lets a json.Decoder read at most maxJSONElement bytes past
// the last token it returned: it holds a value whole while reading it, and
// white space before a value too.
type boundedReader struct {
	r    io.Reader
	dec  *json.Decoder
	read int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.read-b.dec.InputOffset() > maxJSONElement {
		return 0, errJSONTooBig
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	if err != nil && err != io.EOF {
		err = wire.ReadError(err)
	}
	return n, err
}

// textproto decodes --output=textproto, which is read whole, up to
// maxTextProto, and decoded with prototext; its elements then go to the
// graph and fn as the binary formats' do, artifacts first, actions
// second, as the container lists its fields. It is for graphs written by
// hand.
func (s *stream) textproto(d *elementDecoder) error {
	data, err := io.ReadAll(io.LimitReader(s.r.Rest(), maxTextProto+1))
	s.textOff += int64(len(data))
	if err != nil {
		return s.errorAt("", s.offset(), wire.ReadError(err))
	}
	if len(data) > maxTextProto {
		return s.errorAt("", -1, fmt.Errorf("textproto dump larger than %d MiB, expected a small graph written by hand (real graphs are --output=proto)", maxTextProto>>20))
	}
	var c analysispb.ActionGraphContainer
	if err := (prototext.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &c); err != nil {
		return s.errorAt("", -1, fmt.Errorf("invalid textproto: %s", protoErrorText(err)))
	}
	s.tick()
	cm := c.ProtoReflect()
	for i := range containerFields.Len() {
		fd := containerFields.Get(i)
		list := cm.Get(fd).List()
		for j := range list.Len() {
			at := place{off: -1, index: j + 1, num: fd.Number()}
			if err := d.message(list.Get(j).Message().Interface(), at); err != nil {
				if err, ok := wire.CallerError(err); ok {
					return err
				}
				return s.errorAt(at.entry(), -1, err)
			}
		}
	}
	return nil
}

// protoPosition is the position protojson and prototext put in their
// errors, which within one element of a dump says little.
var protoPosition = regexp.MustCompile(`^\(line \d+:\d+\): `)

func protoErrorText(err error) string {
	return protoPosition.ReplaceAllString(trimProtoPrefix(err.Error()), "")
}
