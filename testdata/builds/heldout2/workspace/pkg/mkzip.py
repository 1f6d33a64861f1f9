"""mkzip.py OUT FILE...: a zip of FILE... (by base name) that is the same
bytes on every machine: sorted, dated 1980-01-01, mode 0644."""

import os
import sys
import zipfile


def main(out, *files):
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(files, key=os.path.basename):
            info = zipfile.ZipInfo(os.path.basename(path), date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                z.writestr(info, f.read())


if __name__ == "__main__":
    main(*sys.argv[1:])
