package execlog

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ahab-go/ahab/internal/execlog/spawnpb"
	"github.com/ahab-go/ahab/internal/spawn"
)

// The compact format's entries, written with protowire: the tests below
// write millions of them.

func rawMessage(dst []byte, fields []byte) []byte {
	return protowire.AppendBytes(dst, fields)
}

func rawEntry(dst []byte, id uint32, kind protowire.Number, payload []byte) []byte {
	var e []byte
	if id != 0 {
		e = protowire.AppendVarint(protowire.AppendTag(e, spawnpb.EntryID, protowire.VarintType), uint64(id))
	}
	e = protowire.AppendBytes(protowire.AppendTag(e, kind, protowire.BytesType), payload)
	return rawMessage(dst, e)
}

func rawFile(dst []byte, id uint32, path, hash string) []byte {
	digest := protowire.AppendString(protowire.AppendTag(nil, spawnpb.DigestHash, protowire.BytesType), hash)
	digest = protowire.AppendVarint(protowire.AppendTag(digest, spawnpb.DigestSizeBytes, protowire.VarintType), 1)
	f := protowire.AppendString(protowire.AppendTag(nil, spawnpb.EntryFilePath, protowire.BytesType), path)
	f = protowire.AppendBytes(protowire.AppendTag(f, spawnpb.EntryFileDigest, protowire.BytesType), digest)
	return rawEntry(dst, id, spawnpb.EntryFile, f)
}

func packed(dst []byte, num protowire.Number, ids ...uint32) []byte {
	if len(ids) == 0 {
		return dst
	}
	var p []byte
	for _, id := range ids {
		p = protowire.AppendVarint(p, uint64(id))
	}
	return protowire.AppendBytes(protowire.AppendTag(dst, num, protowire.BytesType), p)
}

func rawSet(dst []byte, id uint32, inputs []uint32, transitive ...uint32) []byte {
	s := packed(packed(nil, spawnpb.InputSetInputIDs, inputs...), spawnpb.InputSetTransitiveSetIDs, transitive...)
	return rawEntry(dst, id, spawnpb.EntryInputSet, s)
}

func rawSpawn(dst []byte, inputSet uint32, mnemonic string) []byte {
	s := protowire.AppendString(protowire.AppendTag(nil, spawnpb.SpawnMnemonic, protowire.BytesType), mnemonic)
	if inputSet != 0 {
		s = protowire.AppendVarint(protowire.AppendTag(s, spawnpb.SpawnInputSetID, protowire.VarintType), uint64(inputSet))
	}
	return rawEntry(dst, 0, spawnpb.EntrySpawn, s)
}

// feed hands delimited entries to a compact reader, as readCompact does,
// and returns the reader for its counts.
func feed(t *testing.T, raw []byte, out sink) (*compactReader, error) {
	t.Helper()
	c := newCompactReader(true, out.tables)
	for len(raw) > 0 {
		msg, n := protowire.ConsumeBytes(raw)
		if n < 0 {
			t.Fatal("bad framing")
		}
		raw = raw[n:]
		if err := c.entry(msg, out); err != nil {
			return c, err
		}
	}
	return c, nil
}

// A chain of a million nested sets, each adding a file, named by 3,000
// spawns: summarizing expands the chain once, not once per spawn (issue
// #26.3).
func TestDeepChainSharedBySpawnsIsExpandedOnce(t *testing.T) {
	const depth, spawns = 1_000_000, 3000
	raw := make([]byte, 0, 64*depth)
	for i := uint32(1); i <= depth; i++ {
		raw = rawFile(raw, 2*i-1, fmt.Sprintf("src/f%d", i), "aa")
		var prev []uint32
		if i > 1 {
			prev = []uint32{2*i - 2}
		}
		raw = rawSet(raw, 2*i, []uint32{2*i - 1}, prev...)
	}
	for range spawns {
		raw = rawSpawn(raw, 2*depth, "Chain")
	}
	tables := spawn.NewTables()
	n := 0
	var set uint32
	c, err := feed(t, raw, sink{tables: tables, summary: func(s *spawn.Summary) error {
		n++
		if len(s.Inputs) != depth || set != 0 && s.InputSet != set {
			return fmt.Errorf("spawn %d: %d inputs of set %d", n, len(s.Inputs), s.InputSet)
		}
		set = s.InputSet
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n != spawns {
		t.Errorf("%d spawns, want %d", n, spawns)
	}
	// One walk of the chain (a step per set and per file), not 3,000.
	if c.steps > 2*depth {
		t.Errorf("expanding took %d steps, want at most %d", c.steps, 2*depth)
	}
}

// 100k files in one set, named by 100k spawns: expanded once, not 10^10
// steps (issue #26.3).
func TestBigSetSharedBySpawnsIsExpandedOnce(t *testing.T) {
	const files, spawns = 100_000, 100_000
	var raw []byte
	ids := make([]uint32, files)
	for i := range ids {
		ids[i] = uint32(i + 1)
		raw = rawFile(raw, ids[i], fmt.Sprintf("src/f%d", i), "bb")
	}
	raw = rawSet(raw, files+1, ids)
	for range spawns {
		raw = rawSpawn(raw, files+1, "Big")
	}
	n := 0
	c, err := feed(t, raw, sink{tables: spawn.NewTables(), summary: func(s *spawn.Summary) error {
		if n++; len(s.Inputs) != files {
			return fmt.Errorf("spawn %d: %d inputs", n, len(s.Inputs))
		}
		return nil
	}})
	if err != nil || n != spawns {
		t.Fatalf("%d spawns, %v", n, err)
	}
	if c.steps > 2*files {
		t.Errorf("expanding took %d steps, want at most %d", c.steps, 2*files)
	}
}

// Read hands every spawn its inputs, so a set named again and again costs
// what it hands over: past the limit, a clear error rather than minutes.
func TestReadStopsExpandingPastTheLimit(t *testing.T) {
	defer func(n int64) { stepAllowance = n }(stepAllowance)
	stepAllowance = 1 << 16
	const files = 10_000
	var raw []byte
	ids := make([]uint32, files)
	for i := range ids {
		ids[i] = uint32(i + 1)
		raw = rawFile(raw, ids[i], fmt.Sprintf("src/f%d", i), "cc")
	}
	raw = rawSet(raw, files+1, ids)
	for range 1000 {
		raw = rawSpawn(raw, files+1, "Big")
	}
	_, err := Read(bytes.NewReader(compress(t, raw)), "test.log", Options{ReuseSpawns: true}, func(*spawn.Spawn) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "expanding input sets takes more than") {
		t.Fatalf("error %v, want the limit on expansion", err)
	}
	if _, ok := errors.AsType[*Error](err); !ok {
		t.Errorf("error %T, want an *Error", err)
	}
}

// A few kilobytes of zstd that expand to one entry claiming 2 GiB are
// refused once they decompress past the limit, in bounded memory (issue
// #26.3: such a file peaked at 3.6 GiB).
func TestZstdBombIsRefused(t *testing.T) {
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(protowire.AppendVarint(nil, 1<<31-1))
	zeros := make([]byte, 1<<20)
	for range 96 {
		zw.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 64<<10 {
		t.Fatalf("the bomb is %d bytes, expected a few kilobytes", buf.Len())
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Read(bytes.NewReader(buf.Bytes()), "bomb.log", Options{}, func(*spawn.Spawn) error { return nil })
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "the log decompresses to more than") {
		t.Fatalf("error %v, want the limit on decompression", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Errorf("allocated %d MiB for a %d-byte log", grew>>20, buf.Len())
	}
}

// A million spawns in a few kilobytes are refused past one spawn per
// minSpawnBytes compressed bytes.
func TestTooManySpawnsPerByteAreRefused(t *testing.T) {
	var raw []byte
	for range spawnAllowance + 1000 {
		raw = rawSpawn(raw, 0, "M")
	}
	data := compress(t, raw)
	_, err := Read(bytes.NewReader(data), "test.log", Options{ReuseSpawns: true}, func(*spawn.Spawn) error { return nil })
	allowed := spawnAllowance + len(data)/minSpawnBytes
	want := fmt.Sprintf("test.log: spawn %d (byte %d of the decompressed stream): more than %d spawns in %d compressed bytes", allowed+1, allowed*len(rawSpawn(nil, 0, "M")), allowed, len(data))
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error\n%v\nwant it to start\n%s", err, want)
	}
}
