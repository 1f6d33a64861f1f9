package report

import (
	"bytes"
	"testing"
)

// FuzzReadJSON checks that any input either fails cleanly or reads as a
// report that writes out in a canonical form, which reads back to the same
// findings and writes again to the same bytes.
func FuzzReadJSON(f *testing.F) {
	var golden bytes.Buffer
	WriteJSON(&golden, oneOfEachKind())
	f.Add(golden.Bytes())
	f.Add([]byte("{\n  \"violations\": []\n}\n"))
	f.Add([]byte(`{"violations": [{"count": 2, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t"}, "actual": "a\u0000\"b"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		var first bytes.Buffer
		if err := WriteJSON(&first, set.Sorted()); err != nil {
			t.Fatal(err)
		}
		again, err := ReadJSON(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("written report does not read back: %v\n%s", err, first.Bytes())
		}
		if !again.Equal(set) {
			t.Fatalf("findings changed in a round trip:\n%s", Diff(set.Sorted(), again.Sorted(), false))
		}
		var second bytes.Buffer
		WriteJSON(&second, again.Sorted())
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("second write differs:\n%s\n%s", first.Bytes(), second.Bytes())
		}
		_ = Text(set.Sorted(), TextOptions{SignOff: true, Color: true})
	})
}

// FuzzReadCanonical checks that the fast decoder, whenever it accepts a
// report, finds what the careful one finds.
//
//	go test ./internal/report -run '^$' -fuzz FuzzReadCanonical -fuzztime 60s
func FuzzReadCanonical(f *testing.F) {
	var golden bytes.Buffer
	WriteJSON(&golden, oneOfEachKind())
	f.Add(golden.Bytes())
	f.Add([]byte("{\n  \"violations\": []\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := readCanonical(data)
		if !ok {
			return
		}
		careful, err := decodeCarefully(data)
		if err != nil {
			t.Fatalf("the fast decoder accepts what the careful one refuses: %v", err)
		}
		if !fast.Equal(careful) {
			t.Fatalf("the decoders disagree:\n%s", Diff(careful.Sorted(), fast.Sorted(), false))
		}
	})
}
