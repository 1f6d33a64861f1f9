package execlog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/spawn"
)

// detectPrefix is how much of the log format detection looks at.
const detectPrefix = 64 << 10

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
func detect(br *bufio.Reader) (Format, error) {
	prefix, err := br.Peek(detectPrefix)
	complete := false
	switch err {
	case nil:
	case io.EOF, bufio.ErrBufferFull:
		complete = err == io.EOF
	default:
		return Detect, readError(err)
	}
	switch {
	case len(prefix) == 0:
		return Binary, nil
	case bytes.HasPrefix(prefix, zstdMagic):
		return Compact, nil
	case looksJSON(prefix):
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
	if vl < 0 || n == 0 || n > maxMessageSize {
		return false
	}
	msg := b[vl:]
	if uint64(len(msg)) >= n {
		msg = msg[:n]
	} else if complete {
		return false
	} else {
		// Judge the complete fields only: cut at the last field boundary.
		msg = completeFields(msg)
		if len(msg) == 0 {
			return false
		}
	}
	d := spawnExecDecoder{}
	return d.decode(msg, new(spawn.Spawn)) == nil
}

// completeFields returns the longest prefix of b made of whole fields.
func completeFields(b []byte) []byte {
	end := 0
	for end < len(b) {
		num, typ, n := protowire.ConsumeTag(b[end:])
		if n < 0 {
			break
		}
		m := protowire.ConsumeFieldValue(num, typ, b[end+n:])
		if m < 0 {
			break
		}
		end += n + m
	}
	return b[:end]
}

func looksJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	return len(b) == 0 || b[0] == '"' || b[0] == '}'
}
