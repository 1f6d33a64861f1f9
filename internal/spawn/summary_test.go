package spawn

import (
	"slices"
	"testing"
)

// Two logs' tables give one spawn the same hashes, whatever the order of
// its environment and files; an argument's order matters.
func TestSummaryHashesCompareAcrossLogs(t *testing.T) {
	s := &Spawn{
		Mnemonic: "Compile", Target: "//a:b",
		Args:        []string{"cc", "-c", "a.c"},
		Env:         []EnvVar{{"PATH", "/bin"}, {"LANG", "C"}},
		Outputs:     []string{"a.o"},
		OutputFiles: []File{{Path: "a.o", Digest: Digest{Hash: "ab", Size: 2}}},
		Inputs:      []File{{Path: "a.c", Digest: Digest{Hash: "cd", Size: 1}}, {Path: "a.h", SymlinkTarget: "b.h"}},
	}
	reordered := s.Clone()
	slices.Reverse(reordered.Env)
	slices.Reverse(reordered.Inputs)
	swapped := s.Clone()
	swapped.Args[1], swapped.Args[2] = swapped.Args[2], swapped.Args[1]

	var a, b, c Summary
	t1 := NewTables()
	t1.Str("something else first") // ids differ between the tables
	t1.Summarize(s, &a)
	NewTables().Summarize(reordered, &b)
	NewTables().Summarize(swapped, &c)
	if a.ArgsHash != b.ArgsHash || a.EnvHash != b.EnvHash || a.OutputsHash != b.OutputsHash || a.InputsHash != b.InputsHash {
		t.Errorf("the hashes of one spawn differ between two logs:\n%+v\n%+v", a, b)
	}
	if a.ArgsHash == c.ArgsHash {
		t.Error("swapping two arguments leaves the hash of the arguments alone")
	}
	if got := t1.Strings.Get(a.Env[0].Name); got != "LANG" {
		t.Errorf("environment starts with %q, want it sorted by name", got)
	}
	// A file's content key decodes back to its digest.
	if d, _ := ParseContentKey(t1.Contents.Get(a.OutputFiles[0].Content)); d != (Digest{Hash: "ab", Size: 2}) {
		t.Errorf("output digest %+v", d)
	}
}
