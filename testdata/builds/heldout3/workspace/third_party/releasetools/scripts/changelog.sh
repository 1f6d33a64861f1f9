#!/bin/sh
# changelog.sh VERSION SOURCE_DATE_EPOCH NEWS OUT: the release's changelog
# section, dated by the release commit rather than by the build.
set -eu
version=$1 epoch=$2 news=$3 out=$4
{
  printf '%s (%s)\n' "$version" "$(date -u -d "@$epoch" +%Y-%m-%d)"
  printf '%s\n' "$version ($(date -u -d "@$epoch" +%Y-%m-%d))" | sed 's/./=/g'
  echo
  sed -e 's/^/  /' "$news"
} > "$out"
