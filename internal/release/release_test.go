package release

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ahab-go/ahab"
	"github.com/ahab-go/ahab/internal/testenv"
)

// moduleRoot is the repository root: two levels above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReproducible builds the real binary twice, from two copies of the tree
// at different paths, the second with an empty build cache so that nothing is
// reused from the first, and requires byte-identical archives.
//
// It builds linux_x86_64 (what CI and most users run) and darwin_arm64 (another
// OS and architecture) rather than all four: each cold build compiles the
// standard library for its platform, and two of them already show that neither
// the checkout path, the cache, nor the platform's toolchain leak into the bytes
// while keeping the test around a minute on two cores.
func TestReproducible(t *testing.T) {
	testenv.Slow(t, "cross-compiles Ahab twice from a cold cache")
	root := moduleRoot(t)
	platforms := []Platform{mustPlatform(t, "linux_x86_64"), mustPlatform(t, "darwin_arm64")}
	// Both trees are copied before anything is built, so that the source is
	// the same for both builds even while someone edits the checkout.
	firstTree := filepath.Join(t.TempDir(), "first", "src")
	secondTree := filepath.Join(t.TempDir(), "second-at-another-path", "src")
	copyModule(t, root, firstTree)
	copyModule(t, firstTree, secondTree)
	build := func(tree string, env []string) []Artifact {
		artifacts, err := Build(context.Background(), Options{
			ModuleDir: tree,
			OutDir:    filepath.Join(t.TempDir(), "dist"),
			Version:   "0.3.0",
			Platforms: platforms,
			Env:       env,
			Stderr:    testWriter{t},
		})
		if err != nil {
			t.Fatal(err)
		}
		return artifacts
	}
	first := build(firstTree, nil)
	cold := append(os.Environ(), "GOCACHE="+t.TempDir(), "GOFLAGS=-race", "GOAMD64=v3")
	second := build(secondTree, cold)

	if got, want := Table("0.3.0", second), Table("0.3.0", first); !bytes.Equal(got, want) {
		t.Errorf("second build's table differs:\n%s\nfirst build's:\n%s", got, want)
	}
	for i := range first {
		a, b := read(t, first[i].Path), read(t, second[i].Path)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: archives differ (%s vs %s)", first[i].Platform.Name, first[i].SHA256, second[i].SHA256)
		}
		binary, err := ReadArchive(bytes.NewReader(a))
		if err != nil {
			t.Fatalf("%s: %v", first[i].Path, err)
		}
		if bytes.Contains(binary, []byte(root)) {
			t.Errorf("%s: binary contains the checkout path %s; -trimpath is not in effect", first[i].Platform.Name, root)
		}
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		checkHostBinary(t, first[0])
	}
}

// checkHostBinary runs the linux_x86_64 binary: it must be static and report
// the release version.
func checkHostBinary(t *testing.T, a Artifact) {
	t.Helper()
	binary, err := ReadArchive(bytes.NewReader(read(t, a.Path)))
	if err != nil {
		t.Fatal(err)
	}
	// A dynamically linked ELF names its interpreter in a PT_INTERP segment.
	if bytes.Contains(binary, []byte("/lib64/ld-linux")) {
		t.Errorf("%s: binary names the dynamic loader; expected a static binary (CGO_ENABLED=0)", a.Path)
	}
	path := filepath.Join(t.TempDir(), "ahab")
	if err := os.WriteFile(path, binary, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", path, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "ahab 0.3.0" {
		t.Errorf("%s --version printed %q, expected \"ahab 0.3.0\"", path, got)
	}
}

func TestWriteArchiveIsDeterministic(t *testing.T) {
	binary := []byte("\x7fELF not really")
	var a, b bytes.Buffer
	if err := WriteArchive(&a, binary); err != nil {
		t.Fatal(err)
	}
	if err := WriteArchive(&b, binary); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two archives of the same binary differ")
	}
	// gzip header: bytes 4..7 are the modification time and must be zero.
	if mtime := a.Bytes()[4:8]; !bytes.Equal(mtime, []byte{0, 0, 0, 0}) {
		t.Errorf("gzip header carries a time %x, expected none", mtime)
	}
	got, err := ReadArchive(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, binary) {
		t.Errorf("archive round trip gave %q, expected %q", got, binary)
	}
}

func TestGoEnvPinsWhatReachesTheBinary(t *testing.T) {
	env := goEnv([]string{"HOME=/h", "GOFLAGS=-race", "CGO_ENABLED=1", "GOOS=plan9", "GOAMD64=v3", "GOTOOLCHAIN=auto"}, mustPlatform(t, "linux_arm64"))
	want := []string{"HOME=/h", "CGO_ENABLED=0", "GO111MODULE=on", "GOAMD64=v1", "GOARM64=v8.0", "GOEXPERIMENT=", "GOFLAGS=", "GOTOOLCHAIN=local", "GOWORK=off", "GOOS=linux", "GOARCH=arm64"}
	if !slices.Equal(env, want) {
		t.Errorf("goEnv =\n  %q\nexpected\n  %q", env, want)
	}
}

func TestBuildArgs(t *testing.T) {
	got := strings.Join(BuildArgs("./cmd/ahab", "out/ahab"), " ")
	for _, want := range []string{"-trimpath", "-buildvcs=false", "-buildid=", "-o out/ahab", "./cmd/ahab"} {
		if !strings.Contains(got, want) {
			t.Errorf("go %s: missing %q", got, want)
		}
	}
}

func TestTable(t *testing.T) {
	artifacts := []Artifact{
		{Platform: mustPlatform(t, "linux_x86_64"), SHA256: "bb"},
		{Platform: mustPlatform(t, "darwin_arm64"), SHA256: "aa"},
	}
	got := string(Table("1.2.3", artifacts))
	want := "AHAB_PREBUILT = {\n    \"darwin_arm64\": \"aa\",\n    \"linux_x86_64\": \"bb\",\n}\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("Table ends\n%s\nexpected it to end\n%s", got, want)
	}
	if v, err := TableVersion([]byte(got)); err != nil || v != "1.2.3" {
		t.Errorf("TableVersion = %q, %v; expected 1.2.3", v, err)
	}
	sums := string(SHA256Sums([]Artifact{{Platform: mustPlatform(t, "linux_x86_64"), Path: "dist/x.tar.gz", SHA256: "bb"}}))
	if sums != "bb  x.tar.gz\n" {
		t.Errorf("SHA256Sums = %q", sums)
	}
}

// TestCheckedInTable: the source tree's release.bzl is what Table writes for
// no artifacts, and its version is MODULE.bazel's.
func TestCheckedInTable(t *testing.T) {
	root := moduleRoot(t)
	table := read(t, filepath.Join(root, "private", "release.bzl"))
	moduleVersion, err := ahab.ModuleVersion(read(t, filepath.Join(root, "MODULE.bazel")))
	if err != nil {
		t.Fatal(err)
	}
	tableVersion, err := TableVersion(table)
	if err != nil {
		t.Fatal(err)
	}
	if tableVersion != moduleVersion {
		t.Errorf("private/release.bzl has AHAB_VERSION %q, MODULE.bazel has version %q; expected the same", tableVersion, moduleVersion)
	}
	if strings.Contains(string(table), "AHAB_PREBUILT = {}") {
		if want := Table(moduleVersion, nil); !bytes.Equal(table, want) {
			t.Errorf("private/release.bzl differs from what `go run ./internal/devtools/release` writes:\n%s\nexpected:\n%s", table, want)
		}
		return
	}
	// A release commit: every published platform has a sum.
	for _, p := range Platforms {
		if !strings.Contains(string(table), `"`+p.Name+`": "`) {
			t.Errorf("private/release.bzl: AHAB_PREBUILT has no sum for %s", p.Name)
		}
	}
}

func TestPlatformNamed(t *testing.T) {
	if _, err := PlatformNamed("windows_x86_64"); err == nil || !strings.Contains(err.Error(), "expected one of: darwin_arm64, darwin_x86_64, linux_arm64, linux_x86_64") {
		t.Errorf("PlatformNamed(windows_x86_64) error = %v", err)
	}
}

func mustPlatform(t *testing.T, name string) Platform {
	t.Helper()
	p, err := PlatformNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// copyModule copies the Go module at src to dst: everything but VCS data,
// build outputs and Bazel's convenience symlinks.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 || strings.HasPrefix(rel, "bazel-") {
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
