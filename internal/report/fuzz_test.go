package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/savedreport"
)

// FuzzReadJSON checks that any input either fails cleanly or reads as a
// report that writes out in a canonical form, which reads back to the same
// findings and writes again to the same bytes.
func FuzzReadJSON(f *testing.F) {
	var golden bytes.Buffer
	WriteJSON(&golden, oneOfEachKind(), mode.Ahab02)
	f.Add(golden.Bytes())
	f.Add([]byte("{\n  \"violations\": []\n}\n"))
	f.Add([]byte(`{"violations": [{"count": 2, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t"}, "actual": "a\u0000\"b"}}]}`))
	f.Add([]byte(`{"mode": "default", "violations": [{"count": 1, "violation": {"kind": "variation_source", "action": {"mnemonic": "Genrule", "target": "//t"}, "variation": "clock", "command": "date > out"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := savedreport.Read("fuzz.json", bytes.NewReader(data))
		if err != nil {
			if _, ok := errors.AsType[*jsonfile.Error](err); !ok {
				t.Fatalf("%T is not a *jsonfile.Error: %v", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("the error spans lines: %q", err)
			}
			return
		}
		set := rep.Findings
		var first bytes.Buffer
		if err := WriteJSON(&first, set.Ordered(), rep.Mode); err != nil {
			t.Fatal(err)
		}
		back, err := savedreport.Read("first.json", bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("written report does not read back: %v\n%s", err, first.Bytes())
		}
		again := back.Findings
		if back.Mode != rep.Mode || !again.Equal(set) {
			t.Fatalf("findings changed in a round trip:\n%s", Diff(set.Ordered(), again.Ordered(), rep.Mode, false))
		}
		var second bytes.Buffer
		WriteJSON(&second, again.Ordered(), back.Mode)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("second write differs:\n%s\n%s", first.Bytes(), second.Bytes())
		}
		_ = Text(set.Ordered(), TextOptions{SignOff: true, Color: true})
	})
}
