package spawn

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// Clone copies every string, so that a spawn whose strings share a
// reader's buffer survives the buffer's reuse.
func TestCloneOwnsItsMemory(t *testing.T) {
	buf := []byte("M//t:targv0NAMEvaluein/pathhashout/pathOUTlinkrunnerstatus")
	view := func(i, j int) string { return unsafe.String(&buf[i], j-i) }
	s := &Spawn{
		Mnemonic: view(0, 1), Target: view(1, 6), Args: []string{view(6, 11)},
		Env:         []EnvVar{{Name: view(11, 15), Value: view(15, 20)}},
		Inputs:      []File{{Path: view(20, 27), Digest: Digest{Hash: view(27, 31), Size: 3}, Tool: true}},
		Outputs:     []string{view(31, 39)},
		OutputFiles: []File{{Path: view(31, 39), SymlinkTarget: view(39, 46)}},
		Runner:      view(46, 52), Status: view(52, 58), ExitCode: 2, CacheHit: true,
	}
	c := s.Clone()
	want := &Spawn{
		Mnemonic: "M", Target: "//t:t", Args: []string{"argv0"},
		Env:         []EnvVar{{Name: "NAME", Value: "value"}},
		Inputs:      []File{{Path: "in/path", Digest: Digest{Hash: "hash", Size: 3}, Tool: true}},
		Outputs:     []string{"out/path"},
		OutputFiles: []File{{Path: "out/path", SymlinkTarget: "OUTlink"}},
		Runner:      "runner", Status: "status", ExitCode: 2, CacheHit: true,
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("clone %+v", c)
	}
	for i := range buf {
		buf[i] = 'x'
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("the clone changed with the buffer: %+v", c)
	}
	if (&Spawn{Args: []string{}}).Clone().Args != nil {
		t.Error("an empty list clones to a non-nil one")
	}
}

func TestContentKey(t *testing.T) {
	sha := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	file := func(hash string, size int64) File { return File{Digest: Digest{Hash: hash, Size: size}} }
	for _, tc := range []struct {
		name string
		f    File
		kind byte
		len  int
	}{
		{"lowercase hex is kept as its bytes", file(sha, 4), 0, 1 + 1 + 32},
		{"uppercase hex is kept as text", file("ABCD", 3), 2, 1 + 1 + 4},
		{"odd hex is kept as text", file("abc", 3), 2, 1 + 1 + 3},
		{"no digest", file("", 0), 2, 2},
		{"not hex", file("zz", 1), 2, 4},
		{"a symlink is its target", File{SymlinkTarget: "../x"}, 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := string(AppendContentKey(nil, tc.f))
			if k[0] != tc.kind || len(k) != tc.len {
				t.Errorf("key %q, expected kind %d and %d bytes", k, tc.kind, tc.len)
			}
			d, target := ParseContentKey(k)
			if d != tc.f.Digest || target != tc.f.SymlinkTarget {
				t.Errorf("parses back as %+v %q", d, target)
			}
		})
	}
	key := func(f File) string { return string(AppendContentKey(nil, f)) }
	if key(file(sha, 4)) == key(file(sha, 5)) {
		t.Error("the size is not part of the key")
	}
	if key(file("ab", 1)) == key(File{SymlinkTarget: "ab"}) {
		t.Error("a symlink and a file share a key")
	}
}

// ContentKeyIs agrees with comparing keys.
func TestContentKeyIs(t *testing.T) {
	sha := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	files := []File{
		{Digest: Digest{Hash: sha, Size: 4}}, {Digest: Digest{Hash: sha, Size: 5}},
		{Digest: Digest{Hash: sha[:62] + "09", Size: 4}}, {Digest: Digest{Hash: strings.ToUpper(sha), Size: 4}},
		{Digest: Digest{Hash: "abc", Size: 3}}, {Digest: Digest{Hash: "ab", Size: 3}}, {},
		{SymlinkTarget: "x"}, {SymlinkTarget: "y"}, {Digest: Digest{Hash: "\x01x"}},
	}
	for _, a := range files {
		k := string(AppendContentKey(nil, a))
		for _, b := range files {
			if got, want := ContentKeyIs(k, b), k == string(AppendContentKey(nil, b)); got != want {
				t.Errorf("ContentKeyIs(key of %+v, %+v) = %v", a, b, got)
			}
		}
	}
}
