package outdiff

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// arMagic starts a Unix ar archive (static libraries, .deb packages).
const arMagic = "!<arch>\n"

// arHeaderSize is the size of a member's header: name (16 bytes), mtime
// (12, decimal), uid (6), gid (6), mode (8, octal), size (10), "`\n".
const arHeaderSize = 60

// An arError is a malformed ar archive.
type arError struct {
	offset int64
	msg    string
}

func (e *arError) Error() string { return fmt.Sprintf("ar: byte %d: %s", e.offset, e.msg) }

// readAr reads an ar archive's members: System V / GNU names ("name/",
// "//" for the long names, "/N" into them, "/" for the symbol table) and
// BSD ones ("#1/N", the name at the start of the data). The standard
// library has no reader of ar.
func readAr(s side, b *budget) ([]member, error) {
	r := io.NewSectionReader(s.r, 0, s.size)
	magic := make([]byte, len(arMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != arMagic {
		return nil, &arError{0, "no !<arch> magic"}
	}
	off := int64(len(arMagic))
	var ms []member
	var longNames []byte
	for off < s.size {
		if s.size-off == 1 {
			break // a final padding byte
		}
		if s.size-off < arHeaderSize {
			return nil, &arError{off, "truncated header"}
		}
		var h [arHeaderSize]byte
		if _, err := s.r.ReadAt(h[:], off); err != nil {
			return nil, readErr(off, err)
		}
		if string(h[58:60]) != "`\n" {
			return nil, &arError{off, "bad header terminator, expected \"`\\n\""}
		}
		size, err := strconv.ParseInt(strings.TrimRight(string(h[48:58]), " "), 10, 64)
		if err != nil || size < 0 {
			return nil, &arError{off + 48, fmt.Sprintf("size %q, expected a decimal number", strings.TrimRight(string(h[48:58]), " "))}
		}
		dataOff := off + arHeaderSize
		if size > s.size-dataOff {
			return nil, &arError{off + 48, fmt.Sprintf("size %d runs past the end of the file", size)}
		}
		if err := b.spendMember(); err != nil {
			return nil, err
		}
		if b.expand -= size; b.expand < 0 {
			return nil, &budgetError{"taking out", "takes out", b.maxExpand}
		}
		data := make([]byte, size)
		if _, err := s.r.ReadAt(data, dataOff); err != nil {
			return nil, readErr(dataOff, err)
		}
		rawName := strings.TrimRight(string(h[0:16]), " ")
		m := member{data: data}
		switch {
		case rawName == "//":
			longNames = data
			m.name = "(long names)"
			m.follows = true
		case rawName == "/" || rawName == "/SYM64/" || strings.HasPrefix(rawName, "__.SYMDEF"):
			m.name = "(symbol table)"
			m.follows = true
		case strings.HasPrefix(rawName, "#1/"):
			n, err := strconv.Atoi(rawName[3:])
			if err != nil || n < 0 || n > len(data) {
				return nil, &arError{off, fmt.Sprintf("BSD name length %q, expected at most the member's size", rawName[3:])}
			}
			m.name, m.data = strings.TrimRight(string(data[:n]), "\x00"), data[n:]
		case strings.HasPrefix(rawName, "/") && len(rawName) > 1:
			i, err := strconv.Atoi(rawName[1:])
			if err != nil || i < 0 || i >= len(longNames) {
				return nil, &arError{off, fmt.Sprintf("long name %q, expected an offset into the // member", rawName)}
			}
			name := longNames[i:]
			if j := bytes.Index(name, []byte("/\n")); j >= 0 {
				name = name[:j]
			} else if j := bytes.IndexByte(name, '\n'); j >= 0 {
				name = name[:j]
			}
			m.name = string(name)
		default:
			m.name = strings.TrimSuffix(rawName, "/")
		}
		if !m.follows {
			m.add(arNumber(h[16:28], "mtime", 10, Time))
			m.add(arNumber(h[28:34], "uid", 10, User))
			m.add(arNumber(h[34:40], "gid", 10, User))
			m.add(arNumber(h[40:48], "mode", 8, Permissions))
		}
		ms = append(ms, m)
		off = dataOff + size + size%2
	}
	return ms, nil
}

// arNumber is a field of a member's header, as written, and read as a
// number where it is one.
func arNumber(b []byte, name string, base int, class Class) field {
	text := strings.TrimRight(string(b), " ")
	f := field{name: name, value: text, class: class}
	n, err := strconv.ParseInt(text, base, 64)
	if err != nil {
		return f
	}
	switch {
	case class == Time:
		f.t = time.Unix(n, 0).UTC()
		f.value = text + " (" + f.t.Format(time.RFC3339) + ")"
	case class == Permissions:
		f.value = fmt.Sprintf("%04o", uint32(fs.FileMode(n).Perm()))
	}
	return f
}

func readErr(off int64, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("byte %d: truncated", off)
	}
	return err
}
