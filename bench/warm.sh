#!/usr/bin/env bash
# Wall time of a warm `ahab //...` (a server that has analysed the
# workspace already, as in an edit-and-check loop or a CI job after the
# build) against the bare aquery it runs, on a corpus workspace with
# Debian's Bazel 4.2.3 offline (issue #24.3: at most the aquery plus 0.5 s).
#
#   bench/warm.sh                       # testdata/builds/cascade, //...
#   WARM_RUNS=11 bench/warm.sh          # runs of each (median; default 7)
#   WARM_CORPUS=cc bench/warm.sh        # another corpus workspace
#   AHAB_OTHER=/tmp/ahab-main bench/warm.sh   # also time another ahab binary
#
# Both run in one output base and server (as `ahab //...` pins them), the
# aquery exactly as ahab runs it (USER and HOSTNAME set to the sentinels,
# --output=proto --include_param_files) to /dev/null; the runs alternate so
# that a change in the machine's load hits both. It prints each run, then
# the medians and what ahab costs beyond the aquery.
set -euo pipefail

cd "$(dirname "$0")/.."
runs=${WARM_RUNS:-7}
corpus=${WARM_CORPUS:-cascade}
dir=$(mktemp -d)
ws=$dir/ws
export HOME=$dir/home
cleanup() {
	(cd "$ws" 2>/dev/null && bazel --max_idle_secs=60 shutdown >/dev/null 2>&1) || true
	chmod -R u+w "$dir" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$HOME"
cp -R "testdata/builds/$corpus/workspace" "$ws"
cp -R testdata/builds/stubs "$dir/stubs"
go build -o "$dir/ahab" ./cmd/ahab

# internal/buildcorpus.OfflineFlags: Debian's Bazel without a network.
flags=(--override_repository=rules_cc="$dir/stubs/rules_cc"
	--override_repository=remote_coverage_tools="$dir/stubs/remote_coverage_tools"
	--override_repository=platforms=/usr/share/bazel/tools/platforms
	--override_repository=bazel_skylib=/usr/share/bazel/tools/skylib
	--override_repository=rules_java=/usr/share/bazel/rules/java
	--spawn_strategy=standalone)
ahab_flags=()
for f in "${flags[@]}"; do ahab_flags+=("--bazel-flag=$f"); done

cd "$ws"
# The server, with the startup options every command below uses.
bazel --max_idle_secs=600 info output_base >/dev/null 2>&1
ob=$(bazel --max_idle_secs=600 info output_base 2>/dev/null)
aquery=(env USER=ahab-sentinel-user-4f8a1c6b9d2e7350 HOSTNAME=ahab-sentinel-hostname-4f8a1c6b9d2e7350
	bazel "--output_base=$ob" "--output_user_root=$(dirname "$ob")" aquery "${flags[@]}"
	--output=proto --include_param_files //...)
# Warm it: the analysis and the configuration, once.
"$dir/ahab" //... "${ahab_flags[@]}" --no-fail --shut-up >/dev/null 2>&1
"${aquery[@]}" >/dev/null 2>&1

now() { date +%s.%N; }
timed() { local s e; s=$(now); "$@" >/dev/null 2>&1 || true; e=$(now); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

a=() q=() o=()
echo "| run | bare aquery s | ahab //... s |${AHAB_OTHER:+ other ahab s |}"
echo "|---|---|---|${AHAB_OTHER:+---|}"
for i in $(seq "$runs"); do
	q+=("$(timed "${aquery[@]}")")
	a+=("$(timed "$dir/ahab" //... "${ahab_flags[@]}" --no-fail --shut-up)")
	if [[ -n "${AHAB_OTHER:-}" ]]; then
		o+=("$(timed "$AHAB_OTHER" //... "${ahab_flags[@]}" --no-fail --shut-up)")
		echo "| $i | ${q[-1]} | ${a[-1]} | ${o[-1]} |"
	else
		echo "| $i | ${q[-1]} | ${a[-1]} |"
	fi
done
mq=$(printf '%s\n' "${q[@]}" | median)
ma=$(printf '%s\n' "${a[@]}" | median)
echo
echo "medians of $runs ($corpus, load $(cut -d' ' -f1 /proc/loadavg)): bare aquery ${mq} s, ahab //... ${ma} s, ahab beyond the aquery $(awk -v a="$ma" -v q="$mq" 'BEGIN { printf "%+.3f", a - q }') s"
if [[ -n "${AHAB_OTHER:-}" ]]; then
	mo=$(printf '%s\n' "${o[@]}" | median)
	echo "other ahab: ${mo} s, beyond the aquery $(awk -v a="$mo" -v q="$mq" 'BEGIN { printf "%+.3f", a - q }') s"
fi
