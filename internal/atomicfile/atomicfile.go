// Package atomicfile writes the files Ahab produces — reports and
// baselines — so that a reader only ever sees the old file or the whole
// new one: the content goes to a temporary file in the same directory,
// which is synced and renamed over the target. A crash, a full disk or a
// signal never leaves a truncated report, and a symlink at the target is
// replaced by the new file, never written through: writing a report must
// not change a file the user did not name.
package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/ahab-go/ahab/internal/fileerr"
)

// Write writes path with what write writes, atomically. An existing
// regular file's permission bits are kept; a new file gets 0644. Errors
// read `failed to write <what> to <path>: <cause>`, e.g. "failed to write
// JSON report to out.json: no space left on device".
func Write(path, what string, write func(io.Writer) error) error {
	if err := writeAtomic(path, write); err != nil {
		return fileerr.Write(what, path, err)
	}
	return nil
}

func writeAtomic(path string, write func(io.Writer) error) (err error) {
	if path == "" {
		return errors.New("no file name")
	}
	perm := fs.FileMode(0o644)
	// Lstat, not Stat: a symlink is replaced, so its target's mode does
	// not matter.
	if info, serr := os.Lstat(path); serr == nil {
		switch {
		case info.IsDir():
			return errors.New("is a directory")
		case info.Mode().IsRegular():
			perm = info.Mode().Perm()
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fileerr.Cause(err)
	}
	pending.add(tmp.Name())
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		pending.remove(tmp.Name())
	}()
	if err := write(tmp); err != nil {
		return fileerr.Cause(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fileerr.Cause(err)
	}
	// Synced before the rename, so that after a crash the name never
	// points at a file whose data did not reach the disk.
	if err := tmp.Sync(); err != nil {
		return fileerr.Cause(err)
	}
	if err := tmp.Close(); err != nil {
		return fileerr.Cause(err)
	}
	return fileerr.Cause(os.Rename(tmp.Name(), path))
}

// RemoveTemporaries removes the temporary files of writes still under
// way. A program that is about to exit on a signal calls it, so that an
// interrupted write leaves nothing behind.
func RemoveTemporaries() {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	for name := range pending.names {
		os.Remove(name)
	}
}

// pending is the temporary files of the writes under way.
var pending = temporaries{names: map[string]struct{}{}}

type temporaries struct {
	mu    sync.Mutex
	names map[string]struct{}
}

func (t *temporaries) add(name string) {
	t.mu.Lock()
	t.names[name] = struct{}{}
	t.mu.Unlock()
}

func (t *temporaries) remove(name string) {
	t.mu.Lock()
	delete(t.names, name)
	t.mu.Unlock()
}
