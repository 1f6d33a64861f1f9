package outdiff

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTreeFind(t *testing.T) {
	const execPath = "bazel-out/k8-fastbuild/bin/pkg/out.txt"
	tmp := t.TempDir()
	layouts := []struct {
		name, file string // the tree, and where the output is in it
	}{
		{"execution_root", "bazel-out/k8-fastbuild/bin/pkg/out.txt"},
		{"output_base", "execroot/ws/bazel-out/k8-fastbuild/bin/pkg/out.txt"},
		{"bazel_out", "k8-fastbuild/bin/pkg/out.txt"},
		{"bazel_bin", "pkg/out.txt"},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			dir := filepath.Join(tmp, l.name)
			writeFile(t, filepath.Join(dir, l.file), "x")
			got, err := Tree{Dir: dir}.Find(execPath)
			if err != nil || got != filepath.Join(dir, l.file) {
				t.Errorf("Find = %q, %v; want %q", got, err, filepath.Join(dir, l.file))
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, err := Tree{Dir: tmp}.Find("bazel-out/k8-fastbuild/bin/none.txt")
		if err == nil || !strings.Contains(err.Error(), "no file for the output bazel-out/k8-fastbuild/bin/none.txt") {
			t.Errorf("Find of a missing output: %v", err)
		}
	})
	t.Run("outside", func(t *testing.T) {
		if _, err := (Tree{Dir: tmp}).Find("../etc/passwd"); err == nil || !strings.Contains(err.Error(), "expected an exec path inside the tree") {
			t.Errorf("Find of ../etc/passwd: %v", err)
		}
	})
}

func TestTreeDescribe(t *testing.T) {
	tmp := t.TempDir()
	ob := filepath.Join(tmp, "output_base")
	writeFile(t, filepath.Join(ob, "DO_NOT_BUILD_HERE"), "/home/me/ws")
	writeFile(t, filepath.Join(ob, "execroot", "ws", "bazel-out", "k8-fastbuild", "bin", "x"), "x")
	want := []Dir{
		{"output base", ob},
		{"execution root", filepath.Join(ob, "execroot", "ws")},
		{"workspace", "/home/me/ws"},
	}
	for _, dir := range []string{ob, filepath.Join(ob, "execroot", "ws")} {
		b, err := Tree{Dir: dir}.Describe()
		if err != nil || !reflect.DeepEqual(b.Paths, want) {
			t.Errorf("Describe(%s) = %+v, %v; want the paths %+v", dir, b.Paths, err, want)
		}
	}
	if b, err := (Tree{Dir: filepath.Join(tmp, "elsewhere")}).Describe(); err != nil || !reflect.DeepEqual(b, Build{}) {
		t.Errorf("Describe of a bazel-bin copy = %+v, %v; want nothing", b, err)
	}

	kept := filepath.Join(tmp, "kept")
	b1, _ := testBuilds()
	var buf bytes.Buffer
	if err := WriteBuild(&buf, b1); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(kept, BuildFile), buf.String())
	if b, err := (Tree{Dir: kept}).Describe(); err != nil || !reflect.DeepEqual(b, b1) {
		t.Errorf("Describe of a tree with its %s = %+v, %v; want %+v", BuildFile, b, err, b1)
	}
}

func TestReadBuild(t *testing.T) {
	tests := []struct {
		name, data, err string
	}{
		{"not_json", "{", "unexpected EOF"},
		{"unknown_field", `{"host": "vm"}`, `unknown field "host"`},
		{"relative_path", `{"paths": [{"role": "workspace", "path": "ws"}]}`, `paths[0]: role "workspace", path "ws": a role and an absolute path`},
		{"uid_not_a_number", `{"uid": "root"}`, `uid "root": not a number`},
		{"end_before_start", `{"start": "2026-12-01T12:00:00Z", "end": "2026-12-01T11:00:00Z"}`, "end 2026-12-01T11:00:00Z before start 2026-12-01T12:00:00Z"},
		{"two_objects", `{} {}`, "more after the object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseBuild("b.json", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), "b.json: ") || !strings.Contains(err.Error(), tc.err) ||
				!strings.HasSuffix(err.Error(), ", expected a build's description as ahab reprotest --keep writes it") {
				t.Errorf("error %v, want one naming b.json and saying %q", err, tc.err)
			}
		})
	}
}

// FuzzReadBuild: no input makes the reader panic; what it accepts writes
// back as itself.
func FuzzReadBuild(f *testing.F) {
	b1, b2 := testBuilds()
	for _, b := range []Build{b1, b2, {}} {
		var buf bytes.Buffer
		if err := WriteBuild(&buf, b); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		b, err := parseBuild("b.json", data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteBuild(&buf, b); err != nil {
			t.Fatal(err)
		}
		again, err := parseBuild("b.json", buf.Bytes())
		if err != nil {
			t.Fatalf("what it read does not read again: %v", err)
		}
		var buf2 bytes.Buffer
		if err := WriteBuild(&buf2, again); err != nil || !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
			t.Fatalf("written twice, differently:\n%s\n%s", buf.Bytes(), buf2.Bytes())
		}
	})
}
