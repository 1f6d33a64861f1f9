"""render.py OUTDIR PAGE.md...: renders Markdown pages into the docs site.

The footer's "last updated" date is SOURCE_DATE_EPOCH when it is set, so
release builds can pin it, and the time of the build otherwise.
"""

import html
import os
import sys
import time

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - Berth</title></head>
<body>
{body}
<footer>Last updated {updated}</footer>
</body></html>
"""


def render(md):
    out, title = [], "Berth"
    for line in md.splitlines():
        if line.startswith("# "):
            title = line[2:]
            out.append("<h1>%s</h1>" % html.escape(title))
        elif line.strip():
            out.append("<p>%s</p>" % html.escape(line))
    return title, "\n".join(out)


def main(outdir, *pages):
    if "SOURCE_DATE_EPOCH" in os.environ:
        stamp = time.gmtime(int(os.environ["SOURCE_DATE_EPOCH"]))
    else:
        stamp = time.localtime()
    updated = time.strftime("%d %b %Y, %H:%M:%S", stamp)
    for page in pages:
        with open(page, encoding="utf-8") as f:
            title, body = render(f.read())
        name = os.path.splitext(os.path.basename(page))[0] + ".html"
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            f.write(PAGE.format(title=html.escape(title), body=body, updated=updated))


if __name__ == "__main__":
    main(*sys.argv[1:])
