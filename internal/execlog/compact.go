package execlog

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/ahab-go/ahab/internal/chunks"
	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/intern"
	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// zstdMagic starts every zstd frame, and so every compact log.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// maxWindow bounds the zstd window a compact log may ask for: Bazel
// compresses with a small one, and a corrupted frame header must not make
// the decoder reserve gigabytes.
const maxWindow = 128 << 20

// readCompact reads --execution_log_compact_file: a zstd stream of
// varint-delimited ExecLogEntry messages. compressed says how many bytes
// of the file have been read so far, for the limits on expansion.
func readCompact(br *bufio.Reader, name string, opts Options, compressed func() int64, out sink) error {
	zr, err := getDecoder(br)
	if err != nil {
		return &Error{File: name, Offset: -1, Err: fmt.Errorf("zstd: %w", err)}
	}
	defer putDecoder(zr)
	c := newCompactReader(opts.ReuseSpawns || out.summary != nil, out.tables)
	c.compressed = compressed
	r := wire.NewReader(&zstdReader{r: zr, compressed: compressed}, readBufferSize)
	for {
		start := r.Offset()
		msg, err := r.Message("an ExecLogEntry with at least one field")
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = c.entry(msg, out)
		} else {
			c.counts.entries++
			c.counts.kind = 0
		}
		if err != nil {
			if err, ok := wire.CallerError(err); ok {
				return err
			}
			return &Error{File: name, Entry: c.lastEntry(), Offset: start, Decompressed: true, Err: err}
		}
	}
}

// The limits on what a compact log may expand to, whatever its entries
// claim: a few kilobytes of zstd can hold gigabytes of zeros, or a
// million spawns that each name one set of a million files. Each grows
// with the compressed bytes read so far, from an allowance that no small
// log reaches; Bazel's logs stay far below them (genlog's decompress 5
// times over, at 220 compressed bytes a spawn, and expand some 25 files
// a spawn).
const (
	// A log decompresses at most maxExpansion times over, past
	// expansionAllowance bytes.
	expansionAllowance = 32 << 20
	maxExpansion       = 256
	// A log has at most one spawn per minSpawnBytes compressed bytes,
	// past spawnAllowance spawns.
	spawnAllowance = 100_000
	minSpawnBytes  = 4
	// Expanding input sets takes at most maxStepsPerByte steps (a set
	// walked, a file handed over) per compressed byte, past
	// stepAllowance steps.
	maxStepsPerByte = 32
)

// stepAllowance is a variable so that tests need not expand tens of
// millions of files to reach it.
var stepAllowance int64 = 1 << 25

// decoders keeps zstd decoders for reuse: building one costs more than
// reading a small log.
var decoders sync.Pool

func getDecoder(r io.Reader) (*zstd.Decoder, error) {
	if d, ok := decoders.Get().(*zstd.Decoder); ok {
		return d, d.Reset(r)
	}
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderLowmem(true))
}

func putDecoder(d *zstd.Decoder) {
	d.Reset(nil)
	decoders.Put(d)
}

// zstdReader marks the errors of the zstd decoder as such: they are about
// the compressed file, not an entry's bytes. It also refuses a stream
// that decompresses past the limit (maxExpansion).
type zstdReader struct {
	r            io.Reader
	compressed   func() int64
	decompressed int64
}

func (z *zstdReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if err != nil && err != io.EOF {
		if _, ok := errors.AsType[*wire.CorruptError](err); !ok {
			err = &wire.CorruptError{Err: zstdError{err}}
		}
	}
	z.decompressed += int64(n)
	if c := z.compressed(); z.decompressed > expansionAllowance+maxExpansion*c {
		return n, &wire.CorruptError{Err: fmt.Errorf("zstd: the log decompresses to more than %d bytes from %d, expected at most %d times over (past %d MiB), as Bazel's logs are", z.decompressed, c, maxExpansion, expansionAllowance>>20)}
	}
	return n, err
}

// zstdError is an error of the zstd decoder, or of the file under it.
type zstdError struct{ err error }

func (e zstdError) Error() string {
	if errors.Is(e.err, io.ErrUnexpectedEOF) {
		return "zstd: the compressed stream ends early, expected a complete zstd frame"
	}
	return "zstd: " + e.err.Error()
}

func (e zstdError) Unwrap() error { return e.err }

// entryKind is a kind of entry: the number of ExecLogEntry's payload
// field, 0 for an entry not yet known.
type entryKind uint8

const (
	entryInvocation      = entryKind(spawnpb.EntryInvocation)
	entryFile            = entryKind(spawnpb.EntryFile)
	entryDirectory       = entryKind(spawnpb.EntryDirectory)
	entryUnresolvedSym   = entryKind(spawnpb.EntryUnresolvedSymlink)
	entryInputSet        = entryKind(spawnpb.EntryInputSet)
	entrySpawn           = entryKind(spawnpb.EntrySpawn)
	entrySymlinkAction   = entryKind(spawnpb.EntrySymlinkAction)
	entrySymlinkEntrySet = entryKind(spawnpb.EntrySymlinkEntrySet)
	entryRunfilesTree    = entryKind(spawnpb.EntryRunfilesTree)
	numEntryKinds        = entryRunfilesTree + 1
)

// defaultRunfilesPrefix is the main repository's runfiles directory
// unless the invocation says otherwise.
const defaultRunfilesPrefix = "_main"

// The descriptors of the compact format's messages, which name their
// fields in errors.
var (
	entryDesc           = (&spawnpb.ExecLogEntry{}).ProtoReflect().Descriptor()
	invocationDesc      = (&spawnpb.ExecLogEntry_Invocation{}).ProtoReflect().Descriptor()
	entryFileDesc       = (&spawnpb.ExecLogEntry_File{}).ProtoReflect().Descriptor()
	directoryDesc       = (&spawnpb.ExecLogEntry_Directory{}).ProtoReflect().Descriptor()
	symlinkDesc         = (&spawnpb.ExecLogEntry_UnresolvedSymlink{}).ProtoReflect().Descriptor()
	inputSetDesc        = (&spawnpb.ExecLogEntry_InputSet{}).ProtoReflect().Descriptor()
	symlinkEntrySetDesc = (&spawnpb.ExecLogEntry_SymlinkEntrySet{}).ProtoReflect().Descriptor()
	mapEntryDesc        = symlinkEntrySetDesc.Fields().ByNumber(spawnpb.SymlinkEntrySetDirectEntries).Message()
	runfilesTreeDesc    = (&spawnpb.ExecLogEntry_RunfilesTree{}).ProtoReflect().Descriptor()
	outputDesc          = (&spawnpb.ExecLogEntry_Output{}).ProtoReflect().Descriptor()
	spawnDesc           = (&spawnpb.ExecLogEntry_Spawn{}).ProtoReflect().Descriptor()
)

var entryKindNames = [numEntryKinds]string{
	0:                    "entry",
	entryInvocation:      "invocation",
	entryFile:            "file",
	entryDirectory:       "directory",
	entryUnresolvedSym:   "unresolved symlink",
	entryInputSet:        "input set",
	entrySpawn:           "spawn",
	entrySymlinkAction:   "symlink action",
	entrySymlinkEntrySet: "symlink entry set",
	entryRunfilesTree:    "runfiles tree",
}

// node is what an id refers to, as an entry's decoder returns it: an input
// (a file or symlink, a directory, a runfiles tree, each standing for
// files) or a set. Its strings may borrow the entry's bytes: the reader
// keeps each kind in a store of its own (see nodeRef), copying what it
// keeps.
type node struct {
	kind entryKind
	// file is a file or unresolved symlink.
	file spawn.File
	// dir is a directory or runfiles tree: its own path and its files,
	// with full exec paths.
	dir struct {
		path  string
		files []spawn.File
	}
	// set is an input set's direct inputs and transitive sets (node
	// indexes); for a symlink entry set, inputs are the targets of the
	// symlinks named by names (noTarget for an empty file).
	set struct {
		inputs, sets []uint32
		names        []string
	}
}

// dirNode is a stored directory or runfiles tree: its path, as a string
// and as its id in the fileStore's paths, and its files' ids in the
// fileStore.
type dirNode struct {
	path  string
	pid   uint32
	files []uint32
}

// setNode is a stored set: where in the ids arena its direct inputs, then
// its transitive sets, lie (all node indexes), and how many of each.
type setNode struct {
	pos, nIn, nSets uint32
}

// nodeRef locates a node: its kind in the top bits, and its index in the
// store of that kind.
type nodeRef uint32

const (
	refKindShift = 28
	maxRefIndex  = 1<<refKindShift - 1
)

func (r nodeRef) kind() entryKind { return entryKind(r >> refKindShift) }
func (r nodeRef) idx() uint32     { return uint32(r) & maxRefIndex }
func newRef(kind entryKind, idx uint32) nodeRef {
	return nodeRef(uint32(kind)<<refKindShift | idx)
}

// compactReader holds the entries of a compact log that later ones may
// refer to, and expands spawns' input sets.
type compactReader struct {
	strs  strs
	nodes chunks.List[nodeRef]
	files fileStore            // files and unresolved symlinks
	dirs  chunks.List[dirNode] // directories and runfiles trees
	sets  chunks.List[setNode] // input sets and symlink entry sets
	ids   chunks.Arena[uint32]
	// names are the symlink names of symlink entry sets, by set index.
	names map[uint32][]string
	// out holds the strings of the spawn being read; tmp, those of an
	// entry being stored.
	out, tmp outBuf
	// dense says that ids 1 to dense are nodes 0 to dense-1: Bazel numbers
	// the entries it refers to from 1 without gaps. Ids that break the
	// run (it need not hold) are in sparse, with their node index + 1.
	dense  uint32
	sparse map[uint32]uint32
	// seen marks, one bit per node, the nodes the current walk reached;
	// touched lists the words to clear before the next walk.
	seen    []uint64
	touched []uint32
	// workspace is the main repository's runfiles directory.
	workspace string
	counts    struct {
		entries int
		byKind  [numEntryKinds]int
		kind    entryKind
	}
	sp    *spawn.Spawn
	reuse bool
	// tables and sum, when the reader summarizes (Summarize): the tables
	// that strings are interned in, and the summary handed over.
	tables *spawn.Tables
	sum    spawn.Summary
	// outputs are the nodes the spawn being read declares as outputs.
	outputs []uint32
	// memo remembers the last sets expanded (expandSet).
	memo     [memoSize]expansion
	nextMemo int
	// compressed is how many bytes of the file have been read, and steps
	// how much work expanding sets took (the limits on expansion).
	compressed func() int64
	steps      int64
	// scratch, reused by walks.
	stack      []walkFrame
	tools      []string
	fileIDs    []uint32
	ids1, ids2 []uint32 // decoded ids
	refIn      []uint32 // resolved ids
	refSets    []uint32
	scratchIDs []uint32
}

type walkFrame struct {
	node     uint32
	expanded bool
}

// newCompactReader returns a reader that keeps files' paths and contents
// in t, which also interns the summaries' strings, or, when t is nil, in
// tables of its own.
func newCompactReader(reuse bool, t *spawn.Tables) *compactReader {
	paths, contents := &intern.Table{SplitDirs: true}, new(intern.Table)
	if t != nil {
		paths, contents = &t.Strings, &t.Contents
	}
	return &compactReader{strs: strs{borrow: reuse}, reuse: reuse, sp: new(spawn.Spawn), workspace: defaultRunfilesPrefix, tables: t,
		files: fileStore{paths: paths, contents: contents}, out: outBuf{borrow: reuse}, tmp: outBuf{borrow: true},
		compressed: func() int64 { return 0 }}
}

// lastEntry names the entry being read, for errors.
func (c *compactReader) lastEntry() string {
	k := c.counts.kind
	if k == 0 {
		return fmt.Sprintf("entry %d", c.counts.entries)
	}
	return fmt.Sprintf("%s %d", entryKindNames[k], c.counts.byKind[k])
}

// entry decodes one ExecLogEntry.
func (c *compactReader) entry(msg []byte, out sink) error {
	c.tmp.b = c.tmp.b[:0]
	c.counts.entries++
	c.counts.kind = 0
	var id uint32
	var kind entryKind
	var payload []byte
	f := wire.NewFields(msg, entryDesc, wire.RecursionLimit)
	for f.Next() {
		switch {
		case f.Num == spawnpb.EntryID:
			id = f.Uint32()
		case f.Num >= spawnpb.EntryInvocation && f.Num <= spawnpb.EntryRunfilesTree:
			// A oneof: the last payload wins.
			kind = entryKind(f.Num)
			payload = f.Bytes()
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if kind == 0 {
		return fmt.Errorf("no payload, expected one of: invocation, file, directory, unresolved symlink, input set, spawn, symlink action, symlink entry set, runfiles tree")
	}
	c.counts.kind = kind
	c.counts.byKind[kind]++
	var n node
	var err error
	switch kind {
	case entryInvocation:
		return c.invocation(payload)
	case entrySpawn:
		if n, c := c.counts.byKind[entrySpawn], c.compressed(); int64(n) > spawnAllowance+c/minSpawnBytes {
			return fmt.Errorf("more than %d spawns in %d compressed bytes, expected at most one per %d bytes (past %d spawns)", n-1, c, minSpawnBytes, spawnAllowance)
		}
		if out.summary != nil {
			if err := c.summarize(payload); err != nil {
				return err
			}
			return wire.FromCaller(out.summary(&c.sum))
		}
		if err := c.spawn(payload); err != nil {
			return err
		}
		return wire.FromCaller(out.spawn(c.sp))
	case entrySymlinkAction:
		// Not a spawn, and the flat formats leave such actions out too.
		return nil
	case entryFile:
		n, err = c.file(payload)
	case entryDirectory:
		n, err = c.directory(payload)
	case entryUnresolvedSym:
		n, err = c.symlink(payload)
	case entryInputSet:
		n, err = c.inputSet(payload)
	case entrySymlinkEntrySet:
		n, err = c.symlinkEntrySet(payload)
	case entryRunfilesTree:
		n, err = c.runfilesTree(payload)
	}
	if err != nil {
		return err
	}
	n.kind = kind
	return c.add(id, n)
}

// add stores a node under its id. An id of 0 means nothing refers to it.
func (c *compactReader) add(id uint32, n node) error {
	if id == 0 {
		return nil
	}
	if c.lookup(id) != 0 {
		return fmt.Errorf("id %d is used by an earlier entry, expected each id once", id)
	}
	if c.nodes.Len() > maxRefIndex {
		return fmt.Errorf("more than %d entries that others may refer to, expected fewer", maxRefIndex)
	}
	var idx uint32
	switch n.kind {
	case entryFile, entryUnresolvedSym:
		idx = c.files.add(n.file)
	case entryDirectory, entryRunfilesTree:
		pid, _ := c.files.paths.Intern(n.dir.path)
		d := dirNode{path: c.files.paths.Get(pid), pid: pid, files: make([]uint32, len(n.dir.files))}
		for i, f := range n.dir.files {
			d.files[i] = c.files.add(f)
		}
		idx = uint32(c.dirs.Len())
		c.dirs.Append(d)
	default:
		idx = uint32(c.sets.Len())
		c.scratchIDs = append(append(c.scratchIDs[:0], n.set.inputs...), n.set.sets...)
		pos, ok := c.ids.Add(c.scratchIDs)
		if !ok {
			return fmt.Errorf("sets hold more than %d ids in all, expected fewer", uint64(1)<<32)
		}
		c.sets.Append(setNode{pos: pos, nIn: uint32(len(n.set.inputs)), nSets: uint32(len(n.set.sets))})
		if len(n.set.names) > 0 {
			if c.names == nil {
				c.names = map[uint32][]string{}
			}
			names := make([]string, len(n.set.names))
			for i, name := range n.set.names {
				id, _ := c.files.paths.Intern(name)
				names[i] = c.files.paths.Get(id)
			}
			c.names[idx] = names
		}
	}
	c.nodes.Append(newRef(n.kind, idx))
	if c.nodes.Len() > 64*len(c.seen) {
		c.seen = append(c.seen, 0)
	}
	if id == c.dense+1 && c.nodes.Len() == int(id) {
		c.dense++
		return nil
	}
	if c.sparse == nil {
		c.sparse = make(map[uint32]uint32)
	}
	c.sparse[id] = uint32(c.nodes.Len())
	return nil
}

func (c *compactReader) kind(i uint32) entryKind { return c.nodes.At(int(i)).kind() }

// setIDs returns set node i's direct inputs and transitive sets.
func (c *compactReader) setIDs(i uint32) (inputs, sets []uint32) {
	s := c.sets.At(int(c.nodes.At(int(i)).idx()))
	all := c.ids.Get(s.pos, s.nIn+s.nSets)
	return all[:s.nIn], all[s.nIn:]
}

// isSeen and mark test and set node i's bit for the current walk.
func (c *compactReader) isSeen(i uint32) bool { return c.seen[i/64]&(1<<(i%64)) != 0 }

func (c *compactReader) mark(i uint32) {
	w := &c.seen[i/64]
	if *w == 0 {
		c.touched = append(c.touched, i/64)
	}
	*w |= 1 << (i % 64)
}

// appendFiles appends the files input node i stands for, their hashes
// written into out.
func (c *compactReader) appendFiles(dst []spawn.File, i uint32, out *outBuf) []spawn.File {
	r := *c.nodes.At(int(i))
	if k := r.kind(); k == entryFile || k == entryUnresolvedSym {
		return append(dst, c.files.file(r.idx(), out))
	}
	for _, id := range c.dirs.At(int(r.idx())).files {
		dst = append(dst, c.files.file(id, out))
	}
	return dst
}

// appendFileIDs appends the fileStore ids of the files input node i
// stands for.
func (c *compactReader) appendFileIDs(dst []uint32, i uint32) []uint32 {
	r := *c.nodes.At(int(i))
	if k := r.kind(); k == entryFile || k == entryUnresolvedSym {
		return append(dst, r.idx())
	}
	return append(dst, c.dirs.At(int(r.idx())).files...)
}

// pathID is input node i's own path's id in the fileStore's paths.
func (c *compactReader) pathID(i uint32) uint32 {
	r := *c.nodes.At(int(i))
	if k := r.kind(); k == entryFile || k == entryUnresolvedSym {
		return c.files.recs.At(int(r.idx())).path
	}
	return c.dirs.At(int(r.idx())).pid
}

// pathOf returns input node i's own path, written into out if it must be
// built.
func (c *compactReader) pathOf(i uint32, out *outBuf) string {
	r := *c.nodes.At(int(i))
	if k := r.kind(); k == entryFile || k == entryUnresolvedSym {
		return c.files.pathOf(r.idx(), out)
	}
	return c.dirs.At(int(r.idx())).path
}

// namesOf returns the symlink names of symlink entry set node i.
func (c *compactReader) namesOf(i uint32) []string { return c.names[c.nodes.At(int(i)).idx()] }

// lookup returns the node index + 1 of id, or 0.
func (c *compactReader) lookup(id uint32) uint32 {
	if id >= 1 && id <= c.dense {
		return id
	}
	return c.sparse[id]
}

// ref resolves an id that must name an earlier entry of one of the kinds
// in ok.
func (c *compactReader) ref(what string, id uint32, ok ...entryKind) (uint32, error) {
	v := c.lookup(id)
	if v == 0 {
		return 0, fmt.Errorf("%s %d names no earlier entry, expected entries to come before what refers to them", what, id)
	}
	k := c.nodes.At(int(v - 1)).kind()
	if !slices.Contains(ok, k) {
		names := make([]string, len(ok))
		for i, o := range ok {
			names[i] = entryKindNames[o]
		}
		return 0, fmt.Errorf("%s %d names a %s, expected a %s", what, id, entryKindNames[k], strings.Join(names, " or "))
	}
	return v - 1, nil
}

func (c *compactReader) invocation(b []byte) error {
	f := wire.NewFields(b, invocationDesc, wire.RecursionLimit-1)
	for f.Next() {
		if f.Num == spawnpb.InvocationWorkspaceRunfilesDirectory {
			if ws := string(f.Bytes()); ws != "" {
				c.workspace = ws
			}
		}
	}
	return f.Err()
}

// logFile decodes ExecLogEntry.File, whose fields are at the given level.
// Its strings borrow the message's bytes, and out's when the file is in
// directory dir.
func logFile(b []byte, level int, dir string, out *outBuf) (spawn.File, error) {
	var file spawn.File
	f := wire.NewFields(b, entryFileDesc, level)
	for f.Next() {
		switch f.Num {
		case spawnpb.EntryFilePath:
			p := f.Bytes()
			if dir != "" {
				start := len(out.b)
				out.b = append(out.b, dir...)
				out.b = append(out.b, '/')
				out.b = append(out.b, p...)
				file.Path = out.str(start)
			} else {
				file.Path = borrowed.of(p)
			}
		case spawnpb.EntryFileDigest:
			m := f.Sub(digestDesc)
			file.Digest = decodeDigest(&m, borrowed)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("field digest: %w", err))
			}
		}
	}
	return file, f.Err()
}

// borrowed makes strings that borrow an entry's bytes: what is kept of
// them is copied into the stores.
var borrowed = strs{borrow: true}

func (c *compactReader) file(b []byte) (node, error) {
	file, err := logFile(b, payloadLevel, "", nil)
	return node{file: file}, err
}

// payloadLevel is the nesting level of an entry's payload's fields.
const payloadLevel = wire.RecursionLimit - 1

// directory decodes ExecLogEntry.Directory: its path, and its files,
// relative to it.
func (c *compactReader) directory(b []byte) (node, error) {
	var n node
	var files [][]byte
	f := wire.NewFields(b, directoryDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.DirectoryPath:
			n.dir.path = borrowed.of(f.Bytes())
		case spawnpb.DirectoryFiles:
			files = append(files, f.Bytes())
		}
	}
	if err := f.Err(); err != nil {
		return n, err
	}
	for i, fb := range files {
		file, err := logFile(fb, payloadLevel-1, n.dir.path, &c.tmp)
		if err != nil {
			return n, fmt.Errorf("files %d: %w", i+1, err)
		}
		n.dir.files = append(n.dir.files, file)
	}
	return n, nil
}

// symlink decodes ExecLogEntry.UnresolvedSymlink.
func (c *compactReader) symlink(b []byte) (node, error) {
	var file spawn.File
	f := wire.NewFields(b, symlinkDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.UnresolvedSymlinkPath:
			file.Path = borrowed.of(f.Bytes())
		case spawnpb.UnresolvedSymlinkTargetPath:
			file.SymlinkTarget = borrowed.of(f.Bytes())
		}
	}
	return node{file: file}, f.Err()
}

var inputKinds = []entryKind{entryFile, entryDirectory, entryUnresolvedSym, entryRunfilesTree}

// inputSet decodes ExecLogEntry.InputSet.
func (c *compactReader) inputSet(b []byte) (node, error) {
	var n node
	inputs, sets := c.ids1[:0], c.ids2[:0]
	defer func() { c.ids1, c.ids2 = inputs, sets }()
	f := wire.NewFields(b, inputSetDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.InputSetInputIDs:
			inputs = f.AppendUint32s(inputs)
		case spawnpb.InputSetTransitiveSetIDs:
			sets = f.AppendUint32s(sets)
		}
	}
	if err := f.Err(); err != nil {
		return n, err
	}
	var err error
	if c.refIn, err = c.refs(c.refIn[:0], "input", inputs, inputKinds...); err != nil {
		return n, err
	}
	c.refSets, err = c.refs(c.refSets[:0], "transitive set", sets, entryInputSet)
	n.set.inputs, n.set.sets = c.refIn, c.refSets
	return n, err
}

// refs appends to dst the nodes that ids name, each of one of the kinds in
// ok.
func (c *compactReader) refs(dst []uint32, what string, ids []uint32, ok ...entryKind) ([]uint32, error) {
	for _, id := range ids {
		v, err := c.ref(what, id, ok...)
		if err != nil {
			return dst, err
		}
		dst = append(dst, v)
	}
	return dst, nil
}

// symlinkEntrySet decodes ExecLogEntry.SymlinkEntrySet: its direct
// entries (a map from relative path to the id of a file, directory or
// unresolved symlink), and its transitive sets.
func (c *compactReader) symlinkEntrySet(b []byte) (node, error) {
	var n node
	sets := c.ids1[:0]
	defer func() { c.ids1 = sets }()
	f := wire.NewFields(b, symlinkEntrySetDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.SymlinkEntrySetDirectEntries:
			m := f.Sub(mapEntryDesc)
			name, id := mapEntry(&m)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("field direct_entries: %w", err))
				break
			}
			target := uint32(noTarget)
			if id != 0 {
				var err error
				if target, err = c.ref("symlink target", id, entryFile, entryDirectory, entryUnresolvedSym); err != nil {
					return n, err
				}
			}
			n.set.names = append(n.set.names, name)
			n.set.inputs = append(n.set.inputs, target)
		case spawnpb.SymlinkEntrySetTransitiveSetIDs:
			sets = f.AppendUint32s(sets)
		}
	}
	if err := f.Err(); err != nil {
		return n, err
	}
	var err error
	c.refSets, err = c.refs(c.refSets[:0], "transitive set", sets, entrySymlinkEntrySet)
	n.set.sets = c.refSets
	return n, err
}

// noTarget is the target of a runfiles symlink to nothing: an empty file.
const noTarget = 1<<32 - 1

// mapEntry decodes a map<string, uint32> entry; an error is left in f.
func mapEntry(f *wire.Fields) (string, uint32) {
	var key string
	var value uint32
	for f.Next() {
		switch f.Num {
		case spawnpb.MapEntryKey:
			key = borrowed.of(f.Bytes())
		case spawnpb.MapEntryValue:
			value = f.Uint32()
		}
	}
	return key, value
}

// spawn decodes ExecLogEntry.Spawn into c.sp, expanding its input sets.
func (c *compactReader) spawn(b []byte) error {
	inputSet, toolSet, err := c.decodeSpawn(b)
	if err != nil {
		return err
	}
	sp := c.sp
	for _, v := range c.outputs {
		sp.Outputs = append(sp.Outputs, c.pathOf(v, &c.out))
		sp.OutputFiles = c.appendFiles(sp.OutputFiles, v, &c.out)
	}
	if inputSet != 0 {
		e, err := c.expandSet(inputSet - 1)
		if err != nil {
			return err
		}
		// The spawn gets a copy of every file: count it.
		if err := c.step(len(e.files)); err != nil {
			return err
		}
		for _, id := range e.files {
			sp.Inputs = append(sp.Inputs, c.files.file(id, &c.out))
		}
	}
	normalize(sp)
	if toolSet != 0 {
		return c.markTools(toolSet-1, sp.Inputs)
	}
	return nil
}

// summarize decodes ExecLogEntry.Spawn into c.sum: its strings interned in
// c.tables, its files straight from their ids, its inputs those of the
// expansion of its input set, which spawns that name the same set share.
func (c *compactReader) summarize(b []byte) error {
	inputSet, _, err := c.decodeSpawn(b)
	if err != nil {
		return err
	}
	sum, paths := &c.sum, &c.tables.Strings
	// The declared outputs that name nothing (invalid_output_path) are in
	// c.sp.Outputs; the others are nodes.
	c.tables.SummarizeCommand(c.sp, sum)
	for _, v := range c.outputs {
		sum.Outputs = append(sum.Outputs, c.pathID(v))
	}
	slices.SortFunc(sum.Outputs, func(a, b uint32) int { return intern.Compare(paths, a, paths, b) })
	sum.Outputs = slices.Compact(sum.Outputs)
	sum.OutputFiles = sum.OutputFiles[:0]
	for _, v := range c.outputs {
		c.fileIDs = c.appendFileIDs(c.fileIDs[:0], v)
		for _, id := range c.fileIDs {
			sum.OutputFiles = append(sum.OutputFiles, c.files.summary(id))
		}
	}
	sum.OutputFiles = lastOfEachPath(sum.OutputFiles, func(a, b uint32) int { return intern.Compare(paths, a, paths, b) })
	sum.OutputsHash = spawn.HashFiles(sum.OutputFiles)
	sum.Inputs, sum.InputSet, sum.InputsHash = nil, 0, 0
	if inputSet != 0 {
		e, err := c.expandSet(inputSet - 1)
		if err != nil {
			return err
		}
		if !e.summarized {
			e.summary = e.summary[:0]
			for _, id := range e.files {
				e.summary = append(e.summary, c.files.summary(id))
			}
			e.summary = lastOfEachPath(e.summary, cmp.Compare[uint32])
			e.hash = spawn.HashFiles(e.summary)
			e.summarized = true
		}
		sum.Inputs, sum.InputSet, sum.InputsHash = e.summary, inputSet, e.hash
	}
	return nil
}

// lastOfEachPath sorts files by path, as compare orders path ids, and
// keeps the last listed of each path, as normalize does.
func lastOfEachPath(files []spawn.FileID, compare func(a, b uint32) int) []spawn.FileID {
	slices.SortStableFunc(files, func(a, b spawn.FileID) int { return compare(a.Path, b.Path) })
	out := files[:0]
	for i := range files {
		if i+1 < len(files) && files[i+1].Path == files[i].Path {
			continue
		}
		out = append(out, files[i])
	}
	return out
}

// decodeSpawn decodes ExecLogEntry.Spawn into c.sp, but for the outputs
// that are nodes, which it leaves in c.outputs, and the input and tool
// sets, whose node indexes + 1 (0 for none) it returns.
func (c *compactReader) decodeSpawn(b []byte) (inputSet, toolSet uint32, err error) {
	sp := c.sp
	if !c.reuse {
		sp = new(spawn.Spawn)
		c.sp = sp
	}
	*sp = spawn.Spawn{
		Args: sp.Args[:0], Env: sp.Env[:0], Inputs: sp.Inputs[:0],
		Outputs: sp.Outputs[:0], OutputFiles: sp.OutputFiles[:0],
	}
	c.out.b = c.out.b[:0]
	c.outputs = c.outputs[:0]
	var inputID, toolID uint32
	d := spawnExecDecoder{strs: c.strs}
	f := wire.NewFields(b, spawnDesc, payloadLevel)
	for f.Next() {
		switch f.Num {
		case spawnpb.SpawnArgs:
			sp.Args = append(sp.Args, c.strs.of(f.Bytes()))
		case spawnpb.SpawnEnvVars:
			m := f.Sub(envVarDesc)
			e := d.envVar(&m)
			if err := m.Err(); err != nil {
				f.Fail(fmt.Errorf("environment variable %d: %w", len(sp.Env)+1, err))
			}
			sp.Env = append(sp.Env, e)
		case spawnpb.SpawnInputSetID:
			inputID = f.Uint32()
		case spawnpb.SpawnToolSetID:
			toolID = f.Uint32()
		case spawnpb.SpawnOutputs:
			m := f.Sub(outputDesc)
			if err := c.output(&m, sp); err != nil {
				f.Fail(fmt.Errorf("output %d: %w", len(sp.Outputs)+len(c.outputs)+1, err))
			}
		case spawnpb.SpawnTargetLabel:
			sp.Target = c.strs.of(f.Bytes())
		case spawnpb.SpawnMnemonic:
			sp.Mnemonic = c.strs.of(f.Bytes())
		case spawnpb.SpawnExitCode:
			sp.ExitCode = f.Int32()
		case spawnpb.SpawnStatus:
			sp.Status = c.strs.of(f.Bytes())
		case spawnpb.SpawnRunner:
			sp.Runner = c.strs.of(f.Bytes())
		case spawnpb.SpawnCacheHit:
			sp.CacheHit = f.Bool()
		case spawnpb.SpawnRemotable:
			sp.Remotable = f.Bool()
		case spawnpb.SpawnCacheable:
			sp.Cacheable = f.Bool()
		case spawnpb.SpawnRemoteCacheable:
			sp.RemoteCacheable = f.Bool()
		}
	}
	if err := f.Err(); err != nil {
		return 0, 0, err
	}
	if inputID != 0 {
		set, err := c.ref("input_set_id", inputID, entryInputSet)
		if err != nil {
			return 0, 0, err
		}
		inputSet = set + 1
	}
	if toolID != 0 {
		set, err := c.ref("tool_set_id", toolID, entryInputSet)
		if err != nil {
			return 0, 0, err
		}
		toolSet = set + 1
	}
	return inputSet, toolSet, nil
}

// output decodes ExecLogEntry.Output: an output's id, noted in c.outputs,
// or its path when it is declared but missing or of the wrong type.
func (c *compactReader) output(f *wire.Fields, sp *spawn.Spawn) error {
	for f.Next() {
		switch f.Num {
		case spawnpb.OutputOutputID:
			id := f.Uint32()
			if f.Err() != nil {
				break
			}
			v, err := c.ref("output_id", id, entryFile, entryDirectory, entryUnresolvedSym)
			if err != nil {
				return err
			}
			c.outputs = append(c.outputs, v)
		case spawnpb.OutputInvalidOutputPath:
			sp.Outputs = append(sp.Outputs, c.strs.of(f.Bytes()))
		}
	}
	return f.Err()
}

// memoSize is how many expansions the reader remembers. A build's spawns
// name sets of their own, but a log may name one set again and again (a
// million spawns of one set of a million files), which must then be
// expanded once.
const memoSize = 8

// expansion is what a set expands to: the files of the inputs it reaches,
// and once a summary needs them, those files as it names them, each path
// once, and their hash.
type expansion struct {
	set        uint32 // the set's node index + 1; 0 for an empty slot
	files      []uint32
	summary    []spawn.FileID
	summarized bool
	hash       uint64
}

// expandSet returns the expansion of set node root, walking its nested
// sets in Bazel's postorder and reaching each set and input once, unless
// one of the last sets expanded is root.
func (c *compactReader) expandSet(root uint32) (*expansion, error) {
	for i := range c.memo {
		if c.memo[i].set == root+1 {
			return &c.memo[i], nil
		}
	}
	e := &c.memo[c.nextMemo]
	c.nextMemo = (c.nextMemo + 1) % memoSize
	e.set, e.summarized = 0, false
	files := e.files[:0]
	err := c.walkSets(root, func(_ uint32, inputs []uint32) {
		for _, in := range inputs {
			if !c.isSeen(in) {
				c.mark(in)
				files = c.appendFileIDs(files, in)
			}
		}
	})
	e.files = files
	if err == nil {
		err = c.step(len(files))
	}
	if err != nil {
		return nil, err
	}
	e.set = root + 1
	return e, nil
}

// step counts n more steps of expanding sets, and fails past the limit.
func (c *compactReader) step(n int) error {
	c.steps += int64(n)
	if compressed := c.compressed(); c.steps > stepAllowance+maxStepsPerByte*compressed {
		return fmt.Errorf("expanding input sets takes more than %d steps for %d compressed bytes, expected at most %d a byte (past %d): sets nested or shared past what Bazel writes", c.steps, compressed, maxStepsPerByte, stepAllowance)
	}
	return nil
}

// walkSets calls visit with each set reached from the set root and its
// direct inputs, once each, in Bazel's postorder: a set's transitive sets,
// left to right, before the set itself. It walks iteratively, so nesting
// depth costs no stack, and starts with no node seen; visit may mark the
// inputs it takes. Each set walked is a step (step).
func (c *compactReader) walkSets(root uint32, visit func(node uint32, inputs []uint32)) error {
	for _, w := range c.touched {
		c.seen[w] = 0
	}
	c.touched = c.touched[:0]
	stack := append(c.stack[:0], walkFrame{node: root})
	c.mark(root)
	walked := 0
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		inputs, sets := c.setIDs(top.node)
		if !top.expanded {
			top.expanded = true
			// Push transitive sets right to left so they pop left to right.
			for i := len(sets) - 1; i >= 0; i-- {
				if s := sets[i]; !c.isSeen(s) {
					c.mark(s)
					stack = append(stack, walkFrame{node: s})
				}
			}
			continue
		}
		node := top.node
		stack = stack[:len(stack)-1]
		visit(node, inputs)
		if walked++; walked == 1<<16 {
			if err := c.step(walked); err != nil {
				c.stack = stack
				return err
			}
			walked = 0
		}
	}
	c.stack = stack
	return c.step(walked)
}

// markTools sets Tool on the inputs (sorted by path) that the tool set
// holds.
func (c *compactReader) markTools(set uint32, inputs []spawn.File) error {
	e, err := c.expandSet(set)
	if err != nil {
		return err
	}
	tools := c.tools[:0]
	for _, id := range e.files {
		tools = append(tools, c.files.pathOf(id, &c.out))
	}
	slices.Sort(tools)
	i := 0
	for _, t := range tools {
		for i < len(inputs) && inputs[i].Path < t {
			i++
		}
		if i < len(inputs) && inputs[i].Path == t {
			inputs[i].Tool = true
		}
	}
	c.tools = tools
	return nil
}
