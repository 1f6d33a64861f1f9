package aquery

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
	"github.com/ahab-go/ahab/internal/gengraph"
)

// Decoding on several goroutines hands over the same actions as decoding
// on one, and a broken dump fails with the same error, the first in dump
// order.
func TestParallelDecodingIsEquivalent(t *testing.T) {
	binary, _ := conformanceDumps(t)
	for _, path := range binary {
		data := readFile(t, path)
		collect := func(opts Options) ([]string, error) {
			var mu sync.Mutex
			var got []string
			g, err := Decode(bytes.NewReader(data), path, opts, func(_ int, a *Action) error {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%+v", *a))
				return nil
			})
			if err != nil {
				return nil, err
			}
			if g.Actions() != len(got) {
				t.Errorf("%s: Graph.Actions() = %d, fn saw %d", path, g.Actions(), len(got))
			}
			slices.Sort(got)
			return got, nil
		}
		want, err := collect(Options{Format: Proto})
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{{Format: Proto, Workers: 3}, {Format: Proto, Workers: 2, ReuseActions: true}} {
			got, err := collect(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s with %+v: actions differ from a sequential decode", path, opts)
			}
		}

		// Cut the dump in the middle of its last action: every mode names
		// the same entry and offset.
		cut := data[:len(data)*2/3]
		_, seqErr := Decode(bytes.NewReader(cut), "cut.pb", Options{Format: Proto}, func(int, *Action) error { return nil })
		_, parErr := Decode(bytes.NewReader(cut), "cut.pb", Options{Format: Proto, Workers: 3}, func(int, *Action) error { return nil })
		if seqErr == nil || parErr == nil || seqErr.Error() != parErr.Error() {
			t.Errorf("%s cut short: sequential error %v, parallel error %v", path, seqErr, parErr)
		}
	}
}

// The pipeline frames again what it reads the careful way (an element
// bigger than the read buffer) and keeps track of where every element
// lies even when the dump pads its varints: errors name the same entry
// and byte as a sequential read, and the same actions come out.
func TestParallelDecodingOfBigAndPaddedElements(t *testing.T) {
	padded := func(e elem) []byte {
		body, err := proto.Marshal(e.msg)
		if err != nil || len(body) >= 0x80 {
			t.Fatalf("padded: %d bytes, %v", len(body), err)
		}
		b := protowire.AppendTag(nil, e.num, protowire.BytesType)
		// The length in three bytes where one would do.
		b = append(b, byte(len(body))|0x80, 0x80, 0x00)
		return append(b, body...)
	}
	big := act(&analysispb.Action{TargetId: 1, Mnemonic: "Big", Arguments: []string{"tool", strings.Repeat("x", 3*readBufferSize/2)}})
	var data []byte
	data = append(data, dump(t, frag(1, "a", 0), art(1, 1), art(2, 1))...)
	data = append(data, padded(art(3, 1))...)
	data = append(data, dump(t, big, act(&analysispb.Action{TargetId: 1, Mnemonic: "Small", Arguments: []string{"a"}}))...)
	data = append(data, padded(tgt(1, "//a"))...)
	data = append(data, dump(t, big, tgt(2, "//b"))...)
	bad := append(slices.Clone(data), dump(t, act(&analysispb.Action{TargetId: 1, Mnemonic: "After"}))...)
	bad = append(bad, padded(elem{fieldTargets, &analysispb.Target{Id: 3}})...)
	// A label of invalid UTF-8, written by hand since proto.Marshal refuses.
	badTarget := protowire.AppendTag(nil, 2, protowire.BytesType)
	badTarget = protowire.AppendBytes(badTarget, []byte{0xff})
	bad = protowire.AppendTag(bad, fieldTargets, protowire.BytesType)
	bad = protowire.AppendBytes(bad, badTarget)

	for _, format := range []Format{Proto, StreamedProto} {
		for name, in := range map[string][]byte{"good": data, "bad": bad} {
			if format == StreamedProto {
				in = toStreamed(t, in)
			}
			mnemonics := func(opts Options) ([]string, error) {
				var mu sync.Mutex
				var got []string
				_, err := Decode(bytes.NewReader(in), "dump.pb", opts, func(_ int, a *Action) error {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, a.Mnemonic+"/"+strconv.Itoa(len(a.Arguments)))
					return nil
				})
				slices.Sort(got)
				return got, err
			}
			want, seqErr := mnemonics(Options{Format: format})
			got, parErr := mnemonics(Options{Format: format, Workers: 3, ReuseActions: true})
			if fmt.Sprint(seqErr) != fmt.Sprint(parErr) {
				t.Errorf("%v, %s dump: sequential error %v, parallel error %v", format, name, seqErr, parErr)
			}
			if name == "bad" && (parErr == nil || !strings.Contains(parErr.Error(), "target 4")) {
				t.Errorf("%v, bad dump: error %v, want one naming target 4", format, parErr)
			}
			if name == "good" && (parErr != nil || !slices.Equal(got, want) || len(got) != 3) {
				t.Errorf("%v, good dump: parallel %v (err %v), sequential %v", format, got, parErr, want)
			}
		}
	}
}

// A repeated id is refused where a sequential read finds it, however the
// elements were spread over batches and goroutines.
func TestParallelDecodingFindsRepeatedIDs(t *testing.T) {
	// The first of each pair comes thousands of elements, so several
	// batches, before the second.
	var elems []elem
	for i := range uint32(3000) {
		elems = append(elems, tgt(i+1, fmt.Sprintf("//first:%d", i)), frag(i+10, "x", 0), art(i+10, i+10))
	}
	for _, tc := range []struct {
		second elem
		want   string
	}{
		{tgt(7, "//second:7"), "target 3001 (byte %d): id 7 is already an earlier target's"},
		{frag(12, "y", 0), "path fragment 3001 (byte %d): id 12 is already an earlier path fragment's"},
		{art(2999, 10), "artifact 3001 (byte %d): id 2999 is already an earlier artifact's"},
	} {
		data := dump(t, append(elems, tc.second, act(&analysispb.Action{TargetId: 7, Mnemonic: "M"}))...)
		want := fmt.Sprintf("dup.pb: "+tc.want, len(dump(t, elems...)))
		for _, opts := range []Options{{Format: Proto}, {Format: Proto, Workers: 3}, {Format: Proto, Workers: 2, ReuseActions: true}} {
			_, err := Decode(bytes.NewReader(data), "dup.pb", opts, func(_ int, a *Action) error { return nil })
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%+v: error %v, want %s…", opts, err, want)
			}
		}
	}
}

// fn is told which decoding goroutine calls it: a number below
// Options.Workers that no other call holds at the same time, so that a
// caller may keep state by it without locks.
func TestDecodingGoroutinesAreNumbered(t *testing.T) {
	var dump bytes.Buffer
	if _, err := gengraph.Write(&dump, gengraph.Options{Actions: 20000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	data := dump.Bytes()
	for _, workers := range []int{1, 2, 5} {
		busy := make([]sync.Mutex, workers)
		used := make([]bool, workers)
		var mu sync.Mutex
		_, err := Decode(bytes.NewReader(data), "dump.pb", Options{Workers: workers, Format: Proto}, func(worker int, _ *Action) error {
			if worker < 0 || worker >= workers {
				return fmt.Errorf("called as goroutine %d of %d", worker, workers)
			}
			if !busy[worker].TryLock() {
				return fmt.Errorf("goroutine %d called while it was still in a call", worker)
			}
			defer busy[worker].Unlock()
			mu.Lock()
			used[worker] = true
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Errorf("%d workers: %v", workers, err)
		}
		if !slices.Contains(used, true) {
			t.Errorf("%d workers: no goroutine called", workers)
		}
	}
}
