package aquery

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
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

// zeros is /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// In streamed_proto each message holds one element; an empty message, or
// an empty element, carries nothing and is refused, so that an endless run
// of them (/dev/zero) ends at once instead of never.
func TestStreamedProtoRefusesEmptyMessages(t *testing.T) {
	tests := []struct {
		name string
		r    func() io.Reader
		want string
	}{
		{"dev_zero", func() io.Reader { return zeros{} },
			"dump.pb: message 1 (byte 0): empty, expected one element of an ActionGraphContainer"},
		{"empty_message_after_a_good_one", func() io.Reader {
			return bytes.NewReader(append(toStreamed(t, dump(t, tgt(1, "//a"))), 0))
		}, "dump.pb: message 2 (byte 10): empty, expected one element of an ActionGraphContainer"},
		{"empty_element", func() io.Reader { return bytes.NewReader([]byte{2, 0x12, 0}) },
			"dump.pb: action 1 (byte 1): empty, expected an action with at least one field"},
		{"empty_element_after_a_good_one", func() io.Reader {
			return bytes.NewReader(append(toStreamed(t, dump(t, tgt(1, "//a"))), 2, 0x1a, 0))
		}, "dump.pb: target 2 (byte 11): empty, expected a target with at least one field"},
	}
	for _, tc := range tests {
		for _, opts := range []Options{{Format: StreamedProto}, {Format: StreamedProto, Workers: 2}, {Format: StreamedProto, Workers: 2, ReuseActions: true}} {
			done := make(chan error, 1)
			go func() {
				_, err := Decode(tc.r(), "dump.pb", opts, func(*Action) error { return nil })
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != tc.want {
					t.Errorf("%s %+v: error %v, want %s", tc.name, opts, err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %+v: still decoding after 10s", tc.name, opts)
			}
		}
	}
	// Detection does not take zeros for a dump either.
	if _, err := Decode(zeros{}, "zero", Options{}, func(*Action) error { return nil }); err == nil || !strings.Contains(err.Error(), "not an aquery dump") {
		t.Errorf("detecting /dev/zero: %v", err)
	}
}
