package aquery

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

// nestedGroups returns an unknown group field (number 99) holding another,
// depth groups in all, the innermost holding inner.
func nestedGroups(depth int, inner []byte) []byte {
	var b []byte
	for range depth {
		b = protowire.AppendTag(b, 99, protowire.StartGroupType)
	}
	b = append(b, inner...)
	for range depth {
		b = protowire.AppendTag(b, 99, protowire.EndGroupType)
	}
	return b
}

// aVarint is an unknown varint field, something to put inside a group.
var aVarint = protowire.AppendVarint(protowire.AppendTag(nil, 98, protowire.VarintType), 1)

// The original decodes with prost, whose recursion limit of 100 counts
// every level from the container down: a top-level field is at level 100,
// a field of an element at 99, a field of a message inside an element
// (a param file, an environment variable) at 98, and each group one
// lower; a field at level 0 is refused, whatever its type (§2: a dump the
// original refuses, we refuse).
func TestNestingLimit(t *testing.T) {
	actionBody := func(extra []byte) []byte {
		body, _ := proto.Marshal(&analysispb.Action{Mnemonic: "M"})
		return append(body, extra...)
	}
	paramFile := func(extra []byte) []byte {
		pf, _ := proto.Marshal(&analysispb.ParamFile{ExecPath: "p"})
		return rawElement(nil, 12, append(pf, extra...))
	}
	envVar := func(extra []byte) []byte {
		kv, _ := proto.Marshal(&analysispb.KeyValuePair{Key: "K"})
		return rawElement(nil, 7, append(kv, extra...))
	}
	configuration := func(extra []byte) []byte {
		c, _ := proto.Marshal(&analysispb.Configuration{Id: 1, Mnemonic: "k8"})
		return rawElement(nil, fieldConfiguration, append(c, extra...))
	}
	fragment := func(extra []byte) []byte {
		f, _ := proto.Marshal(&analysispb.Fragment{Name: "cpp"})
		c, _ := proto.Marshal(&analysispb.Configuration{Id: 1})
		return rawElement(nil, fieldConfiguration, rawElement(c, 6, append(f, extra...)))
	}
	target := func(extra []byte) []byte {
		tb, _ := proto.Marshal(&analysispb.Target{Id: 1, Label: "//a"})
		return rawElement(nil, fieldTargets, append(tb, extra...))
	}
	tests := []struct {
		name string
		// where puts groups into a dump.
		where func(groups []byte) []byte
		// deepest is how many nested empty groups the original accepts.
		deepest int
	}{
		{"top_level", func(g []byte) []byte { return g }, 100},
		{"in_an_action", func(g []byte) []byte { return rawElement(nil, fieldActions, actionBody(g)) }, 99},
		{"in_a_target", target, 99},
		{"in_a_configuration", configuration, 99},
		{"in_a_param_file", func(g []byte) []byte { return rawElement(nil, fieldActions, actionBody(paramFile(g))) }, 98},
		{"in_an_environment_variable", func(g []byte) []byte { return rawElement(nil, fieldActions, actionBody(envVar(g))) }, 98},
		{"in_a_configuration_fragment", fragment, 98},
	}
	for _, tc := range tests {
		for _, c := range []struct {
			depth  int
			inner  []byte
			refuse bool
		}{
			{tc.deepest, nil, false},
			{tc.deepest + 1, nil, true},
			// A field inside the deepest group sits at level 0.
			{tc.deepest, aVarint, true},
			{tc.deepest - 1, aVarint, false},
		} {
			name := fmt.Sprintf("%s/%d_groups", tc.name, c.depth)
			if c.inner != nil {
				name += "_around_a_varint"
			}
			t.Run(name, func(t *testing.T) {
				data := tc.where(nestedGroups(c.depth, c.inner))
				for _, opts := range []Options{{Format: Proto}, {Format: Proto, Workers: 2}, {Format: StreamedProto}, {Format: StreamedProto, Workers: 2, ReuseActions: true}} {
					in := data
					if opts.Format == StreamedProto {
						in = protowire.AppendBytes(nil, data)
					}
					_, _, err := decodeAll(in, opts)
					switch {
					case c.refuse && err == nil:
						t.Errorf("%+v: decoded without error, want the nesting refused", opts)
					case c.refuse && !errors.Is(err, wire.ErrTooDeep):
						t.Errorf("%+v: error %v, want one about nesting", opts, err)
					case !c.refuse && err != nil:
						t.Errorf("%+v: %v", opts, err)
					}
				}
			})
		}
	}
}

// Field 20 was scheduling_dep_dep_set_ids and is reserved now: whatever it
// holds is skipped like any unknown field. Field 21 is progress_message, a
// string like any other.
func TestReservedAndProgressMessage(t *testing.T) {
	body, _ := proto.Marshal(&analysispb.Action{Mnemonic: "M"})
	with := func(extra ...[]byte) []byte {
		b := append([]byte(nil), body...)
		for _, e := range extra {
			b = append(b, e...)
		}
		return rawElement(nil, fieldActions, b)
	}
	field := func(num protowire.Number, typ protowire.Type, v []byte) []byte {
		b := protowire.AppendTag(nil, num, typ)
		if typ == protowire.BytesType {
			return protowire.AppendBytes(b, v)
		}
		return append(b, v...)
	}
	varint1 := protowire.AppendVarint(nil, 1)
	tests := []struct {
		name string
		data []byte
		want string // "" for success, else a substring of the error
	}{
		{"reserved_20_malformed_packed_ids", with(field(20, protowire.BytesType, []byte{0xff})), ""},
		{"reserved_20_as_a_string", with(field(20, protowire.BytesType, []byte("\xffnot utf-8"))), ""},
		{"reserved_20_as_a_varint", with(field(20, protowire.VarintType, varint1)), ""},
		{"progress_message", with(field(21, protowire.BytesType, []byte("Compiling a.cc"))), ""},
		{"progress_message_invalid_utf8", with(field(21, protowire.BytesType, []byte("ok\xff"))),
			"dump.pb: action 1 (byte 0): field progress_message is not valid UTF-8, expected a UTF-8 string"},
		{"progress_message_wrong_wire_type", with(field(21, protowire.VarintType, varint1)),
			"dump.pb: action 1 (byte 0): field progress_message has wire type 0, expected 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{{Format: Proto}, {Format: Proto, Workers: 2}} {
				_, actions, err := decodeAll(tc.data, opts)
				if tc.want == "" {
					if err != nil || len(actions) != 1 || actions[0].Mnemonic != "M" {
						t.Errorf("%+v: %d actions, %v", opts, len(actions), err)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%+v: error %v, want %q", opts, err, tc.want)
				}
			}
			// The generated code agrees on errors or not, except that it
			// keeps a known field of the wrong wire type as an unknown
			// field where prost, and so the original, refuses it.
			var c analysispb.ActionGraphContainer
			if gerr := proto.Unmarshal(tc.data, &c); (gerr == nil) != (tc.want == "") && !strings.Contains(tc.want, "wire type") {
				t.Errorf("proto.Unmarshal error %v", gerr)
			}
		})
	}
}

// The elements nothing reads are checked as prost checks them: a known
// field of the wrong wire type is an error there too, where the generated
// code would keep it as an unknown field.
func TestWireTypesOfElementsNothingReads(t *testing.T) {
	varintField := func(num protowire.Number) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), 1)
	}
	bytesField := func(num protowire.Number) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), []byte{1})
	}
	fragment, _ := proto.Marshal(&analysispb.Fragment{Name: "cpp"})
	tests := []struct {
		name string
		data []byte
		want string // "" for no error
	}{
		{"configuration_mnemonic_as_varint", rawElement(nil, fieldConfiguration, varintField(2)),
			"dump.pb: configuration 1 (byte 0): field mnemonic has wire type 0, expected 2"},
		{"configuration_id_as_bytes", rawElement(nil, fieldConfiguration, bytesField(1)),
			"dump.pb: configuration 1 (byte 0): field id has wire type 2, expected 0"},
		{"configuration_fragment_as_varint", rawElement(nil, fieldConfiguration, varintField(6)),
			"dump.pb: configuration 1 (byte 0): field fragments has wire type 0, expected 2"},
		{"fragment_name_as_varint", rawElement(nil, fieldConfiguration, rawElement(nil, 6, append(fragment, varintField(1)...))),
			"dump.pb: configuration 1 (byte 0): field name has wire type 0, expected 2"},
		{"rule_class_name_as_varint", rawElement(nil, fieldRuleClasses, varintField(2)),
			"dump.pb: rule class 1 (byte 0): field name has wire type 0, expected 2"},
		{"aspect_parameter_as_varint", rawElement(nil, fieldAspectDescriptors, varintField(3)),
			"dump.pb: aspect descriptor 1 (byte 0): field parameters has wire type 0, expected 2"},
		{"is_tool_as_varint", rawElement(nil, fieldConfiguration, varintField(5)), ""},
	}
	for _, tc := range tests {
		for _, opts := range []Options{{Format: Proto}, {Format: Proto, Workers: 2}} {
			_, _, err := decodeAll(tc.data, opts)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Errorf("%s %+v: error %v, want %q", tc.name, opts, err, tc.want)
			}
			if err != nil && !errors.Is(err, wire.ErrWireType) {
				t.Errorf("%s: %v is not wire.ErrWireType", tc.name, err)
			}
		}
	}
}
