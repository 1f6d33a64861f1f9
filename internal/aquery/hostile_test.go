package aquery

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
)

// allocated returns how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A length prefix is a claim, not a fact: six bytes claiming a 2 GiB
// element must not make the decoder allocate 2 GiB before it finds that
// nothing follows (issue #11).
func TestLengthPrefixDoesNotAllocateWhatItClaims(t *testing.T) {
	tests := []struct {
		name   string
		data   []byte
		format Format
	}{
		// A path fragment of 2^31-1 bytes.
		{"proto", []byte{0x42, 0xff, 0xff, 0xff, 0xff, 0x07}, Proto},
		// A streamed message of 2^31-1 bytes holding such a fragment.
		{"streamed_proto", []byte{0xff, 0xff, 0xff, 0xff, 0x07, 0x42, 0xf9, 0xff, 0xff, 0xff, 0x07}, StreamedProto},
		// An action past the read buffer's worth of bytes.
		{"proto_after_a_buffer", append([]byte{0x12, 0xff, 0xff, 0xff, 0xff, 0x07}, make([]byte, readBufferSize+10)...), Proto},
	}
	for _, tc := range tests {
		for _, opts := range []Options{{Format: tc.format}, {Format: tc.format, Workers: 2}, {Format: tc.format, Workers: 2, ReuseActions: true}} {
			var err error
			got := allocated(func() { _, _, err = decodeAll(tc.data, opts) })
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s %+v: error %v, want unexpected EOF", tc.name, opts, err)
			}
			// The read buffer and a few batches, whatever the claim.
			if limit := uint64(4<<20 + 2*len(tc.data)); got > limit {
				t.Errorf("%s %+v: allocated %d MiB for a %d-byte dump", tc.name, opts, got>>20, len(tc.data))
			}
		}
	}
}

// An element that does arrive whole is read whole, however it grows.
func TestBigElementArrivesWhole(t *testing.T) {
	arg := bytes.Repeat([]byte("x"), 5<<20+123)
	body := append([]byte{0x32}, appendVarint(nil, uint64(len(arg)))...)
	body = append(body, arg...)
	data := append([]byte{0x12}, appendVarint(nil, uint64(len(body)))...)
	data = append(data, body...)
	for _, opts := range []Options{{}, {Workers: 2}, {Workers: 2, ReuseActions: true}} {
		n := 0
		_, err := Decode(bytes.NewReader(data), "big.pb", opts, func(a *Action) error {
			if len(a.Arguments) != 1 || a.Arguments[0] != string(arg) {
				t.Errorf("%+v: argument of %d bytes, want %d", opts, len(a.Arguments[0]), len(arg))
			}
			n++
			return nil
		})
		if err != nil || n != 1 {
			t.Errorf("%+v: %d actions, %v", opts, n, err)
		}
	}
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
