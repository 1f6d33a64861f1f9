package spawndiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/spawn"
)

func TestDigestKey(t *testing.T) {
	sha := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	key := func(f spawn.File) string { return string(digestKey(nil, f)) }
	file := func(hash string, size int64) spawn.File {
		return spawn.File{Digest: spawn.Digest{Hash: hash, Size: size}}
	}
	for _, tc := range []struct {
		name string
		f    spawn.File
		kind byte
		back Content
	}{
		{"sha-256 keeps 128 bits", file(sha, 4), 0, Content{Digest: spawn.Digest{Hash: sha[:32], Size: 4}}},
		{"a short hash is kept whole", file("abc", 3), 2, Content{Digest: spawn.Digest{Hash: "abc", Size: 3}}},
		{"no digest", file("", 0), 2, Content{}},
		{"not hex", file(strings.Repeat("z", 64), 1), 2, Content{Digest: spawn.Digest{Hash: strings.Repeat("z", 64), Size: 1}}},
		{"a symlink is its target", spawn.File{SymlinkTarget: "../x"}, 1, Content{SymlinkTarget: "../x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := key(tc.f)
			if k[0] != tc.kind {
				t.Errorf("kind %d, expected %d", k[0], tc.kind)
			}
			if got := parseDigestKey(k); got != tc.back {
				t.Errorf("parses back as %+v, expected %+v", got, tc.back)
			}
		})
	}
	if key(file(sha, 4)) == key(file(sha, 5)) {
		t.Error("the size is not part of the key")
	}
	if key(file(sha, 4)) != key(file(strings.ToUpper(sha), 4)) {
		t.Error("upper- and lower-case hex differ")
	}
	if key(file("abc", 3)) == key(spawn.File{SymlinkTarget: "abc"}) {
		t.Error("a symlink and a file share a key")
	}
}

func TestTable(t *testing.T) {
	var tb table
	const n = 20000
	for i := range n {
		id, h := tb.intern(fmt.Sprint("s", i))
		if id != uint32(i) || h != hashString(fmt.Sprint("s", i)) {
			t.Fatalf("intern(s%d) = %d, %x", i, id, h)
		}
	}
	for i := range n {
		s := fmt.Sprint("s", i)
		if id, _ := tb.intern(s); id != uint32(i) {
			t.Fatalf("intern(%s) again = %d", s, id)
		}
		if id, ok := tb.lookup(s, hashString(s)); !ok || id != uint32(i) || tb.get(id) != s {
			t.Fatalf("lookup(%s) = %d, %v", s, id, ok)
		}
	}
	if _, ok := tb.lookup("absent", hashString("absent")); ok {
		t.Error("lookup found a string never interned")
	}
	long := strings.Repeat("x", 3*maxBlockSize)
	id, _ := tb.intern(long)
	if tb.get(id) != long || tb.get(0) != "s0" {
		t.Error("a string longer than a block is not kept whole")
	}
	if empty, _ := tb.intern(""); tb.get(empty) != "" {
		t.Error("the empty string")
	}
}
