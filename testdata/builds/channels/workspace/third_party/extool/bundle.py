"""bundle.py [--normalize] OUT FILE...: a zip of the files.

With --normalize every entry gets a fixed time and mode, as
reproducible-builds.org recommends.
"""

import sys
import zipfile


def main(argv):
    normalize = argv[:1] == ["--normalize"]
    if normalize:
        argv = argv[1:]
    out, files = argv[0], argv[1:]
    with zipfile.ZipFile(out, "w") as z:
        for name in files:
            if normalize:
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                with open(name, "rb") as f:
                    z.writestr(info, f.read())
            else:
                z.write(name)


if __name__ == "__main__":
    main(sys.argv[1:])
