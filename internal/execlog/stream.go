package execlog

import (
	"bufio"
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
	maxVarintLen   = 10
)

// stream reads varint-delimited messages through a bufio.Reader, keeping
// the byte offset for errors and progress.
type stream struct {
	br  *bufio.Reader
	off int64
	buf []byte // holds the current message; reused for the next
}

// errCleanEOF is returned by varint when the input ends before its first
// byte: the only place a log may end.
var errCleanEOF = errors.New("clean EOF")

func (s *stream) varint() (uint64, error) {
	var v uint64
	for i := 0; i < maxVarintLen; i++ {
		c, err := s.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				if i == 0 {
					return 0, errCleanEOF
				}
				return 0, io.ErrUnexpectedEOF
			}
			return 0, readError(err)
		}
		s.off++
		if i == maxVarintLen-1 && c > 1 {
			break
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errOverflow
}

var errOverflow = errors.New("varint overflows 64 bits")

// message reads the next length-prefixed message. It returns io.EOF when
// the input ends cleanly before the length.
func (s *stream) message() ([]byte, error) {
	n, err := s.varint()
	switch {
	case err == errCleanEOF:
		return nil, io.EOF
	case err == io.ErrUnexpectedEOF || err == errOverflow:
		return nil, fmt.Errorf("length: %w", err)
	case err != nil:
		return nil, err
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
