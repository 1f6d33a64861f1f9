package spawn

import (
	"reflect"
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
