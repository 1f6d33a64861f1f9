package execlog

import (
	"bytes"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/wire"
)

// detect recognises the format of a log from its first bytes, without
// consuming them:
//
//  1. A zstd frame (bytes 28 b5 2f fd) is the compact format: Bazel always
//     compresses it, and neither other format can start so (a binary log
//     would need a 40-byte first message made of an unknown field).
//  2. Optional whitespace, "{", optional whitespace and then `"` or "}" is
//     JSON.
//  3. A first message that decodes as a SpawnExec, or that is cut off by
//     the end of the prefix but decodes so far, is binary.
//
// Empty input is a binary log with no spawns.
func detect(r *wire.Reader) (Format, error) {
	prefix, complete, err := r.Peek(wire.DetectPrefix)
	if err != nil {
		return Detect, err
	}
	switch {
	case len(prefix) == 0:
		return Binary, nil
	case bytes.HasPrefix(prefix, zstdMagic):
		return Compact, nil
	case wire.LooksLikeJSON(prefix):
		return JSON, nil
	case looksBinary(prefix, complete):
		return Binary, nil
	}
	return Detect, fmt.Errorf("not an execution log: it starts with bytes % x, expected the output of --execution_log_json_file, --execution_log_binary_file or --execution_log_compact_file", prefix[:min(len(prefix), 8)])
}

// looksBinary reports whether b starts with a length-delimited SpawnExec.
// When complete is false, b is a prefix of the input, and a message cut
// off at its end is judged by its fields up to there.
func looksBinary(b []byte, complete bool) bool {
	n, vl := protowire.ConsumeVarint(b)
	if vl < 0 || n == 0 || n > wire.MaxMessageSize {
		return false
	}
	msg := b[vl:]
	if uint64(len(msg)) >= n {
		msg = msg[:n]
	} else if complete {
		return false
	} else {
		// Judge the complete fields only: cut at the last field boundary.
		msg = wire.CompleteFields(msg)
		if len(msg) == 0 {
			return false
		}
	}
	d := spawnExecDecoder{}
	return d.decode(msg, new(spawn.Spawn)) == nil
}
