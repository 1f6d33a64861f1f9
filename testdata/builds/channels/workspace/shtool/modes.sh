#!/bin/bash
# modes.sh FILE...: each file's permissions, as ls shows them.
for f in "$@"; do
  ls -l "$f" | cut -d' ' -f1
done
