package execlog

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/spawn"
)

// readBinary reads --execution_log_binary_file: varint-delimited SpawnExec
// messages.
func readBinary(br *bufio.Reader, name string, reuse bool, fn func(*spawn.Spawn) error) error {
	s := &stream{br: br}
	d := spawnExecDecoder{strs: strs{borrow: reuse}}
	sp := new(spawn.Spawn)
	for i := 1; ; i++ {
		start := s.off
		msg, err := s.message()
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

// spawnExecDecoder decodes SpawnExec messages (spawn.proto) with protowire,
// straight into the model: Bazel 4.2.3 writes the same field numbers, with
// field 9 (progress_message) that later versions reserve, and calls field
// 13 remote_cache_hit.
type spawnExecDecoder struct {
	strs strs
}

// SpawnExec field numbers.
const (
	seCommandArgs     = 1
	seEnvironment     = 2
	seInputs          = 4
	seListedOutputs   = 5
	seRemotable       = 6
	seCacheable       = 7
	seMnemonic        = 10
	seActualOutputs   = 11
	seRunner          = 12
	seCacheHit        = 13
	seStatus          = 14
	seExitCode        = 15
	seRemoteCacheable = 16
	seTargetLabel     = 18
)

func (d *spawnExecDecoder) decode(msg []byte, sp *spawn.Spawn) error {
	*sp = spawn.Spawn{
		Args: sp.Args[:0], Env: sp.Env[:0], Inputs: sp.Inputs[:0],
		Outputs: sp.Outputs[:0], OutputFiles: sp.OutputFiles[:0],
	}
	f := fields{b: msg}
	for f.next() {
		switch f.num {
		case seCommandArgs:
			sp.Args = append(sp.Args, d.strs.of(f.bytes("command_args")))
		case seEnvironment:
			e, err := d.envVar(f.bytes("environment_variables"))
			if err != nil {
				f.fail(fmt.Sprintf("environment variable %d", len(sp.Env)+1), err)
			}
			sp.Env = append(sp.Env, e)
		case seInputs:
			file, err := d.file(f.bytes("inputs"))
			if err != nil {
				f.fail(fmt.Sprintf("input %d", len(sp.Inputs)+1), err)
			}
			sp.Inputs = append(sp.Inputs, file)
		case seListedOutputs:
			sp.Outputs = append(sp.Outputs, d.strs.of(f.bytes("listed_outputs")))
		case seRemotable:
			sp.Remotable = f.bool("remotable")
		case seCacheable:
			sp.Cacheable = f.bool("cacheable")
		case seMnemonic:
			sp.Mnemonic = d.strs.of(f.bytes("mnemonic"))
		case seActualOutputs:
			file, err := d.file(f.bytes("actual_outputs"))
			if err != nil {
				f.fail(fmt.Sprintf("actual output %d", len(sp.OutputFiles)+1), err)
			}
			sp.OutputFiles = append(sp.OutputFiles, file)
		case seRunner:
			sp.Runner = d.strs.of(f.bytes("runner"))
		case seCacheHit:
			sp.CacheHit = f.bool("cache_hit")
		case seStatus:
			sp.Status = d.strs.of(f.bytes("status"))
		case seExitCode:
			sp.ExitCode = f.int32("exit_code")
		case seRemoteCacheable:
			sp.RemoteCacheable = f.bool("remote_cacheable")
		case seTargetLabel:
			sp.Target = d.strs.of(f.bytes("target_label"))
		default:
			f.skip()
		}
	}
	if f.err != nil {
		return f.err
	}
	normalize(sp)
	return nil
}

func (d *spawnExecDecoder) envVar(b []byte) (spawn.EnvVar, error) {
	var e spawn.EnvVar
	f := fields{b: b}
	for f.next() {
		switch f.num {
		case 1:
			e.Name = d.strs.of(f.bytes("name"))
		case 2:
			e.Value = d.strs.of(f.bytes("value"))
		default:
			f.skip()
		}
	}
	return e, f.err
}

// file decodes a File message: 1 path, 2 digest, 3 is_tool,
// 4 symlink_target_path.
func (d *spawnExecDecoder) file(b []byte) (spawn.File, error) {
	var file spawn.File
	f := fields{b: b}
	for f.next() {
		switch f.num {
		case 1:
			file.Path = d.strs.of(f.bytes("path"))
		case 2:
			dg, err := decodeDigest(f.bytes("digest"), d.strs)
			if err != nil {
				f.fail("digest", err)
			}
			file.Digest = dg
		case 3:
			file.Tool = f.bool("is_tool")
		case 4:
			file.SymlinkTarget = d.strs.of(f.bytes("symlink_target_path"))
		default:
			f.skip()
		}
	}
	return file, f.err
}

// decodeDigest decodes a Digest message: 1 hash, 2 size_bytes; the hash
// function's name (3) is the same for every file of a log and is skipped.
func decodeDigest(b []byte, s strs) (spawn.Digest, error) {
	var dg spawn.Digest
	f := fields{b: b}
	for f.next() {
		switch f.num {
		case 1:
			dg.Hash = s.of(f.bytes("hash"))
		case 2:
			dg.Size = f.int64("size_bytes")
		default:
			f.skip()
		}
	}
	return dg, f.err
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
