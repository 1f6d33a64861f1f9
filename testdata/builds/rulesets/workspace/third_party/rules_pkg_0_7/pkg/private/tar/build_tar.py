"""Writes a tar archive of the files a pkg_tar manifest lists."""

import argparse
import tarfile

from pkg.private import build_info
from pkg.private import manifest
from pkg.private.tar import tar_writer


def flag_value(value):
    """A value given as @FILE is that file's contents."""
    if value and value.startswith("@"):
        with open(value[1:], "r", encoding="utf-8") as f:
            return f.read().strip()
    return value


def split_pairs(values, convert):
    """Maps each path=value of values (a leading / dropped) to convert(value)."""
    result = {}
    for pair in values:
        path, _, value = pair.rpartition("=")
        result[path.replace("\\=", "=").lstrip("/")] = convert(value)
    return result


def owner_pair(value, convert):
    user, _, group = value.partition(".")
    return (convert(user), convert(group))


def main():
    parser = argparse.ArgumentParser(description="Helper for building tar packages",
                                     fromfile_prefix_chars="@")
    parser.add_argument("--output", required=True, help="The output file, mandatory.")
    parser.add_argument("--manifest", help="The manifest of what to add.")
    parser.add_argument("--mode", help="The mode of every entry, in octal.")
    parser.add_argument("--mtime", help="The entries' time: seconds, or portable (2000-01-01).")
    parser.add_argument("--tar", action="append", default=[], help="An archive to merge in.")
    parser.add_argument("--directory", help="The directory inside the archive that holds the files.")
    compression = parser.add_mutually_exclusive_group()
    compression.add_argument("--compression", help="gz, bz2 or xz; none by default.")
    compression.add_argument("--compressor", help="A program, and its arguments, to compress with.")
    parser.add_argument("--compression_level", type=int, default=-1)
    parser.add_argument("--modes", action="append", default=[], help="path=mode for one entry.")
    parser.add_argument("--owners", action="append", default=[], help="path=uid.gid for one entry.")
    parser.add_argument("--owner", default="0.0", help="uid.gid of every entry.")
    parser.add_argument("--owner_name", help="user.group of every entry.")
    parser.add_argument("--owner_names", action="append", default=[], help="path=user.group for one entry.")
    parser.add_argument("--stamp_from", default="", help="The volatile status file to take the time from.")
    options = parser.parse_args()

    default_mode = int(options.mode, 8) if options.mode else None
    modes = split_pairs(options.modes, lambda m: int(m, 8))
    default_ids = owner_pair(options.owner, int)
    ids = split_pairs(options.owners, lambda o: owner_pair(o, int))
    default_names = owner_pair(options.owner_name, str) if options.owner_name else ("", "")
    names = split_pairs(options.owner_names, lambda o: owner_pair(o, str))

    mtime = options.mtime
    if options.stamp_from:
        mtime = build_info.get_timestamp(options.stamp_from)
    directory = (flag_value(options.directory) or "").strip("/")

    with tar_writer.TarFileWriter(options.output, options.compression, options.compressor,
                                  default_mtime=mtime,
                                  compression_level=options.compression_level) as out:
        if options.manifest:
            for entry in manifest.read_entries(options.manifest):
                dest = entry["dest"].strip("/")
                uid, gid = ids.get(dest, default_ids)
                uname, gname = names.get(dest, default_names)
                path = directory + "/" + dest if directory else dest
                if entry["type"] == manifest.ENTRY_IS_SYMLINK:
                    out.add_file(path, tarfile.SYMTYPE, link=entry["src"], uid=uid, gid=gid,
                                 uname=uname, gname=gname, mode=0o777)
                else:
                    out.add_file(path, file_content=entry["src"], uid=uid, gid=gid,
                                 uname=uname, gname=gname, mode=modes.get(dest, default_mode))
        for tar in options.tar:
            out.add_tar(tar, prefix=directory)


if __name__ == "__main__":
    main()
