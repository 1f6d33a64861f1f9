package execlog

import (
	"encoding/binary"
	"encoding/hex"
	"unsafe"

	"github.com/ahab-go/ahab/internal/chunks"
	"github.com/ahab-go/ahab/internal/intern"
	"github.com/ahab-go/ahab/internal/spawn"
)

// fileStore keeps the files of a compact log, which later entries may refer
// to, as two ids each: its path in a table of strings, its content (a
// spawn.AppendContentKey) in a table of contents. The tables may be a
// consumer's own (Options.Strings and Contents): a file then costs the
// reader eight bytes, its path and content being what the consumer keeps
// anyway.
type fileStore struct {
	paths, contents *intern.Table
	recs            chunks.List[fileRec]
	key             []byte
}

// fileRec is a stored file: its path's and content's ids.
type fileRec struct{ path, content uint32 }

// add stores a file and returns its id. Nothing of f is kept.
func (s *fileStore) add(f spawn.File) uint32 {
	var r fileRec
	r.path, _ = s.paths.Intern(f.Path)
	s.key = spawn.AppendContentKey(s.key[:0], f)
	r.content, _ = s.contents.Intern(unsafe.String(unsafe.SliceData(s.key), len(s.key)))
	id := uint32(s.recs.Len())
	s.recs.Append(r)
	return id
}

// summary is file id as a summary names it. The hashes are worked out
// again each time rather than kept: a compact log of a million spawns has
// millions of files, and a spawn's inputs are hashed once.
func (s *fileStore) summary(id uint32) spawn.FileID {
	r := s.recs.At(int(id))
	return spawn.FileID{Path: r.path, Content: r.content, PathHash: s.paths.HashOf(r.path), ContentHash: s.contents.HashOf(r.content)}
}

// file rebuilds file id, its path and a hex hash written into out (a hash
// that is not lowercase hex, or a symlink target, is a view of the table,
// which never changes).
func (s *fileStore) file(id uint32, out *outBuf) spawn.File {
	r := s.recs.At(int(id))
	f := spawn.File{Path: s.pathOf(id, out)}
	k := s.contents.Get(r.content)
	if k[0] == 0 { // see spawn.AppendContentKey
		size, n := binary.Uvarint(unsafe.Slice(unsafe.StringData(k[1:]), len(k)-1))
		start := len(out.b)
		out.b = hex.AppendEncode(out.b, unsafe.Slice(unsafe.StringData(k[1+n:]), len(k)-1-n))
		f.Digest = spawn.Digest{Hash: out.str(start), Size: int64(size)}
		return f
	}
	f.Digest, f.SymlinkTarget = spawn.ParseContentKey(k)
	return f
}

// pathOf is file id's path, written into out.
func (s *fileStore) pathOf(id uint32, out *outBuf) string {
	start := len(out.b)
	out.b = s.paths.AppendTo(out.b, s.recs.At(int(id)).path)
	return out.str(start)
}

// outBuf is where rebuilt strings are written. With borrow set they are
// views of it, valid until it is reset (the next spawn, with ReuseSpawns);
// without, each is a string of its own.
type outBuf struct {
	b      []byte
	borrow bool
}

func (o *outBuf) str(start int) string {
	if start == len(o.b) {
		return ""
	}
	if o.borrow {
		// Appending later may move o.b; a view keeps the old array alive.
		return unsafe.String(&o.b[start], len(o.b)-start)
	}
	s := string(o.b[start:])
	o.b = o.b[:start]
	return s
}
