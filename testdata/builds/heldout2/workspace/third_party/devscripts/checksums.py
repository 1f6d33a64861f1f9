"""checksums.py OUT FILE...: writes a SHA256SUMS file for FILE..., sorted by name."""

import hashlib
import os
import sys


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def main(out, *files):
    with open(out, "w") as f:
        for path in sorted(files, key=os.path.basename):
            f.write("%s  %s\n" % (sha256(path), os.path.basename(path)))


if __name__ == "__main__":
    main(*sys.argv[1:])
