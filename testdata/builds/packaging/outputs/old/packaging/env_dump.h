// PATH=/usr/bin:/bin
// PWD=/tmp/build-twice.XZyn45/home-old/.cache/bazel/_bazel_root/4842fed94e71e0480c7dcbbb69c2a976/execroot/packaging
// SHLVL=1
// TMPDIR=/tmp
// _=/usr/bin/env
