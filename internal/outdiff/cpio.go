package outdiff

import (
	"fmt"
	"io/fs"
	"strconv"
	"time"
)

// The magic numbers of the cpio formats read here: "new ASCII" (newc, as
// Linux initramfs images and RPM payloads have it), the same with a
// checksum, and the old portable ASCII format (odc).
const (
	cpioNewc = "070701"
	cpioCRC  = "070702"
	cpioODC  = "070707"
)

// cpioTrailer is the name of the last entry.
const cpioTrailer = "TRAILER!!!"

// A cpioError is a malformed cpio archive.
type cpioError struct {
	offset int64
	msg    string
}

func (e *cpioError) Error() string { return fmt.Sprintf("cpio: byte %d: %s", e.offset, e.msg) }

// readCpio reads a cpio archive's members, in the newc, crc and odc
// formats, up to the trailer. The standard library has no reader of
// cpio.
func readCpio(s side, b *budget) ([]member, error) {
	var ms []member
	off := int64(0)
	for {
		if s.size-off < 6 {
			return nil, &cpioError{off, "truncated: no trailer"}
		}
		magic := make([]byte, 6)
		if _, err := s.r.ReadAt(magic, off); err != nil {
			return nil, readErr(off, err)
		}
		var h cpioHeader
		var err error
		switch string(magic) {
		case cpioNewc, cpioCRC:
			h, err = readCpioNewc(s, off)
		case cpioODC:
			h, err = readCpioODC(s, off)
		default:
			return nil, &cpioError{off, fmt.Sprintf("magic %q, expected %s, %s or %s", magic, cpioNewc, cpioCRC, cpioODC)}
		}
		if err != nil {
			return nil, err
		}
		if h.name == cpioTrailer {
			return ms, nil
		}
		if h.size > s.size-h.dataOff {
			return nil, &cpioError{off, fmt.Sprintf("size %d runs past the end of the file", h.size)}
		}
		if err := b.spendMember(); err != nil {
			return nil, err
		}
		if b.expand -= h.size; b.expand < 0 {
			return nil, &budgetError{"taking out", "takes out", b.maxExpand}
		}
		data := make([]byte, h.size)
		if _, err := s.r.ReadAt(data, h.dataOff); err != nil {
			return nil, readErr(h.dataOff, err)
		}
		m := member{name: h.name, data: data}
		m.add(numField("inode", h.ino, Unclassified))
		m.add(modeField("mode", fs.FileMode(h.mode&0o7777)))
		m.add(field{name: "type", value: fmt.Sprintf("%02o", h.mode>>12), class: Unclassified})
		m.add(numField("uid", h.uid, User))
		m.add(numField("gid", h.gid, User))
		m.add(numField("links", h.nlink, Unclassified))
		m.add(timeField("mtime", time.Unix(h.mtime, 0)))
		m.add(field{name: "device", value: h.dev, class: Unclassified})
		m.add(field{name: "rdev", value: h.rdev, class: Unclassified})
		ms = append(ms, m)
		off = h.next
	}
}

// cpioHeader is one entry's header, whatever the format.
type cpioHeader struct {
	ino, mode, uid, gid, nlink, mtime, size int64
	dev, rdev                               string
	name                                    string
	dataOff, next                           int64
}

// readCpioNewc reads a newc header: 13 fields of 8 hexadecimal digits
// after the magic, the name (its size counts its NUL), each of name and
// data padded to 4 bytes.
func readCpioNewc(s side, off int64) (cpioHeader, error) {
	const size = 110
	var raw [size]byte
	if s.size-off < size {
		return cpioHeader{}, &cpioError{off, "truncated header"}
	}
	if _, err := s.r.ReadAt(raw[:], off); err != nil {
		return cpioHeader{}, readErr(off, err)
	}
	var f [13]int64
	for i := range f {
		n, err := strconv.ParseUint(string(raw[6+8*i:14+8*i]), 16, 32)
		if err != nil {
			return cpioHeader{}, &cpioError{off + 6 + 8*int64(i), fmt.Sprintf("field %q, expected 8 hexadecimal digits", raw[6+8*i:14+8*i])}
		}
		f[i] = int64(n)
	}
	h := cpioHeader{ino: f[0], mode: f[1], uid: f[2], gid: f[3], nlink: f[4], mtime: f[5], size: f[6],
		dev: fmt.Sprintf("%d,%d", f[7], f[8]), rdev: fmt.Sprintf("%d,%d", f[9], f[10])}
	name, err := cpioName(s, off, off+size, f[11])
	if err != nil {
		return cpioHeader{}, err
	}
	h.name = name
	h.dataOff = pad4(off + size + f[11])
	h.next = pad4(h.dataOff + h.size)
	return h, nil
}

// readCpioODC reads an odc header: fields of 6 or 11 octal digits after
// the magic, then the name; nothing is padded.
func readCpioODC(s side, off int64) (cpioHeader, error) {
	const size = 76
	var raw [size]byte
	if s.size-off < size {
		return cpioHeader{}, &cpioError{off, "truncated header"}
	}
	if _, err := s.r.ReadAt(raw[:], off); err != nil {
		return cpioHeader{}, readErr(off, err)
	}
	widths := []int{6, 6, 6, 6, 6, 6, 6, 11, 6, 11} // dev ino mode uid gid nlink rdev mtime namesize filesize
	var f [10]int64
	at := 6
	for i, w := range widths {
		n, err := strconv.ParseUint(string(raw[at:at+w]), 8, 64)
		if err != nil || n > 1<<40 {
			return cpioHeader{}, &cpioError{off + int64(at), fmt.Sprintf("field %q, expected %d octal digits", raw[at:at+w], w)}
		}
		f[i] = int64(n)
		at += w
	}
	h := cpioHeader{dev: strconv.FormatInt(f[0], 10), ino: f[1], mode: f[2], uid: f[3], gid: f[4], nlink: f[5],
		rdev: strconv.FormatInt(f[6], 10), mtime: f[7], size: f[9]}
	name, err := cpioName(s, off, off+size, f[8])
	if err != nil {
		return cpioHeader{}, err
	}
	h.name = name
	h.dataOff = off + size + f[8]
	h.next = h.dataOff + h.size
	return h, nil
}

// maxCpioName bounds an entry's name: PATH_MAX, and then some.
const maxCpioName = 16 << 10

func cpioName(s side, off, at, size int64) (string, error) {
	if size < 1 || size > maxCpioName || size > s.size-at {
		return "", &cpioError{off, fmt.Sprintf("name size %d, expected 1 to %d bytes within the file", size, maxCpioName)}
	}
	name := make([]byte, size)
	if _, err := s.r.ReadAt(name, at); err != nil {
		return "", readErr(at, err)
	}
	if name[size-1] != 0 {
		return "", &cpioError{at, "name without its terminating NUL"}
	}
	return string(name[:size-1]), nil
}

func pad4(n int64) int64 { return (n + 3) &^ 3 }
