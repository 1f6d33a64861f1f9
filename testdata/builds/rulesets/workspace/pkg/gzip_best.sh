#!/bin/sh
# build_tar pipes the archive in and takes the compressed bytes out.
exec gzip "$@"
