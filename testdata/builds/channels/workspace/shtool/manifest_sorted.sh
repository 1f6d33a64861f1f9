#!/bin/sh
# manifest_sorted.sh DIR: one line per file of DIR, with its size, by name.
for f in $(find "$1" -type f | sort); do
  printf '%s %s\n' "$(basename "$f")" "$(wc -c < "$f")"
done
