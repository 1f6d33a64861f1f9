package execlog

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"

	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

func onlySpawn(t *testing.T, data []byte) *spawn.Spawn {
	t.Helper()
	got := mustReadAll(t, data, Options{})
	if len(got) != 1 {
		t.Fatalf("%d spawns, expected 1", len(got))
	}
	return got[0]
}

// Nested sets are walked in Bazel's postorder: transitive sets left to
// right, then direct inputs; an entry reached twice counts once, and of two
// entries with the same path (entries are not canonical) the later wins.
func TestCompactNestedSetsPostorder(t *testing.T) {
	log := compactLog(t,
		fileEntry(1, "x", "from-a", 1),
		fileEntry(2, "x", "from-b", 2),
		fileEntry(3, "x", "direct", 3),
		fileEntry(4, "y", "shared", 4),
		setEntry(5, []uint32{1, 4}),
		setEntry(6, []uint32{2, 4}, 5), // B holds A too: a diamond
		setEntry(7, []uint32{3}, 5, 6),
		setEntry(8, []uint32{4}, 5, 6),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 7}),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 8}),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 6}),
	)
	got := mustReadAll(t, log, Options{})
	want := [][]spawn.File{
		{file("x", "direct", 3), file("y", "shared", 4)},
		{file("x", "from-b", 2), file("y", "shared", 4)},
		{file("x", "from-b", 2), file("y", "shared", 4)},
	}
	for i, w := range want {
		if !reflect.DeepEqual(got[i].Inputs, w) {
			t.Errorf("spawn %d: inputs %v, expected %v", i+1, got[i].Inputs, w)
		}
	}
}

// A chain of fifty thousand nested sets is walked without recursion.
func TestCompactDeepNesting(t *testing.T) {
	const depth = 50_000
	entries := []*spawnpb.ExecLogEntry{fileEntry(1, "leaf", "h", 1), setEntry(2, []uint32{1})}
	for id := uint32(3); id < depth; id++ {
		entries = append(entries, setEntry(id, nil, id-1))
	}
	entries = append(entries, spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: depth - 1}))
	sp := onlySpawn(t, compactLog(t, entries...))
	if !reflect.DeepEqual(sp.Inputs, []spawn.File{file("leaf", "h", 1)}) {
		t.Errorf("inputs %v", sp.Inputs)
	}
}

// Directories stand for their files, unresolved symlinks for themselves;
// the tool set marks inputs as tools.
func TestCompactDirectoriesSymlinksTools(t *testing.T) {
	log := compactLog(t,
		dirEntry(1, "src/dir", dirFile("a", "ha", 1), dirFile("sub/b", "hb", 2)),
		symlinkEntry(2, "bazel-out/bin/link", "../target"),
		fileEntry(3, "tools/cc", "hc", 3),
		setEntry(4, []uint32{1, 2, 3}),
		setEntry(5, []uint32{3}),
		dirEntry(6, "bazel-out/bin/tree", dirFile("out", "ho", 4)),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 4, ToolSetId: 5, Outputs: []*spawnpb.ExecLogEntry_Output{outputID(6), invalidOutput("bazel-out/bin/missing")}}),
	)
	sp := onlySpawn(t, log)
	wantIn := []spawn.File{
		{Path: "bazel-out/bin/link", SymlinkTarget: "../target"},
		file("src/dir/a", "ha", 1),
		file("src/dir/sub/b", "hb", 2),
		{Path: "tools/cc", Digest: spawn.Digest{Hash: "hc", Size: 3}, Tool: true},
	}
	if !reflect.DeepEqual(sp.Inputs, wantIn) {
		t.Errorf("inputs\n%v\nexpected\n%v", sp.Inputs, wantIn)
	}
	if want := []string{"bazel-out/bin/missing", "bazel-out/bin/tree"}; !reflect.DeepEqual(sp.Outputs, want) {
		t.Errorf("outputs %v, expected %v", sp.Outputs, want)
	}
	if want := []spawn.File{file("bazel-out/bin/tree/out", "ho", 4)}; !reflect.DeepEqual(sp.OutputFiles, want) {
		t.Errorf("output files %v, expected %v", sp.OutputFiles, want)
	}
}

// A runfiles tree expands into the files it lays out, in the layers
// spawn.proto documents, later layers winning.
func TestCompactRunfilesTree(t *testing.T) {
	const tree = "bazel-out/k8-fastbuild/bin/pkg/tool.runfiles"
	symlinks := &spawnpb.ExecLogEntry{Id: 7, Type: &spawnpb.ExecLogEntry_SymlinkEntrySet_{SymlinkEntrySet: &spawnpb.ExecLogEntry_SymlinkEntrySet{
		DirectEntries: map[string]uint32{"custom/link": 6, "custom/dir": 4}}}}
	rootSymlinks := &spawnpb.ExecLogEntry{Id: 8, Type: &spawnpb.ExecLogEntry_SymlinkEntrySet_{SymlinkEntrySet: &spawnpb.ExecLogEntry_SymlinkEntrySet{
		DirectEntries: map[string]uint32{"top": 0, "ws/pkg/data.txt": 6}}}}
	runfiles := &spawnpb.ExecLogEntry{Id: 9, Type: &spawnpb.ExecLogEntry_RunfilesTree_{RunfilesTree: &spawnpb.ExecLogEntry_RunfilesTree{
		Path: tree, InputSetId: 5, SymlinksId: 7, RootSymlinksId: 8,
		EmptyFiles:          []string{"pkg/__init__.py"},
		RepoMappingManifest: &spawnpb.ExecLogEntry_File{Digest: &spawnpb.Digest{Hash: "hm", SizeBytes: 10}},
	}}}
	log := compactLog(t,
		invocation("ws"),
		fileEntry(1, "bazel-out/k8-fastbuild/bin/pkg/tool", "h1", 1),
		fileEntry(2, "pkg/data.txt", "h2", 2),
		fileEntry(3, "external/repo/lib.txt", "h3", 3),
		dirEntry(4, "bazel-out/k8-fastbuild/bin/pkg/tree", dirFile("a", "h4", 4)),
		setEntry(5, []uint32{1, 2, 3, 4}),
		fileEntry(6, "other/target", "h6", 6),
		symlinks, rootSymlinks, runfiles,
		setEntry(10, []uint32{9, 1}),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 10}),
	)
	sp := onlySpawn(t, log)
	want := []spawn.File{
		file("bazel-out/k8-fastbuild/bin/pkg/tool", "h1", 1),
		file(tree+"/_repo_mapping", "hm", 10),
		file(tree+"/repo/lib.txt", "h3", 3),
		{Path: tree + "/top"},
		file(tree+"/ws/custom/dir/a", "h4", 4),
		file(tree+"/ws/custom/link", "h6", 6),
		{Path: tree + "/ws/pkg/__init__.py"},
		file(tree+"/ws/pkg/data.txt", "h6", 6), // the root symlink wins over the artifact
		file(tree+"/ws/pkg/tool", "h1", 1),
		file(tree+"/ws/pkg/tree/a", "h4", 4),
	}
	if !reflect.DeepEqual(sp.Inputs, want) {
		t.Errorf("inputs\n%v\nexpected\n%v", sp.Inputs, want)
	}
}

// A runfiles tree of external files only gets the empty .runfile that
// makes its workspace directory; with legacy external runfiles the files
// also lie under <workspace>/external/, and no .runfile is added.
func TestCompactRunfilesDotRunfile(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		log := compactLog(t,
			fileEntry(1, "external/repo/lib.txt", "h", 1),
			setEntry(2, []uint32{1}),
			&spawnpb.ExecLogEntry{Id: 3, Type: &spawnpb.ExecLogEntry_RunfilesTree_{RunfilesTree: &spawnpb.ExecLogEntry_RunfilesTree{
				Path: "t.runfiles", InputSetId: 2, LegacyExternalRunfiles: legacy}}},
			setEntry(4, []uint32{3}),
			spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 4}),
		)
		want := []spawn.File{{Path: "t.runfiles/_main/.runfile"}, file("t.runfiles/repo/lib.txt", "h", 1)}
		if legacy {
			want = []spawn.File{file("t.runfiles/_main/external/repo/lib.txt", "h", 1), file("t.runfiles/repo/lib.txt", "h", 1)}
		}
		if got := onlySpawn(t, log).Inputs; !reflect.DeepEqual(got, want) {
			t.Errorf("legacy %v: inputs %v, expected %v", legacy, got, want)
		}
	}
}

// Ids need not be dense: a far-off one is stored without growing a table
// to its size.
func TestCompactSparseIDs(t *testing.T) {
	log := compactLog(t,
		fileEntry(4_000_000_000, "a", "h", 1),
		setEntry(7, []uint32{4_000_000_000}),
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{InputSetId: 7}),
	)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sp := onlySpawn(t, log)
	runtime.ReadMemStats(&after)
	if !reflect.DeepEqual(sp.Inputs, []spawn.File{file("a", "h", 1)}) {
		t.Errorf("inputs %v", sp.Inputs)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("allocated %d bytes for three entries", grew)
	}
}

// Symlink actions are not spawns, in the compact format as in the flat
// ones.
func TestCompactSymlinkActionsAreSkipped(t *testing.T) {
	log := compactLog(t,
		&spawnpb.ExecLogEntry{Type: &spawnpb.ExecLogEntry_SymlinkAction_{SymlinkAction: &spawnpb.ExecLogEntry_SymlinkAction{InputPath: "a", OutputPath: "b", Mnemonic: "Symlink"}}},
		spawnEntry(&spawnpb.ExecLogEntry_Spawn{Mnemonic: "M"}),
	)
	if sp := onlySpawn(t, log); sp.Mnemonic != "M" {
		t.Errorf("spawn %+v", sp)
	}
}

// The compact reader agrees with the plain reference reader
// (protolog.ReadCompact, Bazel's reconstruction done with the generated
// types) on every field the model keeps.
func TestCompactMatchesReference(t *testing.T) {
	logs := [][]byte{
		write(t, Compact, spawnExecs(t, testdata(t, "a.binary"))...),
		write(t, Compact, spawnExecs(t, testdata(t, "b.binary"))...),
		write(t, Compact, seedSpawns()...),
		compactLog(t,
			dirEntry(1, "src/dir", dirFile("a", "ha", 1)),
			symlinkEntry(2, "bazel-out/bin/link", "../target"),
			fileEntry(3, "tools/cc", "hc", 3),
			setEntry(4, []uint32{1, 2, 3}),
			setEntry(5, []uint32{3}),
			setEntry(6, []uint32{3}, 4, 5),
			spawnEntry(&spawnpb.ExecLogEntry_Spawn{Args: []string{"cc"}, InputSetId: 6, ToolSetId: 5, Outputs: []*spawnpb.ExecLogEntry_Output{outputID(3), invalidOutput("gone")}}),
		),
	}
	for i, log := range logs {
		var want []*spawn.Spawn
		if err := protolog.ReadCompact(bytes.NewReader(log), func(se *spawnpb.SpawnExec) error {
			want = append(want, fromSpawnExec(se))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got := mustReadAll(t, log, Options{}); !reflect.DeepEqual(got, want) {
			t.Errorf("log %d: %s", i, firstDifference(got, want))
		}
	}
}
