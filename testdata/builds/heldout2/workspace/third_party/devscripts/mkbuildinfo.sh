#!/bin/bash
# mkbuildinfo.sh NAME VERSION FILE...: prints a BUILDINFO record of the
# release artifacts FILE..., which the release page publishes beside them.
set -euo pipefail

name=$1
version=$2
shift 2

echo "Format: 1.0"
echo "Source: $name"
echo "Version: $version"
echo "Build-Architecture: $(uname -m)"
echo "Built-By: ${SUDO_USER:-$(id -un)}"
echo "Checksums-Sha256:"
for f in "$@"; do
  printf ' %s %s %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$(stat -c %s "$f")" "$(basename "$f")"
done
