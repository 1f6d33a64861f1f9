package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// fakeFS is a file system described by hand: directories with their
// entries, symlinks and files, so that classification can be tested on
// recorded traces without the machine they were recorded on.
type fakeFS struct {
	dirs  map[string][]string
	links map[string]string
	files map[string][]byte
}

func newFakeFS() *fakeFS {
	return &fakeFS{dirs: map[string][]string{"/": nil}, links: map[string]string{}, files: map[string][]byte{}}
}

// loadFakeFS reads a description, one entry a line:
//
//	dir PATH [ENTRY...]
//	link PATH TARGET
//	file PATH [TESTDATA-FILE]   (its content, read from testdata/recorded)
//
// Every parent of an entry is a directory.
func loadFakeFS(t testing.TB, name string) *fakeFS {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fsys := newFakeFS()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) < 2 {
			t.Fatalf("%s:%d: %q, expected KIND PATH", name, n, sc.Text())
		}
		switch p := fields[1]; fields[0] {
		case "dir":
			fsys.addDir(p, fields[2:]...)
		case "link":
			if len(fields) != 3 {
				t.Fatalf("%s:%d: expected link PATH TARGET", name, n)
			}
			fsys.addParent(p)
			fsys.links[p] = fields[2]
		case "file":
			var data []byte
			if len(fields) == 3 {
				if data, err = os.ReadFile(filepath.Join(filepath.Dir(name), fields[2])); err != nil {
					t.Fatal(err)
				}
			}
			fsys.addParent(p)
			fsys.files[p] = data
		default:
			t.Fatalf("%s:%d: unknown kind %q, expected dir, link or file", name, n, fields[0])
		}
	}
	return fsys
}

func (f *fakeFS) addParent(p string) {
	d, base := path.Split(p)
	d = path.Clean(d)
	f.addDir(d)
	for _, e := range f.dirs[d] {
		if e == base {
			return
		}
	}
	f.dirs[d] = append(f.dirs[d], base)
}

func (f *fakeFS) addDir(p string, entries ...string) {
	if p != "/" {
		f.addParent(p)
	}
	f.dirs[p] = append(f.dirs[p], entries...)
	for _, e := range entries {
		if _, ok := f.dirs[path.Join(p, e)]; !ok && f.files[path.Join(p, e)] == nil && f.links[path.Join(p, e)] == "" {
			f.files[path.Join(p, e)] = nil
		}
	}
}

func (f *fakeFS) EvalSymlinks(p string) (string, error) {
	cur := "/"
	parts := strings.Split(strings.TrimPrefix(path.Clean(p), "/"), "/")
	for hops := 0; len(parts) > 0; {
		next := path.Join(cur, parts[0])
		parts = parts[1:]
		if target, ok := f.links[next]; ok {
			if hops++; hops > 40 {
				return "", errors.New("too many links")
			}
			if !strings.HasPrefix(target, "/") {
				target = path.Join(cur, target)
			}
			parts = append(strings.Split(strings.TrimPrefix(path.Clean(target), "/"), "/"), parts...)
			cur = "/"
			continue
		}
		if _, isDir := f.dirs[next]; !isDir {
			if _, isFile := f.files[next]; !isFile || len(parts) > 0 {
				return "", fmt.Errorf("%s: %w", p, fs.ErrNotExist)
			}
		}
		cur = next
	}
	return cur, nil
}

func (f *fakeFS) IsDir(p string) bool {
	r, err := f.EvalSymlinks(p)
	_, ok := f.dirs[r]
	return err == nil && ok
}

func (f *fakeFS) ReadDir(p string) ([]string, error) {
	r, err := f.EvalSymlinks(p)
	if err != nil {
		return nil, err
	}
	entries, ok := f.dirs[r]
	if !ok {
		return nil, fmt.Errorf("%s: not a directory", p)
	}
	return entries, nil
}

func (f *fakeFS) ReadFile(p string) ([]byte, error) {
	r, err := f.EvalSymlinks(p)
	if err != nil {
		return nil, err
	}
	data, ok := f.files[r]
	if !ok {
		return nil, fmt.Errorf("%s: not a file", p)
	}
	return data, nil
}

func (f *fakeFS) ReadHead(p string, n int) ([]byte, error) {
	data, err := f.ReadFile(p)
	if len(data) > n {
		data = data[:n]
	}
	return data, err
}
