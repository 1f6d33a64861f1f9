"""Writes buildinfo.json, which `driftctl doctor` prints in bug reports."""

import argparse
import json
import platform
import socket


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--version", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    info = {
        "version": args.version,
        "build_host": socket.gethostname(),
        "build_system": platform.system().lower(),
        "build_machine": platform.machine(),
        "python": platform.python_version(),
    }
    with open(args.output, "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
