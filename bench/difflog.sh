#!/usr/bin/env bash
# Whole-process benchmark of the execution-log comparison (see the section
# "Execution logs" of docs/performance.md).
#
#   bench/difflog.sh                          # 100k and 1M spawns, binary and compact
#   BENCH_SIZES="100000" bench/difflog.sh
#   BENCH_FORMATS="json binary compact" bench/difflog.sh
#   BENCH_DIR=/big/disk bench/difflog.sh      # where logs go (default: a temp dir);
#                                             # 1M binary pairs take 8 GB, JSON 11 GB
#   BENCH_RUNS=5 bench/difflog.sh             # runs per measurement (median; default 3)
#
# For each size and format it generates a pair of logs with ahab-genlog
# (seed 1, the default rate of planted divergences, -truth) and measures,
# with GNU time (wall, user+sys CPU, peak RSS; the run with the median wall
# time is shown):
#
#   sha256sum   of both logs: what merely reading the bytes costs;
#   plain       both logs read one after the other by a plain protobuf
#               reader (bench/difflog -mode proto: proto.Unmarshal into the
#               generated types; the compact format rebuilt spawn by spawn
#               as Bazel's SpawnLogReconstructor does; JSON cut by
#               encoding/json and decoded by protojson), the bar to beat;
#   diff        bench/difflog OLD NEW: both logs read at once, diffed, the
#               text report to /dev/null and the JSON one to a file.
#
# It checks every verdict against the generator's truth, and that the JSON
# report of a one-core run (GOMAXPROCS=1) is byte-identical.
set -euo pipefail

cd "$(dirname "$0")/.."
sizes=${BENCH_SIZES:-"100000 1000000"}
formats=${BENCH_FORMATS:-"binary compact"}
runs=${BENCH_RUNS:-3}
time_bin=/usr/bin/time
if ! "$time_bin" -f '%e' true >/dev/null 2>&1; then
	echo "bench/difflog.sh: GNU time is needed at $time_bin, expected it installed (apt-get install time)" >&2
	exit 1
fi

dir=${BENCH_DIR:-}
if [[ -z "$dir" ]]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

go build -o "$dir/ahab-genlog" ./internal/devtools/ahab-genlog
go build -o "$dir/difflog" ./bench/difflog

# measure CMD...: runs it $runs times, prints "wall cpu rss_kib" of the run
# with the median wall time.
measure() {
	local i
	for ((i = 0; i < runs; i++)); do
		"$time_bin" -o "$dir/time.out" -f '%e %U %S %M' "$@" >/dev/null 2>"$dir/err.out" || {
			cat "$dir/err.out" >&2
			exit 1
		}
		read -r e u s m <"$dir/time.out"
		echo "$e $(echo "$u + $s" | bc) $m"
	done | sort -n | sed -n "$(((runs + 1) / 2))p"
}

echo "machine: $(nproc) cores, $(uname -sr), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| spawns | format | two logs MB | tool | wall s | CPU s | peak RSS MiB | CPU vs plain |"
echo "|--:|---|--:|---|--:|--:|--:|--:|"
for n in $sizes; do
	for f in $formats; do
		old="$dir/$n-old.$f" new="$dir/$n-new.$f" truth="$dir/$n.truth"
		if [[ ! -s "$old" ]]; then
			"$dir/ahab-genlog" -q -spawns "$n" -seed 1 -format "$f" -o "$old" -new "$new" -truth "$truth"
		fi
		bytes=$(($(stat -c %s "$old") + $(stat -c %s "$new")))
		mb=$(echo "scale=1; $bytes / 1000000" | bc)
		read -r sw sc sm <<<"$(measure sha256sum "$old" "$new")"
		read -r pw pc pm <<<"$(measure "$dir/difflog" -mode proto "$old" "$new")"
		read -r dw dc dm <<<"$(measure "$dir/difflog" -json "$dir/report.json" -truth "$truth" "$old" "$new")"
		for row in "sha256sum $sw $sc $sm" "plain $pw $pc $pm" "diff $dw $dc $dm"; do
			read -r tool w c m <<<"$row"
			printf '| %s | %s | %s | %s | %.2f | %.2f | %s | %.2f |\n' "$n" "$f" "$mb" "$tool" "$w" "$c" \
				"$(echo "scale=0; $m / 1024" | bc)" "$(echo "scale=2; $c / $pc" | bc)"
		done
		# The report must not depend on the number of cores.
		GOMAXPROCS=1 "$dir/difflog" -json "$dir/report1.json" "$old" "$new" >/dev/null
		if ! cmp -s "$dir/report.json" "$dir/report1.json"; then
			echo "bench/difflog.sh: $n $f: the GOMAXPROCS=1 report differs from the $(nproc)-core one" >&2
			exit 1
		fi
	done
done
echo
echo "every verdict matched the generator's truth; the GOMAXPROCS=1 and $(nproc)-core reports are byte-identical"
