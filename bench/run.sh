#!/usr/bin/env bash
# Whole-process benchmark of ahab on generated dumps (see docs/performance.md).
#
#   bench/run.sh                      # 10k, 100k, 200k and 1M actions
#   BENCH_SIZES="10000 100000" bench/run.sh
#   BENCH_DIR=/big/disk bench/run.sh  # where dumps go (default: a temp dir)
#   BENCH_RUNS=5 bench/run.sh         # runs per measurement (median; default 3)
#   BENCH_AMPLIFY= bench/run.sh       # skip the amplified real dump (default: 12000 copies)
#
# For each size it generates a dump with ahab-gengraph (seed 1, proto); it
# also amplifies the conformance set's real webapp.pb (its copies as they
# are, then renumbered). For each dump it runs, interleaved, so that a
# change in the machine's load hits them all alike: sha256sum of the file;
# the floor (bench/floor: one goroutine walking every protobuf field of the
# dump, into every message, reading every string, keeping nothing); what a
# plain Go reader pays (bench/floor -unmarshal: proto.Unmarshal of every
# element into its generated message, dropped); and
# `ahab --aquery-file` over it, with its default judgement and with
# --compat 0.2. It prints a markdown table of the medians: wall time,
# user+sys CPU time and peak RSS (GNU time), throughput, and the wall
# time's ratio to sha256sum's and to the floor's. It also checks that the
# JSON report of a one-worker run (GOMAXPROCS=1) equals the default run's
# byte for byte.
set -euo pipefail

cd "$(dirname "$0")/.."
sizes=${BENCH_SIZES:-"10000 100000 200000 1000000"}
runs=${BENCH_RUNS:-3}
copies=${BENCH_AMPLIFY-12000}
seed=${BENCH_SEED:-1}
time_bin=/usr/bin/time
if ! "$time_bin" -f '%e' true >/dev/null 2>&1; then
	echo "bench/run.sh: GNU time is needed at $time_bin, expected it installed (apt-get install time)" >&2
	exit 1
fi

dir=${BENCH_DIR:-}
if [[ -z "$dir" ]]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

go build -o "$dir/ahab" ./cmd/ahab
go build -o "$dir/ahab-gengraph" ./internal/devtools/ahab-gengraph
go build -o "$dir/floor" ./bench/floor

# once CMD...: runs it, prints "wall cpu rss_kib".
once() {
	"$time_bin" -o "$dir/time.out" -f '%e %U %S %M' "$@" >/dev/null 2>"$dir/err.out" || {
		cat "$dir/err.out" >&2
		exit 1
	}
	read -r e u s m <"$dir/time.out"
	echo "$e $(echo "$u + $s" | bc) $m"
}

# median: of lines "wall cpu rss", the one with the median wall time.
median() { sort -n | sed -n "$(((runs + 1) / 2))p"; }

echo "machine: $(nproc) cores, $(uname -sr), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| actions | dump MB | tool | wall s | CPU s | peak RSS MiB | MB/s | actions/s | wall vs sha256sum | wall vs floor |"
echo "|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|"
# bench_dump NAME ACTIONS DUMP: one table row each for sha256sum, the
# floor, proto.Unmarshal, ahab and ahab --compat 0.2, their runs
# interleaved.
bench_dump() {
	local name=$1 n=$2 dump=$3 i
	local ahab=("$dir/ahab" --aquery-file "$dump" --no-fail --shut-up --write-json)
	: >"$dir/sha" && : >"$dir/floor.t" && : >"$dir/unmarshal.t" && : >"$dir/ahab.t" && : >"$dir/compat.t"
	for ((i = 0; i < runs; i++)); do
		once sha256sum "$dump" >>"$dir/sha"
		once "$dir/floor" "$dump" >>"$dir/floor.t"
		once "$dir/floor" -unmarshal "$dump" >>"$dir/unmarshal.t"
		once "${ahab[@]}" "$dir/report.json" >>"$dir/ahab.t"
		once "${ahab[@]}" "$dir/report-compat.json" --compat 0.2 >>"$dir/compat.t"
	done
	bytes=$(stat -c %s "$dump")
	mb=$(echo "scale=1; $bytes / 1000000" | bc)
	read -r sw _ _ <<<"$(median <"$dir/sha")"
	read -r fw _ _ <<<"$(median <"$dir/floor.t")"
	sw=$(echo "if ($sw < 0.01) 0.01 else $sw" | bc)
	fw=$(echo "if ($fw < 0.01) 0.01 else $fw" | bc)
	for row in "sha256sum sha" "floor floor.t" "proto.Unmarshal unmarshal.t" "ahab ahab.t" "ahab --compat 0.2 compat.t"; do
		local tool=${row% *} file=${row##* }
		read -r w c m <<<"$(median <"$dir/$file")"
		w=$(echo "if ($w < 0.01) 0.01 else $w" | bc)
		# bc drops the leading zero of a fraction; printf puts it back.
		printf '| %s | %s | %s | %.2f | %.2f | %s | %s | %s | %.2f | %.2f |\n' "$name" "$mb" "$tool" "$w" "$c" \
			"$(echo "scale=0; $m / 1024" | bc)" \
			"$(echo "scale=0; $bytes / 1000000 / $w" | bc)" \
			"$(echo "scale=0; $n / $w" | bc)" \
			"$(echo "scale=2; $w / $sw" | bc)" \
			"$(echo "scale=2; $w / $fw" | bc)"
	done
	# The report must not depend on the number of workers.
	GOMAXPROCS=1 "$dir/ahab" --aquery-file "$dump" --no-fail --shut-up --write-json "$dir/report1.json" >/dev/null 2>&1
	if ! cmp -s "$dir/report.json" "$dir/report1.json"; then
		echo "bench/run.sh: $name: the GOMAXPROCS=1 report differs from the $(nproc)-worker report" >&2
		exit 1
	fi
}

for n in $sizes; do
	dump="$dir/$n.pb"
	[[ -s "$dump" ]] || "$dir/ahab-gengraph" -q -actions "$n" -seed "$seed" -o "$dump"
	bench_dump "$n" "$n" "$dump"
done
# The real dump of the conformance set, amplified: its copies as they are,
# then renumbered so that every copy's findings are its own.
if [[ -n "$copies" ]]; then
	real=testdata/conformance/real/webapp.pb
	for renumber in "" -renumber; do
		dump="$dir/webapp-$copies$renumber.pb"
		# The generator's statistics say how many actions the copies hold.
		stats=$("$dir/ahab-gengraph" -amplify "$real" -copies "$copies" $renumber -o "$dump" 2>&1)
		actions=$(echo "$stats" | sed -n 's/.* \([0-9]*\) actions,.*/\1/p')
		bench_dump "$actions (webapp.pb ×$copies$renumber)" "$actions" "$dump"
	done
fi
echo
echo "reports of GOMAXPROCS=1 and GOMAXPROCS=$(nproc) runs are byte-identical at every size"
