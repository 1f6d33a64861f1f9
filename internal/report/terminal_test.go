package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestTerminalJSON(t *testing.T) {
	doc := "{\"a\": \"csi\u009b31m del\x7f é \u00a0 \u0085\"}\n"
	want := `{"a": "csi\u009b31m del\u007f é ` + "\u00a0" + ` \u0085"}` + "\n"
	// Whole, and split at every byte: a character cut between two writes
	// is escaped as one.
	for split := range len(doc) + 1 {
		var b bytes.Buffer
		w := NewTerminalJSON(&b)
		w.Write([]byte(doc[:split]))
		w.Write([]byte(doc[split:]))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Fatalf("split at %d: got %q, want %q", split, b.String(), want)
		}
		var v, orig map[string]string
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(doc), &orig)
		if v["a"] != orig["a"] {
			t.Fatalf("the escaped document reads %q, want %q", v["a"], orig["a"])
		}
	}
	var b bytes.Buffer
	w := NewTerminalJSON(&b)
	w.Write([]byte("x\xc2"))
	w.Flush()
	if b.String() != "x\xc2" {
		t.Errorf("a lead byte held back is lost: %q", b.String())
	}
}
