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
