package outdiff_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/outdiff"
)

// impliedClasses are the classes each cause of testdata/builds' truth
// tables implies for the bytes of the output: what the bytes may name.
// A cause implies more than one where the same value is named two ways.
var impliedClasses = map[string][]outdiff.Class{
	"clock":           {outdiff.Time},
	"mtime":           {outdiff.Time},
	"stamp":           {outdiff.Time}, // BUILD_TIMESTAMP
	"timezone":        {outdiff.Time}, // the same instant, written in another zone
	"pwd":             {outdiff.BuildPath},
	"debug-path":      {outdiff.BuildPath},
	"checkout-path":   {outdiff.BuildPath},
	"path-in-command": {outdiff.BuildPath},
	"fs-order":        {outdiff.Order},
	"hash-seed":       {outdiff.Order},
	"parallel":        {outdiff.Order},
	"umask":           {outdiff.Permissions},
	"hostname":        {outdiff.Hostname},
	// The account's home (~, getpwuid's pw_dir) is the account's as much
	// as its name is.
	"user":  {outdiff.User, outdiff.Home},
	"owner": {outdiff.User}, // the account a file was recorded as owned by
	"home":  {outdiff.Home},
	// A variable may hold a path of the build (PWD, the checkout's), and
	// the bytes then name the path.
	"env": {outdiff.Environment, outdiff.BuildPath},
	// A generator seeded by the system may draw numbers or shuffle a list.
	"random":  {outdiff.Random, outdiff.Order},
	"urandom": {outdiff.Random},
	"pid":     {outdiff.Random},
	// No class names a locale: what a locale changes (a count of
	// characters, a collation) does not name it.
	"locale": {outdiff.Unclassified},
	// Nor a count of CPUs: "1" against "2" names nothing.
	"cpus": {outdiff.Unclassified},
}

// namesOneOf says whether diag names one of the classes: among its Classes,
// or, for Unclassified, as its Class, which is Unclassified only when
// no difference names anything (an unclassified difference beside a
// named one is no sign that nothing was named).
func namesOneOf(diag *outdiff.Diagnosis, classes []outdiff.Class) bool {
	if slices.Equal(classes, []outdiff.Class{outdiff.Unclassified}) {
		return diag.Class == outdiff.Unclassified
	}
	return slices.ContainsFunc(classes, func(k outdiff.Class) bool { return slices.Contains(diag.Classes, k) })
}

// TestCorpusClasses diagnoses every root cause of testdata/builds whose
// outputs the corpus keeps, each from the two builds' real outputs, and
// requires at least 90% of them to name a class their truth cause implies
// (impliedClasses) among the diagnosis's Classes.
//
// Among its Classes, not as its Class: several causes show together in
// one output (a tar of sources differs by its members' times, owners and
// modes; an ls -l line by all three), the truth row names the one the
// person who wrote it saw first and its note the others, while the
// diagnosis's Class is the first in an order of its own (a build's values
// before shapes), the same whichever row it is. A diagnosis that does not
// name the cause still fails, whatever else it names. The share whose
// Class is implied is logged beside it.
func TestCorpusClasses(t *testing.T) {
	names, err := buildcorpus.Names()
	if err != nil {
		t.Fatal(err)
	}
	measured, named, primary := 0, 0, 0
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
			want, ok := impliedClasses[r.Cause]
			if !ok {
				t.Errorf("%s: %s: cause %q implies no class; add it to impliedClasses", name, r.Output, r.Cause)
				continue
			}
			diag, err := d.DiagnoseFiles(r.Output, oldFile, newFile)
			if err != nil {
				t.Fatal(err)
			}
			measured++
			if slices.Contains(want, diag.Class) {
				primary++
			}
			if namesOneOf(diag, want) {
				named++
				continue
			}
			first := ""
			if len(diag.Differences) > 0 {
				f := diag.Differences[0]
				first = fmt.Sprintf(": %s: %s %q -> %q", f.At, f.What, f.Old, f.New)
			}
			misses = append(misses, fmt.Sprintf("%s %s (%s): %s %v, want %v%s", name, r.Target, r.Cause, diag.Class, diag.Classes, want, first))
		}
		if kept == 0 {
			t.Errorf("%s: outputs/ holds no output of a truth row", name)
		}
	}
	if measured == 0 {
		t.Fatal("no workspace of testdata/builds keeps its outputs")
	}
	share := float64(named) / float64(measured)
	summary := fmt.Sprintf("%d of %d root causes (%.0f%%) name a class their cause implies (%d, %.0f%%, as their Class); the others:\n%s",
		named, measured, 100*share, primary, 100*float64(primary)/float64(measured), strings.Join(misses, "\n"))
	t.Log(summary)
	if share < 0.9 {
		t.Errorf("want at least 90%%: %s", summary)
	}
}

// TestNamesOneOf: the corpus's criterion fails a diagnosis that does not
// name the cause, whatever else it names.
func TestNamesOneOf(t *testing.T) {
	u, tm, un := outdiff.User, outdiff.Time, outdiff.Unclassified
	tests := []struct {
		name    string
		class   outdiff.Class
		classes []outdiff.Class
		implied []outdiff.Class
		want    bool
	}{
		{"first", tm, []outdiff.Class{tm}, []outdiff.Class{tm}, true},
		{"among_others", u, []outdiff.Class{u, tm}, []outdiff.Class{tm}, true},
		{"one_of_two_implied", u, []outdiff.Class{u}, []outdiff.Class{outdiff.Home, u}, true},
		{"another_class", u, []outdiff.Class{u}, []outdiff.Class{tm}, false},
		{"nothing_named", un, []outdiff.Class{un}, []outdiff.Class{un}, true},
		{"unclassified_beside_a_named_one", u, []outdiff.Class{u, un}, []outdiff.Class{un}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := namesOneOf(&outdiff.Diagnosis{Class: tc.class, Classes: tc.classes}, tc.implied); got != tc.want {
				t.Errorf("namesOneOf(%s %v, %v) = %v, want %v", tc.class, tc.classes, tc.implied, got, tc.want)
			}
		})
	}
}
