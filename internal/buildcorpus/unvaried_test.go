package buildcorpus_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/glob"
)

// A double build on one machine varies what its build-twice.sh varies (the
// clock, the paths, the account, the host name, the CPUs the build may
// use...) and nothing else: what the machine is (its id, its kernel, its
// processors, its domain, who is logged in) is the same in both builds,
// though it would differ between two machines. A prediction resting on such
// a source is knowledge those builds cannot confirm or refute.
// unvaried.tsv, beside each build-twice.sh, lists those sources as a
// finding's evidence names them ("getconf: it prints how many processors
// the machine has", "/etc/machine-id: it holds the machine's id"), each with
// the reason the script does not vary it. The scorers leave a prediction
// resting only on them out of the figures and log it, and
// TestEffectsAreExercised accepts an effect listed there that no build
// showed.

// unvaried is one corpus' unvaried.tsv: each source, a pattern of Ahab's
// glob language (a function of a language is named as its program writes
// it: *cpu_count()), and why the builds did not vary it.
type unvaried []unvariedSource

type unvariedSource struct {
	source glob.Glob
	why    string
}

// why says why the builds did not vary what a finding's evidence names, or
// "" when they did.
func (u unvaried) why(text string) string {
	for _, s := range u {
		if s.source.Match(text) {
			return s.why
		}
	}
	return ""
}

const buildsDir = "../../testdata/builds"

// loadUnvaried reads DIR/unvaried.tsv: a header line, then one source and
// its reason per line, tab-separated.
func loadUnvaried(t *testing.T, dir string) unvaried {
	t.Helper()
	name := filepath.Join(dir, "unvaried.tsv")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var u unvaried
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			if sc.Text() != "source\twhy" {
				t.Fatalf("%s: line 1: header %q, want \"source\\twhy\"", name, sc.Text())
			}
			continue
		}
		source, why, ok := strings.Cut(sc.Text(), "\t")
		switch {
		case !ok || source == "" || why == "" || strings.Contains(why, "\t"):
			t.Fatalf("%s: line %d: want a source and why, tab-separated", name, line)
		case seen[source]:
			t.Fatalf("%s: line %d: %q listed twice", name, line, source)
		}
		seen[source] = true
		u = append(u, unvariedSource{glob.Compile(source), why})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return u
}

// explains says whether a predicting finding rests only on sources the
// builds did not vary, and returns them.
func (u unvaried) explains(f finding.Finding) ([]string, bool) {
	if f.Kind != finding.VariationSource || len(f.Evidence) == 0 {
		return nil, false
	}
	var sources []string
	for _, e := range f.Evidence {
		if u.why(e.Text) == "" {
			return nil, false
		}
		sources = append(sources, e.Text)
	}
	return sources, true
}

// split separates an action's predicting findings into those the builds
// can judge and the sources of those they cannot.
func (u unvaried) split(fs []finding.Finding) (judged []finding.Finding, unjudged []string) {
	for _, f := range fs {
		if s, ok := u.explains(f); ok {
			for _, x := range s {
				if !slices.Contains(unjudged, x) {
					unjudged = append(unjudged, x)
				}
			}
			continue
		}
		judged = append(judged, f)
	}
	return judged, unjudged
}
