package aquery

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// The container's fields, by the names the decoder uses.
const (
	fieldArtifacts         = analysispb.ContainerArtifacts
	fieldActions           = analysispb.ContainerActions
	fieldTargets           = analysispb.ContainerTargets
	fieldDepSetOfFiles     = analysispb.ContainerDepSetOfFiles
	fieldConfiguration     = analysispb.ContainerConfiguration
	fieldAspectDescriptors = analysispb.ContainerAspectDescriptors
	fieldRuleClasses       = analysispb.ContainerRuleClasses
	fieldPathFragments     = analysispb.ContainerPathFragments
)

// entryNames names one element of each container field in errors.
var entryNames = [...]string{
	fieldArtifacts:         "artifact",
	fieldActions:           "action",
	fieldTargets:           "target",
	fieldDepSetOfFiles:     "dep set",
	fieldConfiguration:     "configuration",
	fieldAspectDescriptors: "aspect descriptor",
	fieldRuleClasses:       "rule class",
	fieldPathFragments:     "path fragment",
}

func isContainerField(num protowire.Number) bool {
	return num >= fieldArtifacts && num <= fieldPathFragments
}

// elementDecoder decodes the elements of an ActionGraphContainer one at a
// time. The elements checks read are decoded by hand with protowire: that
// avoids building the generated message only to copy it, and lets strings be
// interned as they are copied out of the reused buffer. The checks are the
// ones prost made for the original: a known field with the wrong wire type
// and invalid UTF-8 in any string field are errors, unknown fields are
// skipped.
type elementDecoder struct {
	graph   graphSink // nil when only validating (format detection)
	fn      func(*Action) error
	actions int       // how many actions went to fn
	pipe    *pipeline // decodes elements in parallel when not nil
	strs    interner
	// owned says the bodies handed to action are never reused, so argument
	// and value strings may share their memory instead of being copied.
	// Short vocabulary (mnemonics, keys) is interned all the same, since
	// callers keep it after the action is gone.
	owned bool
	// reuse hands fn the same Action every time, its slices emptied and
	// refilled: fn must not keep the Action or its slices, only strings.
	reuse  *Action
	refs   actionRefs // the last action's references
	direct []uint32   // scratch for dep sets
	trans  []uint32
	// configuration is Options.Configurations.
	configuration func(id uint32, checksum string)
}

// place is where an element is in the dump: its kind (the container
// field), its number among the elements of that kind, from 1, and the byte
// offset where it starts, or -1 when the format has none.
type place struct {
	off   int64
	index int
	num   protowire.Number
}

func (p place) entry() entryName { return entryName{p.num, p.index} }

// element decodes the body of one container element, found at the given
// place.
func (d *elementDecoder) element(num protowire.Number, body []byte, at place) error {
	switch num {
	case fieldActions:
		a, err := d.action(body)
		if err != nil {
			return err
		}
		if d.graph != nil {
			d.graph.action(at, &d.refs)
		}
		if d.fn == nil {
			return nil
		}
		d.actions++
		if err := d.fn(a); err != nil {
			return fnError{err}
		}
		return nil
	case fieldArtifacts:
		return d.artifact(body, at)
	case fieldTargets:
		return d.target(body, at)
	case fieldDepSetOfFiles:
		return d.depSet(body, at)
	case fieldPathFragments:
		return d.pathFragment(body, at)
	case fieldConfiguration:
		return d.other(body, at, &analysispb.Configuration{})
	case fieldAspectDescriptors:
		return d.other(body, at, &analysispb.AspectDescriptor{})
	case fieldRuleClasses:
		return d.other(body, at, &analysispb.RuleClass{})
	}
	return nil
}

// other checks an element nothing reads but its id, so that a dump the
// original refused (say, invalid UTF-8 in a configuration's mnemonic) is
// refused here too. These elements are few and small.
func (d *elementDecoder) other(body []byte, at place, m interface {
	proto.Message
	GetId() uint32
}) error {
	if err := checkNesting(body, m.ProtoReflect().Descriptor(), elementLevel); err != nil {
		return err
	}
	if err := proto.Unmarshal(body, m); err != nil {
		return errors.New(trimProtoPrefix(err.Error()))
	}
	if c, ok := m.(*analysispb.Configuration); ok && d.configuration != nil && d.graph != nil {
		d.configuration(c.GetId(), c.GetChecksum())
	}
	if d.graph != nil {
		return d.graph.other(at, m.GetId())
	}
	return nil
}

// checkNesting walks a message nothing reads as prost decodes it, each
// known message field one level below its parent, and refuses what prost
// refuses and the generated code would accept: unknown groups nested past
// the recursion limit, and known fields of the wrong wire type. What else
// is wrong with the message is left to proto.Unmarshal.
func checkNesting(b []byte, md protoreflect.MessageDescriptor, level int) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		fd := md.Fields().ByNumber(num)
		var m int
		switch {
		case fd == nil:
			var err error
			if m, err = skipUnknown(num, typ, b, level); err != nil {
				return err
			}
		case typ != wireTypeOf(fd) && !(fd.IsList() && typ == protowire.BytesType && wireTypeOf(fd) != protowire.BytesType):
			return wireTypeError(string(fd.Name()), typ, wireTypeOf(fd))
		case fd.Message() != nil:
			var v []byte
			if v, m = protowire.ConsumeBytes(b); m >= 0 {
				if err := checkNesting(v, fd.Message(), level-1); err != nil {
					return err
				}
			}
		default:
			m = protowire.ConsumeFieldValue(num, typ, b)
		}
		if m < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(m))
		}
		b = b[m:]
	}
	return nil
}

// errWireType is a known field encoded with the wrong wire type, which
// prost, and so the original, refuses; the generated Go code would keep it
// as an unknown field.
var errWireType = errors.New("wrong wire type")

// wireTypeError reports a known field encoded with the wrong wire type.
func wireTypeError(field string, got, want protowire.Type) error {
	return &wireTypeErr{field, got, want}
}

type wireTypeErr struct {
	field     string
	got, want protowire.Type
}

func (e *wireTypeErr) Error() string {
	return fmt.Sprintf("field %s has wire type %d, expected %d", e.field, e.got, e.want)
}

func (e *wireTypeErr) Is(target error) bool { return target == errWireType }

// wireTypeOf is the wire type prost expects for a field of that kind; a
// repeated scalar may also be packed, length-delimited.
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

// fieldValue is one field of a message as read reads it.
type fieldValue struct {
	num   protowire.Number
	typ   protowire.Type
	v     uint64 // varint value
	bytes []byte // length-delimited value
}

// recursionLimit is the nesting the original accepts: prost's limit,
// which counts every level from the container down. A field of the
// container is at level recursionLimit, a field of one of its elements at
// elementLevel, a field of a message inside an element (a param file, an
// environment variable) at nestedLevel, a field inside a group one level
// below the group, and a field at level 0 is refused, whatever its type.
const (
	recursionLimit = 100
	elementLevel   = recursionLimit - 1
	nestedLevel    = recursionLimit - 2
)

// errFieldNumber is a field number past protobuf's limit of 2^29-1, which
// prost refuses wherever it is (the generated Go code allows up to 2^31-1
// inside unknown groups).
var errFieldNumber = errors.New("invalid field number")

// errTooDeep is a field past the recursion limit. Only unknown groups can
// nest that deep in an ActionGraphContainer.
var errTooDeep = fmt.Errorf("nested more than %d levels deep, expected at most %d (protobuf's recursion limit)", recursionLimit, recursionLimit)

// read consumes one field of b, whose fields are at the given nesting
// level, into f and returns its length. Fields of other wire types than
// varint and bytes are skipped whole and reported with typ set, so that
// callers can reject them for known fields. f is filled in place rather
// than returned, for callers read millions of fields.
func (f *fieldValue) read(b []byte, level int) (int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, protowire.ParseError(n)
	}
	if num > protowire.MaxValidNumber {
		return 0, fmt.Errorf("%w %d", errFieldNumber, num)
	}
	f.num, f.typ = num, typ
	var m int
	switch typ {
	case protowire.VarintType:
		f.v, m = protowire.ConsumeVarint(b[n:])
	case protowire.BytesType:
		f.bytes, m = protowire.ConsumeBytes(b[n:])
	default:
		var err error
		if m, err = skipUnknown(num, typ, b[n:], level); err != nil {
			return 0, err
		}
	}
	if m < 0 {
		return 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(m))
	}
	return n + m, nil
}

// skipUnknown returns the length of the value of a field at the given
// nesting level, as prost skips it: a group's fields are one level below
// the group, and a field at level 0 is refused. (protowire's own skipping
// allows groups 10000 deep.)
func skipUnknown(num protowire.Number, typ protowire.Type, b []byte, level int) (int, error) {
	if level <= 0 {
		return 0, fmt.Errorf("field %d: %w", num, errTooDeep)
	}
	if typ != protowire.StartGroupType {
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(m))
		}
		return m, nil
	}
	n := 0
	for {
		inner, ityp, k := protowire.ConsumeTag(b[n:])
		if k < 0 {
			return 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(k))
		}
		if inner > protowire.MaxValidNumber {
			return 0, fmt.Errorf("field %d: %w %d", num, errFieldNumber, inner)
		}
		n += k
		if ityp == protowire.EndGroupType {
			if inner != num {
				return 0, fmt.Errorf("field %d: mismatched end of group", num)
			}
			return n, nil
		}
		m, err := skipUnknown(inner, ityp, b[n:], level-1)
		if err != nil {
			return 0, err
		}
		n += m
	}
}

func (f *fieldValue) uint32(name string) (uint32, error) {
	if f.typ != protowire.VarintType {
		return 0, wireTypeError(name, f.typ, protowire.VarintType)
	}
	return uint32(f.v), nil // proto's uint32 keeps the low 32 bits
}

func (f *fieldValue) bool(name string) error {
	if f.typ != protowire.VarintType {
		return wireTypeError(name, f.typ, protowire.VarintType)
	}
	return nil
}

func invalidUTF8(field string) error {
	return fmt.Errorf("field %s is not valid UTF-8, expected a UTF-8 string", field)
}

// str returns the bytes of a string field after checking them.
func (f *fieldValue) str(name string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, wireTypeError(name, f.typ, protowire.BytesType)
	}
	if !utf8.Valid(f.bytes) {
		return nil, invalidUTF8(name)
	}
	return f.bytes, nil
}

func (f *fieldValue) message(name string) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, wireTypeError(name, f.typ, protowire.BytesType)
	}
	return f.bytes, nil
}

// appendUint32s appends the values of a repeated uint32 field, packed or not.
func (f *fieldValue) appendUint32s(dst []uint32, name string) ([]uint32, error) {
	switch f.typ {
	case protowire.VarintType:
		return append(dst, uint32(f.v)), nil
	case protowire.BytesType:
		b := f.bytes
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return dst, fmt.Errorf("field %s: %w", name, protowire.ParseError(n))
			}
			dst = append(dst, uint32(v))
			b = b[n:]
		}
		return dst, nil
	}
	return dst, wireTypeError(name, f.typ, protowire.BytesType)
}

func (d *elementDecoder) action(b []byte) (*Action, error) {
	var a *Action
	if d.reuse != nil {
		a = d.reuse
		*a = Action{
			Action: action.Action{
				Arguments:     a.Arguments[:0],
				Env:           a.Env[:0],
				ExecutionInfo: a.ExecutionInfo[:0],
				ParamFiles:    a.ParamFiles[:0],
			},
			InputDepSets: a.InputDepSets[:0],
			OutputIDs:    a.OutputIDs[:0],
		}
	} else {
		a = new(Action)
		// Compile lines run to hundreds of arguments: size the slice once
		// rather than growing it through every power of two.
		if n := countArguments(b); n > 0 {
			a.Arguments = make([]string, 0, n)
		}
	}
	r := &d.refs
	r.configuration, r.primaryOutput = 0, 0
	r.aspects, r.outputs = r.aspects[:0], r.outputs[:0]
	var f fieldValue
	for len(b) > 0 {
		// Arguments are most of a dump: read them without the general
		// field machinery. 0x32 is field 6 (arguments), wire type 2.
		if b[0] == 0x32 {
			if v, n := protowire.ConsumeBytes(b[1:]); n >= 0 {
				if !utf8.Valid(v) {
					return nil, invalidUTF8("arguments")
				}
				a.Arguments = append(a.Arguments, d.value(v))
				b = b[1+n:]
				continue
			}
		}
		n, err := f.read(b, elementLevel)
		if err != nil {
			return nil, err
		}
		b = b[n:]
		switch f.num {
		case 1:
			a.TargetID, err = f.uint32("target_id")
		case 4:
			var s []byte
			if s, err = f.str("mnemonic"); err == nil {
				a.Mnemonic = d.strs.intern(s)
			}
		case 6:
			var s []byte
			if s, err = f.str("arguments"); err == nil {
				a.Arguments = append(a.Arguments, d.value(s))
			}
		case 7:
			var m []byte
			if m, err = f.message("environment_variables"); err == nil {
				var k, v []byte
				if k, v, err = keyValue(m); err == nil {
					a.Env = append(a.Env, action.EnvVar{Key: d.strs.intern(k), Value: d.value(v)})
				}
			}
		case 8:
			a.InputDepSets, err = f.appendUint32s(a.InputDepSets, "input_dep_set_ids")
		case 11:
			var m []byte
			if m, err = f.message("execution_info"); err == nil {
				var k []byte
				if k, _, err = keyValue(m); err == nil {
					a.ExecutionInfo = append(a.ExecutionInfo, d.strs.intern(k))
				}
			}
		case 12:
			var m []byte
			if m, err = f.message("param_files"); err == nil {
				// A reused action's param files keep their lines' capacity.
				var lines []string
				if n := len(a.ParamFiles); n < cap(a.ParamFiles) {
					lines = a.ParamFiles[:n+1][n].Lines[:0]
				}
				var pf action.ParamFile
				if pf, err = d.paramFile(m, lines); err == nil {
					a.ParamFiles = append(a.ParamFiles, pf)
				}
			}
		// References, read to be checked.
		case 2:
			r.aspects, err = f.appendUint32s(r.aspects, "aspect_descriptor_ids")
		case 9:
			r.outputs, err = f.appendUint32s(r.outputs, "output_ids")
		case 5:
			r.configuration, err = f.uint32("configuration_id")
			a.ConfigurationID = r.configuration
		case 13:
			r.primaryOutput, err = f.uint32("primary_output_id")
		// Fields nothing reads, checked as prost checked them.
		case 3:
			_, err = f.str("action_key")
		case 10:
			err = f.bool("discovers_inputs")
		case 14:
			_, err = f.str("execution_platform")
		case 15:
			_, err = f.str("template_content")
		case 16:
			var m []byte
			if m, err = f.message("substitutions"); err == nil {
				_, _, err = keyValue(m)
			}
		case 17:
			_, err = f.str("file_contents")
		case 18:
			_, err = f.str("unresolved_symlink_target")
		case 19:
			err = f.bool("is_executable")
		case 21:
			_, err = f.str("progress_message")
		}
		// Field 20 is reserved: read skipped it like any unknown field.
		if err != nil {
			return nil, err
		}
	}
	r.target, r.inputs = a.TargetID, a.InputDepSets
	a.OutputIDs = append(a.OutputIDs, r.outputs...)
	return a, nil
}

// countArguments counts the arguments field (6) of an action's body. A
// malformed body counts short; the decoding pass reports the error.
func countArguments(b []byte) int {
	n := 0
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return n
		}
		m := protowire.ConsumeFieldValue(num, typ, b[k:])
		if m < 0 {
			return n
		}
		if num == 6 {
			n++
		}
		b = b[k+m:]
	}
	return n
}

// value is an argument or environment value as a string.
func (d *elementDecoder) value(b []byte) string {
	if d.owned {
		return ownedString(b)
	}
	return d.strs.value(b)
}

func keyValue(b []byte) (key, value []byte, err error) {
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, nestedLevel)
		if err != nil {
			return nil, nil, err
		}
		b = b[n:]
		switch f.num {
		case 1:
			key, err = f.str("key")
		case 2:
			value, err = f.str("value")
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return key, value, nil
}

func (d *elementDecoder) paramFile(b []byte, lines []string) (action.ParamFile, error) {
	pf := action.ParamFile{Lines: lines}
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, nestedLevel)
		if err != nil {
			return pf, err
		}
		b = b[n:]
		var s []byte
		switch f.num {
		case 1:
			if s, err = f.str("exec_path"); err == nil {
				pf.ExecPath = d.value(s)
			}
		case 2:
			if s, err = f.str("arguments"); err == nil {
				pf.Lines = append(pf.Lines, d.value(s))
			}
		}
		if err != nil {
			return pf, err
		}
	}
	return pf, nil
}

func (d *elementDecoder) artifact(b []byte, at place) error {
	var id, fragmentID uint32
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, elementLevel)
		if err != nil {
			return err
		}
		b = b[n:]
		switch f.num {
		case 1:
			id, err = f.uint32("id")
		case 2:
			fragmentID, err = f.uint32("path_fragment_id")
		case 3:
			err = f.bool("is_tree_artifact")
		}
		if err != nil {
			return err
		}
	}
	if d.graph != nil {
		return d.graph.artifact(at, id, fragmentID)
	}
	return nil
}

func (d *elementDecoder) target(b []byte, at place) error {
	var id, ruleClass uint32
	var label []byte
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, elementLevel)
		if err != nil {
			return err
		}
		b = b[n:]
		switch f.num {
		case 1:
			id, err = f.uint32("id")
		case 2:
			label, err = f.str("label")
		case 3:
			ruleClass, err = f.uint32("rule_class_id")
		}
		if err != nil {
			return err
		}
	}
	if d.graph != nil {
		return d.graph.target(at, id, label, ruleClass)
	}
	return nil
}

func (d *elementDecoder) depSet(b []byte, at place) error {
	var id uint32
	d.direct, d.trans = d.direct[:0], d.trans[:0]
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, elementLevel)
		if err != nil {
			return err
		}
		b = b[n:]
		switch f.num {
		case 1:
			id, err = f.uint32("id")
		case 2:
			d.trans, err = f.appendUint32s(d.trans, "transitive_dep_set_ids")
		case 3:
			d.direct, err = f.appendUint32s(d.direct, "direct_artifact_ids")
		}
		if err != nil {
			return err
		}
	}
	if d.graph != nil {
		d.direct = append(d.direct, d.trans...)
		return d.graph.depSet(at, id, d.direct, len(d.direct)-len(d.trans))
	}
	return nil
}

func (d *elementDecoder) pathFragment(b []byte, at place) error {
	var id, parent uint32
	var label []byte
	var f fieldValue
	for len(b) > 0 {
		n, err := f.read(b, elementLevel)
		if err != nil {
			return err
		}
		b = b[n:]
		switch f.num {
		case 1:
			id, err = f.uint32("id")
		case 2:
			label, err = f.str("label")
		case 3:
			parent, err = f.uint32("parent_id")
		}
		if err != nil {
			return err
		}
	}
	if d.graph != nil {
		// Not interned: Bazel already shares path prefixes through parent
		// ids, so labels rarely repeat.
		return d.graph.pathFragment(at, id, label, parent)
	}
	return nil
}
