"""Builds a pure-Python wheel from files given as ARCHIVE_NAME=PATH."""

import argparse
import base64
import hashlib
import zipfile


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (name, digest, len(data))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    distinfo = "%s-%s.dist-info" % (args.name, args.version)
    record = ""
    with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as whl:
        for spec in sorted(args.files):
            arcname, path = spec.split("=", 1)
            whl.write(path, arcname)
            with open(path, "rb") as f:
                record += record_line(arcname, f.read())
        metadata = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (args.name, args.version)
        wheel = "Wheel-Version: 1.0\nGenerator: berth-build_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        for name, text in (("METADATA", metadata), ("WHEEL", wheel)):
            whl.writestr(zipfile.ZipInfo(distinfo + "/" + name, (1980, 1, 1, 0, 0, 0)), text)
            record += record_line(distinfo + "/" + name, text.encode())
        record += distinfo + "/RECORD,,\n"
        whl.writestr(zipfile.ZipInfo(distinfo + "/RECORD", (1980, 1, 1, 0, 0, 0)), record)


if __name__ == "__main__":
    main()
