// Command floor is the bar bench/run.sh holds ahab's analysis to: the
// least a reader of an aquery dump (--output=proto) can do. It reads the
// dump through a 256 KiB buffer, one top-level element at a time, and
// walks every protobuf field of it, recursively into every message the
// schema (analysis_v2.proto) names, reading every string's bytes (checking
// that they are UTF-8, as every protobuf decoder of a string field must)
// and every varint, packed or not; it keeps nothing and decides nothing.
// It runs on one goroutine. It is not installed and not for users.
//
//	floor DUMP              prints the fields, strings and bytes it walked
//	floor -unmarshal DUMP   instead proto.Unmarshals each element into its
//	                        generated message and drops it: what a plain Go
//	                        reader pays, strings copied and all
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

func main() {
	unmarshal := flag.Bool("unmarshal", false, "proto.Unmarshal every element instead of walking it")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-unmarshal] DUMP")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	defer f.Close()
	w := walker{unmarshal: *unmarshal}
	if err := w.dump(bufio.NewReaderSize(f, 256<<10)); err != nil {
		fmt.Fprintf(os.Stderr, "floor: %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
	fmt.Printf("%d fields, %d strings, %d string bytes\n", w.fields, w.strings, w.stringBytes)
}

// schema is what the walk needs to know of a message's fields, by number:
// which hold messages (and which), which strings, which packed varints.
type schema struct {
	fields []field
}

type field struct {
	kind uint8
	msg  *schema
}

const (
	other = iota
	message
	str
	varints // repeated scalar varints, which may be packed
)

// schemaOf builds the schema of md and of every message it holds.
func schemaOf(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]*schema) *schema {
	if s, ok := seen[md.FullName()]; ok {
		return s
	}
	s := new(schema)
	seen[md.FullName()] = s
	fds := md.Fields()
	for i := range fds.Len() {
		fd := fds.Get(i)
		n := int(fd.Number())
		for len(s.fields) <= n {
			s.fields = append(s.fields, field{})
		}
		switch {
		case fd.Message() != nil:
			s.fields[n] = field{kind: message, msg: schemaOf(fd.Message(), seen)}
		case fd.Kind() == protoreflect.StringKind:
			s.fields[n] = field{kind: str}
		case fd.IsList():
			s.fields[n] = field{kind: varints}
		}
	}
	return s
}

type walker struct {
	unmarshal                    bool
	fields, strings, stringBytes int64
}

// dump walks the container's elements as they arrive.
func (w *walker) dump(br *bufio.Reader) error {
	containerDesc := (&analysispb.ActionGraphContainer{}).ProtoReflect().Descriptor()
	container := schemaOf(containerDesc, map[protoreflect.FullName]*schema{})
	var buf []byte
	for {
		tag, err := readUvarint(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		num, typ := protowire.DecodeTag(tag)
		if typ != protowire.BytesType {
			return fmt.Errorf("field %d has wire type %d, expected a length-delimited element", num, typ)
		}
		n, err := readUvarint(br)
		if err != nil {
			return err
		}
		if n > 1<<31 {
			return fmt.Errorf("field %d: length %d", num, n)
		}
		if uint64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(br, buf); err != nil {
			return err
		}
		w.fields++
		if w.unmarshal {
			if fd := containerDesc.Fields().ByNumber(num); fd != nil {
				mt, err := protoregistry.GlobalTypes.FindMessageByName(fd.Message().FullName())
				if err != nil {
					return err
				}
				if err := proto.Unmarshal(buf, mt.New().Interface()); err != nil {
					return err
				}
			}
			continue
		}
		var f field
		if int(num) < len(container.fields) {
			f = container.fields[num]
		}
		if f.kind == message {
			if err := w.message(buf, f.msg); err != nil {
				return err
			}
		}
	}
}

func readUvarint(br *bufio.Reader) (uint64, error) {
	var v uint64
	for i := 0; i < 10; i++ {
		c, err := br.ReadByte()
		if err != nil {
			if i > 0 && err == io.EOF {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint overflows")
}

// message walks every field of b, a message of schema s.
func (w *walker) message(b []byte, s *schema) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		w.fields++
		var f field
		if int(num) < len(s.fields) {
			f = s.fields[num]
		}
		if typ != protowire.BytesType {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return protowire.ParseError(m)
			}
			b = b[m:]
			continue
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return protowire.ParseError(m)
		}
		b = b[m:]
		switch f.kind {
		case message:
			if err := w.message(v, f.msg); err != nil {
				return err
			}
		case str:
			if !utf8.Valid(v) {
				return fmt.Errorf("field %d is not UTF-8", num)
			}
			w.strings++
			w.stringBytes += int64(len(v))
		case varints:
			for len(v) > 0 {
				_, k := protowire.ConsumeVarint(v)
				if k < 0 {
					return protowire.ParseError(k)
				}
				v = v[k:]
			}
		}
	}
	return nil
}
