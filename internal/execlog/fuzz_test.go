package execlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

// The fuzz targets check that no input makes a reader panic or hang, and
// that what a reader returns is well-formed: inputs, declared outputs and
// output files sorted by path with each path once, the spawn count right,
// and ReuseSpawns changing nothing. Seeds are in testdata/fuzz/<Name>;
// keep inputs small so that each run is fast:
//
//	go test ./internal/execlog -run '^$' -fuzz FuzzReadBinary -fuzztime 60s

func FuzzReadBinary(f *testing.F) {
	f.Add(write(f, Binary, seedSpawns()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, data, Binary)
		checkRead(t, data, Detect)
	})
}

func FuzzReadJSON(f *testing.F) {
	f.Add(write(f, JSON, seedSpawns()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, data, JSON)
	})
}

// FuzzReadCompact fuzzes the entries of a compact log: the input is the
// decompressed stream, compressed before reading, so that mutations reach
// the entry decoder rather than die in zstd.
func FuzzReadCompact(f *testing.F) {
	f.Add(decompressed(f, write(f, Compact, seedSpawns()...)))
	f.Add(decompressed(f, compactLog(f,
		invocation("ws"),
		fileEntry(1, "external/r/f", "01", 1),
		dirEntry(2, "bazel-out/bin/d", dirFile("x", "02", 2)),
		setEntry(3, []uint32{1, 2}),
		&spawnpb.ExecLogEntry{Id: 4, Type: &spawnpb.ExecLogEntry_SymlinkEntrySet_{SymlinkEntrySet: &spawnpb.ExecLogEntry_SymlinkEntrySet{
			DirectEntries: map[string]uint32{"l": 1, "e": 0}}}},
		&spawnpb.ExecLogEntry{Id: 5, Type: &spawnpb.ExecLogEntry_RunfilesTree_{RunfilesTree: &spawnpb.ExecLogEntry_RunfilesTree{
			Path: "t.runfiles", InputSetId: 3, SymlinksId: 4, RootSymlinksId: 4, EmptyFiles: []string{"z"}}}},
		setEntry(6, []uint32{5}, 3),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 6, ToolSetId: 3, Outputs: []*spawnpb.ExecLogEntry_Output{outputID(2), invalidOutput("o")}}),
	)))
	// What issue #26.3 asked to bound, small: a chain of sets and a set
	// of files, each named by many spawns.
	var chain, shared []byte
	for i := uint32(1); i <= 50; i++ {
		chain = rawFile(chain, 2*i-1, fmt.Sprintf("f%d", i), "0a")
		var prev []uint32
		if i > 1 {
			prev = []uint32{2*i - 2}
		}
		chain = rawSet(chain, 2*i, []uint32{2*i - 1}, prev...)
	}
	var files []uint32
	for i := uint32(1); i <= 20; i++ {
		shared = rawFile(shared, i, fmt.Sprintf("g%d", i), "0b")
		files = append(files, i)
	}
	shared = rawSet(shared, 21, files)
	for range 10 {
		chain = rawSpawn(chain, 100, "Chain")
		shared = rawSpawn(shared, 21, "Shared")
	}
	f.Add(chain)
	f.Add(shared)
	f.Add(append(protowire.AppendVarint(nil, 1<<31-1), make([]byte, 4096)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, compress(t, data), Compact)
	})
}

func seedSpawns() []*spawnpb.SpawnExec {
	return []*spawnpb.SpawnExec{{
		CommandArgs:          []string{"/bin/bash", "-c", "cp $1 $2"},
		EnvironmentVariables: []*spawnpb.EnvironmentVariable{{Name: "PATH", Value: "/bin"}},
		Inputs: []*spawnpb.File{
			{Path: "pkg/a.txt", Digest: &spawnpb.Digest{Hash: "01", SizeBytes: 1}},
			{Path: "tools/t", Digest: &spawnpb.Digest{Hash: "02", SizeBytes: 2}, IsTool: true},
		},
		ListedOutputs: []string{"bazel-out/bin/pkg/b.txt", "bazel-out/bin/pkg/tree"},
		ActualOutputs: []*spawnpb.File{
			{Path: "bazel-out/bin/pkg/b.txt", Digest: &spawnpb.Digest{Hash: "01", SizeBytes: 1}},
			{Path: "bazel-out/bin/pkg/tree/c", Digest: &spawnpb.Digest{Hash: "03", SizeBytes: 3}},
		},
		Mnemonic: "Genrule", Runner: "local", TargetLabel: "//pkg:b",
	}, {
		CommandArgs:   []string{"cat"},
		Inputs:        []*spawnpb.File{{Path: "bazel-out/bin/pkg/b.txt", Digest: &spawnpb.Digest{Hash: "01", SizeBytes: 1}}},
		ListedOutputs: []string{"bazel-out/bin/pkg/d.txt"},
		Mnemonic:      "Cat", ExitCode: 1, Status: "NON_ZERO_EXIT",
	}}
}

func checkRead(t *testing.T, data []byte, f Format) {
	var spawns []*spawn.Spawn
	st, err := Read(bytes.NewReader(data), "test.log", Options{Format: f}, func(s *spawn.Spawn) error {
		spawns = append(spawns, s)
		return nil
	})
	if st.Spawns != len(spawns) {
		t.Fatalf("%v: Stats.Spawns %d, fn saw %d", f, st.Spawns, len(spawns))
	}
	for _, s := range spawns {
		for _, files := range [][]spawn.File{s.Inputs, s.OutputFiles} {
			if !slices.IsSortedFunc(files, func(a, b spawn.File) int { return strings.Compare(a.Path, b.Path) }) ||
				len(slices.CompactFunc(slices.Clone(files), func(a, b spawn.File) bool { return a.Path == b.Path })) != len(files) {
				t.Fatalf("%v: files not sorted and unique: %v", f, files)
			}
		}
		if !slices.IsSorted(s.Outputs) || len(slices.Compact(slices.Clone(s.Outputs))) != len(s.Outputs) {
			t.Fatalf("%v: outputs not sorted and unique: %v", f, s.Outputs)
		}
	}
	reused, rerr := readAll(t, data, Options{Format: f, ReuseSpawns: true})
	if (err == nil) != (rerr == nil) || err != nil && err.Error() != rerr.Error() {
		t.Fatalf("%v: error %v, with ReuseSpawns %v", f, err, rerr)
	}
	if err != nil {
		return
	}
	var cloned []*spawn.Spawn
	for _, s := range spawns {
		cloned = append(cloned, s.Clone())
	}
	if !reflect.DeepEqual(cloned, reused) {
		t.Fatalf("%v: ReuseSpawns changes the spawns: %s", f, firstDifference(reused, cloned))
	}
	// Summarize says of each spawn what the summary of Read's says.
	tables, plain := spawn.NewTables(), spawn.NewTables()
	i := 0
	if _, err := Summarize(bytes.NewReader(data), "test.log", Options{Format: f}, tables, func(s *spawn.Summary) error {
		var want spawn.Summary
		plain.Summarize(spawns[i], &want)
		if got, want := summaryText(tables, s), summaryText(plain, &want); got != want {
			t.Fatalf("%v: spawn %d summarized as\n%s\nexpected, from Read's\n%s", f, i+1, got, want)
		}
		i++
		return nil
	}); err != nil || i != len(spawns) {
		t.Fatalf("%v: Summarize: %d spawns, %v; Read: %d spawns", f, i, err, len(spawns))
	}
}

// summaryText spells a summary out with its tables' strings, its inputs
// in path order: two summaries of one spawn spell the same.
func summaryText(t *spawn.Tables, s *spawn.Summary) string {
	var b strings.Builder
	str := func(id uint32) string { return strconv.Quote(t.Strings.Get(id)) }
	file := func(f spawn.FileID) string { return str(f.Path) + "=" + strconv.Quote(t.Contents.Get(f.Content)) }
	fmt.Fprintf(&b, "%s %s exit %d hashes %x %x %x %x\n", str(s.Mnemonic), str(s.Target), s.ExitCode,
		s.ArgsHash, s.EnvHash, s.OutputsHash, s.InputsHash)
	for _, a := range s.Args {
		b.WriteString("arg " + str(a) + "\n")
	}
	for _, e := range s.Env {
		b.WriteString("env " + str(e.Name) + "=" + str(e.Value) + "\n")
	}
	for _, o := range s.Outputs {
		b.WriteString("declared " + str(o) + "\n")
	}
	for _, o := range s.OutputFiles {
		b.WriteString("output " + file(o) + "\n")
	}
	var inputs []string
	for _, in := range s.Inputs {
		inputs = append(inputs, "input "+file(in)+"\n")
	}
	slices.Sort(inputs)
	b.WriteString(strings.Join(inputs, ""))
	return b.String()
}

// FuzzJSONMatchesProtojson holds the JSON reader to protojson: whatever
// one valid JSON SpawnExec object protojson reads (skipping unknown
// fields), the reader reads the same, and whatever the reader accepts is
// valid JSON.
func FuzzJSONMatchesProtojson(f *testing.F) {
	for _, se := range spawnExecs(f, testdata(f, "a.binary"))[:3] {
		f.Add(write(f, JSON, se))
	}
	for _, s := range []string{
		`{"command_args": ["a\u00e9\ud83d\ude00\n", "\ud800x"], "exit_code": "-3", "listed_outputs": null}`,
		`{"inputs": [{"path": "p", "digest": {"hash": "h", "sizeBytes": 12, "hash_function_name": "SHA-256"}, "is_tool": true}], "exitCode": 1e2}`,
		`{"environmentVariables": [{"name": "A"}, {"value": "\"v\""}], "remoteCacheHit": true, "runner": "remote cache hit", "metrics": {"totalTime": "1.5s"}, "x": [1, -2.5e3, {"y": null}, false]}`,
		`{"actualOutputs": [{"path": "o", "symlinkTargetPath": "../t"}], "targetLabel": "//a:b", "cacheable": true, "remotable": false, "remoteCacheable": null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readAll(t, data, Options{Format: JSON})
		if err == nil && len(got) > 0 && !json.Valid(bytes.TrimSpace(data)) && len(got) == 1 {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		var se spawnpb.SpawnExec
		if (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &se) != nil {
			return
		}
		// protojson skips an unknown field's value without checking all
		// of its syntax ({"x": 0e} reads); a log is JSON, and the reader
		// refuses what is not.
		if !json.Valid(data) {
			if err == nil {
				t.Fatalf("accepted invalid JSON %q", data)
			}
			return
		}
		if err != nil {
			t.Fatalf("protojson reads %q, the reader fails: %v", data, err)
		}
		if want := []*spawn.Spawn{fromSpawnExec(&se)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %s", data, firstDifference(got, want))
		}
	})
}
