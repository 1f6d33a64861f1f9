"""Turns errors.csv into the backend's error code module."""

import csv
import sys


def main(src, out):
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    categories = {row["category"] for row in rows}
    with open(out, "w") as f:
        f.write("# Generated from %s. Do not edit.\n\n" % src)
        f.write("class Category:\n")
        for cat in categories:
            f.write("    %s = %r\n" % (cat.upper(), cat))
        f.write("\n\nCODES = {\n")
        for row in rows:
            f.write("    %s: (Category.%s, %r),\n" % (row["code"], row["category"].upper(), row["message"]))
        f.write("}\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
