#!/bin/sh
# A stand-in for bazel, for the unit tests of package reprotest. It records
# each call (argv, working directory, umask, host name, TZ, LANG, LC_ALL)
# as one line in $FAKE_BAZEL_RECORD and acts a little like Bazel: `build`
# starts a "server" (a tail -f whose pid it writes where Bazel does), makes a
# read-only directory in the output base, an output (pwd.txt, its working
# directory) in the execution root's bazel-out, and writes the execution log;
# `shutdown` stops the server. FAKE_BAZEL_MODE changes what build 2 (or
# every build) does:
#   fail2    build 2 prints 40 lines on stderr and exits 1
#   hang     every build waits for SIGINT, then exits 8 as Bazel does
#   stuck    `shutdown` fails, and the server must be killed
set -eu
output_base= log= command=
for a in "$@"; do
  case $a in
    --output_base=*) output_base=${a#--output_base=} ;;
    --execution_log_binary_file=*) log=${a#--execution_log_binary_file=} ;;
    build|shutdown) [ -n "$command" ] || command=$a ;;
  esac
done
printf '%s|pwd=%s|umask=%s|host=%s|TZ=%s|LANG=%s|LC_ALL=%s\n' "$*" "$PWD" "$(umask)" "$(hostname)" \
  "${TZ-unset}" "${LANG-unset}" "${LC_ALL-unset}" >>"$FAKE_BAZEL_RECORD"
mode=${FAKE_BAZEL_MODE:-ok}
case $command in
  build)
    mkdir -p "$output_base/server" "$output_base/execroot/ro"
    touch "$output_base/execroot/ro/file"
    chmod 555 "$output_base/execroot/ro"
    mkdir -p "$output_base/execroot/ws/bazel-out/k8-fastbuild/bin"
    echo "$PWD" >"$output_base/execroot/ws/bazel-out/k8-fastbuild/bin/pwd.txt"
    # The "server" has the output base in its command line, as Bazel's has.
    : >"$output_base/server/server.pid.txt"
    tail -f "$output_base/server/server.pid.txt" </dev/null >/dev/null 2>&1 &
    echo $! >"$output_base/server/server.pid.txt"
    if [ "$mode" = hang ]; then
      : >"$FAKE_BAZEL_RECORD.started"
      trap 'echo "ERROR: build interrupted" >&2; exit 8' INT
      while :; do sleep 0.05; done
    fi
    case $log in
      */new.binlog) [ "$mode" = fail2 ] && { for i in $(seq 40); do echo "line $i" >&2; done; exit 1; } ;;
    esac
    : >"$log"
    ;;
  shutdown)
    [ "$mode" = stuck ] && { echo "stuck" >&2; exit 37; }
    pid=$(cat "$output_base/server/server.pid.txt")
    kill "$pid"
    # As Bazel's does, shutdown returns once the server is gone (a zombie
    # has an empty command line).
    while [ -n "$(tr -d '\000' <"/proc/$pid/cmdline" 2>/dev/null)" ]; do sleep 0.01; done
    ;;
esac
