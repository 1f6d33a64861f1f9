// Package execlog reads Bazel's execution logs into the spawn model
// (package spawn), streaming: spawns are handed over one at a time as they
// are read, and only what later entries may refer to (the compact format's
// files, directories and input sets) is kept.
//
// It reads the three formats Bazel writes:
//
//   - --execution_log_json_file: SpawnExec messages in protobuf JSON, one
//     after another (Bazel 4.x pretty-prints them back to back; later
//     versions write one per line);
//   - --execution_log_binary_file: varint-length-delimited SpawnExec
//     messages;
//   - --execution_log_compact_file (Bazel ≥ 7.1): a zstd stream of
//     varint-length-delimited ExecLogEntry messages, in which spawns refer
//     back to earlier files, directories, symlinks, runfiles trees and
//     nested input sets by id.
//
// Every format yields the same spawns for the same build: inputs and
// declared outputs sorted by path, directories expanded into their files.
package execlog

import (
	"fmt"
	"io"

	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// Format is the form of a log, named after the Bazel flag that writes it.
type Format int

const (
	// Detect tells Read to recognise the format from the content.
	Detect Format = iota
	// JSON is --execution_log_json_file.
	JSON
	// Binary is --execution_log_binary_file.
	Binary
	// Compact is --execution_log_compact_file.
	Compact
)

var formatNames = wire.Formats[Format]{What: "execution log format", Detect: true, Names: []string{
	Detect: "detect", JSON: "json", Binary: "binary", Compact: "compact",
}}

func (f Format) String() string { return formatNames.String(f) }

// ParseFormat parses a format named as in --execution_log_<format>_file.
func ParseFormat(s string) (Format, error) { return formatNames.Parse(s) }

// Options tune Read.
type Options struct {
	// Format is the log's format; Detect (the zero value) recognises it.
	Format Format
	// Progress, when not nil, is called with the number of bytes of the
	// file read so far, about every MiB and once at the end.
	Progress func(bytesRead int64)
	// ReuseSpawns hands fn the same Spawn every time, refilled, and lets
	// its strings share memory with the reader's buffers: fn must then
	// keep nothing of a spawn after it returns, not even its strings (copy
	// what it needs, or use Spawn.Clone). It saves allocating every string
	// of the log as it streams past.
	ReuseSpawns bool
}

// Error is a log that cannot be read, naming the file, the entry and its
// byte offset:
//
//	exec.log: spawn 5123 (byte 1048576): input 3: unexpected EOF
//
// Entries are counted from 1 within their kind, in log order ("spawn 3",
// and for the compact format also "file 12", "input set 7", ...), and
// the compact format's offsets count bytes of the decompressed stream.
type Error = wire.Error

// Stats describe a log that was read.
type Stats struct {
	Format Format
	// Spawns is how many spawns fn was called with.
	Spawns int
	// Bytes is how many bytes of the file were read.
	Bytes int64
}

// Read reads a log from r, detecting its format from the content unless
// opts.Format is set, and calls fn for each spawn in log order as soon as
// it is read. name is the file name used in errors. An error from fn stops
// reading and is returned as is.
//
// Memory is bounded by the largest message plus, for the compact format,
// the entries that later ones may refer to; a length prefix never makes
// Read allocate more than the bytes that actually arrived, and a compact
// log never expands past limits that grow with its compressed size (how
// far it decompresses, how many spawns it holds, how much expanding its
// nested sets takes), whatever its entries claim.
func Read(r io.Reader, name string, opts Options, fn func(*spawn.Spawn) error) (Stats, error) {
	return read(r, name, opts, sink{spawn: fn})
}

// Summarize reads a log as Read does, but hands fn the summary of each
// spawn (spawn.Summary), its strings and files interned in t: what the
// comparison of two logs keeps. The compact format's spawns are summarized
// from its files and sets, which are ids already, and the inputs of the
// spawns that name one set are expanded once. fn must keep nothing of a
// summary but what it copies.
func Summarize(r io.Reader, name string, opts Options, t *spawn.Tables, fn func(*spawn.Summary) error) (Stats, error) {
	return read(r, name, opts, sink{tables: t, summary: fn})
}

// sink is where a reader hands what it reads: spawns (Read), or summaries
// made in tables (Summarize).
type sink struct {
	spawn   func(*spawn.Spawn) error
	tables  *spawn.Tables
	summary func(*spawn.Summary) error
}

func read(r io.Reader, name string, opts Options, out sink) (Stats, error) {
	cr := &countingReader{r: r, progress: opts.Progress}
	wr := wire.NewReader(cr, readBufferSize)
	st := Stats{Format: opts.Format}
	if st.Format == Detect {
		f, err := detect(wr)
		if err != nil {
			return st, &Error{File: name, Offset: -1, Err: err}
		}
		st.Format = f
	}
	if out.summary != nil {
		// The flat formats' spawns are summarized whole, and kept by
		// nothing but their summaries.
		var sum spawn.Summary
		out.spawn = func(s *spawn.Spawn) error {
			out.tables.Summarize(s, &sum)
			return out.summary(&sum)
		}
		opts.ReuseSpawns = true
	}
	fn := out.spawn
	count := func(s *spawn.Spawn) error {
		st.Spawns++
		return fn(s)
	}
	var err error
	switch st.Format {
	case JSON:
		err = readJSON(wr.Rest(), name, opts.ReuseSpawns, count)
	case Binary:
		err = readBinary(wr, name, opts.ReuseSpawns, count)
	case Compact:
		summary := out.summary
		if summary != nil {
			out.summary = func(s *spawn.Summary) error {
				st.Spawns++
				return summary(s)
			}
		}
		out.spawn = count
		err = readCompact(wr.Rest(), name, opts, func() int64 { return cr.n }, out)
	default:
		return st, fmt.Errorf("%s: unknown format %v", name, st.Format)
	}
	st.Bytes = cr.n
	if err == nil && opts.Progress != nil {
		opts.Progress(cr.n)
	}
	return st, err
}

// countingReader counts the bytes read from the file, for Stats and
// Progress.
type countingReader struct {
	r            io.Reader
	n            int64
	progress     func(int64)
	lastProgress int64
}

const (
	readBufferSize = 64 << 10
	progressEvery  = 1 << 20
)

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.progress != nil && c.n-c.lastProgress >= progressEvery {
		c.lastProgress = c.n
		c.progress(c.n)
	}
	return n, err
}
