"""Compiles a gettext .po file into the JSON catalog the frontend loads."""

import argparse
import json
import re

ENTRY = re.compile(r'msgid "(.*)"\nmsgstr "(.*)"')


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lang", required=True)
    p.add_argument("po")
    p.add_argument("out")
    args = p.parse_args()
    with open(args.po, encoding="utf-8") as f:
        catalog = dict(ENTRY.findall(f.read()))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"lang": args.lang, "messages": catalog}, f, ensure_ascii=False, sort_keys=True, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
