package execlog

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// readBinary reads --execution_log_binary_file: varint-delimited SpawnExec
// messages.
func readBinary(r *wire.Reader, name string, reuse bool, fn func(*spawn.Spawn) error) error {
	d := spawnExecDecoder{strs: strs{borrow: reuse}}
	sp := new(spawn.Spawn)
	for i := 1; ; i++ {
		start := r.Offset()
		msg, err := r.Message("a SpawnExec with at least one field")
		if err == io.EOF {
			return nil
		}
		if err == nil {
			if !reuse {
				sp = new(spawn.Spawn)
			}
			err = d.decode(msg, sp)
		}
		if err != nil {
			return &Error{File: name, Entry: fmt.Sprintf("spawn %d", i), Offset: start, Err: err}
		}
		if err := fn(sp); err != nil {
			return err
		}
	}
}

// The descriptors of the messages the readers decode, which name their
// fields in errors.
var (
	spawnExecDesc = (&spawnpb.SpawnExec{}).ProtoReflect().Descriptor()
	fileDesc      = (&spawnpb.File{}).ProtoReflect().Descriptor()
	digestDesc    = (&spawnpb.Digest{}).ProtoReflect().Descriptor()
	envVarDesc    = (&spawnpb.EnvironmentVariable{}).ProtoReflect().Descriptor()
)

// spawnExecDecoder decodes SpawnExec messages (spawn.proto) with the wire
// layer, straight into the model.
type spawnExecDecoder struct {
	strs strs
}

func (d *spawnExecDecoder) decode(msg []byte, sp *spawn.Spawn) error {
	*sp = spawn.Spawn{
		Args: sp.Args[:0], Env: sp.Env[:0], Inputs: sp.Inputs[:0],
		Outputs: sp.Outputs[:0], OutputFiles: sp.OutputFiles[:0],
	}
	f := wire.NewFields(msg, spawnExecDesc, wire.RecursionLimit)
	for f.Next() {
		switch f.Num {
		case spawnpb.SpawnExecCommandArgs:
			sp.Args = append(sp.Args, d.strs.of(f.Bytes()))
		case spawnpb.SpawnExecEnvironmentVariables:
			m := f.Sub(envVarDesc)
			e := d.envVar(&m)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("environment variable %d: %w", len(sp.Env)+1, err))
			}
			sp.Env = append(sp.Env, e)
		case spawnpb.SpawnExecInputs:
			m := f.Sub(fileDesc)
			file := d.file(&m)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("input %d: %w", len(sp.Inputs)+1, err))
			}
			sp.Inputs = append(sp.Inputs, file)
		case spawnpb.SpawnExecListedOutputs:
			sp.Outputs = append(sp.Outputs, d.strs.of(f.Bytes()))
		case spawnpb.SpawnExecRemotable:
			sp.Remotable = f.Bool()
		case spawnpb.SpawnExecCacheable:
			sp.Cacheable = f.Bool()
		case spawnpb.SpawnExecMnemonic:
			sp.Mnemonic = d.strs.of(f.Bytes())
		case spawnpb.SpawnExecActualOutputs:
			m := f.Sub(fileDesc)
			file := d.file(&m)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("actual output %d: %w", len(sp.OutputFiles)+1, err))
			}
			sp.OutputFiles = append(sp.OutputFiles, file)
		case spawnpb.SpawnExecRunner:
			sp.Runner = d.strs.of(f.Bytes())
		case spawnpb.SpawnExecCacheHit:
			sp.CacheHit = f.Bool()
		case spawnpb.SpawnExecStatus:
			sp.Status = d.strs.of(f.Bytes())
		case spawnpb.SpawnExecExitCode:
			sp.ExitCode = f.Int32()
		case spawnpb.SpawnExecRemoteCacheable:
			sp.RemoteCacheable = f.Bool()
		case spawnpb.SpawnExecTargetLabel:
			sp.Target = d.strs.of(f.Bytes())
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	normalize(sp)
	return nil
}

// envVar reads an EnvironmentVariable; an error is left in f.
func (d *spawnExecDecoder) envVar(f *wire.Fields) spawn.EnvVar {
	var e spawn.EnvVar
	for f.Next() {
		switch f.Num {
		case spawnpb.EnvironmentVariableName:
			e.Name = d.strs.of(f.Bytes())
		case spawnpb.EnvironmentVariableValue:
			e.Value = d.strs.of(f.Bytes())
		}
	}
	return e
}

// file reads a File; an error is left in f.
func (d *spawnExecDecoder) file(f *wire.Fields) spawn.File {
	var file spawn.File
	for f.Next() {
		switch f.Num {
		case spawnpb.FilePath:
			file.Path = d.strs.of(f.Bytes())
		case spawnpb.FileDigest:
			m := f.Sub(digestDesc)
			file.Digest = decodeDigest(&m, d.strs)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("field digest: %w", err))
			}
		case spawnpb.FileIsTool:
			file.Tool = f.Bool()
		case spawnpb.FileSymlinkTargetPath:
			file.SymlinkTarget = d.strs.of(f.Bytes())
		}
	}
	return file
}

// decodeDigest reads a Digest; an error is left in f.
func decodeDigest(f *wire.Fields, s strs) spawn.Digest {
	var dg spawn.Digest
	for f.Next() {
		switch f.Num {
		case spawnpb.DigestHash:
			dg.Hash = s.of(f.Bytes())
		case spawnpb.DigestSizeBytes:
			dg.Size = f.Int64()
		}
	}
	return dg
}

// strs turns bytes of the current message into strings: copies, or with
// borrow set, strings that share the message buffer and so are valid only
// until the next message is read (Options.ReuseSpawns).
type strs struct{ borrow bool }

func (s strs) of(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s.borrow {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

// normalize gives a spawn from any format the same shape: inputs and
// outputs sorted by path with each path once (the last one listed wins, as
// in Bazel's own reconstruction of the compact format), and CacheHit set
// for Bazel 4.x's cache hits, which only the runner names in JSON logs.
// Bazel already sorts what it writes, so this usually only checks.
func normalize(sp *spawn.Spawn) {
	sp.Inputs = sortFiles(sp.Inputs)
	sp.OutputFiles = sortFiles(sp.OutputFiles)
	if !slices.IsSorted(sp.Outputs) {
		slices.Sort(sp.Outputs)
	}
	sp.Outputs = slices.Compact(sp.Outputs)
	if strings.HasSuffix(sp.Runner, "cache hit") {
		sp.CacheHit = true
	}
}

func sortFiles(fs []spawn.File) []spawn.File {
	sorted := true
	for i := 1; i < len(fs); i++ {
		if fs[i-1].Path >= fs[i].Path {
			sorted = false
			break
		}
	}
	if sorted {
		return fs
	}
	slices.SortStableFunc(fs, func(a, b spawn.File) int { return strings.Compare(a.Path, b.Path) })
	// Keep the last of each run of equal paths.
	out := fs[:0]
	for i := range fs {
		if i+1 < len(fs) && fs[i+1].Path == fs[i].Path {
			continue
		}
		out = append(out, fs[i])
	}
	return out
}
