"""mktar.py --out OUT --prefix DIR [--mtime N] ARCHIVE_PATH=FILE...

Packs release files into a .tar.gz with normalised owners and modes, in
sorted order.
"""

import argparse
import tarfile


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--mtime", type=int, default=0)
    p.add_argument("files", nargs="+")
    args = p.parse_args()

    def reset(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mode = 0o755 if info.mode & 0o111 else 0o644
        info.mtime = args.mtime
        return info

    with tarfile.open(args.out, "w:gz") as tar:
        for spec in sorted(args.files):
            name, path = spec.split("=", 1)
            tar.add(path, args.prefix + "/" + name, filter=reset)


if __name__ == "__main__":
    main()
