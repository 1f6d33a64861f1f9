#!/usr/bin/env bash
# Usage: build-twice.sh [DIR]
#
# Builds DIR/ws (DIR defaults to this script's directory) twice with Debian's
# Bazel 4.2.3, as two different machines would, and writes which case outputs
# differed to DIR/results.tsv. Also writes the aquery dump the Go test reads
# (DIR/aquery.pb) and the JSON execution logs of both builds
# (DIR/execlog-a.json.gz, DIR/execlog-b.json.gz). HOSTTOOLS_KEEP=1 keeps both builds'
# directories for a closer look.
#
# Build A: a copy under /tmp (ext4), as root, umask 022, TZ=UTC, the real clock.
# Build B: another copy at a longer path under /dev/shm (tmpfs, so directories
# list in another order), made and built as user nobody with umask 077, in its
# own UTS namespace with host name "otherhost", on one CPU (taskset), with an
# old-style kernel release (setarch --uname-2.6), TZ=Pacific/Kiritimati
# (UTC+14), LANG=C, and the clock 400 days ahead (libfaketime), seconds later.
#
# What reached the actions: the path, the clock, the time zone, the user, the
# host name, the CPU count, the kernel release and the file system. The umask
# did not: Bazel runs actions with 022 (tar_no_mode is the same in both).
# Bazel does not pass TZ to actions by itself; a machine's time zone is
# /etc/localtime, so --action_env=TZ stands for it. The clock is shifted
# through --action_env as well, for the actions only, and only the clock: file
# times read back with stat(2) are left alone (NO_FAKE_STAT).
#
# Needs root and: apt-get install bazel-bootstrap bazel-skylib bazel-platforms
# bazel-rules-java faketime cpio uuid-runtime zip unzip zstd xz-utils bzip2
# lz4 libarchive-tools default-jdk-headless gcc clang nodejs python3 perl
# util-linux fakeroot parallel make busybox bsdextrautils file gettext-base
# patch
set -euo pipefail
here=$(cd "${1:-$(dirname "$0")}" && pwd)
scratch=$(mktemp -d /tmp/hosttools-a.XXXXXX)
shm=$(mktemp -d /dev/shm/hosttools-b.XXXXXX)
chmod 755 "$shm"
cleanup() {
  if [ -n "${HOSTTOOLS_KEEP:-}" ]; then echo "kept $scratch and $shm" >&2; return; fi
  chmod -R u+w "$scratch" "$shm" 2>/dev/null || true
  rm -rf "$scratch" "$shm"
}
trap cleanup EXIT
faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -1)
common=(--execution_log_json_file=execlog.json --nostamp)

# Build A.
a=$scratch/hosttools
cp -r "$here/ws" "$a"
(cd "$a" && env -i HOME="$scratch/home" PATH=/usr/bin:/bin TZ=UTC LANG=C.UTF-8 TMPDIR=/tmp \
  bash -c 'umask 022; exec bazel --batch --output_user_root="$0" build "$@" //...' \
  "$scratch/root" "${common[@]}" --action_env=TZ) >"$scratch/a.log" 2>&1 \
  || { tail -30 "$scratch/a.log" >&2; exit 1; }
# The dump the Go test reads, taken with build A's flags.
(cd "$a" && env -i HOME="$scratch/home" PATH=/usr/bin:/bin TZ=UTC LANG=C.UTF-8 \
  bazel --batch --output_user_root="$scratch/root" aquery --action_env=TZ --nostamp \
  --output=proto 'mnemonic("Genrule|RunShellCase", //gen/...)' >"$here/aquery.pb") 2>>"$scratch/a.log" \
  || { tail -30 "$scratch/a.log" >&2; exit 1; }

sleep 2

# Build B: the copy is made by nobody under umask 077, like a checkout by
# another user.
b=$shm/checkouts/another-user/hosttools
mkdir -p "$shm/checkouts/another-user" "$shm/home" "$shm/tmp"
chown -R nobody:nogroup "$shm"
tar -C "$here" -cf - ws | setpriv --reuid=nobody --regid=nogroup --clear-groups \
  bash -c 'umask 077; mkdir "$0" && tar -C "$0" --strip-components=1 --no-same-permissions -m -xf -' "$b"
(cd "$b" && unshare --uts bash -c 'hostname otherhost; exec "$@"' _ \
  setpriv --reuid=nobody --regid=nogroup --clear-groups \
  taskset -c 0 setarch x86_64 --uname-2.6 \
  env -i HOME="$shm/home" PATH=/usr/bin:/bin TZ=Pacific/Kiritimati LANG=C TMPDIR="$shm/tmp" \
    FAKETIME=+400d DONT_FAKE_MONOTONIC=1 NO_FAKE_STAT=1 \
  bash -c 'umask 077; exec bazel --batch --output_user_root="$0" build "$@" //...' \
  "$shm/root" "${common[@]}" --action_env=TZ --action_env=FAKETIME --action_env=DONT_FAKE_MONOTONIC --action_env=NO_FAKE_STAT \
  --action_env=LD_PRELOAD="$faketime_lib") >"$scratch/b.log" 2>&1 \
  || { tail -30 "$scratch/b.log" >&2; exit 1; }

# Compare every case's output.
out_a=$a/bazel-bin/gen
out_b=$b/bazel-bin/gen
{
  printf 'case\tresult\n'
  for f in $(cd "$out_a" && ls *.out | LC_ALL=C sort); do
    name=${f%.out}
    if cmp -s "$out_a/$f" "$out_b/$f"; then r=same; else r=differs; fi
    printf '%s\t%s\n' "$name" "$r"
  done
} >"$here/results.tsv"
gzip -n -9 <"$a/execlog.json" >"$here/execlog-a.json.gz"
gzip -n -9 <"$b/execlog.json" >"$here/execlog-b.json.gz"
echo "$(grep -c differs "$here/results.tsv") of $(($(wc -l <"$here/results.tsv") - 1)) cases differ"
