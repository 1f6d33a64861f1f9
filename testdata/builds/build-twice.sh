#!/usr/bin/env bash
# build-twice.sh WORKSPACE_DIR OUT_DIR
#
# Builds WORKSPACE_DIR (//...) twice with Debian's Bazel 4.2.3, offline, the
# way reprotest rebuilds a package: from two copies of the workspace at
# different absolute paths, the second made later, on another file system,
# in reverse file order and with a checkout's modes under another umask; with
# two output bases, no caches, and a second build that runs under another TZ,
# LANG/LC_ALL, --jobs, BUILD_FLAVOR and, when `unshare --uts` works, another
# host name; as root, the second build runs as another account (ahab-build)
# and the first on one CPU. It also takes the aquery dump of the first copy
# the way Ahab takes it. Writes to OUT_DIR, only once everything has
# succeeded:
#   old.json, new.json        --execution_log_json_file of each build
#   old.binlog, new.binlog    --execution_log_binary_file of each build
#   aquery.pb                 aquery --output=proto --include_param_files //...
#   command.txt               the commands as run, and the tools' versions
#
# Environment: BUILD_TWICE_GAP (default 61) is the least number of seconds
# between making the two copies; 61 makes even `ls -l`'s minute-resolution
# times differ. BUILD_TWICE_KEEP=DIR also copies each build's bazel-bin to
# DIR/old and DIR/new, to see what differs. BUILD_TWICE_USER (default
# ahab-build) names the second build's account, made with useradd if missing.
#
# Leaves nothing behind: both Bazel servers are shut down and the scratch
# directories removed, also on failure or interrupt.
set -euo pipefail

usage() { echo "usage: $0 WORKSPACE_DIR OUT_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
[ -f "$1/WORKSPACE" ] || { echo "$0: $1: no WORKSPACE file, expected a Bazel workspace" >&2; exit 1; }
command -v bazel >/dev/null || { echo "$0: no bazel on PATH, expected Debian's bazel-bootstrap 4.2.3" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
workspace=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
name=$(basename "$out")
gap=${BUILD_TWICE_GAP:-61}
keep=${BUILD_TWICE_KEEP:-}

# Ahab's sentinels (reference §2), set during the aquery as Ahab sets them.
user_sentinel=ahab-sentinel-user-4f8a1c6b9d2e7350
hostname_sentinel=ahab-sentinel-hostname-4f8a1c6b9d2e7350
new_hostname=build-twice-new

scratch=$(mktemp -d "${TMPDIR:-/tmp}/build-twice.XXXXXX")
# The second copy lives on a tmpfs when there is one, so that directory
# listings come back in another order than from the first copy's file system.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && elsewhere=$(mktemp -d /dev/shm/build-twice.XXXXXX 2>/dev/null); then
  second_fs="tmpfs (/dev/shm)"
else
  elsewhere=$(mktemp -d "${TMPDIR:-/tmp}/build-twice-elsewhere.XXXXXX")
  second_fs="the same file system as the first copy"
fi
outputs=(old.json new.json old.binlog new.binlog aquery.pb command.txt)
old_copy=$scratch/checkout/$name
new_copy=$elsewhere/later/checkout-two/$name
# Each build's environment; USER and the variables below are all Bazel sees.
old_vars=("HOME=$scratch/home-old" PATH=/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=GMT+12 BUILD_FLAVOR=old)
new_vars=("HOME=$scratch/home-new" PATH=/usr/bin:/bin LANG=C LC_ALL=C TZ=GMT-14 BUILD_FLAVOR=new)
old_env=(env -i "${old_vars[@]}" "USER=$(id -un)")
new_env=(env -i "${new_vars[@]}" "USER=$(id -un)")

# The account and the CPUs. As root, the second build runs as another
# account, with its own group, HOME and output base and a copy it owns, so
# that whoami, id and the owners archives record differ; elsewhere both
# builds run as the caller. The first build runs on one CPU and the second on
# all this script may use, so that nproc and other counts of the CPUs an
# action may use differ (a Bazel server inherits its client's affinity).
new_user=${BUILD_TWICE_USER:-ahab-build}
as_new=()
if [ "$(id -u)" = 0 ]; then
  id -u "$new_user" >/dev/null 2>&1 ||
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
      --comment "build-twice.sh's second build" "$new_user"
  as_new=(setpriv "--reuid=$new_user" "--regid=$new_user" --init-groups)
  new_env=(env -i "${new_vars[@]}" "USER=$new_user")
  user_note="the second build runs as $new_user ($(id "$new_user")), the first as $(id -un) ($(id))"
else
  user_note="not root: both builds ran as $(id -un) ($(id)), the account was not varied"
fi
one_cpu=()
all_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
if [ -n "$all_cpus" ] && [ "$all_cpus" != 0 ] && taskset -c 0 true 2>/dev/null; then
  one_cpu=(taskset -c 0)
  cpu_note="the first build runs on CPU 0 (taskset -c 0), the second on CPUs $all_cpus"
else
  cpu_note="both builds ran on CPUs ${all_cpus:-(taskset failed)}: the CPUs were not varied"
fi
aquery_env=(env -i "${old_vars[@]}" "USER=$user_sentinel" "HOSTNAME=$hostname_sentinel")
# Startup options shared by every command in one output base, so that no
# command restarts the server; the server exits by itself if this script is
# killed before it can shut it down.
startup=(--max_idle_secs=600)

cleanup() {
  local status=$?
  set +e
  [ -d "$old_copy" ] && (cd "$old_copy" && "${old_env[@]}" bazel "${startup[@]}" shutdown >/dev/null 2>&1)
  [ -d "$new_copy" ] && (cd "$new_copy" && "${as_new[@]}" "${new_env[@]}" bazel "${startup[@]}" shutdown >/dev/null 2>&1)
  chmod -R u+w "$scratch" "$elsewhere" 2>/dev/null
  rm -rf "$scratch" "$elsewhere"
  for f in "${outputs[@]}"; do rm -f "$out/.$f.tmp"; done
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cp -R "$here/stubs" "$scratch/stubs"
flags=(
  "--override_repository=rules_cc=$scratch/stubs/rules_cc"
  "--override_repository=remote_coverage_tools=$scratch/stubs/remote_coverage_tools"
  --override_repository=platforms=/usr/share/bazel/tools/platforms
  --override_repository=bazel_skylib=/usr/share/bazel/tools/skylib
  --override_repository=rules_java=/usr/share/bazel/rules/java
  --spawn_strategy=standalone
)
no_cache=(--disk_cache= --remote_cache=)

log=$scratch/command.txt
note() { printf '%s\n' "$*" >>"$log"; }
# run DIR COMMAND...: runs COMMAND in DIR with its output in last.out and
# last.err, records it in command.txt, and on failure prints the tail of its
# errors and exits.
run() {
  local dir=$1; shift
  note "(cd $(printf %q "$dir") && $(printf '%q ' "$@"))"
  if ! (cd "$dir" && "$@") >"$scratch/last.out" 2>"$scratch/last.err"; then
    echo "$0: failed: $*" >&2
    tail -40 "$scratch/last.err" >&2
    exit 1
  fi
}

# copy SRC DST [SORT_FLAG...]: copies the workspace without keeping times,
# creating directories and files in sort's order, so that a file system that
# lists a directory in creation order lists the two copies differently.
copy() {
  local src=$1 dst=$2 f
  shift 2
  mkdir -p "$dst"
  (cd "$src" && find . -mindepth 1 -type d ! -path './bazel-*' -print0) | sort -z "$@" |
    while IFS= read -r -d '' f; do mkdir -p "$dst/$f"; done
  (cd "$src" && find . ! -type d ! -path './bazel-*' -print0) | sort -z "$@" |
    while IFS= read -r -d '' f; do cp -P "$src/$f" "$dst/$f" && checkout_mode "$src/$f" "$dst/$f"; done
}

# checkout_mode SRC DST: gives the copy DST the mode a checkout made under
# the current umask gives a file, as git does: 0666, or 0777 for an
# executable, less the umask (cp would keep SRC's bits less the umask, so
# that a umask of 0002 would change nothing).
checkout_mode() {
  [ -L "$2" ] && return
  local mode=0666
  [ -x "$1" ] && mode=0777
  chmod "$(printf '%o' $((mode & ~$(umask))))" "$2"
}

{
  echo "# build-twice.sh $(basename "$(dirname "$workspace")")/$(basename "$workspace") $name"
  echo "# bazel: $(command -v bazel), Debian package $(dpkg-query -W -f '${Package} ${Version}' bazel-bootstrap 2>/dev/null || echo '(not from dpkg)')"
  echo "# host tools: gcc $(gcc -dumpfullversion 2>/dev/null || echo '?'), $(tar --version | head -1), $(ar --version | head -1)"
  echo "# $(zip -v | sed -n 2p | sed 's/^ *//'), $(gzip --version | head -1), $(/usr/bin/python3 --version 2>&1), $(bash --version | head -1)"
  echo "# $(perl -e 'print "perl $^V"'), $(awk --version 2>&1 | head -1), $(make --version | head -1)"
  echo "# kernel $(uname -sr)"
} >"$log"

# The first build.
umask 0022
copy "$workspace" "$old_copy"
copied_at=$(date +%s)
note "# first copy at $old_copy, umask 0022, made at $(date -u -d "@$copied_at" +%FT%TZ)"
note "# $cpu_note"
run "$old_copy" "${one_cpu[@]}" "${old_env[@]}" bazel "${startup[@]}" build "${flags[@]}" "${no_cache[@]}" --jobs=1 \
  "--execution_log_json_file=$scratch/old.json" "--execution_log_binary_file=$scratch/old.binlog" //...

[ -z "$keep" ] || { mkdir -p "$keep/old" && cp -RL "$old_copy/bazel-bin/." "$keep/old/"; }

# The aquery dump, as Ahab takes it: the output base `bazel info` reports,
# then aquery with the sentinels and that output base pinned.
run "$old_copy" "${one_cpu[@]}" "${old_env[@]}" bazel "${startup[@]}" info output_base
output_base=$(cat "$scratch/last.out")
run "$old_copy" "${one_cpu[@]}" "${aquery_env[@]}" bazel "--output_base=$output_base" "--output_user_root=$(dirname "$output_base")" \
  "${startup[@]}" aquery "${flags[@]}" --output=proto --include_param_files //...
mv "$scratch/last.out" "$scratch/aquery.pb"
(cd "$old_copy" && "${old_env[@]}" bazel "--output_base=$output_base" "--output_user_root=$(dirname "$output_base")" \
  "${startup[@]}" shutdown >/dev/null 2>&1) || true

# The second build: a later copy elsewhere, another environment.
wait=$((copied_at + gap - $(date +%s)))
[ "$wait" -gt 0 ] && sleep "$wait"
umask 0002
copy "$workspace" "$new_copy" -r
note "# second copy at $new_copy on $second_fs, umask 0002, made at $(date -u +%FT%TZ), files created in reverse order"
# The second account owns its copy, its HOME (and so its output base) and
# the directory its logs go to; the stubs and the scratch directory above
# them need only be readable.
new_logs=$scratch/new-logs
mkdir -p "$scratch/home-new" "$new_logs"
if [ ${#as_new[@]} -gt 0 ]; then
  chmod a+rx "$scratch"
  chmod -R a+rX "$scratch/stubs"
  chown -R "$new_user:$new_user" "$elsewhere" "$scratch/home-new" "$new_logs"
fi
note "# $user_note"
new_build=(bazel "${startup[@]}" build "${flags[@]}" "${no_cache[@]}" --jobs=8
  "--execution_log_json_file=$new_logs/new.json" "--execution_log_binary_file=$new_logs/new.binlog" //...)
if unshare --uts sh -c 'hostname "$0"' "$new_hostname" 2>/dev/null; then
  note "# the second build runs in a new UTS namespace with host name $new_hostname (first: $(hostname))"
  run "$new_copy" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$new_hostname" "${as_new[@]}" "${new_env[@]}" "${new_build[@]}"
else
  note "# unshare --uts failed: both builds ran with host name $(hostname)"
  run "$new_copy" "${as_new[@]}" "${new_env[@]}" "${new_build[@]}"
fi
[ -z "$keep" ] || { mkdir -p "$keep/new" && cp -RL "$new_copy/bazel-bin/." "$keep/new/"; }
run "$new_copy" "${as_new[@]}" "${new_env[@]}" bazel "${startup[@]}" shutdown
cp "$new_logs/new.json" "$new_logs/new.binlog" "$scratch/"
umask 0022

# Scratch paths in the logs are what they were; command.txt says which.
for f in "${outputs[@]}"; do cp "$scratch/$f" "$out/.$f.tmp"; done
for f in "${outputs[@]}"; do mv "$out/.$f.tmp" "$out/$f"; done
echo "$name: $(wc -c <"$out/old.json") + $(wc -c <"$out/new.json") bytes of JSON log, $(wc -c <"$out/aquery.pb") bytes of aquery"
