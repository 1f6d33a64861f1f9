package reprotest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/bazel"
)

// copyWorkspace copies the workspace src to dst (which must not exist), as
// a fresh checkout would be: the files get new modification times, and
// the modes a checkout under umask would give them (umask -1: the source's
// permission bits). reverse creates the files and directories in reverse
// order of their paths.
//
// Everything is copied, .git included (a workspace_status_command often
// runs git, and a symbolic link to the user's .git would let git write to
// it), except the convenience links, which point into the user's output
// base: the bazel-* links at the top, and any link below it into an output
// base's execution root (bazel.IsConvenienceLink: a nested workspace's).
// Bazel would walk into them. Symbolic links are copied as links: a
// relative one keeps pointing inside the copy, an absolute one where it
// pointed. Sockets, pipes and devices are skipped.
func copyWorkspace(ctx context.Context, src, dst string, umask int, reverse bool) error {
	type entry struct {
		rel  string
		mode fs.FileMode
	}
	var entries []entry
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 && (!strings.ContainsRune(rel, filepath.Separator) && strings.HasPrefix(rel, "bazel-") || bazel.IsConvenienceLink(path)) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		entries = append(entries, entry{rel, info.Mode()})
		return nil
	})
	if err != nil {
		return fmt.Errorf("copying the workspace: %w", err)
	}
	if reverse {
		slices.Reverse(entries)
	}
	dirMode := func(m fs.FileMode) fs.FileMode {
		if umask < 0 {
			return m.Perm() | 0o700 // we must be able to fill it and remove it
		}
		return 0o777 &^ fs.FileMode(umask)
	}
	fileMode := func(m fs.FileMode) fs.FileMode {
		switch {
		case umask < 0:
			return m.Perm() | 0o600
		case m&0o111 != 0:
			return 0o777 &^ fs.FileMode(umask)
		}
		return 0o666 &^ fs.FileMode(umask)
	}
	rootMode := fs.FileMode(0o755)
	if umask >= 0 {
		rootMode = dirMode(0)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	// mkdir makes the parents an entry needs when it comes before them
	// (reverse order); their mode is set when their own entry comes.
	mkdir := func(dir string) error { return os.MkdirAll(dir, 0o700) }
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		to := filepath.Join(dst, e.rel)
		from := filepath.Join(src, e.rel)
		switch {
		case e.mode.IsDir():
			if err := mkdir(to); err != nil {
				return err
			}
			// Chmod, not the mode of Mkdir, which our own umask would mask.
			if err := os.Chmod(to, dirMode(e.mode)); err != nil {
				return err
			}
		case e.mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(from)
			if err != nil {
				return fmt.Errorf("copying the workspace: %w", err)
			}
			if err := mkdir(filepath.Dir(to)); err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
		case e.mode.IsRegular():
			if err := mkdir(filepath.Dir(to)); err != nil {
				return err
			}
			if err := copyFile(from, to, fileMode(e.mode)); err != nil {
				return err
			}
		}
	}
	return os.Chmod(dst, rootMode)
}

func copyFile(from, to string, mode fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("copying the workspace: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", from, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(to, mode)
}
