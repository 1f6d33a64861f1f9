#!/bin/bash
# hostinfo.sh [--quiet]: a line naming the build machine, or with --quiet
# only a log line on standard error.
if [ "${1:-}" = --quiet ]; then
  echo "hostinfo: running on $HOSTNAME" >&2
  echo "build-host: redacted"
else
  echo "build-host: $HOSTNAME"
fi
