package aquery

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/wire"
)

func TestConformanceDumpsDecode(t *testing.T) {
	// Action counts from the conformance README.
	want := map[string]int{
		"webapp.pb": 45, "webapp-opt-stamp.pb": 52, "tools.pb": 48, "tools-pathenv.pb": 48,
		"a.json": 19, "b.json": 20, "c.json": 18, "d.json": 17, "e.json": 17, "f.json": 25,
	}
	binary, jsonproto := conformanceDumps(t)
	for _, path := range append(binary, jsonproto...) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n := 0
			g, err := Decode(f, name, Options{}, func(int, *Action) error { n++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != want[name] || g.Actions() != n {
				t.Errorf("decoded %d actions (Graph.Actions %d), want %d", n, g.Actions(), want[name])
			}
		})
	}
}

// The hand-written decoder must agree with the generated code on every
// action of the real dumps, field by field.
func TestBinaryDumpsMatchGeneratedCode(t *testing.T) {
	binary, _ := conformanceDumps(t)
	for _, path := range binary {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data := readFile(t, path)
			_, got := mustDecode(t, data, Options{})
			want := referenceActions(t, data)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("actions differ from proto.Unmarshal's")
			}
		})
	}
}

// Every format of the same graph yields the same actions and lookups.
func TestFormatsAgree(t *testing.T) {
	binary, _ := conformanceDumps(t)
	for _, path := range binary {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data := readFile(t, path)
			var c analysispb.ActionGraphContainer
			if err := proto.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			jsonData, err := protojson.Marshal(&c)
			if err != nil {
				t.Fatal(err)
			}
			textData, err := prototext.MarshalOptions{Multiline: true}.Marshal(&c)
			if err != nil {
				t.Fatal(err)
			}
			wantGraph, want := mustDecode(t, data, Options{})
			resolve(wantGraph, want)
			for _, tc := range []struct {
				format Format
				data   []byte
			}{
				{StreamedProto, toStreamed(t, data)},
				{JSONProto, jsonData},
				{TextProto, textData},
			} {
				for _, opts := range []Options{{}, {Format: tc.format}} {
					g, got := mustDecode(t, tc.data, opts)
					resolve(g, got)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%v (options %+v): actions differ from the proto dump's", tc.format, opts)
					}
				}
			}
		})
	}
}

func resolve(g *Graph, actions []*Action) {
	for _, a := range actions {
		a.ResolveInputs(g)
	}
}

func TestDetect(t *testing.T) {
	real := readFile(t, filepath.Join(conformanceDir(t), "real", "webapp.pb"))
	small := dump(t, tgt(1, "//a:b"), act(&analysispb.Action{TargetId: 1, Mnemonic: "Genrule"}))
	// A streamed message of length 10 starts with 0x0a, the tag of an
	// artifact in a proto dump.
	len10 := toStreamed(t, dump(t, act(&analysispb.Action{Mnemonic: "abcdef"})))
	if len10[0] != 0x0a {
		t.Fatalf("test setup: first byte %#x, want 0x0a", len10[0])
	}
	// And a proto dump whose first artifact is 10 bytes long... but whose
	// following bytes do not form one-element containers.
	art10 := dump(t, art(1<<21, 1<<21), art(2, 3))
	if art10[0] != 0x0a || art10[1] != 10 {
		t.Fatalf("test setup: first bytes % x", art10[:2])
	}
	tests := []struct {
		name string
		data []byte
		want Format
	}{
		{"empty", nil, Proto},
		{"real_proto", real, Proto},
		{"real_streamed", toStreamed(t, real), StreamedProto},
		{"small_proto", small, Proto},
		{"small_streamed", toStreamed(t, small), StreamedProto},
		{"streamed_length_10", len10, StreamedProto},
		{"proto_artifact_length_10", art10, Proto},
		{"jsonproto", []byte(`{"actions": []}`), JSONProto},
		{"jsonproto_leading_space", []byte("\n  {\n  \"artifacts\": [{\"id\": 1}]}"), JSONProto},
		{"jsonproto_empty_object", []byte("{}"), JSONProto},
		{"textproto", []byte("actions {\n  mnemonic: \"Genrule\"\n}\n"), TextProto},
		{"textproto_comment", []byte("# a graph\nactions {}\n"), TextProto},
		{"truncated_proto", real[:100], Proto},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := newStream(bytes.NewReader(tc.data), "dump", nil).detect()
			if err != nil || got != tc.want {
				t.Errorf("detect = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for _, garbage := range []string{"\x00\x01\x02", "hello world", "\xff\xff\xff\xff", "  "} {
		_, err := newStream(strings.NewReader(garbage), "dump", nil).detect()
		if err == nil || !strings.Contains(err.Error(), "not an aquery dump") {
			t.Errorf("detect(%q) error = %v, want not an aquery dump", garbage, err)
		}
	}
}

func TestDetectPrefixLongerThanPeek(t *testing.T) {
	// An action bigger than the peeked prefix: only its header is seen.
	big := dump(t, act(&analysispb.Action{Arguments: []string{strings.Repeat("x", 2*wire.DetectPrefix)}}), tgt(1, "//a"))
	for _, tc := range []struct {
		data []byte
		want Format
	}{{big, Proto}, {toStreamed(t, big), StreamedProto}} {
		g, actions := mustDecode(t, tc.data, Options{})
		if len(actions) != 1 || len(actions[0].Arguments[0]) != 2*wire.DetectPrefix || g.Target(1) != "//a" {
			t.Errorf("%v: wrong decode", tc.want)
		}
		got, err := newStream(bytes.NewReader(tc.data), "dump", nil).detect()
		if got != tc.want || err != nil {
			t.Errorf("detect = %v, %v; want %v", got, err, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Proto, StreamedProto, JSONProto, TextProto} {
		got, err := ParseFormat(f.String())
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	if _, err := ParseFormat("json"); err == nil || !strings.Contains(err.Error(), "expected one of: proto, streamed_proto, jsonproto") {
		t.Errorf("ParseFormat(json) error = %v", err)
	}
	if _, err := ParseFormat("detect"); err == nil {
		t.Error("ParseFormat(detect) succeeded; detection is the zero value, not a name")
	}
}

// Each field the checks read (§2, last paragraph) lands in the model.
func TestDecodeFields(t *testing.T) {
	full := &analysispb.Action{
		TargetId:        7,
		Mnemonic:        "CppLink",
		Arguments:       []string{"gcc", "@out/foo.params", "-o", "foo"},
		InputDepSetIds:  []uint32{3, 1},
		ActionKey:       "k",
		ConfigurationId: 2,
		OutputIds:       []uint32{9},
		EnvironmentVariables: []*analysispb.KeyValuePair{
			{Key: "PATH", Value: "/bin"}, {Key: "LANG", Value: ""},
		},
		ExecutionInfo: []*analysispb.KeyValuePair{{Key: "no-sandbox", Value: "1"}, {Key: "local"}},
		ParamFiles: []*analysispb.ParamFile{
			{ExecPath: "out/foo.params", Arguments: []string{"-O2", "-DNDEBUG"}},
			{ExecPath: "out/empty.params"},
		},
		FileContents:    "contents",
		TemplateContent: "template",
		Substitutions:   []*analysispb.KeyValuePair{{Key: "a", Value: "b"}},
	}
	want := &Action{
		Action: action.Action{
			Mnemonic:      "CppLink",
			TargetID:      7,
			Arguments:     []string{"gcc", "@out/foo.params", "-o", "foo"},
			Env:           []action.EnvVar{{Key: "PATH", Value: "/bin"}, {Key: "LANG", Value: ""}},
			ExecutionInfo: []string{"no-sandbox", "local"},
			ParamFiles: []action.ParamFile{
				{ExecPath: "out/foo.params", Lines: []string{"-O2", "-DNDEBUG"}},
				{ExecPath: "out/empty.params"},
			},
		},
		ConfigurationID: 2,
		InputDepSets:    []uint32{3, 1},
		OutputIDs:       []uint32{9},
	}
	for _, format := range []Format{Proto, StreamedProto, JSONProto} {
		t.Run(format.String(), func(t *testing.T) {
			// What the action names, for it to name something.
			named := []elem{tgt(7, "//app:bin"), cfg(2), art(9, 0), deps(3, nil), deps(1, nil)}
			data := dump(t, append([]elem{act(full)}, named...)...)
			switch format {
			case StreamedProto:
				data = toStreamed(t, data)
			case JSONProto:
				data = []byte(protojson.Format(&analysispb.ActionGraphContainer{
					Actions:       []*analysispb.Action{full},
					Targets:       []*analysispb.Target{{Id: 7, Label: "//app:bin"}},
					Configuration: []*analysispb.Configuration{named[1].msg.(*analysispb.Configuration)},
					Artifacts:     []*analysispb.Artifact{{Id: 9}},
					DepSetOfFiles: []*analysispb.DepSetOfFiles{{Id: 3}, {Id: 1}},
				}))
			}
			g, actions := mustDecode(t, data, Options{})
			if len(actions) != 1 {
				t.Fatalf("got %d actions", len(actions))
			}
			if !reflect.DeepEqual(actions[0], want) {
				t.Errorf("got  %+v\nwant %+v", actions[0], want)
			}
			if got := g.Target(7); got != "//app:bin" {
				t.Errorf("Target(7) = %q", got)
			}
			if got := g.Target(8); got != UnknownTarget {
				t.Errorf("Target(8) = %q, want %q", got, UnknownTarget)
			}
			if g.Actions() != 1 {
				t.Errorf("Actions() = %d", g.Actions())
			}
		})
	}
}

// A repeated uint32 may be packed (proto3's default) or not.
func TestUnpackedRepeatedIDs(t *testing.T) {
	var body []byte
	for _, id := range []uint32{4, 5} {
		body = protowire.AppendTag(body, 8, protowire.VarintType)
		body = protowire.AppendVarint(body, uint64(id))
	}
	var ds []byte
	ds = protowire.AppendTag(ds, 1, protowire.VarintType)
	ds = protowire.AppendVarint(ds, 4)
	ds = protowire.AppendTag(ds, 3, protowire.VarintType)
	ds = protowire.AppendVarint(ds, 1)
	data := rawElement(nil, fieldActions, body)
	data = rawElement(data, fieldDepSetOfFiles, ds)
	data = append(data, dump(t, deps(5, nil), art(1, 1), frag(1, "stable-status.txt", 0))...)
	g, actions := mustDecode(t, data, Options{})
	if !slices.Equal(actions[0].InputDepSets, []uint32{4, 5}) {
		t.Errorf("InputDepSets = %v", actions[0].InputDepSets)
	}
	if got := g.StatusInputs(actions[0].InputDepSets); !slices.Equal(got, []string{"stable-status.txt"}) {
		t.Errorf("StatusInputs = %q", got)
	}
}

func rawElement(b []byte, num protowire.Number, body []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func TestUnknownFieldsAreIgnored(t *testing.T) {
	base := dump(t, act(&analysispb.Action{Mnemonic: "M", TargetId: 1}), tgt(1, "//t"))
	var extra []byte
	extra = protowire.AppendTag(extra, 99, protowire.VarintType)
	extra = protowire.AppendVarint(extra, 5)
	extra = protowire.AppendTag(extra, 100, protowire.BytesType)
	extra = protowire.AppendBytes(extra, []byte("\xffnot utf-8 but unknown"))
	extra = protowire.AppendTag(extra, 101, protowire.Fixed64Type)
	extra = protowire.AppendFixed64(extra, 1)
	extra = protowire.AppendTag(extra, 102, protowire.StartGroupType)
	extra = protowire.AppendTag(extra, 1, protowire.Fixed32Type)
	extra = protowire.AppendFixed32(extra, 1)
	extra = protowire.AppendTag(extra, 102, protowire.EndGroupType)
	// Unknown fields at the top level and inside an action.
	actionBody, _ := proto.Marshal(&analysispb.Action{Mnemonic: "N", TargetId: 1})
	data := append(append([]byte{}, extra...), base...)
	data = rawElement(data, fieldActions, append(append([]byte{}, extra...), actionBody...))
	for _, format := range []Format{Proto, StreamedProto} {
		d := data
		if format == StreamedProto {
			d = protowire.AppendBytes(nil, data)
		}
		g, actions := mustDecode(t, d, Options{Format: format})
		if len(actions) != 2 || actions[0].Mnemonic != "M" || actions[1].Mnemonic != "N" || g.Target(1) != "//t" {
			t.Errorf("%v: got %d actions", format, len(actions))
		}
	}
}

// Bazel 4.2.3 writes actions before the targets and dep sets they refer to;
// other versions differ. No order may matter.
func TestOrderDoesNotMatter(t *testing.T) {
	elems := []elem{
		art(1, 3), art(2, 4), art(3, 5),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "Genrule", InputDepSetIds: []uint32{1}}),
		act(&analysispb.Action{TargetId: 2, Mnemonic: "CppCompile", InputDepSetIds: []uint32{2}}),
		act(&analysispb.Action{Mnemonic: "Orphan"}), // no target: <unknown target>
		tgt(1, "//a:gen"), tgt(2, "//a:lib"),
		deps(1, []uint32{1, 3}, 2), deps(2, []uint32{2}),
		frag(1, "bazel-out", 0), frag(3, "stable-status.txt", 1), frag(4, "volatile-status.txt", 1), frag(5, "main.cc", 2), frag(2, "src", 0),
		{fieldRuleClasses, &analysispb.RuleClass{Id: 1, Name: "genrule"}},
		{fieldConfiguration, &analysispb.Configuration{Id: 1, Mnemonic: "k8-fastbuild"}},
	}
	type summary struct {
		mnemonic, target string
		status           []string
	}
	summarize := func(data []byte) map[string]summary {
		g, actions := mustDecode(t, data, Options{})
		out := map[string]summary{}
		for _, a := range actions {
			out[a.Mnemonic] = summary{a.Mnemonic, g.Target(a.TargetID), g.StatusInputs(a.InputDepSets)}
		}
		return out
	}
	want := map[string]summary{
		"Genrule":    {"Genrule", "//a:gen", []string{"bazel-out/stable-status.txt", "bazel-out/volatile-status.txt"}},
		"CppCompile": {"CppCompile", "//a:lib", []string{"bazel-out/volatile-status.txt"}},
		"Orphan":     {"Orphan", UnknownTarget, nil},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		perm := slices.Clone(elems)
		if i > 0 {
			rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		}
		data := dump(t, perm...)
		if got := summarize(data); !reflect.DeepEqual(got, want) {
			t.Fatalf("permutation %d: got %+v\nwant %+v", i, got, want)
		}
		if got := summarize(toStreamed(t, data)); !reflect.DeepEqual(got, want) {
			t.Fatalf("permutation %d, streamed: got %+v", i, got)
		}
	}
}

// Actions reach fn in dump order.
func TestActionsInDumpOrder(t *testing.T) {
	var elems []elem
	var want []string
	for i := range 50 {
		m := "M" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		elems = append(elems, act(&analysispb.Action{Mnemonic: m}))
		want = append(want, m)
		if i%7 == 0 {
			elems = append(elems, tgt(uint32(i), "//x"))
		}
	}
	_, actions := mustDecode(t, dump(t, elems...), Options{})
	var got []string
	for _, a := range actions {
		got = append(got, a.Mnemonic)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order %v", got)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, format := range []Format{Detect, Proto, StreamedProto} {
		g, actions, err := decodeAll(nil, Options{Format: format})
		if err != nil || len(actions) != 0 || g.Actions() != 0 || g.Target(1) != UnknownTarget || g.StatusInputs([]uint32{1}) != nil {
			t.Errorf("%v: empty input: %v, %d actions", format, err, len(actions))
		}
	}
}

func TestFnErrorStopsDecoding(t *testing.T) {
	stop := errors.New("stop")
	data := dump(t, act(&analysispb.Action{Mnemonic: "M"}), act(&analysispb.Action{Mnemonic: "M"}))
	for _, d := range [][]byte{data, toStreamed(t, data)} {
		n := 0
		_, err := Decode(bytes.NewReader(d), "dump.pb", Options{}, func(int, *Action) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("err = %v after %d actions, want fn's error after 1", err, n)
		}
	}
	jsonData := []byte(`{"actions": [{}, {}]}`)
	if _, err := Decode(bytes.NewReader(jsonData), "d.json", Options{}, func(int, *Action) error { return stop }); err != stop {
		t.Errorf("jsonproto: err = %v", err)
	}
}

func TestProgress(t *testing.T) {
	data := readFile(t, filepath.Join(conformanceDir(t), "real", "tools.pb"))
	var calls []int64
	_, err := Decode(bytes.NewReader(data), "tools.pb", Options{Progress: func(n int64) { calls = append(calls, n) }}, func(int, *Action) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || calls[len(calls)-1] != int64(len(data)) {
		t.Errorf("progress calls %v, want the last to be %d", calls, len(data))
	}
}

func TestErrors(t *testing.T) {
	actionBody, _ := proto.Marshal(&analysispb.Action{Mnemonic: "Genrule", Arguments: []string{"a", "b"}})
	twoActions := rawElement(rawElement(nil, fieldActions, actionBody), fieldActions, actionBody)
	badUTF8 := func(num protowire.Number) []byte {
		var b []byte
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, []byte("ok\xff"))
	}
	var wrongWire []byte
	wrongWire = protowire.AppendTag(wrongWire, 4, protowire.VarintType) // mnemonic as a varint
	wrongWire = protowire.AppendVarint(wrongWire, 1)
	var topVarint []byte
	topVarint = protowire.AppendTag(topVarint, fieldActions, protowire.VarintType)
	topVarint = protowire.AppendVarint(topVarint, 1)

	tests := []struct {
		name   string
		data   []byte
		format Format
		want   string // the whole error text
	}{
		{"truncated_second_action", twoActions[:len(twoActions)-3], Detect,
			"dump.pb: action 2 (byte 17): unexpected EOF after 12 of 15 bytes, expected a complete message"},
		{"truncated_length", twoActions[:len(actionBody)+3], Proto,
			"dump.pb: action 2 (byte 17): length: unexpected EOF"},
		{"truncated_tag", append(slices.Clone(twoActions), 0x80), Proto,
			"dump.pb: byte 34: field tag: unexpected EOF"},
		{"invalid_utf8_argument", rawElement(nil, fieldActions, badUTF8(6)), Detect,
			"dump.pb: action 1 (byte 0): field arguments is not valid UTF-8, expected a UTF-8 string"},
		{"invalid_utf8_unread_field", rawElement(nil, fieldActions, badUTF8(3)), Proto,
			"dump.pb: action 1 (byte 0): field action_key is not valid UTF-8, expected a UTF-8 string"},
		{"invalid_utf8_target", rawElement(nil, fieldTargets, badUTF8(2)), Proto,
			"dump.pb: target 1 (byte 0): field label is not valid UTF-8, expected a UTF-8 string"},
		{"invalid_utf8_fragment", rawElement(nil, fieldPathFragments, badUTF8(2)), Proto,
			"dump.pb: path fragment 1 (byte 0): field label is not valid UTF-8, expected a UTF-8 string"},
		{"wrong_wire_type", rawElement(nil, fieldActions, wrongWire), Proto,
			"dump.pb: action 1 (byte 0): field mnemonic has wire type 0, expected 2"},
		{"container_field_not_a_message", topVarint, Proto,
			"dump.pb: action 1 (byte 0): field actions has wire type 0, expected 2"},
		{"streamed_message_truncated", protowire.AppendBytes(nil, twoActions)[:30], StreamedProto,
			"dump.pb: action 2 (byte 18): unexpected EOF after 10 of 15 bytes, expected a complete message"},
		{"streamed_element_past_message", append(protowire.AppendVarint(nil, 5), twoActions...), StreamedProto,
			"dump.pb: action 1 (byte 1): length 15 runs past the end of its streamed message"},
		{"garbage", []byte("\x07\x07\x07garbage"), Detect,
			"dump.pb: not an aquery dump: it starts with bytes 07 07 07 67 61 72 62 61, expected the output of --output=proto, streamed_proto or jsonproto"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decodeAll(tc.data, Options{Format: tc.format})
			if err == nil {
				t.Fatal("decoded without error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line")
			}
			var de *Error
			if !errors.As(err, &de) || de.File != "dump.pb" {
				t.Errorf("error is not an *Error naming the file: %#v", err)
			}
		})
	}
}

func TestTruncationErrors(t *testing.T) {
	data := readFile(t, filepath.Join(conformanceDir(t), "real", "webapp.pb"))
	boundaries := map[int]bool{0: true}
	off := 0
	for _, e := range splitElements(t, data) {
		off += len(e)
		boundaries[off] = true
	}
	for _, d := range []struct {
		format Format
		data   []byte
	}{{Proto, data}, {StreamedProto, toStreamed(t, data)}} {
		if d.format == StreamedProto {
			boundaries = map[int]bool{0: true}
			off := 0
			for len(d.data[off:]) > 0 {
				n, vl := protowire.ConsumeVarint(d.data[off:])
				off += vl + int(n)
				boundaries[off] = true
			}
		}
		// Every cut in the first 4 KiB, then a sample: the full sweep is
		// quadratic.
		for cut := 0; cut < len(d.data); cut += 1 + cut/4096*89 {
			_, _, err := decodeAll(d.data[:cut], Options{Format: d.format})
			if boundaries[cut] {
				if err != nil {
					t.Errorf("%v cut at element boundary %d: %v", d.format, cut, err)
				}
				continue
			}
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%v cut at %d: error %v, want unexpected EOF", d.format, cut, err)
			}
		}
	}
}

func TestInvalidJSONProto(t *testing.T) {
	_, _, err := decodeAll([]byte(`{"actions": [{"mnemonic": 3}]}`), Options{})
	if err == nil || err.Error() != "dump.pb: action 1 (byte 13): invalid jsonproto: invalid value for string field mnemonic: 3" {
		t.Errorf("error = %v", err)
	}
	// Unknown fields, as a newer Bazel might write, are ignored.
	g, actions, err := decodeAll([]byte(`{"actions": [{"mnemonic": "M", "futureField": 1}], "futureList": []}`), Options{})
	if err != nil || len(actions) != 1 || actions[0].Mnemonic != "M" || g.Actions() != 1 {
		t.Errorf("unknown jsonproto fields: %v", err)
	}
}

func TestDirectoryIsAnError(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = Decode(f, dir, Options{}, func(int, *Action) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), dir+": ") || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("error = %v", err)
	}
}

// Strings repeated across actions are shared, and the actions fn keeps are
// not overwritten by later ones (the element buffer is reused).
func TestRetainedActionsStayIntact(t *testing.T) {
	var elems []elem
	for i := range 100 {
		elems = append(elems, act(&analysispb.Action{
			Mnemonic:  "CppCompile",
			Arguments: []string{"gcc", "-c", strings.Repeat(string(rune('a'+i%26)), 100)},
		}))
	}
	_, actions := mustDecode(t, dump(t, elems...), Options{})
	for i, a := range actions {
		if a.Arguments[2] != strings.Repeat(string(rune('a'+i%26)), 100) || a.Arguments[1] != "-c" {
			t.Fatalf("action %d corrupted: %q", i, a.Arguments)
		}
	}
	if unsafeStringData(actions[0].Mnemonic) != unsafeStringData(actions[99].Mnemonic) {
		t.Error("mnemonics are not interned")
	}
}
