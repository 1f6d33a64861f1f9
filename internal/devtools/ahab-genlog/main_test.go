package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/spawn"
)

// Each format holds the same spawns, and -new and -truth write a pair.
func TestWritesLogsAndPairs(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"json", "binary", "compact"} {
		log := filepath.Join(dir, "old."+format)
		var stderr bytes.Buffer
		if code := run([]string{"-spawns", "300", "-seed", "5", "-format", format, "-o", log}, nil, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, &stderr)
		}
		if !strings.Contains(stderr.String(), "300 spawns") {
			t.Errorf("%s: statistics %q", format, &stderr)
		}
		f, err := os.Open(log)
		if err != nil {
			t.Fatal(err)
		}
		st, err := execlog.Read(f, log, execlog.Options{}, func(*spawn.Spawn) error { return nil })
		f.Close()
		if err != nil || st.Spawns != 300 || st.Format.String() != format {
			t.Errorf("%s: read %+v, %v", format, st, err)
		}
	}
	old, new, truth := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "t")
	if code := run([]string{"-spawns", "300", "-o", old, "-new", new, "-truth", truth, "-q"}, nil, &bytes.Buffer{}); code != 0 {
		t.Fatalf("pair: exit %d", code)
	}
	lines, err := os.ReadFile(truth)
	if err != nil || bytes.Count(lines, []byte("\n")) < 300 {
		t.Errorf("truth: %d lines, %v", bytes.Count(lines, []byte("\n")), err)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-spawns", "-1"}, {"-format", "xml"}, {"extra"}, {"-truth", "t"}} {
		if code := run(args, nil, &bytes.Buffer{}); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
