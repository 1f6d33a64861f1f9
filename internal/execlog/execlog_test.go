package execlog

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

// The real logs of testdata/ (README.md) read the same in every format:
// JSON and binary as Bazel 4.2.3 wrote them, and compact as protolog
// converts the binary one, with and without ReuseSpawns.
func TestRealLogsReadTheSameInEveryFormat(t *testing.T) {
	for _, build := range []string{"a", "b"} {
		t.Run(build, func(t *testing.T) {
			bin := testdata(t, build+".binary")
			want := mustReadAll(t, bin, Options{})
			if len(want) < 14 {
				t.Fatalf("%s.binary: %d spawns, expected the 14 or 15 of the tiny workspace", build, len(want))
			}
			logs := map[string][]byte{
				"json":    testdata(t, build+".json"),
				"binary":  bin,
				"compact": write(t, Compact, spawnExecs(t, bin)...),
			}
			for name, data := range logs {
				for _, reuse := range []bool{false, true} {
					got := mustReadAll(t, data, Options{ReuseSpawns: reuse})
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s (reuse %v): spawns differ from the binary log's:\n%s", name, reuse, firstDifference(got, want))
					}
				}
			}
		})
	}
}

// The protowire decoder agrees with proto.Unmarshal into the generated
// types on every field the model keeps.
func TestBinaryDecoderMatchesProtoUnmarshal(t *testing.T) {
	for _, name := range []string{"a.binary", "b.binary"} {
		data := testdata(t, name)
		var want []*spawn.Spawn
		for _, se := range spawnExecs(t, data) {
			want = append(want, fromSpawnExec(se))
		}
		if got := mustReadAll(t, data, Options{ReuseSpawns: true}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s", name, firstDifference(got, want))
		}
	}
}

// A spawn with every field set survives each writer and reader: what the
// model keeps comes back, in each format.
func TestEveryFieldRoundTrips(t *testing.T) {
	se := &spawnpb.SpawnExec{
		CommandArgs:          []string{"/bin/tool", "--flag=\x1b[31m", "ünïcode"},
		EnvironmentVariables: []*spawnpb.EnvironmentVariable{{Name: "PATH", Value: "/bin"}, {Name: "EMPTY"}},
		Inputs: []*spawnpb.File{
			{Path: "a/tool", Digest: &spawnpb.Digest{Hash: "aa", SizeBytes: 10, HashFunctionName: "SHA-256"}, IsTool: true},
			{Path: "b/link", SymlinkTargetPath: "../a/tool"},
			{Path: "c/empty"},
			{Path: "top", Digest: &spawnpb.Digest{Hash: "bb", SizeBytes: 1}},
		},
		ListedOutputs:   []string{"out/dir", "out/file", "out/missing"},
		ActualOutputs:   []*spawnpb.File{{Path: "out/dir/x", Digest: &spawnpb.Digest{Hash: "cc", SizeBytes: 2}}, {Path: "out/file", Digest: &spawnpb.Digest{Hash: "dd", SizeBytes: 3}}},
		Remotable:       true,
		Cacheable:       true,
		TimeoutMillis:   5000,
		Mnemonic:        "Gen",
		Runner:          "remote",
		CacheHit:        true,
		Status:          "NON_ZERO_EXIT",
		ExitCode:        -2,
		RemoteCacheable: true,
		TargetLabel:     "@@//pkg:target",
	}
	want := &spawn.Spawn{
		Mnemonic: "Gen", Target: "@@//pkg:target",
		Args: []string{"/bin/tool", "--flag=\x1b[31m", "ünïcode"},
		Env:  []spawn.EnvVar{{Name: "PATH", Value: "/bin"}, {Name: "EMPTY"}},
		Inputs: []spawn.File{
			{Path: "a/tool", Digest: spawn.Digest{Hash: "aa", Size: 10}, Tool: true},
			{Path: "b/link", SymlinkTarget: "../a/tool"},
			{Path: "c/empty"},
			file("top", "bb", 1),
		},
		Outputs:     []string{"out/dir", "out/file", "out/missing"},
		OutputFiles: []spawn.File{file("out/dir/x", "cc", 2), file("out/file", "dd", 3)},
		ExitCode:    -2, Status: "NON_ZERO_EXIT", Runner: "remote", CacheHit: true,
		Remotable: true, Cacheable: true, RemoteCacheable: true,
	}
	for _, f := range []Format{JSON, Binary, Compact} {
		got := mustReadAll(t, write(t, f, se), Options{})
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("%v: got %s", f, firstDifference(got, []*spawn.Spawn{want}))
		}
	}
}

// Bazel 4.2.3's JSON names its cache hits only by the runner
// (remoteCacheHit is not a field of this spawn.proto).
func TestBazel4CacheHitFromRunner(t *testing.T) {
	log := `{"commandArgs": ["x"], "listedOutputs": ["o"], "runner": "remote cache hit", "remoteCacheHit": true, "progressMessage": "p"}`
	got := mustReadAll(t, []byte(log), Options{})
	if len(got) != 1 || !got[0].CacheHit || got[0].Runner != "remote cache hit" {
		t.Fatalf("got %+v, expected one cache hit", got)
	}
}

// Inputs and outputs come out sorted by path with each path once, the last
// one listed winning, whatever order the log has them in.
func TestInputsAreSortedAndUnique(t *testing.T) {
	se := &spawnpb.SpawnExec{
		Inputs: []*spawnpb.File{
			{Path: "b", Digest: &spawnpb.Digest{Hash: "1"}},
			{Path: "a", Digest: &spawnpb.Digest{Hash: "2"}},
			{Path: "b", Digest: &spawnpb.Digest{Hash: "3"}},
		},
		ListedOutputs: []string{"y", "x", "y"},
	}
	for _, f := range []Format{JSON, Binary} {
		got := mustReadAll(t, write(t, f, se), Options{})[0]
		wantIn := []spawn.File{file("a", "2", 0), file("b", "3", 0)}
		if !reflect.DeepEqual(got.Inputs, wantIn) || !reflect.DeepEqual(got.Outputs, []string{"x", "y"}) {
			t.Errorf("%v: inputs %v, outputs %v", f, got.Inputs, got.Outputs)
		}
	}
}

func TestDetect(t *testing.T) {
	se := &spawnpb.SpawnExec{CommandArgs: []string{"x"}, Mnemonic: "M"}
	for _, tc := range []struct {
		name string
		data []byte
		want Format
		err  string
	}{
		{"empty", nil, Binary, ""},
		{"json", write(t, JSON, se), JSON, ""},
		{"json pretty", []byte("\n  {\n  \"commandArgs\": [\"x\"]\n}"), JSON, ""},
		{"binary", write(t, Binary, se), Binary, ""},
		{"compact", write(t, Compact, se), Compact, ""},
		{"real json", testdata(t, "a.json"), JSON, ""},
		{"real binary", testdata(t, "a.binary"), Binary, ""},
		{"text", []byte("hello world"), Detect, "not an execution log: it starts with bytes 68 65 6c 6c 6f 20 77 6f, expected the output of --execution_log_json_file, --execution_log_binary_file or --execution_log_compact_file"},
		{"gzip", []byte{0x1f, 0x8b, 8, 0}, Detect, "not an execution log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Read(bytes.NewReader(tc.data), "x.log", Options{}, func(*spawn.Spawn) error { return nil })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, expected one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Format != tc.want {
				t.Errorf("format %v, expected %v", st.Format, tc.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{JSON, Binary, Compact} {
		if got, err := ParseFormat(f.String()); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	if _, err := ParseFormat("detect"); err == nil || !strings.Contains(err.Error(), "expected one of: json, binary, compact") {
		t.Errorf("ParseFormat(detect): %v", err)
	}
}

// An error from fn stops reading and comes back unwrapped, from every
// format.
func TestCallbackErrorIsReturnedAsIs(t *testing.T) {
	stop := errors.New("stop")
	se := &spawnpb.SpawnExec{CommandArgs: []string{"x"}}
	for _, f := range []Format{JSON, Binary, Compact} {
		n := 0
		_, err := Read(bytes.NewReader(write(t, f, se, se, se)), "x.log", Options{}, func(*spawn.Spawn) error {
			n++
			return stop
		})
		if err != stop || n != 1 {
			t.Errorf("%v: error %v after %d spawns, expected stop after 1", f, err, n)
		}
	}
}

func TestProgress(t *testing.T) {
	data := testdata(t, "a.binary")
	var last int64
	calls := 0
	st, err := Read(bytes.NewReader(data), "a.binary", Options{Progress: func(n int64) { last = n; calls++ }}, func(*spawn.Spawn) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != int64(len(data)) || st.Bytes != int64(len(data)) || st.Spawns != 14 {
		t.Errorf("progress %d calls, last %d; stats %+v; expected the file's %d bytes and 14 spawns", calls, last, st, len(data))
	}
}

// A length prefix claiming far more than arrived fails fast without
// allocating what it claims.
func TestLengthPrefixDoesNotAllocateWhatItClaims(t *testing.T) {
	// 2 GiB - 1 claimed, one byte present.
	data := []byte{0xff, 0xff, 0xff, 0xff, 0x07, 0x0a}
	for _, tc := range []struct {
		name string
		data []byte
		f    Format
	}{
		{"binary", data, Binary},
		{"compact", compress(t, data), Compact},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readAll(t, tc.data, Options{Format: tc.f})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "unexpected EOF after 1 of 2147483647 bytes") {
			t.Errorf("%s: error %v, expected a truncated message", tc.name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s: allocated %d bytes for a 6-byte log", tc.name, grew)
		}
	}
}

func TestErrors(t *testing.T) {
	good := &spawnpb.SpawnExec{CommandArgs: []string{"x"}, Mnemonic: "M"}
	bin := write(t, Binary, good, good)
	for _, tc := range []struct {
		name string
		data []byte
		f    Format
		want string
	}{
		{"binary truncated", bin[:len(bin)-1], Binary, "test.log: spawn 2 (byte 7): unexpected EOF after 5 of 6 bytes, expected a complete message"},
		{"binary truncated length", slices.Concat(bin, []byte{0x80}), Binary, "test.log: spawn 3 (byte 14): length: unexpected EOF"},
		{"binary overlong length", slices.Concat(bin, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}), Binary, "test.log: spawn 3 (byte 14): length 4398046511103 exceeds the protobuf limit of 2 GiB"},
		{"binary empty message", slices.Concat(bin, []byte{0}), Binary, "test.log: spawn 3 (byte 14): empty message, expected a SpawnExec with at least one field"},
		{"binary zeros", make([]byte, 64), Binary, "test.log: spawn 1 (byte 0): empty message"},
		{"binary wrong wire type", []byte{2, 0x08, 0x01}, Binary, "test.log: spawn 1 (byte 0): field command_args has wire type 0, expected 2"},
		{"binary bad nested", []byte{4, 0x22, 0x02, 0x10, 0x01}, Binary, "test.log: spawn 1 (byte 0): input 1: field digest has wire type 0, expected 2"},
		{"binary truncated field", []byte{3, 0x0a, 0x05, 'x'}, Binary, "test.log: spawn 1 (byte 0): field command_args: unexpected EOF"},
		{"json syntax", []byte(`{"commandArgs": ["x"]} {"commandArgs": [}`), JSON, "test.log: spawn 2 (byte 23): mismatched '}' at byte 40, expected ']'"},
		{"json truncated", []byte(`{"commandArgs": ["x"]} {"commandArgs": [`), JSON, "test.log: spawn 2 (byte 23): unexpected EOF after 17 bytes, expected a complete JSON object"},
		{"json array", []byte(`{"commandArgs": ["x"]}[1]`), JSON, "test.log: spawn 2 (byte 22): a JSON array, expected a SpawnExec object"},
		{"json trailing garbage", []byte(`{"commandArgs": ["x"]} x`), JSON, `test.log: spawn 2 (byte 23): invalid character 'x', expected a SpawnExec object`},
		{"json bad escape", []byte(`{"mnemonic": "a\qb"}`), JSON, `test.log: spawn 1 (byte 0): mnemonic: invalid escape \q in a string (at byte 17 of the object)`},
		{"json deep unknown", []byte(`{"x": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`), JSON, `test.log: spawn 1 (byte 0): x: values nested too deeply`},
		{"json wrong type", []byte(`{"commandArgs": "x"}`), JSON, `test.log: spawn 1 (byte 0): commandArgs: a JSON string, expected an array (at byte 16 of the object)`},
		{"json bad value", []byte(`{"commandArgs": ["x"]}` + "\n" + `{"exitCode": "abc"}`), JSON, `test.log: spawn 2 (byte 23): exitCode: invalid integer "abc" (at byte 18 of the object)`},
		{"compact not zstd", bin, Compact, "test.log: entry 1 (byte 0 of the decompressed stream): zstd: invalid input: magic number mismatch"},
		{"compact truncated zstd", write(t, Compact, good)[:20], Compact, "test.log: entry 1 (byte 0 of the decompressed stream): zstd: the compressed stream ends early, expected a complete zstd frame"},
		{"compact no payload", compactLog(t, &spawnpb.ExecLogEntry{Id: 3}), Compact, "test.log: entry 1 (byte 0 of the decompressed stream): no payload, expected one of: invocation, file"},
		{"compact missing ref", compactLog(t, setEntry(1, []uint32{7})), Compact, "test.log: input set 1 (byte 0 of the decompressed stream): input 7 names no earlier entry, expected entries to come before what refers to them"},
		{"compact forward ref", compactLog(t, setEntry(1, []uint32{2}), fileEntry(2, "a", "h", 1)), Compact, "input 2 names no earlier entry"},
		{"compact wrong kind", compactLog(t, fileEntry(1, "a", "h", 1), setEntry(2, nil, 1)), Compact, "test.log: input set 1 (byte 15 of the decompressed stream): transitive set 1 names a file, expected a input set"},
		{"compact duplicate id", compactLog(t, fileEntry(1, "a", "h", 1), fileEntry(1, "b", "h", 1)), Compact, "test.log: file 2 (byte 15 of the decompressed stream): id 1 is used by an earlier entry, expected each id once"},
		{"compact spawn bad set", compactLog(t, fileEntry(1, "a", "h", 1), spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 1})), Compact, "test.log: spawn 1 (byte 15 of the decompressed stream): input_set_id 1 names a file, expected a input set"},
		{"compact output is a set", compactLog(t, setEntry(1, nil), spawnEntry(&spawnpb.ExecLogEntry_Spawn{Outputs: []*spawnpb.ExecLogEntry_Output{outputID(1)}})), Compact, "output_id 1 names a input set, expected a file or directory or unresolved symlink"},
		{"compact truncated entry", compress(t, []byte{5, 0x08}), Compact, "test.log: entry 1 (byte 0 of the decompressed stream): unexpected EOF after 1 of 5 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, tc.data, Options{Format: tc.f})
			if err == nil {
				t.Fatalf("no error, expected %q", tc.want)
			}
			if _, ok := errors.AsType[*Error](err); !ok {
				t.Errorf("error %T, expected an *Error", err)
			}
			if strings.HasPrefix(tc.want, "test.log:") && !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%s\nexpected it to start with\n%s", err, tc.want)
			}
		})
	}
}

// firstDifference describes where two spawn lists first differ.
func firstDifference(got, want []*spawn.Spawn) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d spawns, expected %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("spawn %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	return "no difference"
}
