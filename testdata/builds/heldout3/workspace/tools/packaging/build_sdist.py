"""Builds a reproducible source distribution (sorted, normalised metadata)."""

import gzip
import io
import os
import sys
import tarfile


def normalise(info, mtime):
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    info.mtime = mtime
    info.mode = 0o755 if info.mode & 0o100 else 0o644
    return info


def main(out, prefix, *files):
    mtime = int(os.environ["SOURCE_DATE_EPOCH"])
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(files):
            arcname = prefix + "/" + path.split("backend/", 1)[-1]
            tar.add(path, arcname, filter=lambda i: normalise(i, mtime))
    with open(out, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=mtime) as gz:
            gz.write(buf.getvalue())


if __name__ == "__main__":
    main(*sys.argv[1:])
