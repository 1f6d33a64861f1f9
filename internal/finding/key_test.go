package finding

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/program"
)

// randomFinding builds a well-formed finding of a random kind from a small
// alphabet, so that equal fields, prefixes and NULs are common.
func randomFinding(r *rand.Rand) Finding {
	str := func() string {
		alphabet := []string{"", "a", "b", "\x00", "ab", "a\x00", "\x00\x01", "/usr", "\xff"}
		var b strings.Builder
		for range r.IntN(3) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	strs := func() []string {
		var out []string
		for range r.IntN(3) {
			out = append(out, str())
		}
		return out
	}
	id := func() program.ID {
		p := program.ID{Origin: program.Origin{Kind: program.OriginKind(r.IntN(3))}, Path: str()}
		if p.Origin.Kind == program.Module {
			p.Origin.Module = str()
		}
		if p.Origin.Kind != program.System && r.IntN(2) == 0 {
			p.Origin.HasExtension, p.Origin.Extension = true, str()
		}
		return p
	}
	site := func() Site {
		s := Site{Location: Location(r.IntN(3)), Value: str()}
		switch s.Location {
		case ParamFile:
			s.ExecPath = str()
		case EnvVar:
			s.Key = str()
		}
		return s
	}
	f := Finding{Kind: Kind(r.IntN(int(numKinds))), Action: ActionRef{Mnemonic: str(), Target: str()}}
	if r.IntN(2) == 0 {
		// Unresolved: an id instead of a label, sometimes one whose
		// bytes would sort differently in little-endian order.
		f.Action.Target, f.Action.TargetID = "", []uint32{1, 2, 255, 256, 1 << 24}[r.IntN(5)]
	}
	for _, m := range f.Kind.Members() {
		switch m {
		case MemberSource:
			f.Source = Source(r.IntN(3))
		case MemberSentinel:
			f.Sentinel = str()
		case MemberSite:
			f.Site = site()
		case MemberActual:
			f.Actual = str()
		case MemberRequirement:
			f.Requirement = str()
		case MemberPath:
			f.Path = str()
		case MemberProgram:
			f.Program = id()
		case MemberWrappers:
			for range r.IntN(3) {
				f.Wrappers = append(f.Wrappers, id())
			}
		case MemberSynonym:
			if r.IntN(2) == 0 {
				syn := id()
				f.Synonym = &syn
			}
		case MemberUnmet:
			for range r.IntN(3) {
				f.Unmet = append(f.Unmet, Unmet{Because: str(), AnyOf: strs(), Present: strs()})
			}
		case MemberVariation:
			f.Variation = str()
		case MemberCommand, MemberScriptCommand:
			f.Command = str()
		}
	}
	for range r.IntN(3) {
		f.Evidence = append(f.Evidence, Evidence{File: str(), Line: []int{0, 1, 12, 255, 256, -1}[r.IntN(6)], Text: str()})
	}
	// A finding's evidence is a set (Finding.Evidence).
	slices.SortFunc(f.Evidence, CompareEvidence)
	f.Evidence = slices.Compact(f.Evidence)
	return f
}

// Keys sort exactly as Compare orders findings, and decode back to them:
// the report order and the report's contents both rest on it.
func TestKeysOrderAsCompareAndRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	sign := func(n int) int { return min(max(n, -1), 1) }
	for range 20000 {
		a, b := randomFinding(r), randomFinding(r)
		ka, kb := string(appendKey(nil, &a)), string(appendKey(nil, &b))
		if got, want := sign(strings.Compare(ka, kb)), sign(Compare(&a, &b)); got != want {
			t.Fatalf("key order %d, Compare %d:\n%#v\n%#v", got, want, a, b)
		}
		if back := decodeKey(ka); !reflect.DeepEqual(back, a) {
			t.Fatalf("round trip changed the finding:\n got %#v\nwant %#v", back, a)
		}
	}
}

// Evidence is a set: the same evidence in another order, or twice, is the
// same finding.
func TestEvidenceIsASet(t *testing.T) {
	a := Evidence{File: "a.py", Line: 3, Text: "x"}
	b := Evidence{File: "b.py", Text: "y"}
	s := NewSet()
	s.Add(Finding{Kind: BadPath, Actual: "/x", Evidence: []Evidence{b, a}}, 1)
	s.Add(Finding{Kind: BadPath, Actual: "/x", Evidence: []Evidence{a, b, a}}, 2)
	got := s.Sorted()
	if len(got) != 1 || got[0].Count != 3 || !slices.Equal(got[0].Evidence, []Evidence{a, b}) {
		t.Errorf("got %+v", got)
	}
}
