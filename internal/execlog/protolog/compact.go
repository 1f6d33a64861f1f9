package protolog

import (
	"bufio"
	"encoding/binary"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
)

// CompactOptions tune NewCompact.
type CompactOptions struct {
	// Workspace is the runfiles directory of the main repository, written
	// in the invocation entry; "_main" when empty.
	Workspace string
}

// NewCompact returns a writer of --execution_log_compact_file logs: a zstd
// stream of varint-delimited ExecLogEntry messages, written the same way
// every time for the same spawns.
func NewCompact(w io.Writer, opts CompactOptions) (Writer, error) {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		return nil, err
	}
	if opts.Workspace == "" {
		opts.Workspace = "_main"
	}
	return &compactWriter{
		zw: zw, w: bufio.NewWriterSize(zw, 256<<10), opts: opts,
		files: map[fileKey]uint32{}, sets: map[string]uint32{},
	}, nil
}

type compactWriter struct {
	zw      *zstd.Encoder
	w       *bufio.Writer
	opts    CompactOptions
	started bool
	lastID  uint32
	files   map[fileKey]uint32
	sets    map[string]uint32
	buf     []byte
}

type fileKey struct {
	path, hash, symlink string
	size                int64
}

func (c *compactWriter) entry(e *spawnpb.ExecLogEntry) error {
	var err error
	c.buf, err = deterministic.MarshalAppend(c.buf[:0], e)
	if err != nil {
		return err
	}
	var n [binaryMaxVarint]byte
	if _, err := c.w.Write(protowire.AppendVarint(n[:0], uint64(len(c.buf)))); err != nil {
		return err
	}
	_, err = c.w.Write(c.buf)
	return err
}

func (c *compactWriter) newID() uint32 {
	c.lastID++
	return c.lastID
}

// file returns the id of a file or unresolved symlink entry, writing the
// entry the first time.
func (c *compactWriter) file(f *spawnpb.File) (uint32, error) {
	k := fileKey{path: f.GetPath(), hash: f.GetDigest().GetHash(), size: f.GetDigest().GetSizeBytes(), symlink: f.GetSymlinkTargetPath()}
	if id, ok := c.files[k]; ok {
		return id, nil
	}
	id := c.newID()
	e := &spawnpb.ExecLogEntry{Id: id}
	if k.symlink != "" {
		e.Type = &spawnpb.ExecLogEntry_UnresolvedSymlink_{UnresolvedSymlink: &spawnpb.ExecLogEntry_UnresolvedSymlink{Path: k.path, TargetPath: k.symlink}}
	} else {
		e.Type = &spawnpb.ExecLogEntry_File_{File: &spawnpb.ExecLogEntry_File{Path: k.path, Digest: compactDigest(f.GetDigest())}}
	}
	c.files[k] = id
	return id, c.entry(e)
}

// compactDigest drops the hash function's name, which the compact format
// keeps in the invocation entry only.
func compactDigest(d *spawnpb.Digest) *spawnpb.Digest {
	if d == nil {
		return nil
	}
	return &spawnpb.Digest{Hash: d.GetHash(), SizeBytes: d.GetSizeBytes()}
}

// set returns the id of an input set, writing it the first time.
func (c *compactWriter) set(inputs, transitive []uint32) (uint32, error) {
	key := make([]byte, 0, 4*(len(inputs)+len(transitive))+1)
	for _, id := range inputs {
		key = binary.LittleEndian.AppendUint32(key, id)
	}
	key = append(key, '|')
	for _, id := range transitive {
		key = binary.LittleEndian.AppendUint32(key, id)
	}
	if id, ok := c.sets[string(key)]; ok {
		return id, nil
	}
	id := c.newID()
	c.sets[string(key)] = id
	return id, c.entry(&spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_InputSet_{InputSet: &spawnpb.ExecLogEntry_InputSet{
		InputIds: inputs, TransitiveSetIds: transitive,
	}}})
}

// inputSet writes the sets that hold files: one per directory, nested in
// one per top-level directory, nested in the spawn's own set, which also
// holds the files at the top level directly. It returns 0 for no files.
func (c *compactWriter) inputSet(files []*spawnpb.File) (uint32, error) {
	if len(files) == 0 {
		return 0, nil
	}
	byDir := map[string][]uint32{}
	var direct []uint32
	for _, f := range files {
		id, err := c.file(f)
		if err != nil {
			return 0, err
		}
		dir := path.Dir(f.GetPath())
		if dir == "." {
			direct = append(direct, id)
			continue
		}
		byDir[dir] = append(byDir[dir], id)
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	byTop := map[string][]uint32{}
	var tops []string
	for _, d := range dirs {
		id, err := c.set(byDir[d], nil)
		if err != nil {
			return 0, err
		}
		top, _, _ := strings.Cut(d, "/")
		if _, ok := byTop[top]; !ok {
			tops = append(tops, top)
		}
		byTop[top] = append(byTop[top], id)
	}
	var transitive []uint32
	for _, t := range tops {
		id, err := c.set(nil, byTop[t])
		if err != nil {
			return 0, err
		}
		transitive = append(transitive, id)
	}
	return c.set(direct, transitive)
}

func (c *compactWriter) Write(se *spawnpb.SpawnExec) error {
	if !c.started {
		c.started = true
		hash := "SHA-256"
		for _, f := range se.GetInputs() {
			if h := f.GetDigest().GetHashFunctionName(); h != "" {
				hash = h
				break
			}
		}
		if err := c.entry(&spawnpb.ExecLogEntry{Type: &spawnpb.ExecLogEntry_Invocation_{Invocation: &spawnpb.ExecLogEntry_Invocation{
			HashFunctionName: hash, WorkspaceRunfilesDirectory: c.opts.Workspace,
		}}}); err != nil {
			return err
		}
	}
	inputSet, err := c.inputSet(se.GetInputs())
	if err != nil {
		return err
	}
	var tools []*spawnpb.File
	for _, f := range se.GetInputs() {
		if f.GetIsTool() {
			tools = append(tools, f)
		}
	}
	toolSet, err := c.inputSet(tools)
	if err != nil {
		return err
	}
	outputs, err := c.outputs(se)
	if err != nil {
		return err
	}
	return c.entry(&spawnpb.ExecLogEntry{Type: &spawnpb.ExecLogEntry_Spawn_{Spawn: &spawnpb.ExecLogEntry_Spawn{
		Args:            se.GetCommandArgs(),
		EnvVars:         se.GetEnvironmentVariables(),
		Platform:        se.GetPlatform(),
		InputSetId:      inputSet,
		ToolSetId:       toolSet,
		Outputs:         outputs,
		TargetLabel:     se.GetTargetLabel(),
		Mnemonic:        se.GetMnemonic(),
		ExitCode:        se.GetExitCode(),
		Status:          se.GetStatus(),
		Runner:          se.GetRunner(),
		CacheHit:        se.GetCacheHit(),
		Remotable:       se.GetRemotable(),
		Cacheable:       se.GetCacheable(),
		RemoteCacheable: se.GetRemoteCacheable(),
		Digest:          compactDigest(se.GetDigest()),
		TimeoutMillis:   se.GetTimeoutMillis(),
	}}})
}

// outputs turns listed and actual outputs into Output messages: a listed
// output that was produced as a file is a file entry, one whose produced
// files lie under it is a directory entry (a tree artifact), and one that
// was not produced is an invalid_output_path.
func (c *compactWriter) outputs(se *spawnpb.SpawnExec) ([]*spawnpb.ExecLogEntry_Output, error) {
	actual := se.GetActualOutputs()
	used := make([]bool, len(actual))
	var out []*spawnpb.ExecLogEntry_Output
	for _, listed := range se.GetListedOutputs() {
		var inside []*spawnpb.ExecLogEntry_File
		id := uint32(0)
		for i, f := range actual {
			switch {
			case f.GetPath() == listed:
				var err error
				if id, err = c.file(f); err != nil {
					return nil, err
				}
				used[i] = true
			case strings.HasPrefix(f.GetPath(), listed+"/"):
				inside = append(inside, &spawnpb.ExecLogEntry_File{Path: strings.TrimPrefix(f.GetPath(), listed+"/"), Digest: compactDigest(f.GetDigest())})
				used[i] = true
			}
		}
		if id == 0 && len(inside) > 0 {
			id = c.newID()
			if err := c.entry(&spawnpb.ExecLogEntry{Id: id, Type: &spawnpb.ExecLogEntry_Directory_{Directory: &spawnpb.ExecLogEntry_Directory{Path: listed, Files: inside}}}); err != nil {
				return nil, err
			}
		}
		if id == 0 {
			out = append(out, &spawnpb.ExecLogEntry_Output{Type: &spawnpb.ExecLogEntry_Output_InvalidOutputPath{InvalidOutputPath: listed}})
			continue
		}
		out = append(out, &spawnpb.ExecLogEntry_Output{Type: &spawnpb.ExecLogEntry_Output_OutputId{OutputId: id}})
	}
	for i, f := range actual {
		if used[i] {
			continue
		}
		id, err := c.file(f)
		if err != nil {
			return nil, err
		}
		out = append(out, &spawnpb.ExecLogEntry_Output{Type: &spawnpb.ExecLogEntry_Output_OutputId{OutputId: id}})
	}
	return out, nil
}

func (c *compactWriter) Close() error {
	if err := c.w.Flush(); err != nil {
		return err
	}
	return c.zw.Close()
}
