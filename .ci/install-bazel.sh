#!/usr/bin/env bash
# Installs Debian's Bazel 4.2.3 (bazel-bootstrap) and the repositories the
# end-to-end tests point Bazel at instead of downloading them (see
# e2e/testdata/*.txtar and docs/bazel.md), and strace, which `ahab trace`
# and its test run the build under (docs/trace.md), and zip and cpio, which
# the workspaces of e2e's TestHints archive with. Idempotent: when
# everything is installed already it returns at once, without touching apt.
set -euo pipefail

packages=(bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-java strace zip cpio)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ] && command -v bazel >/dev/null; then
  echo "install-bazel: ${packages[*]} already installed"
  exit 0
fi

echo "install-bazel: installing ${missing[*]:-bazel}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${packages[@]}" >/dev/null
command -v bazel >/dev/null || { echo "install-bazel: bazel is still not on PATH" >&2; exit 1; }
echo "install-bazel: done"
