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
# the way Ahab takes it. Writes to OUT_DIR, only once
# everything has succeeded:
#   old.json, new.json        --execution_log_json_file of each build
#   old.binlog, new.binlog    --execution_log_binary_file of each build
#   aquery.pb                 aquery --output=proto --include_param_files //...
#   command.txt               the commands as run, and the tools' versions
#
# Environment: BUILD_TWICE_GAP (default 61) is the least number of seconds
# between making the two copies; 61 makes even `ls -l`'s minute-resolution
# times differ. BUILD_TWICE_KEEP=DIR also copies each build's bazel-bin to
# DIR/old and DIR/new, to see what differs, and describes each build in its
# ahab-build.json there (paths, times, host, user, homes, environment) as
# package outdiff reads it; `truth.py --keep DIR OUT_DIR` commits what the
# tests need.
# BUILD_TWICE_USER=NAME (as root; default ahab-build) runs the second build
# as the account NAME, made with useradd when there is none (and removed
# afterwards), with the second copy and HOME owned by it; BUILD_TWICE_USER=
# (empty) runs both builds as the caller.
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
if [ "$(id -u)" = 0 ]; then
  as_user=${BUILD_TWICE_USER-ahab-build}
else
  as_user=${BUILD_TWICE_USER:-}
fi
if [ -n "$as_user" ] && [ "$(id -u)" != 0 ]; then
  echo "$0: BUILD_TWICE_USER=$as_user: only root can run a build as another account" >&2
  exit 1
fi

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
new_env=(env -i "${new_vars[@]}" "USER=${as_user:-$(id -un)}")
# What the second build's commands run under: the other account, if any.
new_as=()
new_logs=$scratch
# The first build runs on one CPU and the second on all this script may
# use, so that nproc and other counts of the CPUs an action may use differ
# (a Bazel server inherits its client's affinity).
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

made_user=
cleanup() {
  local status=$?
  set +e
  [ -d "$old_copy" ] && (cd "$old_copy" && "${old_env[@]}" bazel "${startup[@]}" shutdown >/dev/null 2>&1)
  [ -d "$new_copy" ] && (cd "$new_copy" && "${new_as[@]}" "${new_env[@]}" bazel "${startup[@]}" shutdown >/dev/null 2>&1)
  chmod -R u+w "$scratch" "$elsewhere" 2>/dev/null
  rm -rf "$scratch" "$elsewhere"
  # The account, and what its Bazel server's JVM always leaves in /tmp.
  [ -n "$made_user" ] && userdel "$made_user" 2>/dev/null && rm -rf "/tmp/hsperfdata_$made_user"
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

# The second build as another account: it must reach the stubs and its
# copy, own its HOME and its copy, and have somewhere to write its logs.
if [ -n "$as_user" ]; then
  if ! id -u "$as_user" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir "/nonexistent/$as_user" --shell /usr/sbin/nologin "$as_user"
    made_user=$as_user
  fi
  new_as=(setpriv "--reuid=$(id -u "$as_user")" "--regid=$(id -g "$as_user")" --init-groups)
  chmod 0755 "$scratch" "$elsewhere"
  mkdir -p "$scratch/home-new" "$scratch/new-logs"
  chown "$as_user:" "$scratch/home-new" "$scratch/new-logs"
  new_logs=$scratch/new-logs
fi

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

# describe NAME START END COPY HOSTNAME USER VAR=VALUE...: describes build
# NAME (old or new) in $keep/NAME/ahab-build.json, as package outdiff reads
# a Build; its output base and execution root are in $scratch/NAME.info.
describe() {
  python3 - "$keep/$1/ahab-build.json" "$scratch" "$@" <<'PYTHON'
import json, os, pwd, grp, sys
path, scratch, name, start, end, copy, hostname, user, *variables = sys.argv[1:]
info = dict(line.split(": ", 1) for line in open(os.path.join(scratch, name + ".info")).read().splitlines())
paths = []
for role, p in (("workspace", copy), ("output base", info["output_base"]), ("execution root", info["execution_root"])):
    for spelling in dict.fromkeys((p, os.path.realpath(p))):
        paths.append({"role": role, "path": spelling})
env = dict(v.split("=", 1) for v in variables)
account = pwd.getpwnam(user)
build = {
    "paths": paths,
    "homes": list(dict.fromkeys((env.pop("HOME"), account.pw_dir))),
    "start": start,
    "end": end,
    "hostname": hostname,
    "user": user,
    "uid": str(account.pw_uid),
    "group": grp.getgrgid(account.pw_gid).gr_name,
    "gid": str(account.pw_gid),
    "env": {k: v for k, v in env.items() if k != "PATH"},
}
with open(path + ".tmp", "w") as f:
    json.dump(build, f, indent=2, sort_keys=True)
    f.write("\n")
os.replace(path + ".tmp", path)
PYTHON
}
now() { date -u +%FT%T.%NZ; }

# The first build.
umask 0022
old_start=$(now)
copy "$workspace" "$old_copy"
copied_at=$(date +%s)
note "# first copy at $old_copy, umask 0022, made at $(date -u -d "@$copied_at" +%FT%TZ)"
note "# $cpu_note"
run "$old_copy" "${one_cpu[@]}" "${old_env[@]}" bazel "${startup[@]}" build "${flags[@]}" "${no_cache[@]}" --jobs=1 \
  "--execution_log_json_file=$scratch/old.json" "--execution_log_binary_file=$scratch/old.binlog" //...

old_end=$(now)
if [ -n "$keep" ]; then
  mkdir -p "$keep/old" && cp -RL "$old_copy/bazel-bin/." "$keep/old/"
  run "$old_copy" "${old_env[@]}" bazel "${startup[@]}" info output_base execution_root
  mv "$scratch/last.out" "$scratch/old.info"
  describe old "$old_start" "$old_end" "$old_copy" "$(hostname)" "$(id -un)" "${old_vars[@]}"
fi

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
new_start=$(now)
copy "$workspace" "$new_copy" -r
note "# second copy at $new_copy on $second_fs, umask 0002, made at $(date -u +%FT%TZ), files created in reverse order"
if [ -n "$as_user" ]; then
  chown -R "$as_user:" "$new_copy"
  note "# the second build runs as $as_user ($(id "$as_user")), which owns its copy and its HOME (first: $(id))"
else
  note "# both builds ran as $(id -un) ($(id)): the account was not varied"
fi
new_build=("${new_as[@]}" "${new_env[@]}" bazel "${startup[@]}" build "${flags[@]}" "${no_cache[@]}" --jobs=8
  "--execution_log_json_file=$new_logs/new.json" "--execution_log_binary_file=$new_logs/new.binlog" //...)
new_host=$(hostname)
if unshare --uts sh -c 'hostname "$0"' "$new_hostname" 2>/dev/null; then
  note "# the second build runs in a new UTS namespace with host name $new_hostname (first: $(hostname))"
  run "$new_copy" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$new_hostname" "${new_build[@]}"
  new_host=$new_hostname
else
  note "# unshare --uts failed: both builds ran with host name $(hostname)"
  run "$new_copy" "${new_build[@]}"
fi
new_end=$(now)
[ "$new_logs" = "$scratch" ] || mv "$new_logs/new.json" "$new_logs/new.binlog" "$scratch/"
if [ -n "$keep" ]; then
  mkdir -p "$keep/new" && cp -RL "$new_copy/bazel-bin/." "$keep/new/"
  run "$new_copy" "${new_as[@]}" "${new_env[@]}" bazel "${startup[@]}" info output_base execution_root
  mv "$scratch/last.out" "$scratch/new.info"
  describe new "$new_start" "$new_end" "$new_copy" "$new_host" "${as_user:-$(id -un)}" "${new_vars[@]}"
fi
run "$new_copy" "${new_as[@]}" "${new_env[@]}" bazel "${startup[@]}" shutdown
umask 0022

# Scratch paths in the logs are what they were; command.txt says which.
for f in "${outputs[@]}"; do cp "$scratch/$f" "$out/.$f.tmp"; done
for f in "${outputs[@]}"; do mv "$out/.$f.tmp" "$out/$f"; done
echo "$name: $(wc -c <"$out/old.json") + $(wc -c <"$out/new.json") bytes of JSON log, $(wc -c <"$out/aquery.pb") bytes of aquery"
