package report

import (
	"os"
	"strings"
	"testing"
)

// Every report the original recorded (the conformance set's and the
// fishery's) and every report this package writes is read by the fast
// decoder, with the careful decoder's result; a report in any other
// layout falls back to the careful one.
func TestReadCanonical(t *testing.T) {
	paths := realReports(t)
	docs := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = data
	}
	var written strings.Builder
	WriteJSON(&written, oneOfEachKind())
	docs["oneOfEachKind"] = []byte(written.String())
	for name, data := range docs {
		fast, ok := readCanonical(data)
		if !ok {
			t.Errorf("%s: not read by the fast decoder", name)
			continue
		}
		careful, err := decodeCarefully(data)
		if err != nil || !fast.Equal(careful) {
			t.Errorf("%s: the decoders disagree (careful: %v)", name, err)
		}
	}

	// The same findings in other layouts: the careful decoder's business.
	canonical := docs["oneOfEachKind"]
	for name, doc := range map[string]string{
		"compact":            strings.NewReplacer("\n", "", "  ", "").Replace(string(canonical)),
		"no_final_newline":   strings.TrimSuffix(string(canonical), "\n"),
		"an_unknown_field":   strings.Replace(string(canonical), `"count": `, `"note": 1, "count": `, 1),
		"fields_reordered":   strings.Replace(string(canonical), `"kind": "environment_leak",`, ``, 1),
		"a_finding_repeated": strings.Replace(string(canonical), `"violations": [`, `"violations": [`+entryOf(t, canonical)+`,`, 1),
	} {
		if _, ok := readCanonical([]byte(doc)); ok {
			t.Errorf("%s: the fast decoder accepted a report WriteJSON does not write", name)
		}
	}
}

// entryOf is the first entry of a canonical report.
func entryOf(t *testing.T, report []byte) string {
	s := string(report)
	start := strings.Index(s, "\n    {")
	end := strings.Index(s, "\n    },")
	if start < 0 || end < 0 {
		t.Fatal("no first entry")
	}
	return s[start : end+len("\n    }")]
}
