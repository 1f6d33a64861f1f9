#!/bin/sh
# checksums.sh OUT FILE...: a SHA256SUMS file naming each file by base name.
set -eu
out=$1; shift
for f in "$@"; do
  printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$(basename "$f")"
done > "$out"
