package execlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
)

const (
	readBufferSize = 64 << 10
	// growChunk bounds how much buffer a declared message length can make
	// us allocate before its bytes have actually arrived, so that a
	// corrupted length fails with EOF instead of a huge allocation.
	growChunk = 1 << 20
	// maxMessageSize is protobuf's own limit on a message.
	maxMessageSize = math.MaxInt32
)

// stream reads varint-delimited messages through a bufio.Reader, keeping
// the byte offset for errors and progress.
type stream struct {
	br  *bufio.Reader
	off int64
	buf []byte // holds the current message; reused for the next
}

// ReadByte counts the bytes binary.ReadUvarint reads, for the offsets of
// errors and progress.
func (s *stream) ReadByte() (byte, error) {
	c, err := s.br.ReadByte()
	if err == nil {
		s.off++
	}
	return c, err
}

// message reads the next length-prefixed message. It returns io.EOF when
// the input ends cleanly before the length.
func (s *stream) message() ([]byte, error) {
	start := s.off
	n, err := binary.ReadUvarint(s)
	switch {
	case err == io.EOF:
		return nil, io.EOF // the only place a log may end
	case err != nil && s.off > start && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return nil, fmt.Errorf("length: %w", io.ErrUnexpectedEOF)
	case err != nil && s.off-start >= binary.MaxVarintLen64:
		return nil, errors.New("length: varint overflows 64 bits")
	case err != nil:
		return nil, readError(err)
	case n > maxMessageSize:
		return nil, fmt.Errorf("length %d exceeds the protobuf limit of 2 GiB", n)
	case n == 0:
		// Bazel never writes an empty message, and a run of zero bytes
		// would otherwise read as any number of empty spawns.
		return nil, errors.New("empty message, expected a non-empty protobuf message")
	}
	return s.read(int(n))
}

// read reads the next n bytes into the reused buffer, growing it only as
// the bytes arrive.
func (s *stream) read(n int) ([]byte, error) {
	if n <= cap(s.buf) {
		s.buf = s.buf[:n]
		got, err := io.ReadFull(s.br, s.buf)
		s.off += int64(got)
		return s.buf, truncated(err, got, n)
	}
	s.buf = s.buf[:0]
	for len(s.buf) < n {
		chunk := min(n-len(s.buf), max(growChunk, len(s.buf)))
		start := len(s.buf)
		if cap(s.buf)-start < chunk {
			grown := make([]byte, start, start+chunk)
			copy(grown, s.buf)
			s.buf = grown
		}
		s.buf = s.buf[:start+chunk]
		got, err := io.ReadFull(s.br, s.buf[start:])
		s.off += int64(got)
		if err != nil {
			return nil, truncated(err, start+got, n)
		}
	}
	return s.buf, nil
}

func truncated(err error, got, want int) error {
	switch err {
	case nil:
		return nil
	case io.EOF, io.ErrUnexpectedEOF:
		return fmt.Errorf("%w after %d of %d bytes, expected a complete message", io.ErrUnexpectedEOF, got, want)
	}
	return readError(err)
}

// readError turns an error from the underlying reader into one that does
// not repeat the file name (fs.PathError already carries it).
func readError(err error) error {
	if ze, ok := errors.AsType[zstdError](err); ok {
		return ze
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	}
	return fmt.Errorf("read failed: %w", err)
}
