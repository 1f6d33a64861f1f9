package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Reader reads a stream of protobuf bytes through a buffer, counting the
// offset for errors and progress. Nothing is allocated ahead of the bytes
// that arrive: a length prefix that claims gigabytes fails at the end of
// the input having allocated about what the input held.
type Reader struct {
	br  *bufio.Reader
	off int64
	buf []byte // reused by Read
}

// NewReader reads r through a buffer of size bytes.
func NewReader(r io.Reader, size int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, size)}
}

// Offset is how many bytes have been consumed.
func (r *Reader) Offset() int64 { return r.off }

// Size is the size of the buffer.
func (r *Reader) Size() int { return r.br.Size() }

// Buffered is how many bytes the buffer holds.
func (r *Reader) Buffered() int { return r.br.Buffered() }

// ErrOverflow is a varint longer than 64 bits.
var ErrOverflow = errors.New("varint overflows 64 bits")

// ReadByte reads one byte; a failure of the reader under the stream is
// worded by ReadError.
func (r *Reader) ReadByte() (byte, error) {
	c, err := r.br.ReadByte()
	if err != nil {
		if err != io.EOF {
			err = ReadError(err)
		}
		return 0, err
	}
	r.off++
	return c, nil
}

// Uvarint reads a varint. It returns io.EOF, unwrapped, when the stream
// ends before its first byte, io.ErrUnexpectedEOF when it ends inside it,
// and ErrOverflow for a varint past 64 bits.
func (r *Reader) Uvarint() (uint64, error) {
	start := r.off
	v, err := binary.ReadUvarint(r)
	switch {
	case err == nil:
		return v, nil
	case err == io.EOF && r.off == start:
		return 0, io.EOF
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return 0, io.ErrUnexpectedEOF
	case r.off-start >= binary.MaxVarintLen64:
		return 0, ErrOverflow
	}
	return 0, err
}

// Length reads the length prefix of a message, checking it against
// protobuf's limit. It returns io.EOF, unwrapped, when the stream ends
// cleanly before it: the only place a delimited stream may end.
func (r *Reader) Length() (int, error) {
	n, err := r.Uvarint()
	switch {
	case err == io.EOF:
		return 0, io.EOF
	case err == io.ErrUnexpectedEOF || err == ErrOverflow:
		return 0, fmt.Errorf("length: %w", err)
	case err != nil:
		return 0, err // worded by ReadByte
	case n > MaxMessageSize:
		return 0, fmt.Errorf("length %d exceeds the protobuf limit of 2 GiB", n)
	}
	return int(n), nil
}

// Message reads the next varint-delimited message into a buffer reused by
// the next call. It returns io.EOF, unwrapped, when the stream ends
// cleanly before the length. An empty message is refused: a run of zero
// bytes would read as any number of them. want says what the message
// should be, for that error ("a SpawnExec with at least one field").
func (r *Reader) Message(want string) ([]byte, error) {
	n, err := r.Length()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, EmptyMessage(want)
	}
	return r.Read(n)
}

// Read reads the next n bytes into a buffer reused by the next call.
func (r *Reader) Read(n int) ([]byte, error) {
	buf, err := r.ReadAppend(r.buf[:0], n)
	r.buf = buf
	return buf, err
}

// ReadAppend appends the next n bytes of the stream to dst. It grows dst
// as the bytes arrive, each time by at most what has arrived so far (or a
// buffer's worth), so that a corrupted length fails at the end of the
// input having allocated about what the input held, never what the
// length claims.
func (r *Reader) ReadAppend(dst []byte, n int) ([]byte, error) {
	for got := 0; got < n; {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, min(n-got, max(got, r.br.Size())))
		}
		k, err := io.ReadFull(r.br, dst[len(dst):len(dst)+min(n-got, cap(dst)-len(dst))])
		dst = dst[:len(dst)+k]
		got += k
		r.off += int64(k)
		if err != nil {
			return dst, truncated(err, got, n)
		}
	}
	return dst, nil
}

func truncated(err error, got, want int) error {
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return fmt.Errorf("%w after %d of %d bytes, expected a complete message", io.ErrUnexpectedEOF, got, want)
	}
	return ReadError(err)
}

// Discard skips n bytes.
func (r *Reader) Discard(n int64) error {
	for n > 0 {
		k := int(min(n, math.MaxInt32))
		got, err := r.br.Discard(k)
		r.off += int64(got)
		n -= int64(got)
		if err != nil {
			return truncated(err, got, k)
		}
	}
	return nil
}

// Peek returns the next n bytes without consuming them, or fewer when the
// stream or the buffer holds fewer, and whether they are all the stream
// has left.
func (r *Reader) Peek(n int) (prefix []byte, complete bool, err error) {
	prefix, err = r.br.Peek(min(n, r.br.Size()))
	switch err {
	case nil:
		return prefix, false, nil
	case io.EOF:
		return prefix, true, nil
	case bufio.ErrBufferFull:
		return prefix, false, nil
	}
	return prefix, false, ReadError(err)
}

// Buffer returns what the buffer holds, filling it first when it holds
// fewer than min bytes, without consuming it: for a caller that frames
// messages in place and then Skips what it took.
func (r *Reader) Buffer(min int) []byte {
	if r.br.Buffered() < min {
		r.br.Peek(min) // an error (EOF) only means that nothing more is buffered
	}
	b, _ := r.br.Peek(r.br.Buffered())
	return b
}

// Skip consumes n bytes that Buffer returned.
func (r *Reader) Skip(n int) {
	r.br.Discard(n)
	r.off += int64(n)
}

// Rest is the underlying buffered reader, for a reader that reads the rest
// of the stream in a format of its own (JSON, text); Offset no longer
// counts what it reads.
func (r *Reader) Rest() *bufio.Reader { return r.br }

// EmptyMessage is the error for an empty delimited message where want was
// expected.
func EmptyMessage(want string) error { return errors.New("empty message, expected " + want) }

// SkipField skips the value of a field at the given nesting level straight
// from the stream, as Fields skips an unknown field in memory.
func (r *Reader) SkipField(num protowire.Number, typ protowire.Type, level int) error {
	if level <= 0 {
		return ErrTooDeep
	}
	eof := func(err error) error {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	switch typ {
	case protowire.VarintType:
		_, err := r.Uvarint()
		return eof(err)
	case protowire.Fixed32Type:
		return r.Discard(4)
	case protowire.Fixed64Type:
		return r.Discard(8)
	case protowire.BytesType:
		n, err := r.Uvarint()
		if err != nil {
			return eof(err)
		}
		if n > math.MaxInt64/2 {
			return fmt.Errorf("length %d is too large", n)
		}
		return r.Discard(int64(n))
	case protowire.StartGroupType:
		for {
			tag, err := r.Uvarint()
			if err != nil {
				return eof(err)
			}
			n, t := protowire.DecodeTag(tag)
			if n < protowire.MinValidNumber || n > protowire.MaxValidNumber {
				return fmt.Errorf("%w: tag 0x%x in a group", ErrFieldNumber, tag)
			}
			if t == protowire.EndGroupType {
				if n != num {
					return errors.New("mismatched end of group")
				}
				return nil
			}
			if err := r.SkipField(n, t, level-1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("unexpected wire type %d", typ)
}
