package outdiff

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io/fs"
	"testing"
	"time"
)

// entry is one member of an archive a test makes.
type entry struct {
	name       string
	data       string
	mode       int64
	uid, gid   int
	user, grp  string
	mtime      time.Time
	dir        bool
	zipOwnerID bool // write Info-ZIP's "ux" field with uid and gid
	ino        int  // a cpio member's inode, if not its place
}

func (e entry) withTime(t time.Time) entry { e.mtime = t; return e }
func (e entry) withMode(m int64) entry     { e.mode = m; return e }
func (e entry) withData(d string) entry    { e.data = d; return e }
func (e entry) withInode(n int) entry      { e.ino = n; return e }
func (e entry) withOwner(u string, id int) entry {
	e.user, e.grp, e.uid, e.gid = u, u, id, id
	return e
}

func file(name, data string) entry {
	return entry{name: name, data: data, mode: 0o644, user: "root", grp: "root", mtime: time.Unix(0, 0)}
}

func makeTar(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range es {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.gid, Uname: e.user, Gname: e.grp,
			ModTime: e.mtime, Size: int64(len(e.data)), Typeflag: tar.TypeReg, Format: tar.FormatGNU}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeZip(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.Modified = e.mtime
		h.SetMode(fs.FileMode(e.mode) & fs.ModePerm)
		if e.zipOwnerID {
			ux := []byte{0x75, 0x78, 11, 0, 1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0}
			binary.LittleEndian.PutUint32(ux[6:], uint32(e.uid))
			binary.LittleEndian.PutUint32(ux[11:], uint32(e.gid))
			h.Extra = ux
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeGzip(t testing.TB, name string, mtime time.Time, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Name, zw.ModTime = name, mtime
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeAr writes a System V / GNU ar archive as ar(1) does, with the long
// names in a "//" member.
func makeAr(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(arMagic)
	var long bytes.Buffer
	names := make([]string, len(es))
	for i, e := range es {
		if len(e.name) > 15 {
			names[i] = fmt.Sprintf("/%d", long.Len())
			long.WriteString(e.name + "/\n")
		} else {
			names[i] = e.name + "/"
		}
	}
	header := func(name string, mtime int64, uid, gid int, mode int64, size int) {
		fmt.Fprintf(&buf, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", name, mtime, uid, gid, mode, size)
	}
	if long.Len() > 0 {
		header("//", 0, 0, 0, 0, long.Len())
		buf.Write(long.Bytes())
		if long.Len()%2 == 1 {
			buf.WriteByte('\n')
		}
	}
	for i, e := range es {
		header(names[i], e.mtime.Unix(), e.uid, e.gid, 0o100000|e.mode, len(e.data))
		buf.WriteString(e.data)
		if len(e.data)%2 == 1 {
			buf.WriteByte('\n')
		}
	}
	return buf.Bytes()
}

// makeCpio writes a newc cpio archive as cpio -H newc does.
func makeCpio(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	pad := func() {
		for buf.Len()%4 != 0 {
			buf.WriteByte(0)
		}
	}
	write := func(ino int, e entry) {
		fmt.Fprintf(&buf, "%s%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
			cpioNewc, ino, 0o100000|e.mode, e.uid, e.gid, 1, e.mtime.Unix(), len(e.data), 8, 1, 0, 0, len(e.name)+1, 0)
		buf.WriteString(e.name)
		buf.WriteByte(0)
		pad()
		buf.WriteString(e.data)
		pad()
	}
	for i, e := range es {
		write(cmp.Or(e.ino, 1000+i), e)
	}
	write(0, entry{name: cpioTrailer, mtime: epoch0})
	return buf.Bytes()
}

var epoch0 = time.Unix(0, 0)

func TestArchives(t *testing.T) {
	b1, b2 := testBuilds()
	in1, in2 := b1.Start.Add(2*time.Second), b2.Start.Add(3*time.Second)
	a, b, c := file("data/a.txt", "alpha\n"), file("data/b.txt", "beta\n"), file("data/c.txt", "gamma\n")
	tests := []struct {
		name     string
		old, new func(testing.TB) []byte
		format   Format
		class    Class
		at, what string // of the first difference
	}{
		{"tar_mtime",
			func(t testing.TB) []byte { return makeTar(t, a.withTime(in1), b.withTime(in1)) },
			func(t testing.TB) []byte { return makeTar(t, a.withTime(in2), b.withTime(in2)) },
			Tar, Time, "member data/a.txt", "mtime"},
		{"tar_owner",
			func(t testing.TB) []byte { return makeTar(t, a, b) },
			func(t testing.TB) []byte { return makeTar(t, a.withOwner("builder", 998), b.withOwner("builder", 998)) },
			Tar, User, "member data/a.txt", "uid"},
		{"tar_mode",
			func(t testing.TB) []byte { return makeTar(t, a, b) },
			func(t testing.TB) []byte { return makeTar(t, a.withMode(0o664), b) },
			Tar, Permissions, "member data/a.txt", "mode"},
		{"tar_order",
			func(t testing.TB) []byte { return makeTar(t, a, b, c) },
			func(t testing.TB) []byte { return makeTar(t, c, a, b) },
			Tar, Order, "members", "order"},
		{"tar_contents",
			func(t testing.TB) []byte { return makeTar(t, a, b.withData(fmt.Sprintf("built %d\n", in1.Unix()))) },
			func(t testing.TB) []byte { return makeTar(t, a, b.withData(fmt.Sprintf("built %d\n", in2.Unix()))) },
			Tar, Time, "member data/b.txt", "contents"},
		{"tar_member_only_in_new",
			func(t testing.TB) []byte { return makeTar(t, a) },
			func(t testing.TB) []byte { return makeTar(t, a, b) },
			Tar, Unclassified, "member data/b.txt", "only in build 2"},
		{"tar_time_before_order",
			func(t testing.TB) []byte { return makeTar(t, a.withTime(in1), b.withTime(in1)) },
			func(t testing.TB) []byte { return makeTar(t, b.withTime(in2), a.withTime(in2)) },
			Tar, Time, "members", "order"},
		{"zip_dos_time",
			func(t testing.TB) []byte { return makeZip(t, a.withTime(in1), b.withTime(in1)) },
			func(t testing.TB) []byte { return makeZip(t, a.withTime(in2), b.withTime(in2)) },
			Zip, Time, "member data/a.txt", "DOS mtime"},
		{"zip_order",
			func(t testing.TB) []byte { return makeZip(t, a, b, c) },
			func(t testing.TB) []byte { return makeZip(t, b, c, a) },
			Zip, Order, "members", "order"},
		{"zip_owner",
			func(t testing.TB) []byte { a := a; a.zipOwnerID = true; return makeZip(t, a) },
			func(t testing.TB) []byte { a := a.withOwner("builder", 998); a.zipOwnerID = true; return makeZip(t, a) },
			Zip, User, "member data/a.txt", "uid"},
		{"gzip_mtime",
			func(t testing.TB) []byte { return makeGzip(t, "", in1, []byte("alpha\n")) },
			func(t testing.TB) []byte { return makeGzip(t, "", in2, []byte("alpha\n")) },
			Gzip, Time, "gzip member 1", "mtime"},
		{"gzip_of_tar_in_another_order",
			func(t testing.TB) []byte { return makeGzip(t, "", epoch0, makeTar(t, a, b, c)) },
			func(t testing.TB) []byte { return makeGzip(t, "", epoch0, makeTar(t, b, a, c)) },
			Gzip, Order, "gzip member 1", "contents"},
		{"gzip_level",
			func(t testing.TB) []byte { return gzipLevel(t, gzip.BestSpeed) },
			func(t testing.TB) []byte { return gzipLevel(t, gzip.BestCompression) },
			Gzip, Unclassified, "compressed data", "contents"},
		{"ar_mtime",
			func(t testing.TB) []byte { return makeAr(t, file("a.o", "obj a"), file("b.o", "obj b").withTime(in1)) },
			func(t testing.TB) []byte { return makeAr(t, file("a.o", "obj a"), file("b.o", "obj b").withTime(in2)) },
			Ar, Time, "member b.o", "mtime"},
		{"ar_owner_long_name",
			func(t testing.TB) []byte { return makeAr(t, file("a_rather_long_name.o", "obj a")) },
			func(t testing.TB) []byte {
				return makeAr(t, file("a_rather_long_name.o", "obj a").withOwner("builder", 998))
			},
			Ar, User, "member a_rather_long_name.o", "uid"},
		{"cpio_mtime",
			func(t testing.TB) []byte { return makeCpio(t, a.withTime(in1), b.withTime(in1)) },
			func(t testing.TB) []byte { return makeCpio(t, a.withTime(in2), b.withTime(in2)) },
			Cpio, Time, "member data/a.txt", "mtime"},
		{"cpio_inode", // a number of the file system, not a random one
			func(t testing.TB) []byte { return makeCpio(t, a.withInode(9978723)) },
			func(t testing.TB) []byte { return makeCpio(t, a.withInode(9552)) },
			Cpio, Unclassified, "member data/a.txt", "inode"},
		{"cpio_order",
			func(t testing.TB) []byte { return makeCpio(t, a, b) },
			func(t testing.TB) []byte { return makeCpio(t, b, a) },
			Cpio, Order, "members", "order"},
		{"format_changed",
			func(t testing.TB) []byte { return makeTar(t, a) },
			func(t testing.TB) []byte { return makeZip(t, a) },
			Binary, Unclassified, "file", "format"},
	}
	d := New(b1, b2, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diag := d.Diagnose("out", Bytes(tc.old(t)), Bytes(tc.new(t)))
			if diag.Format != tc.format || diag.Class != tc.class {
				t.Errorf("format %s, class %s; want %s, %s\n%s", diag.Format, diag.Class, tc.format, tc.class, dump(diag))
			}
			if len(diag.Differences) == 0 {
				t.Fatalf("no difference\n%s", dump(diag))
			}
			if first := diag.Differences[0]; first.At != tc.at || first.What != tc.what {
				t.Errorf("first difference at %q, %q; want %q, %q\n%s", first.At, first.What, tc.at, tc.what, dump(diag))
			}
			if diag.Partial != "" {
				t.Errorf("partial: %s", diag.Partial)
			}
		})
	}
}

func gzipLevel(t testing.TB, level int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		fmt.Fprintf(zw, "line %d of a file that compresses, more or less well: %d\n", i, i*i%97)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
