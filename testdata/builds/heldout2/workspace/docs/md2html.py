"""A small Markdown to HTML converter for the manual: headings, paragraphs,
code blocks and inline code, which is all the manual uses."""

import argparse
import html
import os
import re


def convert(text):
    out, para, code = [], [], None

    def flush():
        if para:
            out.append("<p>%s</p>" % inline(" ".join(para)))
            para.clear()

    for line in text.splitlines():
        if code is not None:
            if line.startswith("```"):
                out.append("<pre><code>%s</code></pre>" % html.escape("\n".join(code)))
                code = None
            else:
                code.append(line)
        elif line.startswith("```"):
            flush()
            code = []
        elif m := re.match(r"(#{1,6}) (.*)", line):
            flush()
            n = len(m.group(1))
            out.append("<h%d>%s</h%d>" % (n, inline(m.group(2)), n))
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def inline(text):
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for src in args.sources:
        with open(src) as f:
            body = convert(f.read())
        name = os.path.splitext(os.path.basename(src))[0] + ".html"
        with open(os.path.join(args.out_dir, name), "w") as f:
            f.write("<!doctype html>\n<meta charset=\"utf-8\">\n<title>driftwood</title>\n%s\n" % body)


if __name__ == "__main__":
    main()
