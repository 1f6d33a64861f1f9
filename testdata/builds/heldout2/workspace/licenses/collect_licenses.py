"""Prints one line per dependency under a directory: its name, its SPDX
license identifier (from the first line of its LICENSE) and the file's size."""

import os
import sys

SPDX = {
    "MIT License": "MIT",
    "zlib License": "Zlib",
    "Public Domain": "LicenseRef-Public-Domain",
}


def main(root):
    for dirpath, dirnames, filenames in os.walk(root):
        if "LICENSE" not in filenames:
            continue
        path = os.path.join(dirpath, "LICENSE")
        with open(path) as f:
            first = f.readline().strip()
        name = os.path.relpath(dirpath, root)
        print("%-12s %-26s %6d bytes" % (name, SPDX.get(first, "UNKNOWN"), os.path.getsize(path)))


if __name__ == "__main__":
    main(sys.argv[1])
