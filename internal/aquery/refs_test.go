package aquery

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

func cfg(id uint32) elem {
	return elem{fieldConfiguration, &analysispb.Configuration{Id: id, Mnemonic: "k8-fastbuild"}}
}

func ruleClass(id uint32) elem {
	return elem{fieldRuleClasses, &analysispb.RuleClass{Id: id, Name: "genrule"}}
}

func aspect(id uint32) elem {
	return elem{fieldAspectDescriptors, &analysispb.AspectDescriptor{Id: id, Name: "//a:b.bzl%asp"}}
}

// complete is a small graph in which every reference names something:
// actions first, as Bazel 4.2.3 writes them, then what they name.
func complete() []elem {
	return []elem{
		art(1, 2), art(2, 3),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "Genrule", ConfigurationId: 1, InputDepSetIds: []uint32{1},
			OutputIds: []uint32{2}, PrimaryOutputId: 2, AspectDescriptorIds: []uint32{1}}),
		{fieldTargets, &analysispb.Target{Id: 1, Label: "//a:gen", RuleClassId: 1}},
		deps(1, []uint32{1}, 2), deps(2, nil),
		cfg(1), aspect(1), ruleClass(1),
		frag(1, "bazel-out", 0), frag(2, "stable-status.txt", 1), frag(3, "out.h", 1),
	}
}

// formats encodes elements in every format Decode reads, with the options
// that decode each.
func formats(t *testing.T, elems []elem) map[string]struct {
	data []byte
	opts Options
} {
	data := dump(t, elems...)
	var c analysispb.ActionGraphContainer
	for _, e := range elems {
		list := c.ProtoReflect().Mutable(containerFields.ByNumber(e.num)).List()
		list.Append(list.NewElement())
		proto.Merge(list.Get(list.Len()-1).Message().Interface(), e.msg)
	}
	jsonData, err := protojson.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	textData, err := prototext.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]struct {
		data []byte
		opts Options
	}{
		"proto":             {data, Options{Format: Proto}},
		"proto_parallel":    {data, Options{Format: Proto, Workers: 3, ReuseActions: true}},
		"streamed":          {toStreamed(t, data), Options{Format: StreamedProto}},
		"streamed_parallel": {toStreamed(t, data), Options{Format: StreamedProto, Workers: 2}},
		"jsonproto":         {jsonData, Options{Format: JSONProto}},
		"textproto":         {textData, Options{Format: TextProto}},
	}
}

// Bazel never writes a reference to an element that does not exist, nor
// two elements with one id: each is an error naming the element and the
// id, in every format and mode. An element the dump keeps (an artifact, a
// dep set, a path fragment) is named by its id; its place is not kept.
func TestDanglingReferences(t *testing.T) {
	with := func(change func([]elem) []elem) []elem { return change(complete()) }
	actionOf := func(es []elem) *analysispb.Action { return es[2].msg.(*analysispb.Action) }
	tests := []struct {
		name  string
		elems []elem
		entry string // the element named, without its offset
		want  string // what is wrong
	}{
		{"complete", complete(), "", ""},
		{"target", with(func(es []elem) []elem { actionOf(es).TargetId = 9; return es }),
			"action 1", "target_id 9 names no target"},
		{"configuration", with(func(es []elem) []elem { actionOf(es).ConfigurationId = 9; return es }),
			"action 1", "configuration_id 9 names no configuration"},
		{"aspect_descriptor", with(func(es []elem) []elem { actionOf(es).AspectDescriptorIds = []uint32{1, 9}; return es }),
			"action 1", "aspect_descriptor_ids 9 names no aspect descriptor"},
		{"input_dep_set", with(func(es []elem) []elem { actionOf(es).InputDepSetIds = []uint32{9}; return es }),
			"action 1", "input_dep_set_ids 9 names no dep set"},
		{"output", with(func(es []elem) []elem { actionOf(es).OutputIds = []uint32{2, 9}; return es }),
			"action 1", "output_ids 9 names no artifact"},
		{"primary_output", with(func(es []elem) []elem { actionOf(es).PrimaryOutputId = 9; return es }),
			"action 1", "primary_output_id 9 names no artifact"},
		{"the_first_field_of_an_action", with(func(es []elem) []elem {
			actionOf(es).OutputIds, actionOf(es).TargetId = []uint32{9}, 8
			return es
		}), "action 1", "target_id 8 names no target"},
		{"the_first_action", with(func(es []elem) []elem {
			actionOf(es).InputDepSetIds = []uint32{9}
			return append(es[:3], append([]elem{act(&analysispb.Action{TargetId: 7, Mnemonic: "M"})}, es[3:]...)...)
		}), "action 1", "input_dep_set_ids 9 names no dep set"},
		{"the_first_action_to_name_it", with(func(es []elem) []elem {
			return append(es, act(&analysispb.Action{TargetId: 7, Mnemonic: "Later"}), act(&analysispb.Action{TargetId: 7, Mnemonic: "Later"}))
		}), "action 2", "target_id 7 names no target"},
		{"rule_class", with(func(es []elem) []elem {
			es[3].msg.(*analysispb.Target).RuleClassId = 9
			return es
		}), "target 1", "rule_class_id 9 names no rule class"},
		{"path_fragment", with(func(es []elem) []elem { return append(es, art(3, 9)) }),
			"artifact with id 3", "path_fragment_id 9 names no path fragment"},
		{"parent", with(func(es []elem) []elem { return append(es, frag(4, "x", 9)) }),
			"path fragment with id 4", "parent_id 9 names no path fragment"},
		{"transitive_dep_set", with(func(es []elem) []elem { return append(es, deps(3, nil, 9)) }),
			"dep set with id 3", "transitive_dep_set_ids 9 names no dep set"},
		{"direct_artifact", with(func(es []elem) []elem { return append(es, deps(3, []uint32{9})) }),
			"dep set with id 3", "direct_artifact_ids 9 names no artifact"},
		{"actions_before_the_rest", with(func(es []elem) []elem {
			actionOf(es).TargetId = 9
			return append(es, art(3, 9))
		}), "action 1", "target_id 9 names no target"},
		{"no_target_is_no_reference", with(func(es []elem) []elem { actionOf(es).TargetId = 0; return es }), "", ""},
		{"duplicate_target", with(func(es []elem) []elem { return append(es, tgt(1, "//b")) }),
			"target 2", "id 1 is already an earlier target's, expected each target to have an id of its own"},
		{"duplicate_artifact", with(func(es []elem) []elem { return append(es, art(2, 1)) }),
			"artifact 3", "id 2 is already an earlier artifact's, expected each artifact to have an id of its own"},
		{"duplicate_dep_set", with(func(es []elem) []elem { return append(es, deps(2, nil)) }),
			"dep set 3", "id 2 is already an earlier dep set's, expected each dep set to have an id of its own"},
		{"duplicate_path_fragment", with(func(es []elem) []elem { return append(es, frag(3, "y", 0)) }),
			"path fragment 4", "id 3 is already an earlier path fragment's, expected each path fragment to have an id of its own"},
		{"duplicate_configuration", with(func(es []elem) []elem { return append(es, cfg(1)) }),
			"configuration 2", "id 1 is already an earlier configuration's, expected each configuration to have an id of its own"},
		{"duplicate_rule_class", with(func(es []elem) []elem { return append(es, ruleClass(1)) }),
			"rule class 2", "id 1 is already an earlier rule class's, expected each rule class to have an id of its own"},
		{"duplicate_aspect_descriptor", with(func(es []elem) []elem { return append(es, aspect(1)) }),
			"aspect descriptor 2", "id 1 is already an earlier aspect descriptor's, expected each aspect descriptor to have an id of its own"},
		{"a_duplicate_before_a_dangling_reference", with(func(es []elem) []elem {
			actionOf(es).TargetId = 9
			return append(es, tgt(1, "//b"))
		}), "target 2", "id 1 is already an earlier target's, expected each target to have an id of its own"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for name, f := range formats(t, tc.elems) {
				g, actions, err := decodeAll(f.data, f.opts)
				if tc.want == "" {
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, a := range actions {
						if a.TargetID == 0 && g.Target(a.TargetID) != UnknownTarget {
							t.Errorf("%s: an action without a target has target %q", name, g.Target(a.TargetID))
						}
					}
					continue
				}
				var de *Error
				if !errors.As(err, &de) || de.File != "dump.pb" || de.Entry != tc.entry || de.Err.Error() != tc.want {
					t.Errorf("%s: error %v\nwant dump.pb: %s (…): %s", name, err, tc.entry, tc.want)
					continue
				}
				// Only the formats that have offsets give them, and
				// only for elements whose place is kept.
				hasOffset := (name != "textproto") && !strings.Contains(tc.entry, " with id ")
				if (de.Offset >= 0) != hasOffset {
					t.Errorf("%s: offset %d", name, de.Offset)
				}
			}
		})
	}
}

// The offset in a dangling reference's error is the action's own.
func TestDanglingReferenceOffset(t *testing.T) {
	var elems []elem
	for i := range 3000 {
		elems = append(elems, act(&analysispb.Action{TargetId: 1, Mnemonic: fmt.Sprint("M", i)}))
	}
	elems[2021].msg.(*analysispb.Action).TargetId = 9
	elems = append(elems, tgt(1, "//a"))
	data := dump(t, elems...)
	off := len(dump(t, elems[:2021]...))
	want := fmt.Sprintf("dump.pb: action 2022 (byte %d): target_id 9 names no target", off)
	for _, opts := range []Options{{}, {Workers: 3}, {Workers: 2, ReuseActions: true}} {
		if _, _, err := decodeAll(data, opts); err == nil || err.Error() != want {
			t.Errorf("%+v: error %v, want %s", opts, err, want)
		}
	}
	// Streamed, every element is a byte later per message before it, and
	// its own.
	want = fmt.Sprintf("dump.pb: action 2022 (byte %d): target_id 9 names no target", off+2022)
	if _, _, err := decodeAll(toStreamed(t, data), Options{Workers: 2}); err == nil || err.Error() != want {
		t.Errorf("streamed: error %v, want %s", err, want)
	}
}
