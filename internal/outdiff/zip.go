package outdiff

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// readZip reads a zip (or jar) archive's members with archive/zip, each
// with the times, owners and modes its header and extra fields record.
func readZip(s side, b *budget) ([]member, error) {
	zr, err := zip.NewReader(s.r, s.size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, err
	}
	var ms []member
	if zr.Comment != "" {
		ms = append(ms, member{name: "(archive comment)", data: []byte(zr.Comment)})
	}
	for i, f := range zr.File {
		if err := b.spendMember(); err != nil {
			return nil, err
		}
		m := member{name: f.Name}
		m.add(field{name: "method", value: zipMethod(f.Method), class: Unclassified})
		m.add(dosTimeField(f.ModifiedDate, f.ModifiedTime))
		if f.CreatorVersion>>8 == 3 { // made on Unix: the external attributes hold a mode
			m.add(modeField("mode", f.Mode().Perm()))
		}
		if f.Comment != "" {
			m.add(field{name: "comment", value: f.Comment, class: None})
		}
		zipExtra(&m, f.Extra)
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("zip member %d (%s): %w", i+1, f.Name, err)
		}
		m.data, err = b.readAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("zip member %d (%s): %w", i+1, f.Name, err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

func zipMethod(m uint16) string {
	switch m {
	case zip.Store:
		return "stored"
	case zip.Deflate:
		return "deflated"
	}
	return fmt.Sprintf("method %d", m)
}

// dosTimeField is a member's MS-DOS time: local time, to two seconds, with
// no zone; read here as UTC.
func dosTimeField(date, clock uint16) field {
	t := time.Date(int(date>>9)+1980, time.Month(date>>5&0xf), int(date&0x1f),
		int(clock>>11), int(clock>>5&0x3f), int(clock&0x1f)*2, 0, time.UTC)
	return field{name: "DOS mtime", value: t.Format("2006-01-02 15:04:05"), class: Time, t: t}
}

// The extra fields zip writers put times and owners in.
const (
	zipExtendedTime = 0x5455 // "UT": flags, then mtime, atime, ctime as needed
	zipUnixOld      = 0x5855 // "UX": atime, mtime, then perhaps uid, gid
	zipUnixNew      = 0x7875 // "ux": version, then sized uid and gid
)

// zipExtra adds the fields of a member's extra data: times and owners
// where their ids say so, any other field as it is.
func zipExtra(m *member, extra []byte) {
	seen := map[uint16]int{}
	for len(extra) >= 4 {
		id, size := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if size > len(extra)-4 {
			m.add(field{name: "extra data", value: fmt.Sprintf("% x", extra), class: None})
			return
		}
		data := extra[4 : 4+size]
		extra = extra[4+size:]
		seen[id]++
		if seen[id] > 1 {
			continue
		}
		switch {
		case id == zipExtendedTime && size >= 5 && data[0]&1 != 0:
			m.add(timeField("mtime (extended)", time.Unix(int64(int32(binary.LittleEndian.Uint32(data[1:]))), 0)))
			continue
		case id == zipUnixOld && size >= 8:
			m.add(timeField("atime (UX)", time.Unix(int64(int32(binary.LittleEndian.Uint32(data))), 0)))
			m.add(timeField("mtime (UX)", time.Unix(int64(int32(binary.LittleEndian.Uint32(data[4:]))), 0)))
			if size >= 12 {
				m.add(numField("uid", int64(binary.LittleEndian.Uint16(data[8:])), User))
				m.add(numField("gid", int64(binary.LittleEndian.Uint16(data[10:])), User))
			}
			continue
		case id == zipUnixNew && size >= 3:
			if uid, gid, ok := zipOwners(data); ok {
				m.add(numField("uid", uid, User))
				m.add(numField("gid", gid, User))
				continue
			}
		}
		m.add(field{name: fmt.Sprintf("extra field 0x%04x", id), value: fmt.Sprintf("% x", data), class: None})
	}
}

// zipOwners reads Info-ZIP's "ux" field: a version, then the uid and the
// gid, each after its size in bytes.
func zipOwners(data []byte) (uid, gid int64, ok bool) {
	data = data[1:]
	read := func() (int64, bool) {
		if len(data) < 1 || int(data[0]) > len(data)-1 || data[0] > 8 {
			return 0, false
		}
		n, v := int(data[0]), int64(0)
		for i := n; i >= 1; i-- {
			v = v<<8 | int64(data[i])
		}
		data = data[1+n:]
		return v, true
	}
	if uid, ok = read(); !ok {
		return 0, 0, false
	}
	gid, ok = read()
	return uid, gid, ok
}
