package outdiff

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// readGzip reads the members of a gzip file (usually one), each with its
// header's fields and its decompressed contents.
func readGzip(s side, b *budget) ([]member, error) {
	br := bufio.NewReader(io.NewSectionReader(s.r, 0, s.size))
	z, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	var ms []member
	for {
		if err := b.spendMember(); err != nil {
			return nil, err
		}
		z.Multistream(false)
		m := member{name: strconv.Itoa(len(ms) + 1)}
		m.add(field{name: "name", value: z.Name, class: None})
		if z.Comment != "" {
			m.add(field{name: "comment", value: z.Comment, class: None})
		}
		if z.ModTime.IsZero() {
			m.add(field{name: "mtime", value: "none", class: Time})
		} else {
			m.add(timeField("mtime", z.ModTime))
		}
		m.add(field{name: "OS", value: strconv.Itoa(int(z.OS)), class: Unclassified})
		if len(z.Extra) > 0 {
			m.add(field{name: "extra", value: fmt.Sprintf("% x", z.Extra), class: None})
		}
		if m.data, err = b.readAll(z); err != nil {
			return nil, fmt.Errorf("gzip member %d: %w", len(ms)+1, err)
		}
		ms = append(ms, m)
		if err := z.Reset(br); err != nil {
			if errors.Is(err, io.EOF) {
				return ms, nil
			}
			return nil, fmt.Errorf("gzip member %d: %w", len(ms)+1, err)
		}
	}
}

// diffGzip compares two gzip files member by member: header, then
// contents, diagnosed as what they are (a tar, say). When both are the
// same, the compressed bytes differ: another compressor or level.
func (r *run) diffGzip(c *collector, name string, s [2]side, depth int) error {
	var ms [2][]member
	for i := range s {
		var err error
		if ms[i], err = readGzip(s[i], r.budget[i]); err != nil {
			return fmt.Errorf("build %d's: %w", i+1, err)
		}
		for j := range ms[i] {
			ms[i][j].sum = sha256.Sum256(ms[i][j].data)
		}
	}
	if len(ms[0]) != len(ms[1]) {
		c.add(Difference{At: "members", What: "count", Old: strconv.Itoa(len(ms[0])), New: strconv.Itoa(len(ms[1])), Class: Unclassified})
	}
	before := len(c.diag.Differences) + c.diag.More
	for i := range min(len(ms[0]), len(ms[1])) {
		a, b := &ms[0][i], &ms[1][i]
		at := "gzip member " + a.name
		a.name = uncompressedName(name) // what the contents are read as
		r.diffMember(c, at, a, b, depth)
	}
	if len(c.diag.Differences)+c.diag.More == before && len(ms[0]) == len(ms[1]) {
		c.add(Difference{At: "compressed data", What: "contents", Class: Unclassified,
			Why: "the same headers and contents, compressed differently (another gzip, or level)"})
	}
	return nil
}

// uncompressedName is the name of a gzip file's contents: x.tar for
// x.tar.gz and x.tgz.
func uncompressedName(name string) string {
	if t, ok := strings.CutSuffix(name, ".tgz"); ok {
		return t + ".tar"
	}
	return strings.TrimSuffix(name, ".gz")
}
