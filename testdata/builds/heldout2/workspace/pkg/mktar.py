"""mktar.py OUT PREFIX FILE...: a .tar.gz of FILE... under PREFIX/, owned by
root, so that unpacking it as root gives files root owns."""

import os
import sys
import tarfile


def as_root(info):
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def main(out, prefix, *files):
    with tarfile.open(out, "w:gz") as tar:
        for path in sorted(files):
            tar.add(path, arcname=os.path.join(prefix, os.path.basename(path)), filter=as_root)


if __name__ == "__main__":
    main(*sys.argv[1:])
