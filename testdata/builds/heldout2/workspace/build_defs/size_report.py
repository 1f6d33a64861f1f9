"""Writes {"artifact": size in bytes} for the files given, as JSON."""

import json
import os
import sys


def main(out, *files):
    sizes = {os.path.basename(f): os.path.getsize(f) for f in files}
    with open(out, "w") as f:
        json.dump(sizes, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
