package gengraph

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// Copies of a real dump, as they are or renumbered: the actions grow by
// the number of copies, and only renumbered copies have targets and ids of
// their own.
func TestAmplify(t *testing.T) {
	real, err := os.ReadFile("../../testdata/conformance/real/webapp.pb")
	if err != nil {
		t.Fatal(err)
	}
	var orig analysispb.ActionGraphContainer
	if err := proto.Unmarshal(real, &orig); err != nil {
		t.Fatal(err)
	}
	for _, renumber := range []bool{false, true} {
		var buf bytes.Buffer
		st, err := Amplify(&buf, real, 3, renumber)
		if err != nil {
			t.Fatal(err)
		}
		var got analysispb.ActionGraphContainer
		if err := proto.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("renumber=%v: the result does not decode: %v", renumber, err)
		}
		if st.Bytes != int64(buf.Len()) || st.Actions != 3*len(orig.GetActions()) || len(got.GetActions()) != st.Actions {
			t.Errorf("renumber=%v: stats %+v for %d bytes and %d actions", renumber, st, buf.Len(), len(got.GetActions()))
		}
		labels := map[string]bool{}
		ids := map[uint32]bool{}
		for _, tg := range got.GetTargets() {
			labels[tg.GetLabel()] = true
			ids[tg.GetId()] = true
		}
		want := len(orig.GetTargets())
		if renumber {
			want *= 3
		}
		if len(labels) != want || len(ids) != want {
			t.Errorf("renumber=%v: %d distinct labels and %d distinct ids, want %d", renumber, len(labels), len(ids), want)
		}
		// No id is defined twice: a dump may not (aquery refuses it).
		for name, n := range map[string]int{"targets": len(got.GetTargets()), "artifacts": len(got.GetArtifacts()),
			"dep sets": len(got.GetDepSetOfFiles()), "path fragments": len(got.GetPathFragments())} {
			want := map[string]int{"targets": len(orig.GetTargets()), "artifacts": len(orig.GetArtifacts()),
				"dep sets": len(orig.GetDepSetOfFiles()), "path fragments": len(orig.GetPathFragments())}[name]
			if renumber {
				want *= 3
			}
			if n != want {
				t.Errorf("renumber=%v: %d %s, want %d", renumber, n, name, want)
			}
		}
		if renumber && !slices.ContainsFunc(got.GetTargets(), func(tg *analysispb.Target) bool { return strings.HasSuffix(tg.GetLabel(), "_2") }) {
			t.Error("no target of the third copy is labelled as such")
		}
	}
	if _, err := Amplify(&bytes.Buffer{}, []byte("not a dump"), 2, true); err == nil {
		t.Error("amplifying garbage did not fail")
	}
}
