package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

// diffoscopeInstall says how to get diffoscope.
const diffoscopeInstall = "install it with apt-get install diffoscope or pip install diffoscope (https://diffoscope.org)"

// diffoscopeTimeout bounds diffoscope on one pair of outputs; its own
// --timeout only stops it from going deeper into archives.
const diffoscopeTimeout = 5 * time.Minute

// runDiffoscope runs Debian's diffoscope on both versions of every output
// that Result.Diagnose found, writing its HTML report on each into dir as
// N-NAME.html, N being the root cause's number in the text report, and
// links each from the report (FileChange.Diffoscope). Without diffoscope it
// says how to install it and the reports go without; a pair it fails on is
// a warning.
func runDiffoscope(ctx context.Context, sys System, r *spawndiff.Result, dir string) error {
	bin, err := exec.LookPath("diffoscope")
	if err != nil {
		fmt.Fprintf(sys.Stderr, "warning: --diffoscope %s: diffoscope is not installed, so the report has Ahab's diagnosis alone; %s\n", quoteArg(dir), diffoscopeInstall)
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fileerr.Write("diffoscope reports", dir, err)
	}
	taken := map[string]bool{}
	root := 0
	for i := range r.Actions {
		a := &r.Actions[i]
		if !a.Verdict.IsRoot() {
			continue
		}
		root++
		for j := range a.OutputChanges {
			c := &a.OutputChanges[j]
			if c.OldFile == "" || c.NewFile == "" {
				continue
			}
			name := strconv.Itoa(root) + "-" + filepath.Base(c.Path)
			for n := 2; taken[name]; n++ {
				name = strconv.Itoa(root) + "-" + filepath.Base(c.Path) + "-" + strconv.Itoa(n)
			}
			taken[name] = true
			report := filepath.Join(dir, name+".html")
			if err := diffoscope(ctx, bin, c.OldFile, c.NewFile, report); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				fmt.Fprintf(sys.Stderr, "warning: diffoscope on %s: %v\n", quoteArg(c.Path), err)
				continue
			}
			c.Diffoscope = report
		}
	}
	return nil
}

// diffoscope writes its HTML report on old and new to report, whole or not
// at all: into a temporary file renamed into place.
func diffoscope(ctx context.Context, bin, old, new, report string) error {
	ctx, cancel := context.WithTimeout(ctx, diffoscopeTimeout)
	defer cancel()
	tmp := filepath.Join(filepath.Dir(report), "."+filepath.Base(report)+".tmp")
	defer os.Remove(tmp)
	cmd := exec.CommandContext(ctx, bin, "--html", tmp, "--timeout", strconv.Itoa(int(diffoscopeTimeout.Seconds()/2)), old, new)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	// 1 says that the files differ, which they do.
	if exit, ok := errors.AsType[*exec.ExitError](err); ok && exit.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("stopped after %v", diffoscopeTimeout)
		}
		last := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(last, '\n'); i >= 0 {
			last = last[i+1:]
		}
		return fmt.Errorf("%v: %s", err, last)
	}
	if err := os.Rename(tmp, report); err != nil {
		return fileerr.Write("diffoscope's report", report, err)
	}
	return nil
}
