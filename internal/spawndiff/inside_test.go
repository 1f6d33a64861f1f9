package spawndiff

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/buildcorpus"
	"github.com/ahab-go/ahab/internal/outdiff"
)

// diagnosed is the comparison of a corpus workspace's logs with what
// differs inside the root causes' outputs, from its outputs/ trees.
func diagnosed(t *testing.T, name string) *Result {
	t.Helper()
	c, err := buildcorpus.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	logs := [2]*Log{}
	for i, path := range []string{c.OldBinlog, c.NewBinlog} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		logs[i] = load(t, filepath.Base(path), data)
	}
	r := Diff(logs[0], logs[1])
	trees := [2]outdiff.Tree{{Dir: filepath.Join(c.Outputs, "old")}, {Dir: filepath.Join(c.Outputs, "new")}}
	var builds [2]outdiff.Build
	for i := range trees {
		if builds[i], err = trees[i].Describe(); err != nil {
			t.Fatal(err)
		}
	}
	r.Diagnose(trees[0], trees[1], outdiff.New(builds[0], builds[1], outdiff.Options{}))
	return r
}

// TestDiagnosedReports: the text and JSON reports of the account
// workspace with the diagnosis of its outputs, against their goldens.
func TestDiagnosedReports(t *testing.T) {
	r := diagnosed(t, "account")
	var text, js bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "account_inside.txt", text.Bytes())
	golden(t, "account_inside.json", js.Bytes())
	for _, want := range []string{"inside (text): user", "inside (tar): user", "inside (text): home", "inside (text): order"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report has no %q", want)
		}
	}
}

// TestDiagnoseDeterministic: the diagnoses do not depend on how many of
// them run at once.
func TestDiagnoseDeterministic(t *testing.T) {
	report := func() []byte {
		var b bytes.Buffer
		if err := WriteJSON(&b, diagnosed(t, "packaging")); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	many := report()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if one := report(); !bytes.Equal(one, many) {
		t.Errorf("the report differs on one core:\n%s\nand on all:\n%s", one, many)
	}
}

// TestDiagnoseMissingOutputs: an output that a tree lacks gets the
// reason, the others their diagnosis.
func TestDiagnoseMissingOutputs(t *testing.T) {
	c, err := buildcorpus.Load("account")
	if err != nil {
		t.Fatal(err)
	}
	r := diagnosed(t, "account")
	r.Diagnose(outdiff.Tree{Dir: filepath.Join(c.Outputs, "old")}, outdiff.Tree{Dir: t.TempDir()}, outdiff.New(outdiff.Build{}, outdiff.Build{}, outdiff.Options{}))
	for _, a := range r.Actions {
		for _, c := range a.OutputChanges {
			if c.Inside != nil || !strings.Contains(c.NotDiagnosed, "no file for the output "+c.Path) {
				t.Errorf("%s: inside %v, not diagnosed %q", c.Path, c.Inside, c.NotDiagnosed)
			}
		}
	}
}
