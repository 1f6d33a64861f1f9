package aquery

import (
	"fmt"
	"io"
	"os"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/wire"
)

const (
	readBufferSize = 256 << 10
	progressEvery  = 1 << 20
)

// stream reads a dump, keeping the counts of elements for errors and the
// offset for progress.
type stream struct {
	r            *wire.Reader
	name         string
	progress     func(int64)
	lastProgress int64
	counts       counts
	// textOff is how far the jsonproto and textproto readers got: they
	// read through the Reader's buffer (Rest), which does not count.
	textOff int64
}

func newStream(r io.Reader, name string, progress func(int64)) *stream {
	size := readBufferSize
	if n, ok := inputSize(r); ok && n < readBufferSize {
		// One byte more than the input, so that detection sees its end.
		size = int(n) + 1
	}
	return &stream{r: wire.NewReader(r, size), name: name, progress: progress}
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

// offset is how many bytes of the dump have been read.
func (s *stream) offset() int64 { return s.r.Offset() + s.textOff }

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
	if off := s.offset(); s.progress != nil && off-s.lastProgress >= progressEvery {
		s.lastProgress = off
		s.progress(off)
	}
}

func (s *stream) progressDone() {
	if s.progress != nil {
		s.progress(s.offset())
	}
}

// container reads the fields of one ActionGraphContainer. limit is the
// message length for streamed_proto, or -1 to read to the end of input.
func (s *stream) container(d *elementDecoder, limit int64) error {
	end := s.r.Offset() + limit
	for limit < 0 || s.r.Offset() < end {
		if d.pipe != nil {
			if err := s.splitBuffered(d.pipe, limit, end); err != nil {
				return err
			}
			if limit >= 0 && s.r.Offset() >= end {
				break
			}
		}
		start := s.r.Offset()
		tag, err := s.r.Uvarint()
		if err == io.EOF && limit < 0 {
			return nil
		}
		if err != nil {
			if err == io.EOF {
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
			if err := s.r.SkipField(num, typ, containerLevel); err != nil {
				return s.errorAt(fmt.Sprintf("unknown field %d", num), start, err)
			}
			if limit >= 0 && s.r.Offset() > end {
				return s.errorAt(fmt.Sprintf("unknown field %d", num), start, fmt.Errorf("runs past the end of its streamed message"))
			}
			continue
		}
		s.counts[num]++
		entry := entryName{num, s.counts[num]}
		if typ != protowire.BytesType {
			return s.errorAt(entry, start, wire.WireTypeError(string(containerFields.ByNumber(num).Name()), typ, protowire.BytesType))
		}
		n, err := s.r.Length()
		if err == io.EOF {
			err = fmt.Errorf("length: %w", io.ErrUnexpectedEOF)
		}
		if err != nil {
			return s.errorAt(entry, start, err)
		}
		if limit >= 0 && s.r.Offset()+int64(n) > end {
			return s.errorAt(entry, start, fmt.Errorf("length %d runs past the end of its streamed message", n))
		}
		if limit >= 0 && n == 0 {
			// Bazel never streams an element with nothing in it, and an
			// endless run of them would never end.
			return s.errorAt(entry, start, fmt.Errorf("empty, expected %s with at least one field", withArticle(entryNames[num])))
		}
		if d.pipe != nil {
			if err := d.pipe.read(s, num, n, entry, start); err != nil {
				return err
			}
			s.tick()
			continue
		}
		body, err := s.r.Read(n)
		if err != nil {
			return s.errorAt(entry, start, err)
		}
		if err := d.element(num, body, place{off: start, index: s.counts[num], num: num}); err != nil {
			if err, ok := wire.CallerError(err); ok {
				return err
			}
			return s.errorAt(entry, start, err)
		}
		s.tick()
	}
	return nil
}

// splitBuffered hands the pipeline every complete, well-formed element
// already in the read buffer, parsing tags and lengths in place rather
// than a byte at a time through the buffered reader, as the careful way
// does: with the call removed, BenchmarkDecodeGenerated's two-worker
// decodes took 5-9% longer. It stops at the first element it cannot take
// whole, and container reads that one the careful way, errors and all.
func (s *stream) splitBuffered(p *pipeline, limit, end int64) error {
	buf := s.r.Buffer(64)
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
		off := s.r.Offset() + int64(used)
		if limit >= 0 && off+int64(total) > end {
			break
		}
		s.counts[num]++
		if err := p.add(s, num, b[:total], off); err != nil {
			s.r.Skip(used)
			return err
		}
		used += total
		if limit >= 0 && off+int64(total) == end {
			break
		}
	}
	s.r.Skip(used)
	s.tick()
	return nil
}

// withArticle puts "a" or "an" before a name.
func withArticle(name string) string {
	if strings.IndexByte("aeiou", name[0]) >= 0 {
		return "an " + name
	}
	return "a " + name
}

// streamed reads --output=streamed_proto: a sequence of varint-length-prefixed
// ActionGraphContainer messages.
func (s *stream) streamed(d *elementDecoder) error {
	for i := 1; ; i++ {
		start := s.r.Offset()
		n, err := s.r.Length()
		if err == io.EOF {
			return nil
		}
		entry := entryName{0, i}
		if err != nil {
			return s.errorAt(entry, start, err)
		}
		if n == 0 {
			// An endless run of empty messages (/dev/zero) would never end.
			return s.errorAt(entry, start, wire.EmptyMessage("an ActionGraphContainer holding one element"))
		}
		if err := s.container(d, int64(n)); err != nil {
			return err
		}
	}
}
