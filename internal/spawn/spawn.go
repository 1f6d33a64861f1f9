// Package spawn is the model of one executed spawn that execution-log
// comparison sees: what ran, what it read and wrote (with digests), and how
// it ended, whatever format the log was written in; and its Summary, the
// compact form, ids into a log's Tables, in which the reader hands spawns
// to the comparison and the comparison keeps them.
//
// It holds only what matching, classifying and reporting need. Bazel 4.x
// logs have no target label and no digest of the spawn itself, so nothing
// here depends on either.
package spawn

import (
	"encoding/binary"
	"encoding/hex"
	"strings"
	"unsafe"
)

// Spawn is one spawn of an execution log.
type Spawn struct {
	// Mnemonic is the mnemonic of the action the spawn belongs to, such as
	// "CppCompile" or "Genrule".
	Mnemonic string
	// Target is the canonical label of the spawn's target, or "" when the
	// log does not say (Bazel before 7 never does).
	Target string
	// Args is the command line, argv[0] included.
	Args []string
	// Env is the environment, in log order.
	Env []EnvVar
	// Inputs are the files the spawn read, sorted by path, each path once.
	// Directories (source directories, tree artifacts, runfiles trees) are
	// expanded into the files they hold, as Bazel's flat formats list them.
	Inputs []File
	// Outputs are the exec paths the spawn declared as outputs (a tree
	// artifact's directory, not its files), sorted, each once. They
	// identify the spawn across builds.
	Outputs []string
	// OutputFiles are the files the spawn actually produced, with their
	// digests, sorted by path; a tree artifact is expanded into its files.
	// A declared output that was not produced is in Outputs only.
	OutputFiles []File
	// ExitCode is the exit code; it is 0 whenever Status is empty.
	ExitCode int32
	// Status describes an execution error; it is empty on success.
	Status string
	// Runner is what ran the spawn ("local", "linux-sandbox", "remote",
	// "worker", ...), or "remote cache hit" / "disk cache hit".
	Runner string
	// CacheHit is set when the outputs came from a disk or remote cache.
	CacheHit bool
	// Remotable, Cacheable and RemoteCacheable say whether the spawn was
	// allowed to run remotely, be cached, and be cached remotely.
	Remotable, Cacheable, RemoteCacheable bool
}

// File is one input or output file.
type File struct {
	// Path is the exec path, relative to the execution root.
	Path string
	// Digest is the file's content digest; it is zero for an unresolved
	// symlink and may be zero for an empty file.
	Digest Digest
	// SymlinkTarget is what an unresolved symlink points to; it is empty
	// for every other file.
	SymlinkTarget string
	// Tool is set for inputs the log marks as tools (Bazel ≥ 7.1).
	Tool bool
}

// Digest is a file's content digest as the log writes it.
type Digest struct {
	// Hash is the content hash in lowercase hex.
	Hash string
	// Size is the content size in bytes.
	Size int64
}

// IsZero reports whether d is the digest of a file the log gave no digest.
func (d Digest) IsZero() bool { return d.Hash == "" && d.Size == 0 }

// EnvVar is one environment variable.
type EnvVar struct{ Name, Value string }

// Clone returns a deep copy of s, for a caller that keeps spawns a reader
// lends it only for the duration of a callback. Empty lists become nil.
func (s *Spawn) Clone() *Spawn {
	c := *s
	c.Mnemonic = strings.Clone(s.Mnemonic)
	c.Target = strings.Clone(s.Target)
	c.Status = strings.Clone(s.Status)
	c.Runner = strings.Clone(s.Runner)
	c.Args = cloneAll(s.Args, strings.Clone)
	c.Env = cloneAll(s.Env, func(e EnvVar) EnvVar { return EnvVar{strings.Clone(e.Name), strings.Clone(e.Value)} })
	c.Inputs = cloneAll(s.Inputs, cloneFile)
	c.Outputs = cloneAll(s.Outputs, strings.Clone)
	c.OutputFiles = cloneAll(s.OutputFiles, cloneFile)
	return &c
}

func cloneFile(f File) File {
	return File{Path: strings.Clone(f.Path), Digest: Digest{strings.Clone(f.Digest.Hash), f.Digest.Size}, SymlinkTarget: strings.Clone(f.SymlinkTarget), Tool: f.Tool}
}

// cloneAll copies xs with clone, and makes an empty list nil so that
// clones compare equal whichever reader made them.
func cloneAll[T any](xs []T, clone func(T) T) []T {
	if len(xs) == 0 {
		return nil
	}
	c := make([]T, len(xs))
	for i, x := range xs {
		c[i] = clone(x)
	}
	return c
}

// AppendContentKey appends to b the content of f as one short string that
// compares equal exactly when the contents are equal, and that
// ParseContentKey turns back into the digest or symlink target:
//
//   - 0, the size as a varint and the bytes a lowercase hex hash spells
//     (SHA-256, BLAKE3, ...): half the hash's text;
//   - 1 and the target, for an unresolved symlink;
//   - 2, the size as a varint and the hash as it is, for anything else
//     (including no digest at all, which some Bazel versions write for
//     empty files).
//
// The execution-log reader and the comparison intern files' contents by
// it.
func AppendContentKey(b []byte, f File) []byte {
	if f.SymlinkTarget != "" {
		b = append(b, 1)
		return append(b, f.SymlinkTarget...)
	}
	h := f.Digest.Hash
	if h != "" && len(h)%2 == 0 {
		start := len(b)
		b = append(b, 0)
		b = binary.AppendUvarint(b, uint64(f.Digest.Size))
		hexOK := true
		for i := 0; i < len(h); i += 2 {
			hi, lo := hexValue[h[i]], hexValue[h[i+1]]
			if hi|lo > 0xf {
				hexOK = false
				break
			}
			b = append(b, hi<<4|lo)
		}
		if hexOK {
			return b
		}
		b = b[:start]
	}
	b = append(b, 2)
	b = binary.AppendUvarint(b, uint64(f.Digest.Size))
	return append(b, h...)
}

// ContentKeyIs reports whether k, a key AppendContentKey made, is f's,
// without building f's: a log names the same file's digest again and
// again.
func ContentKeyIs(k string, f File) bool {
	if k == "" {
		return false
	}
	if f.SymlinkTarget != "" {
		return k[0] == 1 && k[1:] == f.SymlinkTarget
	}
	kind := k[0]
	if kind == 1 {
		return false
	}
	size, n := binary.Uvarint(unsafe.Slice(unsafe.StringData(k[1:]), len(k)-1))
	if n <= 0 || size != uint64(f.Digest.Size) {
		return false
	}
	rest, h := k[1+n:], f.Digest.Hash
	if kind == 2 {
		return rest == h
	}
	if h == "" || len(h) != 2*len(rest) {
		return false
	}
	for i := 0; i < len(rest); i++ {
		hi, lo := hexValue[h[2*i]], hexValue[h[2*i+1]]
		if hi|lo > 0xf || hi<<4|lo != rest[i] {
			return false
		}
	}
	return true
}

// hexValue is the value of a lowercase hex digit, and 0xff for any other
// byte.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c - 'a' + 10)
	}
	return t
}()

// ParseContentKey turns a key AppendContentKey made back into the digest
// (or symlink target) it was made from.
func ParseContentKey(k string) (d Digest, symlinkTarget string) {
	if k == "" {
		return Digest{}, ""
	}
	switch k[0] {
	case 1:
		return Digest{}, k[1:]
	case 0:
		size, n := binary.Uvarint([]byte(k[1:]))
		return Digest{Hash: hex.EncodeToString([]byte(k[1+n:])), Size: int64(size)}, ""
	}
	size, n := binary.Uvarint([]byte(k[1:]))
	return Digest{Hash: k[1+n:], Size: int64(size)}, ""
}
