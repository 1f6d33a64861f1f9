"""Generates errors.h from errors.csv: an enum of error codes and their messages."""

import csv
import sys


def main(src, out):
    with open(src, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda row: int(row["code"]))
    with open(out, "w") as f:
        f.write("/* Generated from errors.csv by gen_errors.py. Do not edit. */\n")
        f.write("#ifndef DRIFT_ERRORS_H\n#define DRIFT_ERRORS_H\n\n")
        f.write("enum drift_error {\n")
        for row in rows:
            f.write("    DRIFT_E%s = %s,\n" % (row["name"].upper(), row["code"]))
        f.write("};\n\n")
        f.write("static const struct { int code; const char *message; } drift_error_messages[] = {\n")
        for row in rows:
            f.write('    { %s, "%s" },\n' % (row["code"], row["message"]))
        f.write("};\n\n#endif\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
