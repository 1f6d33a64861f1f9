package outdiff

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
)

// readTar reads a tar archive's members with archive/tar.
func readTar(s side, b *budget) ([]member, error) {
	tr := tar.NewReader(io.NewSectionReader(s.r, 0, s.size))
	var ms []member
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return ms, nil
		}
		if err != nil {
			return nil, fmt.Errorf("tar member %d: %w", len(ms)+1, err)
		}
		if err := b.spendMember(); err != nil {
			return nil, err
		}
		m := member{name: h.Name}
		m.add(field{name: "type", value: tarType(h.Typeflag), class: Unclassified})
		m.add(modeField("mode", fs.FileMode(h.Mode&0o7777)))
		m.add(numField("uid", int64(h.Uid), User))
		m.add(numField("gid", int64(h.Gid), User))
		m.add(field{name: "owner", value: h.Uname, class: User})
		m.add(field{name: "group", value: h.Gname, class: User})
		m.add(timeField("mtime", h.ModTime))
		if !h.AccessTime.IsZero() {
			m.add(timeField("atime", h.AccessTime))
		}
		if !h.ChangeTime.IsZero() {
			m.add(timeField("ctime", h.ChangeTime))
		}
		if h.Linkname != "" {
			m.add(field{name: "link", value: h.Linkname, class: None})
		}
		if h.Typeflag == tar.TypeChar || h.Typeflag == tar.TypeBlock {
			m.add(field{name: "device", value: fmt.Sprintf("%d,%d", h.Devmajor, h.Devminor), class: Unclassified})
		}
		for _, k := range sortedKeys(h.PAXRecords) {
			if k == "mtime" || k == "atime" || k == "ctime" || k == "path" || k == "linkpath" || k == "uid" || k == "gid" ||
				k == "uname" || k == "gname" || k == "size" {
				continue // the fields above
			}
			m.add(field{name: "PAX " + k, value: h.PAXRecords[k], class: paxClass(k)})
		}
		if m.data, err = b.readAll(tr); err != nil {
			return nil, fmt.Errorf("tar member %d (%s): %w", len(ms)+1, h.Name, err)
		}
		ms = append(ms, m)
	}
}

// paxClass is what a PAX record's difference is: a time, or what its
// value names (a path, an owner's name).
func paxClass(key string) Class {
	if strings.HasSuffix(key, "time") {
		return Time
	}
	return None
}

func tarType(flag byte) string {
	switch flag {
	case tar.TypeReg, 0: // 0 is the old form of TypeReg
		return "file"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeSymlink:
		return "symlink"
	case tar.TypeChar:
		return "character device"
	case tar.TypeBlock:
		return "block device"
	case tar.TypeDir:
		return "directory"
	case tar.TypeFifo:
		return "fifo"
	}
	return "type " + strconv.Quote(string(rune(flag)))
}

// parseOctal reads a tar header's octal number, NUL- or space-terminated.
func parseOctal(b []byte) (int64, bool) {
	s := strings.Trim(string(b), " \x00")
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 8, 64)
	return n, err == nil
}
