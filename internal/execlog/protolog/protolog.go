// Package protolog writes and reads execution logs in Bazel's three
// formats through the generated types (package spawnpb), the plain way:
// its writers make the logs that internal/genlog generates and that tests
// read, and its readers, proto.Unmarshal of every message and each
// compact spawn rebuilt as Bazel's SpawnLogReconstructor does, are what
// execlog's own reader is held to and measured against.
//
// The compact writer converts each SpawnExec the way Bazel's
// CompactSpawnLogContext lays out a build: files, unresolved symlinks and
// tree artifacts become entries of their own, written once and referred to
// by id afterwards; inputs are grouped into input sets that nest (one set
// per directory, inside one set per top-level directory, inside the
// spawn's set), and equal sets are written once and shared by every spawn
// that has them.
package protolog

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"slices"
	"strconv"

	"github.com/klauspost/compress/zstd"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
)

// Writer writes one log, a spawn at a time.
type Writer interface {
	Write(*spawnpb.SpawnExec) error
	// Close flushes what is buffered; it does not close the underlying
	// writer.
	Close() error
}

// NewBinary returns a writer of --execution_log_binary_file logs:
// varint-delimited SpawnExec messages.
func NewBinary(w io.Writer) Writer {
	return &binaryWriter{w: bufio.NewWriterSize(w, 256<<10)}
}

type binaryWriter struct {
	w   *bufio.Writer
	buf []byte
}

var deterministic = proto.MarshalOptions{Deterministic: true}

func (b *binaryWriter) Write(se *spawnpb.SpawnExec) error {
	var err error
	b.buf, err = deterministic.MarshalAppend(b.buf[:0], se)
	if err != nil {
		return err
	}
	var n [binaryMaxVarint]byte
	if _, err := b.w.Write(protowire.AppendVarint(n[:0], uint64(len(b.buf)))); err != nil {
		return err
	}
	_, err = b.w.Write(b.buf)
	return err
}

func (b *binaryWriter) Close() error { return b.w.Flush() }

const binaryMaxVarint = 10

// NewJSON returns a writer of --execution_log_json_file logs: one
// SpawnExec object per line, with the lowerCamelCase names and the
// int64-as-string numbers of protobuf JSON. It writes JSON itself rather
// than through protojson, whose output deliberately varies between builds
// of a program: generated logs must be the same bytes every time.
func NewJSON(w io.Writer) Writer {
	return &jsonWriter{w: bufio.NewWriterSize(w, 256<<10)}
}

type jsonWriter struct {
	w   *bufio.Writer
	buf []byte
}

func (j *jsonWriter) Write(se *spawnpb.SpawnExec) error {
	b := append(j.buf[:0], '{')
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, k)
		b = append(b, ':')
	}
	strList := func(k string, vs []string) {
		if len(vs) == 0 {
			return
		}
		key(k)
		b = append(b, '[')
		for i, v := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v)
		}
		b = append(b, ']')
	}
	str := func(k, v string) {
		if v != "" {
			key(k)
			b = appendString(b, v)
		}
	}
	boolean := func(k string, v bool) {
		if v {
			key(k)
			b = append(b, "true"...)
		}
	}
	files := func(k string, fs []*spawnpb.File) {
		if len(fs) == 0 {
			return
		}
		key(k)
		b = append(b, '[')
		for i, f := range fs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFile(b, f)
		}
		b = append(b, ']')
	}
	strList("commandArgs", se.GetCommandArgs())
	if env := se.GetEnvironmentVariables(); len(env) > 0 {
		key("environmentVariables")
		b = append(b, '[')
		for i, e := range env {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendString(b, e.GetName())
			b = append(b, `,"value":`...)
			b = appendString(b, e.GetValue())
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	files("inputs", se.GetInputs())
	strList("listedOutputs", se.GetListedOutputs())
	boolean("remotable", se.GetRemotable())
	boolean("cacheable", se.GetCacheable())
	if t := se.GetTimeoutMillis(); t != 0 {
		key("timeoutMillis")
		b = appendString(b, strconv.FormatInt(t, 10))
	}
	str("mnemonic", se.GetMnemonic())
	files("actualOutputs", se.GetActualOutputs())
	str("runner", se.GetRunner())
	boolean("cacheHit", se.GetCacheHit())
	str("status", se.GetStatus())
	if c := se.GetExitCode(); c != 0 {
		key("exitCode")
		b = strconv.AppendInt(b, int64(c), 10)
	}
	boolean("remoteCacheable", se.GetRemoteCacheable())
	str("targetLabel", se.GetTargetLabel())
	b = append(b, "}\n"...)
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

func appendFile(b []byte, f *spawnpb.File) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, f.GetPath())
	if t := f.GetSymlinkTargetPath(); t != "" {
		b = append(b, `,"symlinkTargetPath":`...)
		b = appendString(b, t)
	}
	if d := f.GetDigest(); d != nil {
		b = append(b, `,"digest":{"hash":`...)
		b = appendString(b, d.GetHash())
		b = append(b, `,"sizeBytes":`...)
		b = appendString(b, strconv.FormatInt(d.GetSizeBytes(), 10))
		if h := d.GetHashFunctionName(); h != "" {
			b = append(b, `,"hashFunctionName":`...)
			b = appendString(b, h)
		}
		b = append(b, '}')
	}
	if f.GetIsTool() {
		b = append(b, `,"isTool":true`...)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func (j *jsonWriter) Close() error { return j.w.Flush() }

// ReadBinary reads a --execution_log_binary_file log the plain way, with
// proto.Unmarshal into a fresh SpawnExec per message: the reference the
// tests hold execlog's own decoder to, and the baseline of its benchmarks.
// It trusts its input (tests and benchmarks only).
func ReadBinary(r io.Reader, fn func(*spawnpb.SpawnExec) error) error {
	return readDelimited(bufio.NewReaderSize(r, 256<<10), func(b []byte) error {
		se := new(spawnpb.SpawnExec)
		if err := proto.Unmarshal(b, se); err != nil {
			return err
		}
		return fn(se)
	})
}

// ReadCompact reads a --execution_log_compact_file log the plain way, as
// Bazel's own SpawnLogReconstructor does: proto.Unmarshal of each entry
// into a fresh ExecLogEntry, files, directories, symlinks and input sets
// kept in maps by id, and each spawn turned back into a SpawnExec, its
// inputs gathered by walking its nested sets and sorted by path. It is the
// reference execlog's compact reader is held to, and the baseline of its
// benchmarks. It trusts its input, and does not know runfiles trees.
func ReadCompact(r io.Reader, fn func(*spawnpb.SpawnExec) error) error {
	zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return err
	}
	defer zr.Close()
	inputs := map[uint32][]*spawnpb.File{}
	dirs := map[uint32]string{}
	sets := map[uint32]*spawnpb.ExecLogEntry_InputSet{}
	// expand gathers the files of a set by path.
	expand := func(id uint32) map[string]*spawnpb.File {
		byPath := map[string]*spawnpb.File{}
		if id == 0 {
			return byPath
		}
		visited := map[uint32]bool{id: true}
		stack := []uint32{id}
		for len(stack) > 0 {
			set := sets[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			for _, in := range set.GetInputIds() {
				if !visited[in] {
					visited[in] = true
					for _, f := range inputs[in] {
						byPath[f.GetPath()] = f
					}
				}
			}
			for _, s := range set.GetTransitiveSetIds() {
				if !visited[s] {
					visited[s] = true
					stack = append(stack, s)
				}
			}
		}
		return byPath
	}
	return readDelimited(bufio.NewReaderSize(zr, 256<<10), func(b []byte) error {
		e := new(spawnpb.ExecLogEntry)
		if err := proto.Unmarshal(b, e); err != nil {
			return err
		}
		switch t := e.Type.(type) {
		case *spawnpb.ExecLogEntry_File_:
			inputs[e.Id] = []*spawnpb.File{{Path: t.File.GetPath(), Digest: t.File.GetDigest()}}
		case *spawnpb.ExecLogEntry_Directory_:
			var fs []*spawnpb.File
			for _, f := range t.Directory.GetFiles() {
				fs = append(fs, &spawnpb.File{Path: t.Directory.GetPath() + "/" + f.GetPath(), Digest: f.GetDigest()})
			}
			inputs[e.Id] = fs
			dirs[e.Id] = t.Directory.GetPath()
		case *spawnpb.ExecLogEntry_UnresolvedSymlink_:
			inputs[e.Id] = []*spawnpb.File{{Path: t.UnresolvedSymlink.GetPath(), SymlinkTargetPath: t.UnresolvedSymlink.GetTargetPath()}}
		case *spawnpb.ExecLogEntry_InputSet_:
			sets[e.Id] = t.InputSet
		case *spawnpb.ExecLogEntry_Spawn_:
			sp := t.Spawn
			se := &spawnpb.SpawnExec{
				CommandArgs: sp.GetArgs(), EnvironmentVariables: sp.GetEnvVars(), Mnemonic: sp.GetMnemonic(),
				TargetLabel: sp.GetTargetLabel(), ExitCode: sp.GetExitCode(), Status: sp.GetStatus(), Runner: sp.GetRunner(),
				CacheHit: sp.GetCacheHit(), Remotable: sp.GetRemotable(), Cacheable: sp.GetCacheable(), RemoteCacheable: sp.GetRemoteCacheable(),
			}
			byPath := expand(sp.GetInputSetId())
			tools := expand(sp.GetToolSetId())
			paths := make([]string, 0, len(byPath))
			for p := range byPath {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			for _, p := range paths {
				f := byPath[p]
				if tools[p] != nil {
					f = &spawnpb.File{Path: f.GetPath(), Digest: f.GetDigest(), SymlinkTargetPath: f.GetSymlinkTargetPath(), IsTool: true}
				}
				se.Inputs = append(se.Inputs, f)
			}
			for _, o := range sp.GetOutputs() {
				if p := o.GetInvalidOutputPath(); p != "" {
					se.ListedOutputs = append(se.ListedOutputs, p)
					continue
				}
				fs := inputs[o.GetOutputId()]
				se.ActualOutputs = append(se.ActualOutputs, fs...)
				if dir, ok := dirs[o.GetOutputId()]; ok {
					se.ListedOutputs = append(se.ListedOutputs, dir)
				} else {
					se.ListedOutputs = append(se.ListedOutputs, fs[0].GetPath())
				}
			}
			slices.Sort(se.ListedOutputs)
			return fn(se)
		}
		return nil
	})
}

// readDelimited calls fn with each varint-delimited message of r.
func readDelimited(br *bufio.Reader, fn func([]byte) error) error {
	var buf []byte
	for {
		n, err := binary.ReadUvarint(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if uint64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(br, buf); err != nil {
			return err
		}
		if err := fn(buf); err != nil {
			return err
		}
	}
}
