package intern

import (
	"fmt"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	var tb Table
	const n = 20000
	for i := range n {
		id, h := tb.Intern(fmt.Sprint("s", i))
		if id != uint32(i) || h != Hash(fmt.Sprint("s", i)) {
			t.Fatalf("intern(s%d) = %d, %x", i, id, h)
		}
	}
	for i := range n {
		s := fmt.Sprint("s", i)
		if id, _ := tb.Intern(s); id != uint32(i) {
			t.Fatalf("intern(%s) again = %d", s, id)
		}
		if id, ok := tb.Lookup(s, Hash(s)); !ok || id != uint32(i) || tb.Get(id) != s {
			t.Fatalf("lookup(%s) = %d, %v", s, id, ok)
		}
	}
	if _, ok := tb.Lookup("absent", Hash("absent")); ok {
		t.Error("lookup found a string never interned")
	}
	long := strings.Repeat("x", 3*maxBlockSize)
	id, _ := tb.Intern(long)
	if tb.Get(id) != long || tb.Get(0) != "s0" {
		t.Error("a string longer than a block is not kept whole")
	}
	if empty, _ := tb.Intern(""); tb.Get(empty) != "" {
		t.Error("the empty string")
	}
}

// A table that splits directories gives back the same strings, compares
// them as strings, and hashes them as Hash does.
func TestSplitDirs(t *testing.T) {
	split, whole := &Table{SplitDirs: true}, &Table{}
	strs := []string{
		"bazel-out/k8-fastbuild/bin/pkg/a.o", "bazel-out/k8-fastbuild/bin/pkg/b.o", "bazel-out/k8-fastbuild/bin/pkg",
		"short/x", "/", "", "noslash", "trailing/slash/dir/", "-frandom-seed=bazel-out/k8/bin/a.o", "a//b/c/d/e/f/g/h",
	}
	var ids, wids []uint32
	for _, s := range strs {
		id, h := split.Intern(s)
		if h != Hash(s) || split.HashOf(id) != Hash(s) {
			t.Errorf("%q: hashes differ", s)
		}
		if split.Get(id) != s || string(split.AppendTo([]byte("x"), id)) != "x"+s {
			t.Errorf("%q comes back as %q", s, split.Get(id))
		}
		if again, _ := split.Intern(s); again != id {
			t.Errorf("%q interned twice: %d, %d", s, id, again)
		}
		if found, ok := split.Lookup(s, Hash(s)); !ok || found != id {
			t.Errorf("%q: Lookup %d %v", s, found, ok)
		}
		w, _ := whole.Intern(s)
		ids, wids = append(ids, id), append(wids, w)
	}
	if _, ok := split.Lookup("bazel-out/k8-fastbuild/bin/pkg/c.o", Hash("bazel-out/k8-fastbuild/bin/pkg/c.o")); ok {
		t.Error("found a string never interned in a known directory")
	}
	for i, a := range strs {
		for j, b := range strs {
			want := strings.Compare(a, b)
			for _, pair := range [][2]*Table{{split, whole}, {whole, split}, {split, split}} {
				ia, ib := ids[i], ids[j]
				if pair[0] == whole {
					ia = wids[i]
				}
				if pair[1] == whole {
					ib = wids[j]
				}
				if got := Compare(pair[0], ia, pair[1], ib); got != want {
					t.Errorf("Compare(%q, %q) = %d, expected %d", a, b, got, want)
				}
				if got := Equal(pair[0], ia, pair[1], ib); got != (want == 0) {
					t.Errorf("Equal(%q, %q) = %v", a, b, got)
				}
			}
		}
	}
}
