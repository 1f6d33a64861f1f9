package spawndiff

import (
	"runtime"
	"sync"

	"github.com/ahab-go/ahab/internal/outdiff"
)

// Diagnose puts beside each differing output of every root cause what
// differs inside it (FileChange.Inside), read from the two builds' output
// trees with d. An output either tree lacks, or that cannot be read, gets
// the reason instead (FileChange.NotDiagnosed). Outputs are diagnosed on
// every core; the result does not depend on their order.
func (r *Result) Diagnose(old, new outdiff.Tree, d *outdiff.Diagnoser) {
	var changes []*FileChange
	for i := range r.Actions {
		a := &r.Actions[i]
		if !a.Verdict.IsRoot() {
			continue
		}
		for j := range a.OutputChanges {
			if c := &a.OutputChanges[j]; c.Old != nil && c.New != nil && c.Old.SymlinkTarget == "" && c.New.SymlinkTarget == "" {
				changes = append(changes, c)
			}
		}
	}
	work := make(chan *FileChange)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(changes)) {
		wg.Go(func() {
			for c := range work {
				diagnose(c, old, new, d)
			}
		})
	}
	for _, c := range changes {
		work <- c
	}
	close(work)
	wg.Wait()
}

func diagnose(c *FileChange, old, new outdiff.Tree, d *outdiff.Diagnoser) {
	c.Inside, c.NotDiagnosed, c.OldFile, c.NewFile, c.Diffoscope = nil, "", "", "", ""
	oldFile, err := old.Find(c.Path)
	if err != nil {
		c.NotDiagnosed = err.Error()
		return
	}
	newFile, err := new.Find(c.Path)
	if err != nil {
		c.NotDiagnosed = err.Error()
		return
	}
	c.OldFile, c.NewFile = oldFile, newFile
	if c.Inside, err = d.DiagnoseFiles(c.Path, oldFile, newFile); err != nil {
		c.Inside, c.NotDiagnosed = nil, err.Error()
	}
}
