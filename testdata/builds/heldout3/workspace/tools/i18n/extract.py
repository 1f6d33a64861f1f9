"""Extracts _('...') strings from JavaScript sources into a .pot template."""

import re
import sys
import time

CALL = re.compile(r"_\('([^']*)'\)")

HEADER = '''# Berth web frontend messages.
msgid ""
msgstr ""
"Project-Id-Version: berth-web\\n"
"POT-Creation-Date: {date}\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

'''


def main(out, *sources):
    seen = {}
    for src in sources:
        with open(src, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                for msg in CALL.findall(line):
                    seen.setdefault(msg, []).append("%s:%d" % (src, lineno))
    with open(out, "w", encoding="utf-8") as f:
        f.write(HEADER.format(date=time.strftime("%Y-%m-%d %H:%M:%S%z")))
        for msg, refs in seen.items():
            f.write("#: %s\nmsgid \"%s\"\nmsgstr \"\"\n\n" % (" ".join(refs), msg))


if __name__ == "__main__":
    main(*sys.argv[1:])
