package aquery

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
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
		_, err := Decode(bytes.NewReader(data), "big.pb", opts, func(_ int, a *Action) error {
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

// budget reads from r until left bytes are read, then fails: a bound on
// how much of an endless input a decoder may read before refusing it.
type budget struct {
	r    io.Reader
	left int
}

func (b *budget) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("read past the test's budget: the decoder did not stop")
	}
	n, err := b.r.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
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
			"dump.pb: message 1 (byte 0): empty message, expected an ActionGraphContainer holding one element"},
		{"empty_message_after_a_good_one", func() io.Reader {
			return bytes.NewReader(append(toStreamed(t, dump(t, tgt(1, "//a"))), 0))
		}, "dump.pb: message 2 (byte 10): empty message, expected an ActionGraphContainer holding one element"},
		{"empty_element", func() io.Reader { return bytes.NewReader([]byte{2, 0x12, 0}) },
			"dump.pb: action 1 (byte 1): empty, expected an action with at least one field"},
		{"empty_element_after_a_good_one", func() io.Reader {
			return bytes.NewReader(append(toStreamed(t, dump(t, tgt(1, "//a"))), 2, 0x1a, 0))
		}, "dump.pb: target 2 (byte 11): empty, expected a target with at least one field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{{Format: StreamedProto}, {Format: StreamedProto, Workers: 2}, {Format: StreamedProto, Workers: 2, ReuseActions: true}} {
				// A decoder that went on reading would run into the
				// budget's error rather than hang the test.
				r := &budget{r: tc.r(), left: 64 << 20}
				_, err := Decode(r, "dump.pb", opts, func(int, *Action) error { return nil })
				if err == nil || err.Error() != tc.want {
					t.Errorf("%+v: error %v, want %s", opts, err, tc.want)
				}
			}
		})
	}
	// Detection does not take zeros for a dump either.
	if _, err := Decode(zeros{}, "zero", Options{}, func(int, *Action) error { return nil }); err == nil || !strings.Contains(err.Error(), "not an aquery dump") {
		t.Errorf("detecting /dev/zero: %v", err)
	}
}

// repeating yields head, then body n times, then tail, never holding more
// than one copy of each.
func repeating(head, body, tail string, n int) io.Reader {
	return io.MultiReader(strings.NewReader(head), &repeatReader{data: []byte(body), n: n}, strings.NewReader(tail))
}

// endless is an endless run of one byte.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

const spaces = endless(' ')

// jsonproto is streamed like the binary formats: memory is bounded by the
// largest element, not the dump (issue #11: /dev/zero grew past 1.3 GB, a
// 700 MB dump needed 2.3 GB).
func TestJSONProtoIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 64 MiB of JSON")
	}
	element := `{"targetId": 1, "mnemonic": "CppCompile", "arguments": ["gcc", "-c", "` + strings.Repeat("src/a/very/long/path/", 100) + `"]},`
	const total = 64 << 20
	n := total / len(element)
	r := repeating(`{"targets": [{"id": 1, "label": "//a"}], "actions": [`, element, `{"targetId": 1}]}`, n)
	var peak uint64
	var ms runtime.MemStats
	count := 0
	g, err := Decode(r, "big.json", Options{Format: JSONProto}, func(_ int, a *Action) error {
		if count++; count%2000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.Actions() != n+1 || g.Target(1) != "//a" {
		t.Errorf("%d actions, target %q", g.Actions(), g.Target(1))
	}
	t.Logf("%d actions, peak live heap %.1f MiB", count, float64(peak)/(1<<20))
	if peak == 0 || peak > 8<<20 {
		t.Errorf("live heap reached %d MiB while decoding %d MiB of jsonproto", peak>>20, total>>20)
	}
}

func TestJSONProtoHostileInput(t *testing.T) {
	tests := []struct {
		name string
		r    func() io.Reader
		want string
	}{
		{"dev_zero", func() io.Reader { return zeros{} },
			"dump.json: byte 0: invalid jsonproto: invalid character '\\x00' looking for beginning of value"},
		{"endless_white_space", func() io.Reader { return spaces }, "more than 4 MiB without an element ending"},
		{"endless_white_space_between_elements", func() io.Reader {
			return io.MultiReader(strings.NewReader(`{"actions": [{"mnemonic": "M"},`), spaces)
		}, "more than 4 MiB without an element ending"},
		{"endless_element", func() io.Reader {
			return io.MultiReader(strings.NewReader(`{"actions": [{"mnemonic": "`), endless('a'))
		}, "more than 4 MiB without an element ending"},
		{"a_list_that_is_not_one", func() io.Reader { return strings.NewReader(`{"actions": {}}`) },
			`dump.json: byte 12: invalid jsonproto: unexpected "{" for field "actions", expected a list`},
		{"a_repeated_field", func() io.Reader { return strings.NewReader(`{"actions": [], "actions": []}`) },
			`dump.json: byte 16: invalid jsonproto: duplicate field "actions"`},
		{"trailing_data", func() io.Reader { return strings.NewReader(`{"actions": []} {}`) },
			`dump.json: byte 16: invalid jsonproto: unexpected "{" after the container`},
		{"truncated", func() io.Reader { return strings.NewReader(`{"actions": [{"mnemonic": "M"}`) },
			`dump.json: byte 30: invalid jsonproto: unexpected EOF`},
	}
	// The limit, lowered: the mechanism is the same at 256 MiB.
	defer func(limit int64) { maxJSONElement = limit }(maxJSONElement)
	maxJSONElement = 4 << 20
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			got := allocated(func() {
				_, err = Decode(tc.r(), "dump.json", Options{Format: JSONProto}, func(int, *Action) error { return nil })
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line")
			}
			if got > 64<<20 {
				t.Errorf("allocated %d MiB", got>>20)
			}
		})
	}
}

// textproto is read whole, but only up to a sane size.
func TestTextProtoIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	r := repeating("", "# a comment that goes on and on\n", "", maxTextProto/32+1)
	_, err := Decode(r, "dump.txt", Options{Format: TextProto}, func(int, *Action) error { return nil })
	want := "dump.txt: textproto dump larger than 64 MiB, expected a small graph written by hand (real graphs are --output=proto)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
