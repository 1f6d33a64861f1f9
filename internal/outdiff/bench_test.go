package outdiff

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The benchmarks diagnose outputs of the sizes real builds have: a tar of
// a thousand 10 KiB members whose times differ, a jar-sized zip in another
// member order, a 100,000-line text with one line changed near its end,
// and an ls -l listing of 10,000 files each of whose lines differs in its
// time, or in its mode, owners and time (three parts, each classified).
func BenchmarkDiagnose(b *testing.B) {
	b1, b2 := testBuilds()
	member := strings.Repeat("x", 10<<10)
	var tarOld, tarNew, zipOld, zipNew []entry
	for i := range 1000 {
		e := file(fmt.Sprintf("pkg/%04d.txt", i), member)
		tarOld = append(tarOld, e.withTime(b1.Start))
		tarNew = append(tarNew, e.withTime(b2.Start.Add(time.Second)))
		zipOld = append(zipOld, e)
		zipNew = append([]entry{e}, zipNew...)
	}
	var text strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&text, "line %d of a generated source file\n", i)
	}
	textOld := text.String()
	textNew := strings.Replace(textOld, "line 99990 of", fmt.Sprintf("line %d of", b2.Start.Unix()), 1)
	var lsOld, lsTime, lsNew strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&lsOld, "-rw-r--r-- 1 root root %d Dec  1 12:00 pkg/%04d.txt\n", i, i)
		fmt.Fprintf(&lsTime, "-rw-r--r-- 1 root root %d Dec  1 12:02 pkg/%04d.txt\n", i, i)
		fmt.Fprintf(&lsNew, "-rw-rw-r-- 1 builder builder %d Dec  1 12:02 pkg/%04d.txt\n", i, i)
	}
	for _, bc := range []struct {
		name     string
		old, new []byte
		class    Class
	}{
		{"tar_1000_members_10KiB", makeTar(b, tarOld...), makeTar(b, tarNew...), Time},
		{"zip_1000_members_another_order", makeZip(b, zipOld...), makeZip(b, zipNew...), Order},
		{"text_100000_lines", []byte(textOld), []byte(textNew), Time},
		{"ls_10000_lines_times_differ", []byte(lsOld.String()), []byte(lsTime.String()), Time},
		{"ls_10000_lines_all_differ", []byte(lsOld.String()), []byte(lsNew.String()), User},
	} {
		b.Run(bc.name, func(b *testing.B) {
			d := New(b1, b2, Options{})
			b.SetBytes(int64(len(bc.old) + len(bc.new)))
			b.ReportAllocs()
			for b.Loop() {
				if diag := d.Diagnose("out", Bytes(bc.old), Bytes(bc.new)); diag.Class != bc.class {
					b.Fatalf("class %s, want %s", diag.Class, bc.class)
				}
			}
		})
	}
}
