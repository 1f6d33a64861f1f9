package trace_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/trace"
)

// The excerpts testdata/recorded holds: for each, the process trees of the
// actions whose wrapper's command line contains one of the strings.
var excerpts = map[string][]string{
	"genrules.strace": {"cat pkg/secret.txt", "cp pkg/declared.txt", "cat /etc/os-release", "ls pkg/data"},
	"compiles.strace": {"gcc -I pkg/hidden", `"-c", "pkg/main.c"`},
	"tools.strace":    {"realpath", "/pkg/tool >"},
	"listing.strace":  {"ls .. ../.. ../../.."},
}

// Where the recorded paths are moved to, so that a re-recording differs
// from the last only where the build did.
const (
	recordedScratch = "/tmp/ahab-trace-scratch"
	recordedTmp     = "/tmp/ahab-trace-test"
)

// recordExcerpts writes testdata/recorded from the kept trace of a real
// build: the execution log and, for each excerpt, every line of the chosen
// actions' process trees, the clone calls that link them to the traced
// Bazel, and the first lines of Bazel itself, as strace wrote them.
func recordExcerpts(t *testing.T, keep, tmp string) {
	raw, err := os.ReadFile(filepath.Join(keep, "strace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	m := regexp.MustCompile(`--output_base=(/[^"]*)/output_base`).FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("the trace's first line does not name the output base: %.200s", lines[0])
	}
	moved := strings.NewReplacer(m[1], recordedScratch, tmp, recordedTmp)

	parent := map[int]int{}
	sc := trace.NewScanner(bytes.NewReader(raw), "strace.txt")
	for sc.Scan() {
		rec := sc.Record()
		switch string(rec.Name) {
		case "clone", "clone3", "fork", "vfork":
			if child, err := strconv.Atoi(strings.Fields(string(rec.Result))[0]); err == nil && child > 0 {
				parent[child] = rec.PID
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	pidOf := func(line string) int {
		pid, _ := strconv.Atoi(strings.Fields(line)[0])
		return pid
	}
	root := pidOf(lines[0])
	cloneLine := regexp.MustCompile(`^\d+ +(<\.\.\. )?(clone3?|vfork|fork)\b`)
	dir := filepath.Join("testdata", "recorded")
	for name, markers := range excerpts {
		tree := map[int]bool{}
		for _, l := range lines {
			if strings.Contains(l, `process-wrapper", [`) && containsAny(l, markers) {
				tree[pidOf(l)] = true
			}
		}
		if len(tree) != len(markers) {
			t.Fatalf("%s: %d wrappers for %d markers", name, len(tree), len(markers))
		}
		ancestors := map[int]bool{}
		for pid := range tree {
			for p, ok := parent[pid]; ok; p, ok = parent[p] {
				ancestors[p] = true
			}
		}
		for changed := true; changed; {
			changed = false
			for c, p := range parent {
				if tree[p] && !tree[c] {
					tree[c], changed = true, true
				}
			}
		}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		noise := 0
		for i, l := range lines {
			pid := pidOf(l)
			keep := i == 0 || tree[pid] || ancestors[pid] && cloneLine.MatchString(l)
			if !keep && pid == root && noise < 20 {
				keep, noise = true, noise+1 // Bazel's own doings, which the trace must skip
			}
			if keep {
				w.WriteString(moved.Replace(l))
				w.WriteString("\n")
			}
		}
		w.Flush()
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := execLogAsJSON(t, filepath.Join(keep, "execution_log.binpb"))
	if err := os.WriteFile(filepath.Join(dir, "execution_log.json"), []byte(moved.Replace(log)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s; review the diff, and update fs.txt if the paths moved", dir)
}

// execLogAsJSON is a binary execution log in the JSON form, one indented
// SpawnExec after another, which a reviewer can read and paths can be
// moved in.
func execLogAsJSON(t *testing.T, path string) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	r := bufio.NewReader(f)
	for {
		var s spawnpb.SpawnExec
		err := protodelim.UnmarshalFrom(r, &s)
		if errors.Is(err, io.EOF) {
			return out.String()
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// protojson varies its spacing on purpose; Indent makes it stable.
		data, err := protojson.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&out, data, "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteString("\n")
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
