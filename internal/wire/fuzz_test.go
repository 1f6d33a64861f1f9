package wire

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxFuzzInput bounds the inputs FuzzFields looks at: a message's
// structure shows in a few hundred bytes.
const maxFuzzInput = 4 << 10

// FuzzFields holds the walk to protowire's: on any input it neither
// panics nor reads past the message, it takes exactly the fields
// protowire takes where protowire takes them all, and where it refuses
// what protowire takes, that is prost's stricter rule (groups nested past
// the recursion limit, field numbers past 2^29-1 in a group).
func FuzzFields(f *testing.F) {
	f.Add([]byte{0x1a, 0x04, 't', 'e', 'x', 't', 0x20, 0x01})
	f.Add([]byte{0x3b, 0x08, 0x01, 0x3c})
	f.Add([]byte{0x80})
	f.Add([]byte{0x1a, 0x02, 'o', 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > maxFuzzInput {
			return
		}
		w := NewFields(b, structDesc, RecursionLimit)
		n := 0
		for w.Next() {
			n++
			switch w.Type {
			case protowire.VarintType:
				w.Uint32()
			case protowire.BytesType:
				w.Bytes()
			}
		}
		m, ok := 0, true
		for rest := b; len(rest) > 0; m++ {
			_, _, k := protowire.ConsumeField(rest)
			if k < 0 {
				ok = false
				break
			}
			rest = rest[k:]
		}
		switch err := w.Err(); {
		case err == nil && (!ok || m != n):
			t.Errorf("walked %d fields where protowire walks %d (ok %v)", n, m, ok)
		case err != nil && ok && !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrFieldNumber):
			t.Errorf("refused what protowire takes: %v", err)
		}
	})
}
