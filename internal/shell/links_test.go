package shell

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestWhatTheExecutionRootHolds: with the action's inputs known, a file
// of the workspace's top level is a link to the checkout in the execution
// root, which what keeps links records (testdata/hosttools: tar_top_link,
// cp_archive_top and their twins; heldout2's //pkg:dist); and a directory
// the script enters or names with -C holds the files it wrote there.
func TestWhatTheExecutionRootHolds(t *testing.T) {
	ws := codetest.Inputs{"LICENSE": "MIT\n", "src/a.c": "int x;\n"}
	tar := "tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=go=rX,u+rw,a-s"
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"a top-level file archived", tar + " -cf out LICENSE", []string{"pwd tar"}},
		{"a top-level file archived through its link", tar + " -hcf out LICENSE", nil},
		{"a file below the top archived", tar + " -cf out src/a.c", nil},
		{"a top-level directory named with a slash", tar + " -cf out src/", nil},
		{"a top-level file copied as a link", "cp -a LICENSE d/; " + tar + " -C d -cf out .", []string{"pwd cp"}},
		{"a top-level file copied through its link", "cp -aL LICENSE d/; " + tar + " -C d -cf out .", nil},
		{"a top-level file copied, command-line links followed", "cp -aH LICENSE d/; " + tar + " -C d -cf out .", nil},
		{"a top-level file copied without -a", "cp LICENSE d/; " + tar + " -C d -cf out .", nil},
		{"copied into a temporary directory", `d=$(mktemp -d); cp -a LICENSE "$d"; ` + tar + ` -C "$d" -cf out LICENSE`, []string{"pwd cp"}},
		{"each of known words, one by one", "for f in LICENSE src/a.c; do cp -a $f d/$f; done; " + tar + " -C d -cf out .", []string{"pwd cp"}},
		{"a directory entered by its relative name", "date > d/x; cd d && cat x > ../out", []string{"clock date"}},
		{"tar -C: the archive is where tar started", "date > d/x; tar -C d -cf out x", []string{"clock date", "mtime tar", "owner tar"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Analyze(Invocation{Shell: "/bin/bash", Script: tc.script}, Options{Library: spec.Builtin(), Outputs: []string{"out"}, Files: ws})
			if err != nil {
				t.Fatal(err)
			}
			if got := sources(s); !slices.Equal(got, tc.want) {
				t.Errorf("%s\n got %q\nwant %q", tc.script, got, tc.want)
			}
		})
	}
}
