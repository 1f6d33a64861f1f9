package genlog

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/execlog"
	"github.com/ahab-go/ahab/internal/spawn"
	"github.com/ahab-go/ahab/internal/spawndiff"
)

func generate(t *testing.T, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	st, err := Write(&buf, opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.Spawns != opts.Spawns || st.Bytes != int64(buf.Len()) {
		t.Fatalf("stats %+v for %d bytes, expected %d spawns", st, buf.Len(), opts.Spawns)
	}
	return buf.Bytes()
}

func readSpawns(t *testing.T, data []byte) []*spawn.Spawn {
	t.Helper()
	var out []*spawn.Spawn
	if _, err := execlog.Read(bytes.NewReader(data), "gen", execlog.Options{}, func(s *spawn.Spawn) error {
		out = append(out, s)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// The same options give the same bytes, and every format reads back as
// the same spawns.
func TestDeterministicInEveryFormat(t *testing.T) {
	var want []*spawn.Spawn
	for _, f := range []execlog.Format{execlog.Binary, execlog.JSON, execlog.Compact} {
		opts := Options{Spawns: 500, Seed: 7, Format: f, Labels: true}
		a, b := generate(t, opts), generate(t, opts)
		if !bytes.Equal(a, b) {
			t.Errorf("%v: two runs differ", f)
		}
		got := readSpawns(t, a)
		if len(got) != 500 {
			t.Fatalf("%v: %d spawns", f, len(got))
		}
		if want == nil {
			want = got
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: spawns differ from the binary log's", f)
		}
		if other := generate(t, Options{Spawns: 500, Seed: 8, Format: f}); bytes.Equal(a, other) {
			t.Errorf("%v: seeds 7 and 8 give the same log", f)
		}
	}
	// Without labels, no spawn has a target.
	for _, s := range readSpawns(t, generate(t, Options{Spawns: 100, Seed: 7, Format: execlog.Binary})) {
		if s.Target != "" {
			t.Fatalf("target %q without -labels", s.Target)
		}
	}
}

// A pair is the same bytes every time.
func TestPairIsDeterministic(t *testing.T) {
	opts := Options{Spawns: 800, Seed: 3, Format: execlog.Compact, Plant: 100}
	var runs [2][3]bytes.Buffer
	for i := range runs {
		if _, _, err := WritePair(&runs[i][0], &runs[i][1], &runs[i][2], opts); err != nil {
			t.Fatal(err)
		}
	}
	for j, name := range []string{"old", "new", "truth"} {
		if !bytes.Equal(runs[0][j].Bytes(), runs[1][j].Bytes()) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// spawndiff gives every spawn of a generated pair the verdict the
// generator planted or propagated, in every format, labels or not.
func TestPairMatchesTruth(t *testing.T) {
	for _, tc := range []struct {
		format execlog.Format
		labels bool
		spawns int
	}{{execlog.Binary, false, 2000}, {execlog.Compact, true, 2000}, {execlog.JSON, false, 1200}} {
		t.Run(fmt.Sprintf("%v labels=%v", tc.format, tc.labels), func(t *testing.T) {
			var old, new, truth bytes.Buffer
			if _, _, err := WritePair(&old, &new, &truth, Options{Spawns: tc.spawns, Seed: 11, Format: tc.format, Labels: tc.labels, Plant: 150}); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			counts := map[string]int{}
			sc := bufio.NewScanner(&truth)
			for sc.Scan() {
				verdict, outputs, _ := strings.Cut(sc.Text(), "\t")
				counts[verdict]++
				if verdict != "identical" {
					want[outputs] = verdict
				}
			}
			for _, v := range spawndiff.Verdicts() {
				if counts[v.String()] == 0 {
					t.Fatalf("the pair has no %v spawn to check: %v", v, counts)
				}
			}
			r := spawndiff.Diff(load(t, "old", old.Bytes()), load(t, "new", new.Bytes()))
			got := map[string]string{}
			for _, a := range r.Actions {
				got[strings.Join(a.Outputs, " ")] = a.Verdict.String()
				if !a.Verdict.IsRoot() && len(a.RootCauses) == 0 {
					t.Errorf("%v %v names no root cause", a.Verdict, a.Outputs)
				}
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: %q, expected %q", k, got[k], v)
				}
			}
			for k, v := range got {
				if want[k] == "" {
					t.Errorf("%s: %q, expected identical", k, v)
				}
			}
			if r.Count(spawndiff.Identical) != counts["identical"] {
				t.Errorf("%d identical, expected %d", r.Count(spawndiff.Identical), counts["identical"])
			}
		})
	}
}

func load(t *testing.T, name string, data []byte) *spawndiff.Log {
	t.Helper()
	l := spawndiff.NewLog(name)
	if _, err := execlog.Summarize(bytes.NewReader(data), name, execlog.Options{}, l.Tables(), l.Add); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestBadOptions(t *testing.T) {
	var buf bytes.Buffer
	if _, err := Write(&buf, Options{Spawns: -1, Format: execlog.Binary}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative spawns: %v", err)
	}
	if _, err := Write(&buf, Options{Spawns: 1}); err == nil || !strings.Contains(err.Error(), "expected one of: json, binary, compact") {
		t.Errorf("no format: %v", err)
	}
}
