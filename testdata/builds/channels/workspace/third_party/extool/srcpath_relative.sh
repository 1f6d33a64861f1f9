#!/bin/sh
# srcpath_relative.sh FILE: the file's location, for a debugger's source map.
echo "source-map: $1"
