"""Renders a systemd unit template: render_unit.py IN OUT KEY=VALUE..."""

import string
import sys


def main(src, out, *pairs):
    values = dict(pair.split("=", 1) for pair in pairs)
    with open(src) as f:
        text = string.Template(f.read()).substitute(values)
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(*sys.argv[1:])
