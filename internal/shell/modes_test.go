package shell

import (
	"slices"
	"testing"

	"github.com/ahab-go/ahab/internal/code/codetest"
	"github.com/ahab-go/ahab/internal/spec"
)

// TestCopiesKeepTheirMode: a checked-out file's permissions follow the
// umask of whoever checked it out, and cp gives a copy the permissions of
// the file copied, so that an archive of copies of sources records the
// checkout's umask (testdata/hosttools/heldout: h_tmp_tar) unless
// something fixes the modes; a copy of a file the build made has the
// build's.
func TestCopiesKeepTheirMode(t *testing.T) {
	ws := codetest.Inputs{"src/a.txt": "a\n", "src/b.txt": "b\n", "bazel-out/k8-fastbuild/bin/gen.txt": "g\n"}
	tar := "tar --sort=name --mtime=@0 --owner=0 --group=0"
	tmp := `d=$(mktemp -d); `
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"a source archived", tar + " -cf out src/a.txt", []string{"mode tar"}},
		{"sources copied into a temporary directory, archived from it", tmp + `cp src/a.txt src/b.txt "$d"/; (cd "$d" && ` + tar + ` -cf - .) > out`, []string{"mode tar"}},
		{"a source copied, archived by name with -C", tmp + `cp src/a.txt "$d/a"; ` + tar + ` -C "$d" -cf out a`, []string{"mode tar"}},
		{"a copy of a copy", tmp + `cp src/a.txt "$d/a"; cp "$d/a" "$d/b"; ` + tar + ` -C "$d" -cf out b`, []string{"mode tar"}},
		{"a source tree copied", tmp + `cp -r src/ "$d/tree"; ` + tar + ` -C "$d" -cf out tree`, []string{"mode tar"}},
		{"a source copied into -t", tmp + `cp -t "$d" src/a.txt; ` + tar + ` -C "$d" -cf out .`, []string{"mode tar"}},
		{"a source moved after its copy", tmp + `cp src/a.txt "$d/a"; mv "$d/a" "$d/b"; ` + tar + ` -C "$d" -cf out b`, []string{"mode tar"}},
		{"a source listed long after its copy", tmp + `cp src/a.txt "$d/a"; (cd "$d" && ls -l a) | cut -c1-10 > out`, []string{"mtime ls", "owner ls", "mode ls"}},

		{"a generated file copied", tmp + `cp bazel-out/k8-fastbuild/bin/gen.txt "$d"/; (cd "$d" && ` + tar + ` -cf - .) > out`, nil},
		{"the copies' modes set", tmp + `cp src/a.txt src/b.txt "$d"/; chmod 0644 "$d"/*; (cd "$d" && ` + tar + ` -cf - .) > out`, nil},
		{"copied without the modes", tmp + `cp --no-preserve=mode src/a.txt "$d"/; (cd "$d" && ` + tar + ` -cf - .) > out`, nil},
		{"installed with a mode", tmp + `install -m 0644 src/a.txt "$d/a"; ` + tar + ` -C "$d" -cf out a`, nil},
		{"the archive given the modes", tmp + `cp src/a.txt "$d"/; (cd "$d" && ` + tar + ` --mode=0644 -cf - .) > out`, nil},
		{"a copy elsewhere than what is archived", tmp + `cp src/a.txt "$d/a"; echo b > "$d/b"; ` + tar + ` -C "$d" -cf out b`, nil},
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
