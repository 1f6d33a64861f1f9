#!/bin/sh
# manifest.sh DIR: one line per file of DIR, with its size.
for f in $(find "$1" -type f); do
  printf '%s %s\n' "$(basename "$f")" "$(wc -c < "$f")"
done
