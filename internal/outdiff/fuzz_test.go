package outdiff

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// maxFuzzInput bounds a fuzz input: an archive's structure shows in a few
// hundred bytes (docs/fuzzing.md).
const maxFuzzInput = 4 << 10

func fuzzBudget() *budget {
	return newBudget(Options{MaxRead: 1 << 20, MaxExpand: 1 << 20, MaxMembers: 1000}.withDefaults())
}

func fuzzSide(data []byte) side {
	return side{r: &limitedReaderAt{r: Bytes(data).R, b: fuzzBudget()}, size: int64(len(data))}
}

// FuzzReadAr: no input makes the ar reader panic or loop; what it reads
// lies within the input, and a bad archive is an *arError or a budget.
func FuzzReadAr(f *testing.F) {
	f.Add(makeAr(f, file("a.o", "obj"), file("a_long_member_name.o", "obj b")))
	f.Add([]byte(arMagic + "#1/8            0           0     0     100644  12        `\nname.txtdata"))
	f.Add([]byte(arMagic + "/               0           0     0     0       4         `\n\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		ms, err := readAr(fuzzSide(data), fuzzBudget())
		checkMembers(t, data, ms, err)
	})
}

// FuzzReadCpio: likewise for the cpio reader.
func FuzzReadCpio(f *testing.F) {
	f.Add(makeCpio(f, file("a", "alpha"), file("dir/b", "beta")))
	f.Add([]byte(cpioODC + "000000000001100644000000000000000001000000000000000000000000500000000005a\x00hello"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		ms, err := readCpio(fuzzSide(data), fuzzBudget())
		checkMembers(t, data, ms, err)
	})
}

func checkMembers(t *testing.T, data []byte, ms []member, err error) {
	if err != nil {
		var ae *arError
		var ce *cpioError
		if !errors.As(err, &ae) && !errors.As(err, &ce) && !errors.Is(err, errBudget) && err.Error() == "" {
			t.Fatalf("error %v (%T)", err, err)
		}
		return
	}
	total := 0
	for _, m := range ms {
		total += len(m.data)
	}
	if total > len(data) {
		t.Fatalf("%d bytes of members from %d of input", total, len(data))
	}
}

// FuzzDiagnose: no pair of inputs makes Diagnose panic or run away,
// whatever format they look like; the classes it gives are consistent.
func FuzzDiagnose(f *testing.F) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a, b := file("a.txt", "alpha\n"), file("b.txt", "beta\n")
	seeds := [][2][]byte{
		{[]byte("a\nb\n"), []byte("b\na\n")},
		{makeTar(f, a, b), makeTar(f, b, a.withTime(start))},
		{makeZip(f, a, b), makeZip(f, a.withTime(start), b)},
		{makeGzip(f, "x", start, []byte("x")), makeGzip(f, "x", start.Add(time.Minute), []byte("y"))},
		{makeAr(f, a), makeAr(f, a.withOwner("u", 9))},
		{makeCpio(f, a, b), makeCpio(f, b, a)},
		{[]byte("\x7fELF\x02\x01\x01\x00"), []byte("\x7fELF\x02\x01\x01\x01")},
		{[]byte{0, 1, 2, 3, 4, 5}, []byte{0, 1, 2, 9, 4}},
		{[]byte("-rw-r--r-- 1 root root 6 Dec  1 12:00 a\n"), []byte("-rw-rw-r-- 1 builder builder 6 Dec  1 12:02 a\n")},
		{[]byte("1.0+20261201120005 0644 salt=15475\n"), []byte("1.0+20261201120207 0664 salt=8804\n")},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	b1, b2 := testBuilds()
	d := New(b1, b2, Options{MaxRead: 1 << 20, MaxExpand: 1 << 20, MaxMembers: 1000})
	f.Fuzz(func(t *testing.T, old, new []byte) {
		if len(old) > maxFuzzInput || len(new) > maxFuzzInput {
			return
		}
		diag := d.Diagnose("out.tar", Bytes(old), Bytes(new))
		checkDiagnosis(t, diag)
	})
}

func checkDiagnosis(t *testing.T, diag *Diagnosis) {
	t.Helper()
	if len(diag.Differences) == 0 && diag.More > 0 {
		t.Fatalf("%d more differences, none listed", diag.More)
	}
	if (diag.Class == None) != (len(diag.Classes) == 0) || diag.Class != None && !slices.Contains(diag.Classes, diag.Class) {
		t.Fatalf("class %s, classes %v", diag.Class, diag.Classes)
	}
	for _, d := range diag.Differences {
		if d.Class == None || d.Class >= numClasses {
			t.Fatalf("difference %+v without a class", d)
		}
		if d.Inside != nil {
			checkDiagnosis(t, d.Inside)
		}
	}
}
