"""Writes a wheel: the listed files, then METADATA, WHEEL and RECORD."""

import argparse
import base64
import hashlib
import zipfile

# 1980-01-01 00:00:00, the earliest time a zip entry can hold.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def read_status(paths):
    """The KEY value lines of the workspace status files."""
    values = {}
    for path in paths:
        with open(path, "r", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                values[key] = value
    return values


def stamped(text, values):
    for key, value in values.items():
        text = text.replace("{%s}" % key, value)
    return text


class WheelMaker(object):
    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, mode="w", compression=zipfile.ZIP_DEFLATED)
        self.record = []

    def add(self, name, data):
        info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append("%s,sha256=%s,%d" % (name, digest, len(data)))

    def close(self, record_name):
        self.record.append(record_name + ",,")
        info = zipfile.ZipInfo(record_name, date_time=ZIP_EPOCH)
        info.external_attr = 0o644 << 16
        self.zip.writestr(info, "\n".join(self.record) + "\n")
        self.zip.close()


def main():
    parser = argparse.ArgumentParser(description="Builds a python wheel", fromfile_prefix_chars="@")
    parser.add_argument("--name", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--python_tag", default="py3")
    parser.add_argument("--abi", default="none")
    parser.add_argument("--platform", default="any")
    parser.add_argument("--out", required=True)
    parser.add_argument("--input_file_list", required=True, help="Lines of archive_path;file_path.")
    parser.add_argument("--strip_path_prefix", action="append", default=[])
    parser.add_argument("--volatile_stamp_info")
    parser.add_argument("--stable_stamp_info")
    options = parser.parse_args()

    status = [p for p in (options.stable_stamp_info, options.volatile_stamp_info) if p]
    version = stamped(options.version, read_status(status)) if status else options.version

    files = []
    with open(options.input_file_list, "r", encoding="utf-8") as f:
        for line in f:
            archive_path, _, path = line.rstrip("\n").partition(";")
            for prefix in options.strip_path_prefix:
                if archive_path.startswith(prefix):
                    archive_path = archive_path[len(prefix):]
                    break
            files.append((archive_path, path))

    dist_info = "%s-%s.dist-info" % (options.name, version)
    wheel = WheelMaker(options.out)
    for archive_path, path in sorted(files):
        with open(path, "rb") as f:
            wheel.add(archive_path, f.read())
    wheel.add(dist_info + "/METADATA",
              ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (options.name, version)).encode())
    wheel.add(dist_info + "/WHEEL",
              ("Wheel-Version: 1.0\nGenerator: bazel-wheelmaker 1.0\nRoot-Is-Purelib: true\n"
               "Tag: %s-%s-%s\n" % (options.python_tag, options.abi, options.platform)).encode())
    wheel.close(dist_info + "/RECORD")


if __name__ == "__main__":
    main()
