#!/bin/sh
# mkindex.sh DIR: prints the documentation index, one "title<TAB>file" line
# per Markdown file under DIR.
set -e
cd "$1"
find . -name '*.md' | while read -r f; do
  title=$(sed -n 's/^# //p;q' "$f")
  printf '%s\t%s\n' "${title:-${f#./}}" "${f#./}"
done
