"""Writes a zip archive of the files a pkg_zip manifest lists."""

import argparse
import datetime
import zipfile

from pkg.private import build_info
from pkg.private import manifest

# 1980-01-01 00:00:00 UTC: a zip entry can hold no earlier time.
ZIP_EPOCH = 315532800


def date_time(seconds):
    t = datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)
    return (t.year, t.month, t.day, t.hour, t.minute, t.second)


def main():
    parser = argparse.ArgumentParser(description="create a zip file", fromfile_prefix_chars="@")
    parser.add_argument("-o", "--output", help="The output zip file path.")
    parser.add_argument("-d", "--directory", default="/",
                        help="The directory inside the archive that holds the files.")
    parser.add_argument("-t", "--timestamp", type=int, default=ZIP_EPOCH,
                        help="The entries' time, in seconds; none before 1980.")
    parser.add_argument("-m", "--mode", help="The mode of every entry, in octal.")
    parser.add_argument("--stamp_from", default="", help="The volatile status file to take the time from.")
    parser.add_argument("--manifest", help="The manifest of what to add.")
    options = parser.parse_args()

    seconds = max(ZIP_EPOCH, options.timestamp)
    if options.stamp_from:
        seconds = build_info.get_timestamp(options.stamp_from)
    when = date_time(seconds)
    mode = int(options.mode, 8) if options.mode else 0o644
    directory = options.directory.strip("/")

    with zipfile.ZipFile(options.output, mode="w") as out:
        for entry in manifest.read_entries(options.manifest):
            dest = entry["dest"].strip("/")
            info = zipfile.ZipInfo(filename=directory + "/" + dest if directory else dest, date_time=when)
            info.flag_bits |= 0x800
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(entry["src"], "rb") as src:
                out.writestr(info, src.read())


if __name__ == "__main__":
    main()
