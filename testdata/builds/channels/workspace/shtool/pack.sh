#!/bin/bash
# pack.sh [--reproducible] OUT FILE...: a tar of the files, times and modes
# normalised; --reproducible also drops the owner.
set -eu
owner=()
if [ "$1" = --reproducible ]; then
  owner=(--owner=0 --group=0 --numeric-owner)
  shift
fi
out=$1
shift
tar --mtime=@0 --mode=go-w "${owner[@]}" -cf "$out" "$@"
