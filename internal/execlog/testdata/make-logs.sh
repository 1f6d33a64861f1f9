#!/usr/bin/env bash
# Regenerates the real execution logs in this directory (or in the
# directory given as its argument) with Debian's Bazel 4.2.3, offline: the
# workspace in tinyws.txtar built twice, at two paths with two output bases
# and different flags (see the archive's header for what each spawn is
# expected to be):
#
#   a.json, a.binary   build a: //... but //:extra, --define VARIANT=a GREETING=hello
#   b.json, b.binary   build b: //..., --define VARIANT=b GREETING=bonjour, b/version.txt
#
# Needs bazel (apt-get install bazel-bootstrap bazel-skylib bazel-platforms
# bazel-rules-java) and Go (to extract the archive). Every Bazel command runs
# with --batch, so no server is left behind; the scratch directory is removed
# on exit. No absolute path of the scratch directory gets into the logs
# (the "where" genrule's output holds one, but logs only have digests).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)
scratch=$(mktemp -d)
cleanup() {
	chmod -R u+w "$scratch" 2>/dev/null || true
	rm -rf "$scratch"
}
trap cleanup EXIT

(cd "$here" && go run github.com/rogpeppe/go-internal/cmd/txtar-x -C "$scratch/src" tinyws.txtar)
sed -i "s|@STUBS@|$scratch/src/stubs|" "$scratch/src/ws/.bazelrc"

build() { # NAME TARGETS... -- FLAGS...
	local name=$1
	shift
	local targets=()
	while [[ $1 != -- ]]; do
		targets+=("$1")
		shift
	done
	shift
	local ws=$scratch/$name/tiny
	mkdir -p "$scratch/$name"
	cp -r "$scratch/src/ws" "$ws"
	if [[ -d $scratch/src/$name ]]; then
		cp -r "$scratch/src/$name/." "$ws"
	fi
	(cd "$ws" && env -i "HOME=$scratch/home" PATH=/usr/bin:/bin LANG=C.UTF-8 \
		bazel --batch --output_base="$scratch/$name/output_base" build \
		--execution_log_json_file="$scratch/$name.json" \
		--execution_log_binary_file="$scratch/$name.binary" \
		"$@" -- "${targets[@]}") >"$scratch/$name.err" 2>&1 ||
		{
			echo "make-logs.sh: build $name failed:" >&2
			tail -30 "$scratch/$name.err" >&2
			exit 1
		}
	cp "$scratch/$name.json" "$scratch/$name.binary" "$out/"
	echo "$name: $(wc -c <"$out/$name.json") bytes of JSON, $(wc -c <"$out/$name.binary") bytes of binary"
}
build a //... -//:extra -- --define=VARIANT=a --define=GREETING=hello
build b //... -- --define=VARIANT=b --define=GREETING=bonjour
