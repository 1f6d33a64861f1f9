package outdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Tree is a directory holding one build's outputs: an output base, an
// execution root, a bazel-out directory, a bazel-bin directory (copied
// from a CI machine, say), or a directory `ahab reprotest --keep` wrote.
type Tree struct {
	Dir string
}

// Find returns the file holding the output execPath (bazel-out/k8-opt/
// bin/a/b.o): DIR/EXEC_PATH for an execution root or a reprotest
// directory, DIR/execroot/*/EXEC_PATH for an output base, DIR/ and the
// rest of the path after bazel-out/ for a bazel-out directory, or after
// bazel-out/CONFIG/bin/ for a bazel-bin directory; the first that exists.
func (t Tree) Find(execPath string) (string, error) {
	if !filepath.IsLocal(execPath) {
		return "", fmt.Errorf("%s: output %q, expected an exec path inside the tree", t.Dir, execPath)
	}
	for _, p := range t.candidates(execPath) {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: no file for the output %s, expected an output base, execution root, bazel-out or bazel-bin that holds it", t.Dir, execPath)
}

func (t Tree) candidates(execPath string) []string {
	c := []string{filepath.Join(t.Dir, execPath)}
	roots, _ := filepath.Glob(filepath.Join(t.Dir, "execroot", "*"))
	slices.Sort(roots)
	for _, r := range roots {
		c = append(c, filepath.Join(r, execPath))
	}
	if rest, ok := strings.CutPrefix(execPath, "bazel-out/"); ok {
		c = append(c, filepath.Join(t.Dir, rest))
		if _, inConfig, ok := strings.Cut(rest, "/"); ok {
			if bin, ok := strings.CutPrefix(inConfig, "bin/"); ok {
				c = append(c, filepath.Join(t.Dir, bin))
			}
		}
	}
	return c
}

// BuildFile is the file in a tree that describes the build that made it:
// `ahab reprotest --keep` and the corpus's build-twice.sh write one
// (ReadBuild reads it).
const BuildFile = "ahab-build.json"

// Describe says what the tree tells of the build that made it: what its
// BuildFile says, when it has one; else, for an output base or an
// execution root, their paths and the workspace's (which Bazel writes into
// the output base's DO_NOT_BUILD_HERE), each as given and with symbolic
// links resolved. Of other trees it knows nothing.
func (t Tree) Describe() (Build, error) {
	if p := filepath.Join(t.Dir, BuildFile); fileExists(p) {
		return ReadBuild(p)
	}
	dir, err := filepath.Abs(t.Dir)
	if err != nil {
		return Build{}, err
	}
	outputBase := ""
	switch {
	case isDir(filepath.Join(dir, "execroot")):
		outputBase = dir
	case filepath.Base(filepath.Dir(dir)) == "execroot" && isDir(filepath.Join(dir, "bazel-out")):
		outputBase = filepath.Dir(filepath.Dir(dir))
	default:
		return Build{}, nil
	}
	var b Build
	add := func(role, p string) {
		for _, spelling := range []string{p, resolved(p)} {
			if spelling != "" && !slices.ContainsFunc(b.Paths, func(d Dir) bool { return d.Path == spelling }) {
				b.Paths = append(b.Paths, Dir{Role: role, Path: spelling})
			}
		}
	}
	add("output base", outputBase)
	roots, _ := filepath.Glob(filepath.Join(outputBase, "execroot", "*"))
	slices.Sort(roots)
	for _, r := range roots {
		if isDir(r) {
			add("execution root", r)
		}
	}
	if ws, err := os.ReadFile(filepath.Join(outputBase, "DO_NOT_BUILD_HERE")); err == nil {
		if w := strings.TrimSpace(string(ws)); filepath.IsAbs(w) {
			add("workspace", w)
		}
	}
	return b, nil
}

// maxBuildFile bounds a BuildFile: a few paths and names.
const maxBuildFile = 1 << 20

// ReadBuild reads a BuildFile: a Build in JSON, as its field tags spell
// it.
func ReadBuild(path string) (Build, error) {
	f, err := os.Open(path)
	if err != nil {
		return Build{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBuildFile+1))
	if err != nil {
		return Build{}, fmt.Errorf("%s: %w", path, err)
	}
	return parseBuild(path, data)
}

func parseBuild(path string, data []byte) (Build, error) {
	fail := func(format string, args ...any) (Build, error) {
		return Build{}, fmt.Errorf("%s: %s, expected a build's description as ahab reprotest --keep writes it", path, fmt.Sprintf(format, args...))
	}
	if len(data) > maxBuildFile {
		return fail("over %s", sizeString(maxBuildFile))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Build
	if err := dec.Decode(&b); err != nil {
		return fail("%v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return fail("more after the object")
	}
	for i, d := range b.Paths {
		if d.Role == "" || !filepath.IsAbs(d.Path) {
			return fail("paths[%d]: role %q, path %q: a role and an absolute path", i, d.Role, d.Path)
		}
	}
	for _, id := range []struct{ name, v string }{{"uid", b.UID}, {"gid", b.GID}} {
		if id.v != "" && !isDigits(id.v) {
			return fail("%s %q: not a number", id.name, id.v)
		}
	}
	if !b.End.IsZero() && b.End.Before(b.Start) {
		return fail("end %s before start %s", b.End.Format(time.RFC3339), b.Start.Format(time.RFC3339))
	}
	return b, nil
}

// WriteBuild writes b as ReadBuild reads it.
func WriteBuild(w io.Writer, b Build) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// resolved is p with its symbolic links resolved, or "" when that is p or
// cannot be done.
func resolved(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil || r == p {
		return ""
	}
	return r
}
