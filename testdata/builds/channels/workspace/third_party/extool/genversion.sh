#!/bin/sh
# genversion.sh [--date EPOCH]: writes a version header, dated now unless
# --date is given.
if [ "$1" = --date ]; then
  stamp=$(date -u -d "@$2" +%Y%m%d)
else
  stamp=$(date +%Y%m%d.%H%M%S)
fi
cat <<EOT
#pragma once
#define TOOL_VERSION "2.4.1-$stamp"
EOT
