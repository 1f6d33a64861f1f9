package execlog

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/execlog/protolog"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

// readAll reads a log and returns deep copies of its spawns.
func readAll(t testing.TB, data []byte, opts Options) ([]*spawn.Spawn, error) {
	t.Helper()
	var out []*spawn.Spawn
	_, err := Read(bytes.NewReader(data), "test.log", opts, func(s *spawn.Spawn) error {
		out = append(out, s.Clone())
		return nil
	})
	return out, err
}

func mustReadAll(t testing.TB, data []byte, opts Options) []*spawn.Spawn {
	t.Helper()
	out, err := readAll(t, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// spawnExecs reads a binary log the plain way.
func spawnExecs(t testing.TB, data []byte) []*spawnpb.SpawnExec {
	t.Helper()
	var out []*spawnpb.SpawnExec
	if err := protolog.ReadBinary(bytes.NewReader(data), func(se *spawnpb.SpawnExec) error {
		out = append(out, se)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// write writes spawns with one of protolog's writers.
func write(t testing.TB, f Format, spawns ...*spawnpb.SpawnExec) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w protolog.Writer
	switch f {
	case JSON:
		w = protolog.NewJSON(&buf)
	case Binary:
		w = protolog.NewBinary(&buf)
	case Compact:
		var err error
		if w, err = protolog.NewCompact(&buf, protolog.CompactOptions{}); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("no writer for %v", f)
	}
	for _, se := range spawns {
		if err := w.Write(se); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// delimited writes messages varint-delimited, as the binary and compact
// formats frame them (before compression).
func delimited(t testing.TB, msgs ...proto.Message) []byte {
	t.Helper()
	var out []byte
	for _, m := range msgs {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = protowire.AppendVarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out
}

// compress wraps raw in a zstd frame, as a compact log.
func compress(t testing.TB, raw []byte) []byte {
	t.Helper()
	encoderOnce.Do(func() {
		encoder, encoderErr = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	})
	if encoderErr != nil {
		t.Fatal(encoderErr)
	}
	return encoder.EncodeAll(raw, nil)
}

// encoder is shared: a fuzz target compresses every input, and building an
// encoder costs more than the rest of a run.
var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
	encoderErr  error
)

// decompressed undoes compress.
func decompressed(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	raw, err := zr.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// compactLog writes entries as a compact log.
func compactLog(t testing.TB, entries ...*spawnpb.ExecLogEntry) []byte {
	t.Helper()
	msgs := make([]proto.Message, len(entries))
	for i, e := range entries {
		msgs[i] = e
	}
	return compress(t, delimited(t, msgs...))
}

// Entry constructors for hand-written compact logs.

func fileEntry(id uint32, path, hash string, size int64) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_File_{File: &spawnpb.ExecLogEntry_File{
		Path: path, Digest: &spawnpb.Digest{Hash: hash, SizeBytes: size}}}}
}

func dirEntry(id uint32, path string, files ...*spawnpb.ExecLogEntry_File) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_Directory_{Directory: &spawnpb.ExecLogEntry_Directory{Path: path, Files: files}}}
}

func dirFile(path, hash string, size int64) *spawnpb.ExecLogEntry_File {
	return &spawnpb.ExecLogEntry_File{Path: path, Digest: &spawnpb.Digest{Hash: hash, SizeBytes: size}}
}

func symlinkEntry(id uint32, path, target string) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_UnresolvedSymlink_{UnresolvedSymlink: &spawnpb.ExecLogEntry_UnresolvedSymlink{Path: path, TargetPath: target}}}
}

func setEntry(id uint32, inputs []uint32, transitive ...uint32) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_InputSet_{InputSet: &spawnpb.ExecLogEntry_InputSet{InputIds: inputs, TransitiveSetIds: transitive}}}
}

func spawnEntry(s *spawnpb.ExecLogEntry_Spawn) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Type: &spawnpb.ExecLogEntry_Spawn_{Spawn: s}}
}

func outputID(id uint32) *spawnpb.ExecLogEntry_Output {
	return &spawnpb.ExecLogEntry_Output{Type: &spawnpb.ExecLogEntry_Output_OutputId{OutputId: id}}
}

func invalidOutput(path string) *spawnpb.ExecLogEntry_Output {
	return &spawnpb.ExecLogEntry_Output{Type: &spawnpb.ExecLogEntry_Output_InvalidOutputPath{InvalidOutputPath: path}}
}

func invocation(workspace string) *spawnpb.ExecLogEntry {
	return &spawnpb.ExecLogEntry{Type: &spawnpb.ExecLogEntry_Invocation_{Invocation: &spawnpb.ExecLogEntry_Invocation{HashFunctionName: "SHA-256", WorkspaceRunfilesDirectory: workspace}}}
}

func file(path, hash string, size int64) spawn.File {
	return spawn.File{Path: path, Digest: spawn.Digest{Hash: hash, Size: size}}
}

// fromSpawnExec converts a generated SpawnExec into the model, the plain
// way: what the readers are held to.
func fromSpawnExec(se *spawnpb.SpawnExec) *spawn.Spawn {
	sp := &spawn.Spawn{
		Mnemonic:        se.GetMnemonic(),
		Target:          se.GetTargetLabel(),
		Args:            se.GetCommandArgs(),
		Outputs:         se.GetListedOutputs(),
		ExitCode:        se.GetExitCode(),
		Status:          se.GetStatus(),
		Runner:          se.GetRunner(),
		CacheHit:        se.GetCacheHit(),
		Remotable:       se.GetRemotable(),
		Cacheable:       se.GetCacheable(),
		RemoteCacheable: se.GetRemoteCacheable(),
	}
	for _, e := range se.GetEnvironmentVariables() {
		sp.Env = append(sp.Env, spawn.EnvVar{Name: e.GetName(), Value: e.GetValue()})
	}
	fromFile := func(f *spawnpb.File) spawn.File {
		return spawn.File{
			Path:          f.GetPath(),
			Digest:        spawn.Digest{Hash: f.GetDigest().GetHash(), Size: f.GetDigest().GetSizeBytes()},
			SymlinkTarget: f.GetSymlinkTargetPath(),
			Tool:          f.GetIsTool(),
		}
	}
	for _, f := range se.GetInputs() {
		sp.Inputs = append(sp.Inputs, fromFile(f))
	}
	for _, f := range se.GetActualOutputs() {
		sp.OutputFiles = append(sp.OutputFiles, fromFile(f))
	}
	normalize(sp)
	return sp.Clone()
}
