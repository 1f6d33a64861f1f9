package genlog

import (
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
)

// spawnSpec is one spawn of both builds: index 0 of each pair is the old
// build, 1 the new one.
type spawnSpec struct {
	mnemonic, target string
	args             [2][]string
	env              [2][][2]string
	inputs           []fileSpec
	outs             []fileSpec
	exit             [2]int32
	inOld, inNew     bool
	// What differs, for the verdict: planted causes, and generated inputs
	// that changed.
	cmd, envChanged, source, generated bool
}

type fileSpec struct {
	path   string
	digest [2]string
	size   int64
	// generated marks an input that a spawn of the build produced.
	generated bool
}

func (f fileSpec) changed() bool { return f.digest[0] != f.digest[1] }

func (s *spawnSpec) outputs() []string {
	out := make([]string, len(s.outs))
	for i, f := range s.outs {
		out[i] = f.path
	}
	return out
}

func (s *spawnSpec) outputsChanged() bool {
	for _, f := range s.outs {
		if f.changed() {
			return true
		}
	}
	return false
}

// verdict is what spawndiff should say of the spawn, by its precedence.
func (s *spawnSpec) verdict() string {
	switch {
	case !s.inNew:
		return "only_old"
	case !s.inOld:
		return "only_new"
	case s.cmd:
		return "command_changed"
	case s.envChanged:
		return "environment_changed"
	case s.source:
		return "input_changed"
	case s.generated && (s.outputsChanged() || s.exit[0] != s.exit[1]):
		return "downstream"
	case s.generated:
		return "absorbed"
	case s.exit[0] != s.exit[1]:
		return "flaky_exit"
	case s.outputsChanged():
		return "nondeterministic"
	}
	return "identical"
}

// digest is the SHA-256-like hex digest of a file's content, content
// being the file's path and a version: different versions, different
// digests. It is not SHA-256 (computing that for every input would cost
// more than the rest of the generator) but looks like it.
func digest(path string, version uint64) string {
	h := fnv.New64a()
	h.Write([]byte(path))
	x := h.Sum64() ^ version*0x9e3779b97f4a7c15
	var b [32]byte
	for i := 0; i < 32; i += 8 {
		x = splitmix(x)
		binary.LittleEndian.PutUint64(b[i:], x)
	}
	return hex.EncodeToString(b[:])
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// source is an unchanging source file.
func source(path string) fileSpec {
	d := digest(path, 0)
	return fileSpec{path: path, digest: [2]string{d, d}, size: size(path)}
}

// size is a file's size, derived from its path.
func size(path string) int64 {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int64(200 + h.Sum32()%40000)
}

// output is a spawn's output: changed in the new build or not.
func output(path string, changed bool) fileSpec {
	f := source(path)
	if changed {
		f.digest[1] = digest(path, 1)
	}
	return f
}
