// Package release builds the prebuilt Ahab binaries that Bazel consumers
// download, and the table of their sha256 sums that private/release.bzl holds.
//
// The build must be reproducible: two builds of one commit give the same bytes
// whoever runs them and wherever the checkout is. So every binary is static
// (CGO_ENABLED=0), carries no file system paths (-trimpath), no build id and
// no VCS stamp, and every input that could vary with the caller's environment
// (GOFLAGS, GOAMD64, ...) is pinned; archives have fixed names, modes, owners
// and times, and gzip headers without a name or a time.
package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// Platform is one host a release publishes a binary for.
type Platform struct {
	Name   string // as Starlark and the archive name spell it: linux_x86_64
	GOOS   string
	GOARCH string
}

// Platforms are the published hosts, in the order the table lists them.
var Platforms = []Platform{
	{Name: "darwin_arm64", GOOS: "darwin", GOARCH: "arm64"},
	{Name: "darwin_x86_64", GOOS: "darwin", GOARCH: "amd64"},
	{Name: "linux_arm64", GOOS: "linux", GOARCH: "arm64"},
	{Name: "linux_x86_64", GOOS: "linux", GOARCH: "amd64"},
}

// PlatformNamed returns the platform called name.
func PlatformNamed(name string) (Platform, error) {
	for _, p := range Platforms {
		if p.Name == name {
			return p, nil
		}
	}
	names := make([]string, len(Platforms))
	for i, p := range Platforms {
		names[i] = p.Name
	}
	return Platform{}, fmt.Errorf("unknown platform %q, expected one of: %s", name, strings.Join(names, ", "))
}

// Options say what to build and where.
type Options struct {
	ModuleDir string     // root of the Go module to build from
	Package   string     // the main package, relative to ModuleDir (default ./cmd/ahab)
	OutDir    string     // where the archives go; created if missing
	Version   string     // goes into archive names
	Platforms []Platform // default: all of Platforms
	// Env is the environment the go command starts from (default os.Environ());
	// the variables that would change the output are overridden regardless.
	Env    []string
	Stderr io.Writer // the go command's diagnostics (default os.Stderr)
}

// Artifact is one built archive.
type Artifact struct {
	Platform Platform
	Path     string // the archive, inside OutDir
	SHA256   string // of the archive, lower-case hex
}

// ArchiveName is the file a release publishes for platform; private/prebuilt.bzl
// downloads it by the same name.
func ArchiveName(version string, p Platform) string {
	return fmt.Sprintf("ahab-%s-%s.tar.gz", version, p.Name)
}

// pinned are the variables of the go command's environment that reach the
// binary's bytes; Build sets each one, whatever the caller's environment says.
var pinned = map[string]string{
	"CGO_ENABLED":  "0",
	"GOFLAGS":      "",
	"GOAMD64":      "v1",
	"GOARM64":      "v8.0",
	"GOEXPERIMENT": "",
	"GOTOOLCHAIN":  "local",
	"GO111MODULE":  "on",
	"GOWORK":       "off",
}

// goEnv is base without the variables Build pins, followed by the pinned ones
// and the target platform.
func goEnv(base []string, p Platform) []string {
	var env []string
	for _, kv := range base {
		key, _, _ := strings.Cut(kv, "=")
		if _, ok := pinned[key]; ok || key == "GOOS" || key == "GOARCH" {
			continue
		}
		env = append(env, kv)
	}
	keys := make([]string, 0, len(pinned))
	for k := range pinned {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+pinned[k])
	}
	return append(env, "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
}

// BuildArgs is the go command line that writes the binary of pkg to out.
// The binary knows its version from the MODULE.bazel it embeds (package
// ahab), so nothing is stamped.
func BuildArgs(pkg, out string) []string {
	return []string{
		"build",
		"-trimpath",
		"-buildvcs=false",
		"-ldflags=-s -w -buildid=",
		"-o", out,
		pkg,
	}
}

// Build cross-compiles the binary for each platform and archives it.
func Build(ctx context.Context, opts Options) ([]Artifact, error) {
	if opts.Version == "" {
		return nil, errors.New("release: no version, expected one such as 0.3.0")
	}
	pkg := opts.Package
	if pkg == "" {
		pkg = "./cmd/ahab"
	}
	platforms := opts.Platforms
	if len(platforms) == 0 {
		platforms = Platforms
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp("", "ahab-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)

	var artifacts []Artifact
	for _, p := range platforms {
		binary := filepath.Join(scratch, p.Name, "ahab")
		cmd := exec.CommandContext(ctx, "go", BuildArgs(pkg, binary)...)
		cmd.Dir = opts.ModuleDir
		cmd.Env = goEnv(env, p)
		cmd.Stdout = stderr
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("release: %s: go build %s: %w", p.Name, pkg, err)
		}
		data, err := os.ReadFile(binary)
		if err != nil {
			return nil, err
		}
		var archive bytes.Buffer
		if err := WriteArchive(&archive, data); err != nil {
			return nil, fmt.Errorf("release: %s: %w", p.Name, err)
		}
		path := filepath.Join(opts.OutDir, ArchiveName(opts.Version, p))
		if err := os.WriteFile(path, archive.Bytes(), 0o644); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(archive.Bytes())
		artifacts = append(artifacts, Artifact{Platform: p, Path: path, SHA256: hex.EncodeToString(sum[:])})
	}
	return artifacts, nil
}

// WriteArchive writes a tar.gz holding binary as `ahab`, with nothing in it
// that depends on when or by whom it was made.
func WriteArchive(w io.Writer, binary []byte) error {
	// A zero gzip header has no name, no time and OS "unknown"; the level is
	// fixed, so the compressed bytes depend only on the input.
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	header := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     "ahab",
		Mode:     0o755,
		Size:     int64(len(binary)),
		Format:   tar.FormatUSTAR,
		// ModTime, Uid, Gid, Uname and Gname stay zero.
	}
	if err := tw.WriteHeader(header); err != nil {
		return err
	}
	if _, err := tw.Write(binary); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// SHA256Sums is the content of a SHA256SUMS file (`sha256sum -c` reads it).
func SHA256Sums(artifacts []Artifact) []byte {
	var b bytes.Buffer
	for _, a := range sortedByPlatform(artifacts) {
		fmt.Fprintf(&b, "%s  %s\n", a.SHA256, filepath.Base(a.Path))
	}
	return b.Bytes()
}

// Table is the content of private/release.bzl for version and artifacts.
func Table(version string, artifacts []Artifact) []byte {
	var b bytes.Buffer
	b.WriteString(`"""The version of Ahab and the sha256 of each published binary archive.

Written by ` + "`go run ./internal/devtools/release`" + `. DO NOT EDIT.
"""

`)
	fmt.Fprintf(&b, "AHAB_VERSION = %q\n\n", version)
	if len(artifacts) == 0 {
		b.WriteString(`# Host platform -> sha256 of ahab-<version>-<platform>.tar.gz. Empty in the
# source tree: only a release publishes binaries.
AHAB_PREBUILT = {}
`)
		return b.Bytes()
	}
	b.WriteString("# Host platform -> sha256 of ahab-<version>-<platform>.tar.gz.\nAHAB_PREBUILT = {\n")
	for _, a := range sortedByPlatform(artifacts) {
		fmt.Fprintf(&b, "    %q: %q,\n", a.Platform.Name, a.SHA256)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func sortedByPlatform(artifacts []Artifact) []Artifact {
	sorted := slices.Clone(artifacts)
	slices.SortFunc(sorted, func(a, b Artifact) int { return strings.Compare(a.Platform.Name, b.Platform.Name) })
	return sorted
}

// TableVersion reads AHAB_VERSION from the content of private/release.bzl.
func TableVersion(table []byte) (string, error) {
	f, err := build.ParseBzl("release.bzl", table)
	if err != nil {
		return "", err
	}
	for _, stmt := range f.Stmt {
		if assign, ok := stmt.(*build.AssignExpr); ok && build.FormatString(assign.LHS) == "AHAB_VERSION" {
			if s, ok := assign.RHS.(*build.StringExpr); ok {
				return s.Value, nil
			}
		}
	}
	return "", errors.New(`release.bzl: AHAB_VERSION: not found, expected AHAB_VERSION = "X.Y.Z"`)
}

// ReadArchive returns the `ahab` binary held by an archive WriteArchive wrote.
func ReadArchive(r io.Reader) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		header, err := tr.Next()
		if err == io.EOF {
			return nil, errors.New("archive: no ahab entry, expected one")
		}
		if err != nil {
			return nil, err
		}
		if header.Name == "ahab" {
			return io.ReadAll(tr)
		}
	}
}
