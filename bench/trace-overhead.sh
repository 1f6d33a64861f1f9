#!/usr/bin/env bash
# Wall time of a Bazel build under strace, as `ahab trace` runs it, against
# the same build without strace (see docs/trace.md, "Overhead").
#
#   bench/trace-overhead.sh                           # the test workspace, //pkg:all
#   TRACE_RUNS=7 bench/trace-overhead.sh              # runs of each (median; default 5)
#   TRACE_WS=~/src/ws TRACE_LABEL=//app/... bench/trace-overhead.sh
#
# Every run builds from scratch in a fresh output user root and base, with
# the flags `ahab trace` adds, as `ahab trace` does; untraced and traced runs
# alternate so that a change in the machine's load hits both. It prints each
# run's wall time and CPU time (user+sys of Bazel, its actions and strace),
# then the medians and their ratios, and finally the wall time of the whole
# `ahab trace` (build, aquery and analysis) once.
set -euo pipefail

cd "$(dirname "$0")/.."
runs=${TRACE_RUNS:-5}
label=${TRACE_LABEL:-//pkg:all}
dir=$(mktemp -d)
cleanup() { chmod -R u+w "$dir" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

ws=${TRACE_WS:-}
if [[ -z "$ws" ]]; then
	go run github.com/rogpeppe/go-internal/cmd/txtar-x -C "$dir/w" internal/trace/testdata/workspace.txtar
	sed -i "s|@TMP@|$dir/w|g" "$dir/w/ws/.bazelrc"
	chmod +x "$dir/w/ws/pkg/tool.sh" "$dir/w/stubs/remote_coverage_tools/noop.sh"
	ws=$dir/w/ws
fi
go build -o "$dir/ahab" ./cmd/ahab

# The system calls `ahab trace` traces (trace.Syscalls; a test keeps the two equal).
syscalls="?open,openat,?openat2,?creat,?stat,?lstat,?newfstatat,?fstatat64,?stat64,?lstat64,?statx,?access,faccessat,?faccessat2,?readlink,readlinkat,?getdents,getdents64,execve,?execveat,clone,?clone3,?fork,?vfork,chdir,fchdir"

now() { date +%s.%N; }

# build N TRACED: one build from scratch; prints its wall and CPU seconds.
build() {
	local s=$dir/run$1 wall user sys
	mkdir -p "$s"
	local bazel=(bazel --batch "--output_user_root=$s" "--output_base=$s/output_base" build
		--spawn_strategy=standalone --disk_cache= --remote_cache= --remote_executor=
		"--execution_log_binary_file=$s/execution_log.binpb" -- "$label")
	local TIMEFORMAT='%R %U %S'
	if [[ $2 == traced ]]; then
		{ time { (cd "$ws" && strace --seccomp-bpf -f -y -s131072 -o "$s/strace.txt" -e "trace=$syscalls" "${bazel[@]}") >/dev/null 2>&1; }; } 2>"$dir/time"
	else
		{ time { (cd "$ws" && "${bazel[@]}") >/dev/null 2>&1; }; } 2>"$dir/time"
	fi
	read -r wall user sys <"$dir/time"
	chmod -R u+w "$s"
	rm -rf "$s"
	awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { print w, u + s }'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

pw=() pc=() tw=() tc=()
echo "| run | untraced wall s | untraced CPU s | traced wall s | traced CPU s |"
echo "|--:|--:|--:|--:|--:|"
for i in $(seq 1 "$runs"); do
	read -r w1 c1 < <(build "$i" plain)
	read -r w2 c2 < <(build "$i" traced)
	pw+=("$w1") pc+=("$c1") tw+=("$w2") tc+=("$c2")
	printf '| %d | %.2f | %.2f | %.2f | %.2f |\n' "$i" "$w1" "$c1" "$w2" "$c2"
done
m() { printf '%s\n' "$@" | median; }
mpw=$(m "${pw[@]}") mpc=$(m "${pc[@]}") mtw=$(m "${tw[@]}") mtc=$(m "${tc[@]}")
printf '| median | %.2f | %.2f | %.2f | %.2f |\n\n' "$mpw" "$mpc" "$mtw" "$mtc"
awk -v a="$mpw" -v b="$mtw" -v c="$mpc" -v d="$mtc" 'BEGIN { printf "traced / untraced: wall %.2f×, CPU %.2f×\n", b / a, d / c }'
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

start=$(now)
(cd "$ws" && TMPDIR=$dir "$dir/ahab" trace "$label" >/dev/null 2>&1) || true
printf 'whole `ahab trace %s`: %.2f s\n' "$label" "$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')"
