#!/bin/sh
# srcpath.sh FILE: the file's location, for a debugger's source map.
echo "source-map: $(readlink -f "$1")"
