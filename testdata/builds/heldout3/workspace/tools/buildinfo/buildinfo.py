"""Writes the _buildinfo module shown on the backend's /about page."""

import datetime
import getpass
import platform
import socket
import sys


def main(version_file, out):
    with open(version_file) as f:
        version = f.read().strip()
    info = {
        "version": version,
        "built_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "built_by": "%s@%s" % (getpass.getuser(), socket.gethostname()),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    with open(out, "w") as f:
        f.write("# Generated at build time.\n")
        for key, value in info.items():
            f.write("%s = %r\n" % (key.upper(), value))


if __name__ == "__main__":
    main(*sys.argv[1:])
