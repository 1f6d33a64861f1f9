package outdiff_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/outdiff"
)

// impliedClass is the class each cause of testdata/builds' truth tables
// implies for the bytes of the output: what the bytes should name.
var impliedClass = map[string]outdiff.Class{
	"clock":           outdiff.Time,
	"mtime":           outdiff.Time,
	"stamp":           outdiff.Time, // BUILD_TIMESTAMP
	"timezone":        outdiff.Time, // the same instant, written in another zone
	"pwd":             outdiff.BuildPath,
	"debug-path":      outdiff.BuildPath,
	"checkout-path":   outdiff.BuildPath,
	"path-in-command": outdiff.BuildPath,
	"fs-order":        outdiff.Order,
	"hash-seed":       outdiff.Order,
	"parallel":        outdiff.Order,
	"umask":           outdiff.Permissions,
	"hostname":        outdiff.Hostname,
	"user":            outdiff.User,
	"owner":           outdiff.User, // the account a file was recorded as owned by
	"home":            outdiff.Home,
	"env":             outdiff.Environment,
	"random":          outdiff.Random,
	"urandom":         outdiff.Random,
	"pid":             outdiff.Random,
	// No class names a locale: what a locale changes (a count of
	// characters, a collation) does not name it.
	"locale": outdiff.Unclassified,
	// Nor a count of CPUs: "1" against "2" names nothing.
	"cpus": outdiff.Unclassified,
}

// TestCorpusClasses diagnoses every root cause of testdata/builds whose
// outputs the corpus keeps, each from the two builds' real outputs, and
// requires the class its truth cause implies (impliedClass) for at least
// 90% of them.
func TestCorpusClasses(t *testing.T) {
	names, err := buildcorpus.Names()
	if err != nil {
		t.Fatal(err)
	}
	measured, right := 0, 0
	var misses []string
	for _, name := range names {
		c, err := buildcorpus.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if c.Outputs == "" {
			continue
		}
		trees := [2]outdiff.Tree{{Dir: filepath.Join(c.Outputs, "old")}, {Dir: filepath.Join(c.Outputs, "new")}}
		var builds [2]outdiff.Build
		for i, tree := range trees {
			if builds[i], err = tree.Describe(); err != nil {
				t.Fatal(err)
			}
			if builds[i].Start.IsZero() {
				t.Fatalf("%s: %s describes no build", tree.Dir, outdiff.BuildFile)
			}
		}
		d := outdiff.New(builds[0], builds[1], outdiff.Options{})
		kept := 0
		for _, r := range c.Truth {
			oldFile, errOld := trees[0].Find(r.Output)
			newFile, errNew := trees[1].Find(r.Output)
			if errOld != nil || errNew != nil {
				continue
			}
			kept++
			want, ok := impliedClass[r.Cause]
			if !ok {
				t.Errorf("%s: %s: cause %q implies no class; add it to impliedClass", name, r.Output, r.Cause)
				continue
			}
			diag, err := d.DiagnoseFiles(r.Output, oldFile, newFile)
			if err != nil {
				t.Fatal(err)
			}
			measured++
			if diag.Class == want {
				right++
				continue
			}
			first := ""
			if len(diag.Differences) > 0 {
				f := diag.Differences[0]
				first = fmt.Sprintf(": %s: %s %q -> %q", f.At, f.What, f.Old, f.New)
			}
			misses = append(misses, fmt.Sprintf("%s %s (%s): %s, want %s%s", name, r.Target, r.Cause, diag.Class, want, first))
		}
		if kept == 0 {
			t.Errorf("%s: outputs/ holds no output of a truth row", name)
		}
	}
	if measured == 0 {
		t.Fatal("no workspace of testdata/builds keeps its outputs")
	}
	share := float64(right) / float64(measured)
	t.Logf("%d of %d root causes (%.0f%%) get the class their cause implies; the others:\n%s", right, measured, 100*share, strings.Join(misses, "\n"))
	if share < 0.9 {
		t.Errorf("%d of %d root causes (%.0f%%) get the class their cause implies, want at least 90%%:\n%s", right, measured, 100*share, strings.Join(misses, "\n"))
	}
}
