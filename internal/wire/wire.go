// Package wire is the one layer under Ahab's readers of what Bazel writes
// as protobuf (aquery dumps, execution logs): length-delimited framing read
// as the bytes arrive (Reader), the walk over a message's fields (Fields),
// the limits put on hostile input, format names and detection, and Error,
// the one error that says where in a file something is wrong.
package wire

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ahab-go/ahab/internal/fileerr"
)

const (
	// MaxMessageSize is protobuf's own limit on a message: 2 GiB.
	MaxMessageSize = math.MaxInt32
	// RecursionLimit is the nesting protobuf decoders accept (prost's,
	// and so the original Ahab's; Java's default too): a reader's
	// top-level fields are at this level, each message one level below
	// its parent, and a field at level 0 is refused.
	RecursionLimit = 100
	// DetectPrefix is how much of a stream format detection looks at.
	DetectPrefix = 64 << 10
)

// Error is input that cannot be read. It renders as one line naming the
// file, the entry and its byte offset, in the shape of buildtools'
// ParseError:
//
//	dump.pb: action 5123 (byte 1048576): unexpected EOF
//	exec.log: input set 7 (byte 96 of the decompressed stream): input 9 names no earlier entry, ...
//
// Entries are counted from 1 within their kind, in file order.
type Error struct {
	File string
	// Entry names the entry, such as "action 5123"; empty when the error
	// is not about one entry.
	Entry string
	// Offset is the byte offset of the entry (or of the error when there
	// is no entry), or -1 when it is not known.
	Offset int64
	// Decompressed says that Offset counts bytes of a decompressed
	// stream, not of the file.
	Decompressed bool
	Err          error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": ")
	where := ""
	if e.Offset >= 0 {
		where = "byte " + strconv.FormatInt(e.Offset, 10)
		if e.Decompressed {
			where += " of the decompressed stream"
		}
	}
	switch {
	case e.Entry != "" && where != "":
		b.WriteString(e.Entry + " (" + where + "): ")
	case e.Entry != "":
		b.WriteString(e.Entry + ": ")
	case where != "":
		b.WriteString(where + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// FromCaller marks an error that a reader's callback returned, so that the
// layers between the callback and the reader's own caller hand it back as
// it is (CallerError) instead of placing it in the file: it is the
// caller's, not the input's.
func FromCaller(err error) error {
	if err == nil {
		return nil
	}
	return callerError{err}
}

// CallerError returns the callback's own error when err is one that
// FromCaller marked.
func CallerError(err error) (error, bool) {
	if ce, ok := err.(callerError); ok {
		return ce.err, true
	}
	return nil, false
}

type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// ReadError words a failure of the reader under a stream: "read failed: "
// and its cause, without the operation and path that Error's file name
// already gives. What a decompressor says is wrong with the bytes
// (Corrupt) comes through as it is.
func ReadError(err error) error {
	if _, ok := errors.AsType[*CorruptError](err); ok {
		return err
	}
	return fmt.Errorf("read failed: %w", fileerr.Cause(err))
}

// CorruptError is what a decompressor under a stream found wrong with the
// file's bytes, already worded for the user.
type CorruptError struct{ Err error }

func (e *CorruptError) Error() string { return e.Err.Error() }
func (e *CorruptError) Unwrap() error { return e.Err }
