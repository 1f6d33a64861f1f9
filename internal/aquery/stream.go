package aquery

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

const (
	readBufferSize = 256 << 10
	// maxElementSize is protobuf's own limit on a message.
	maxElementSize = math.MaxInt32
	progressEvery  = 1 << 20
)

// stream reads a dump through a bufio.Reader, keeping the byte offset for
// errors and progress.
type stream struct {
	br           *bufio.Reader
	name         string
	off          int64
	buf          []byte // reused for each element's bytes
	progress     func(int64)
	lastProgress int64
	counts       counts
}

func newStream(r io.Reader, name string, progress func(int64)) *stream {
	size := readBufferSize
	if n, ok := inputSize(r); ok && n < readBufferSize {
		// One byte more than the input, so that detection sees its end.
		size = int(n) + 1
	}
	return &stream{br: bufio.NewReaderSize(r, size), name: name, progress: progress}
}

// inputSize is how many bytes r holds, when it says: a dump smaller than
// the read buffer gets a buffer its size, which small files and tests
// (thousands of tiny dumps when fuzzing) would otherwise pay for.
func inputSize(r io.Reader) (int64, bool) {
	switch r := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		return int64(r.Len()), true
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			off, err := r.Seek(0, io.SeekCurrent)
			return fi.Size() - off, err == nil && off <= fi.Size()
		}
	}
	return 0, false
}

// entryName names an element for errors, formatted only when one occurs:
// "action 5123" for container field 2, "message 3" for field 0 (a streamed
// message).
type entryName struct {
	num   protowire.Number
	index int
}

func (e entryName) String() string {
	if e.num == 0 {
		return fmt.Sprintf("message %d", e.index)
	}
	return fmt.Sprintf("%s %d", entryNames[e.num], e.index)
}

func (s *stream) errorAt(entry any, off int64, err error) error {
	name := ""
	switch e := entry.(type) {
	case string:
		name = e
	case entryName:
		name = e.String()
	}
	return &Error{File: s.name, Entry: name, Offset: off, Err: err}
}

func (s *stream) tick() {
	if s.progress != nil && s.off-s.lastProgress >= progressEvery {
		s.lastProgress = s.off
		s.progress(s.off)
	}
}

func (s *stream) progressDone() {
	if s.progress != nil {
		s.progress(s.off)
	}
}

// errCleanEOF is returned by varint when the input ends before its first
// byte: the only place a dump may end.
var errCleanEOF = errors.New("clean EOF")

func (s *stream) varint() (uint64, error) {
	var v uint64
	for i := 0; i < binary64MaxVarintLen; i++ {
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
		if i == binary64MaxVarintLen-1 && c > 1 {
			break
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint overflows 64 bits")
}

const binary64MaxVarintLen = 10

// read reads the next n bytes into the reused buffer.
func (s *stream) read(n int) ([]byte, error) {
	buf, err := s.readAppend(s.buf[:0], n)
	s.buf = buf
	return buf, err
}

// readAppend appends the next n bytes of the stream to dst. It grows dst
// as the bytes arrive, each time by at most what has arrived so far (or a
// read buffer's worth), so that a corrupted length fails at the end of the
// input having allocated about what the input held, never what the length
// claims.
func (s *stream) readAppend(dst []byte, n int) ([]byte, error) {
	for got := 0; got < n; {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, min(n-got, max(got, s.br.Size())))
		}
		k, err := io.ReadFull(s.br, dst[len(dst):len(dst)+min(n-got, cap(dst)-len(dst))])
		dst = dst[:len(dst)+k]
		got += k
		s.off += int64(k)
		if err != nil {
			return dst, s.truncated(err, got, n)
		}
	}
	return dst, nil
}

func (s *stream) truncated(err error, got, want int) error {
	switch err {
	case nil:
		return nil
	case io.EOF, io.ErrUnexpectedEOF:
		return fmt.Errorf("%w after %d of %d bytes, expected a complete dump", io.ErrUnexpectedEOF, got, want)
	}
	return readError(err)
}

// discard skips n bytes.
func (s *stream) discard(n int64) error {
	for n > 0 {
		k := int(min(n, math.MaxInt32))
		got, err := s.br.Discard(k)
		s.off += int64(got)
		n -= int64(got)
		if err != nil {
			return s.truncated(err, got, k)
		}
	}
	return nil
}

// container reads the fields of one ActionGraphContainer. limit is the
// message length for streamed_proto, or -1 to read to the end of input.
func (s *stream) container(d *elementDecoder, limit int64) error {
	end := s.off + limit
	for limit < 0 || s.off < end {
		if d.pipe != nil {
			if err := s.splitBuffered(d.pipe, limit, end); err != nil {
				return err
			}
			if limit >= 0 && s.off >= end {
				break
			}
		}
		start := s.off
		tag, err := s.varint()
		if err == errCleanEOF && limit < 0 {
			return nil
		}
		if err != nil {
			if err == errCleanEOF {
				err = io.ErrUnexpectedEOF
			}
			return s.errorAt("", start, fmt.Errorf("field tag: %w", err))
		}
		num, typ := protowire.DecodeTag(tag)
		if num < protowire.MinValidNumber || num > protowire.MaxValidNumber {
			return s.errorAt("", start, fmt.Errorf("invalid field tag 0x%x, expected an ActionGraphContainer field", tag))
		}
		if !isContainerField(num) {
			// Unknown fields are skipped (§2), group or not.
			if err := s.skipField(num, typ, recursionLimit); err != nil {
				return s.errorAt(fmt.Sprintf("unknown field %d", num), start, err)
			}
			if limit >= 0 && s.off > end {
				return s.errorAt(fmt.Sprintf("unknown field %d", num), start, errors.New("runs past the end of its message"))
			}
			continue
		}
		s.counts[num]++
		entry := entryName{num, s.counts[num]}
		if typ != protowire.BytesType {
			return s.errorAt(entry, start, marked{fmt.Errorf("wire type %d, expected 2 (a length-delimited message)", typ), errWireType})
		}
		n, err := s.varint()
		if err == errCleanEOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return s.errorAt(entry, start, fmt.Errorf("length: %w", err))
		}
		if n > maxElementSize {
			return s.errorAt(entry, start, fmt.Errorf("length %d exceeds the protobuf limit of 2 GiB", n))
		}
		if limit >= 0 && s.off+int64(n) > end {
			return s.errorAt(entry, start, fmt.Errorf("length %d runs past the end of its streamed message", n))
		}
		if limit >= 0 && n == 0 {
			// Bazel never streams an element with nothing in it, and an
			// endless run of them would never end.
			return s.errorAt(entry, start, fmt.Errorf("empty, expected %s with at least one field", withArticle(entryNames[num])))
		}
		if d.pipe != nil {
			if err := d.pipe.read(s, num, int(n), entry, start); err != nil {
				return err
			}
			s.tick()
			continue
		}
		body, err := s.read(int(n))
		if err != nil {
			return s.errorAt(entry, start, err)
		}
		if err := d.element(num, body, place{off: start, index: s.counts[num], num: num}); err != nil {
			if _, fromFn := err.(fnError); fromFn {
				return err.(fnError).err
			}
			return s.errorAt(entry, start, err)
		}
		s.tick()
	}
	return nil
}

// splitBuffered hands the pipeline every complete, well-formed element
// already in the read buffer, parsing tags and lengths in place rather
// than a byte at a time through the bufio.Reader, as the careful way
// does: with the call removed, BenchmarkDecodeGenerated's two-worker
// decodes took 5-9% longer. It stops at the first element it cannot take
// whole, and container reads that one the careful way, errors and all.
func (s *stream) splitBuffered(p *pipeline, limit, end int64) error {
	// Peek fills the buffer if it is nearly empty; an error (EOF) only
	// means nothing more is buffered.
	if s.br.Buffered() < 64 {
		s.br.Peek(64)
	}
	buf, _ := s.br.Peek(s.br.Buffered())
	used := 0
	for {
		b := buf[used:]
		tag, n := protowire.ConsumeVarint(b)
		if n < 0 {
			break
		}
		num, typ := protowire.DecodeTag(tag)
		if !isContainerField(num) || typ != protowire.BytesType {
			break
		}
		size, m := protowire.ConsumeVarint(b[n:])
		if m < 0 || size > uint64(len(b)-n-m) || size == 0 && limit >= 0 {
			break
		}
		total := n + m + int(size)
		off := s.off + int64(used)
		if limit >= 0 && off+int64(total) > end {
			break
		}
		s.counts[num]++
		if err := p.add(s, num, b[:total], off); err != nil {
			s.discardBuffered(used)
			return err
		}
		used += total
		if limit >= 0 && off+int64(total) == end {
			break
		}
	}
	s.discardBuffered(used)
	s.tick()
	return nil
}

// discardBuffered drops n bytes that are in the read buffer.
func (s *stream) discardBuffered(n int) {
	s.br.Discard(n)
	s.off += int64(n)
}

// marked is an error that is also a sentinel, for errors.Is, without
// saying so in its text.
type marked struct {
	error
	mark error
}

func (m marked) Is(target error) bool { return target == m.mark }

func (m marked) Unwrap() error { return m.error }

// withArticle puts "a" or "an" before a name.
func withArticle(name string) string {
	if strings.IndexByte("aeiou", name[0]) >= 0 {
		return "an " + name
	}
	return "a " + name
}

// fnError carries an error returned by the caller's fn through the decoder
// untouched.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// skipField skips the value of an unknown field at the given nesting level
// straight from the stream, as skipUnknown does in memory.
func (s *stream) skipField(num protowire.Number, typ protowire.Type, level int) error {
	if level <= 0 {
		return errTooDeep
	}
	switch typ {
	case protowire.VarintType:
		_, err := s.varint()
		if err == errCleanEOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	case protowire.Fixed32Type:
		return s.discard(4)
	case protowire.Fixed64Type:
		return s.discard(8)
	case protowire.BytesType:
		n, err := s.varint()
		if err == errCleanEOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if n > math.MaxInt64/2 {
			return fmt.Errorf("length %d is too large", n)
		}
		return s.discard(int64(n))
	case protowire.StartGroupType:
		for {
			tag, err := s.varint()
			if err == errCleanEOF {
				err = io.ErrUnexpectedEOF
			}
			if err != nil {
				return err
			}
			n, t := protowire.DecodeTag(tag)
			if n < protowire.MinValidNumber || n > protowire.MaxValidNumber {
				return marked{fmt.Errorf("invalid field tag 0x%x in group", tag), errFieldNumber}
			}
			if t == protowire.EndGroupType {
				if n != num {
					return errors.New("mismatched end of group")
				}
				return nil
			}
			if err := s.skipField(n, t, level-1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("unexpected wire type %d", typ)
}

// streamed reads --output=streamed_proto: a sequence of varint-length-prefixed
// ActionGraphContainer messages.
func (s *stream) streamed(d *elementDecoder) error {
	for i := 1; ; i++ {
		start := s.off
		n, err := s.varint()
		if err == errCleanEOF {
			return nil
		}
		entry := entryName{0, i}
		if err != nil {
			return s.errorAt(entry, start, fmt.Errorf("length: %w", err))
		}
		if n > maxElementSize {
			return s.errorAt(entry, start, fmt.Errorf("length %d exceeds the protobuf limit of 2 GiB", n))
		}
		if n == 0 {
			// An endless run of empty messages (/dev/zero) would never end.
			return s.errorAt(entry, start, errors.New("empty, expected one element of an ActionGraphContainer"))
		}
		if err := s.container(d, int64(n)); err != nil {
			return err
		}
	}
}
