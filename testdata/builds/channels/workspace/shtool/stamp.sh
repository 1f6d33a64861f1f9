#!/bin/bash
# Prints a version stamp: SOURCE_DATE_EPOCH when the caller sets it, as
# reproducible-builds.org asks, else the time now.
set -eu
when=${SOURCE_DATE_EPOCH:-$(date +%s)}
echo "version 1.0+$(date -u -d "@$when" +%Y%m%d%H%M%S)"
