package python

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/code"
	"github.com/ahab-go/ahab/internal/spec"
)

// benchTool is a build tool of the size and shape actions run: options,
// a walk of its inputs, hashing, a manifest, an archive, a subprocess.
const benchTool = `#!/usr/bin/env python3
"""Packs a directory into a tarball with a manifest."""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time

VERSION = "1.4"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def collect(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".pyc", "~")):
                continue
            full = os.path.join(dirpath, name)
            found.append(os.path.relpath(full, root))
    return found


class Manifest:
    def __init__(self, name, stamp):
        self.name = name
        self.stamp = stamp
        self.entries = []

    def add(self, path, digest):
        self.entries.append({"path": path, "sha256": digest})

    def to_json(self):
        return json.dumps({"name": self.name, "version": VERSION, "stamp": self.stamp,
                           "files": self.entries}, indent=2, sort_keys=True)


def reset(info):
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o644
    return info


def git_describe():
    try:
        return subprocess.check_output(["git", "describe", "--always"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--stamp", action="store_true")
    args = parser.parse_args(argv)

    stamp = os.environ.get("SOURCE_DATE_EPOCH")
    if stamp is None and args.stamp:
        stamp = str(int(time.time()))
    manifest = Manifest(os.path.basename(args.out), stamp)
    files = collect(args.root)
    for rel in files:
        manifest.add(rel, sha256(os.path.join(args.root, rel)))
    with open(args.manifest, "w") as f:
        f.write(manifest.to_json())
        f.write("\n")
    with tarfile.open(args.out, "w") as tar:
        for rel in files:
            tar.add(os.path.join(args.root, rel), arcname=rel, filter=reset)
    print("packed %d files into %s (%s)" % (len(files), args.out, git_describe()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
`

func benchRead(b *testing.B, src string) {
	lib := spec.Builtin()
	p := code.Program{Language: code.Python, Text: src, File: "tools/pack.py", Outputs: []string{"bazel-out/k8-fastbuild/bin/pkg/out.tar", "bazel-out/k8-fastbuild/bin/pkg/manifest.json"},
		Args: []code.Arg{{Text: "--root"}, {Text: "pkg/data", Known: true}, {Text: "--out"}, {Text: "bazel-out/k8-fastbuild/bin/pkg/out.tar", Known: true}, {Text: "--manifest"}, {Text: "bazel-out/k8-fastbuild/bin/pkg/manifest.json", Known: true}}}
	env := code.Env{Library: lib, Runner: &fakeRunner{}}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Reader{}.Read(p, env)
	}
}

// BenchmarkReadInline is python3 -c of a genrule.
func BenchmarkReadInline(b *testing.B) {
	benchRead(b, "import random; print(random.random())")
}

// BenchmarkReadTool is a tool's main script of 110 lines.
func BenchmarkReadTool(b *testing.B) { benchRead(b, benchTool) }

// BenchmarkParseLarge parses 100 tools' worth of code (about 300 KB), the
// size of a big generated module.
func BenchmarkParseLarge(b *testing.B) {
	src := strings.Repeat(benchTool, 100)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
