package aquery

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// A newer Bazel may add container fields this version does not know. They
// are skipped when decoding (§2), so detection must not refuse a dump that
// starts with one either: well-formed unknown fields count as fields.
func TestDetectUnknownFieldsFirst(t *testing.T) {
	known := dump(t, tgt(1, "//a"), act(&analysispb.Action{TargetId: 1, Mnemonic: "M"}))
	unknown := map[string][]byte{
		"bytes":  protowire.AppendBytes(protowire.AppendTag(nil, 9, protowire.BytesType), []byte("a future element")),
		"varint": protowire.AppendVarint(protowire.AppendTag(nil, 12, protowire.VarintType), 300),
		"fixed":  protowire.AppendFixed64(protowire.AppendTag(nil, 10, protowire.Fixed64Type), 1),
		"group":  nestedGroups(3, aVarint),
	}
	for name, field := range unknown {
		for _, tc := range []struct {
			format Format
			data   []byte
		}{
			{Proto, append(append([]byte(nil), field...), known...)},
			{Proto, append(append(append([]byte(nil), field...), field...), known...)},
			{StreamedProto, append(protowire.AppendBytes(nil, field), toStreamed(t, known)...)},
		} {
			got, err := newStream(bytes.NewReader(tc.data), "dump", nil).detect()
			if err != nil || got != tc.format {
				t.Errorf("%s first, %v: detected %v, %v", name, tc.format, got, err)
				continue
			}
			g, actions := mustDecode(t, tc.data, Options{})
			if len(actions) != 1 || g.Target(actions[0].TargetID) != "//a" {
				t.Errorf("%s first, %v: %d actions", name, tc.format, len(actions))
			}
		}
	}
	// Malformed is still not a dump: an unknown group never closed, a
	// wire type that does not exist.
	for _, bad := range [][]byte{
		protowire.AppendTag(nil, 9, protowire.StartGroupType),
		{0x4e, 0x01},
	} {
		if _, err := newStream(bytes.NewReader(bad), "dump", nil).detect(); err == nil {
			t.Errorf("detect(% x) succeeded", bad)
		}
	}
}
