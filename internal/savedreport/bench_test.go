package savedreport_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/report"
	"github.com/ahab-go/ahab/internal/savedreport"
)

// BenchmarkRead reads reports of 100k and 1M distinct findings, the
// size of a big monorepo's baseline, from a file as ahab merge and
// --expect-json do; bytes/s is the report's size.
func BenchmarkRead(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "report.json")
			set := finding.NewSet()
			for i := range n {
				set.Add(finding.Finding{Kind: finding.AbsolutePath,
					Action: finding.ActionRef{Mnemonic: "CppCompile", Target: "//src/area_" + strconv.Itoa(i%37) + "/pkg_" + strconv.Itoa(i) + ":lib"},
					Path:   "/opt/vendor/include", Site: finding.Site{Location: finding.Argument, Value: "-isystem/opt/vendor/include"}}, 1+i%3)
			}
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := report.WriteJSON(f, set.Ordered(), mode.Ahab02); err != nil {
				b.Fatal(err)
			}
			info, _ := f.Stat()
			f.Close()
			set = nil
			b.SetBytes(info.Size())
			b.ReportAllocs()
			for b.Loop() {
				got, err := savedreport.ReadFile(path)
				if err != nil || got.Findings.Len() != n {
					b.Fatalf("%v, %d findings", err, got.Findings.Len())
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "findings/s")
		})
	}
}
