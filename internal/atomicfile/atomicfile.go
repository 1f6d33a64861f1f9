// Package atomicfile writes the files Ahab produces — reports and
// baselines — so that a reader only ever sees the old file or the whole
// new one: the content goes to a temporary file in the same directory,
// which is synced and renamed over the target. A crash, a full disk or a
// signal never leaves a truncated report, and a symlink to a file is
// replaced by the new file, never written through: writing a report must
// not change a file the user did not name. The rename is for regular
// files, new paths and such links only: a character device or a FIFO
// (/dev/null, a pipe to another program), named or linked to, is written
// to as it is, and anything else that is not a regular file is refused,
// so that no report replaces one.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/ahab-go/ahab/internal/fileerr"
	"github.com/ahab-go/ahab/internal/quote"
)

// Write writes path with what write writes, atomically. An existing
// regular file's permission bits are kept; a new file gets 0644. A
// character device or a FIFO, named or behind a symlink (/dev/stdout, a
// shell's /dev/fd/63), is written to in place, without the atomicity;
// a directory, a socket or a block device is refused. Errors read
// `failed to write <what> to <path>: <cause>`, e.g. "failed to write JSON
// report to out.json: no space left on device".
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
	// not matter, unless the target is a stream.
	if info, serr := os.Lstat(path); serr == nil {
		switch mode := info.Mode(); {
		case mode.IsDir():
			return errors.New("is a directory")
		case mode.IsRegular():
			perm = mode.Perm()
		case mode&fs.ModeSymlink != 0:
			// A link to a stream changes no file when written through,
			// and replacing it would break the machine's /dev/stdout
			// (as root) or a shell's process substitution. A link to a
			// descriptor of another kind is refused rather than replaced
			// for the same reason: /dev/stdout redirected to a file.
			if target, err := os.Stat(path); err == nil && isStream(target.Mode()) {
				return writeStream(path, 0, write)
			}
			if to, err := os.Readlink(path); err == nil && strings.HasPrefix(to, "/proc/") {
				return fmt.Errorf("is a link to %s, expected a regular file, a character device or a FIFO (- writes to standard output)", quote.IfNeeded(to))
			}
		case isStream(mode):
			return writeStream(path, syscall.O_NOFOLLOW, write)
		default:
			return fmt.Errorf("is %s, expected a regular file, a character device or a FIFO", typeName(mode))
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

// isStream says whether a file of that mode is written to in place: a
// character device or a FIFO, where a rename would replace the device or
// the pipe with a file and nothing would reach its reader.
func isStream(mode fs.FileMode) bool {
	return mode&fs.ModeNamedPipe != 0 || mode&fs.ModeCharDevice != 0
}

// typeName names the type of a file that is neither regular, a
// directory, a symlink nor a stream.
func typeName(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// writeStream writes to the stream at path in place. It neither creates
// nor truncates, and checks what it opened, so that a path replaced by a
// regular file after the Lstat is left as it is rather than written.
func writeStream(path string, flags int, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|flags, 0)
	if err != nil {
		return fileerr.Cause(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fileerr.Cause(err)
	}
	if !isStream(info.Mode()) {
		return errors.New("changed while it was opened, expected a character device or a FIFO")
	}
	if err := write(f); err != nil {
		return fileerr.Cause(err)
	}
	return fileerr.Cause(f.Close())
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
