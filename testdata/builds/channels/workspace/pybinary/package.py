"""package.py OUT FILE...: a tar of FILE..., with times and modes fixed.

--root also records every file as owned by root.
"""

import argparse
import tarfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", action="store_true")
    parser.add_argument("out")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    def normalize(info):
        info.mtime = 0
        info.mode = 0o644
        if args.root:
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
        return info

    with tarfile.open(args.out, "w", format=tarfile.GNU_FORMAT) as tar:
        for name in args.files:
            tar.add(name, filter=normalize)


if __name__ == "__main__":
    main()
