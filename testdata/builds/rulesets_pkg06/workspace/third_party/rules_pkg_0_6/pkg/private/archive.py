"""Writes tar archives whose entries carry the times, modes and owners given."""

import gzip
import os
import subprocess
import tarfile

# 2000-01-01 00:00:00 UTC, what --mtime=portable stands for.
PORTABLE_MTIME = 946684800


class TarFileWriter(object):
    """A tar archive being written, with its parent directories made as needed."""

    def __init__(self, name, compression="", compressor="", default_mtime=None,
                 preserve_tar_mtimes=True, compression_level=-1):
        if default_mtime is None:
            self.default_mtime = 0
        elif default_mtime == "portable":
            self.default_mtime = PORTABLE_MTIME
        else:
            self.default_mtime = int(default_mtime)
        self.preserve_tar_mtimes = preserve_tar_mtimes
        self.fileobj = None
        self.compressor_proc = None
        mode = "w:"
        if compressor:
            mode = "w|"
            self.compressor_proc = subprocess.Popen(compressor.split(), stdin=subprocess.PIPE,
                                                    stdout=open(name, "wb"))
            self.fileobj = self.compressor_proc.stdin
        elif compression in ("gz", "tgz"):
            level = min(compression_level, 9) if compression_level >= 0 else 6
            # gzip's header gets the archive's time, not the clock.
            self.fileobj = gzip.GzipFile(filename=name, mode="wb", compresslevel=level,
                                         mtime=self.default_mtime)
        elif compression in ("bz2", "bzip2"):
            mode = "w:bz2"
        elif compression in ("xz", "lzma"):
            mode = "w:xz"
        self.tar = tarfile.open(name=name, mode=mode, fileobj=self.fileobj,
                                format=tarfile.GNU_FORMAT)
        self.members = set()

    def __enter__(self):
        return self

    def __exit__(self, t, v, traceback):
        self.close()

    def _add_parents(self, path, uid, gid, uname, gname):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            parent = "/".join(parts[:i]) + "/"
            if parent in self.members:
                continue
            info = tarfile.TarInfo(parent)
            info.type = tarfile.DIRTYPE
            info.mode = 0o755
            info.mtime = self.default_mtime
            info.uid, info.gid, info.uname, info.gname = uid, gid, uname, gname
            self.tar.addfile(info)
            self.members.add(parent)

    def add_file(self, name, kind=tarfile.REGTYPE, file_content=None, link=None,
                 uid=0, gid=0, uname="", gname="", mtime=None, mode=None):
        """Adds name, with file_content's bytes or as a link to link."""
        if not name or name in self.members:
            return
        self._add_parents(name, uid, gid, uname, gname)
        info = tarfile.TarInfo(name)
        info.type = kind
        info.mtime = self.default_mtime if mtime is None else mtime
        info.uid, info.gid, info.uname, info.gname = uid, gid, uname, gname
        if mode is None:
            mode = 0o644 if kind == tarfile.REGTYPE else 0o755
        info.mode = mode
        if link:
            info.linkname = link
        if file_content:
            with open(file_content, "rb") as f:
                info.size = os.fstat(f.fileno()).st_size
                self.tar.addfile(info, f)
        else:
            self.tar.addfile(info)
        self.members.add(name)

    def add_tar(self, tar, prefix=None):
        """Copies the members of another archive, under prefix."""
        with tarfile.open(name=tar, mode="r:*") as intar:
            for info in intar:
                # Members keep their own times unless told otherwise, as
                # rules_pkg has done since 0.2.6.
                if not self.preserve_tar_mtimes:
                    info.mtime = self.default_mtime
                if prefix:
                    info.name = os.path.normpath(prefix.strip("/") + "/" + info.name)
                if info.name in self.members:
                    continue
                self.tar.addfile(info, intar.extractfile(info) if info.isfile() else None)
                self.members.add(info.name)

    def close(self):
        self.tar.close()
        if self.fileobj:
            self.fileobj.close()
        if self.compressor_proc and self.compressor_proc.wait() != 0:
            raise RuntimeError("compressor failed")
