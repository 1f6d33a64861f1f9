// PATH=/usr/bin:/bin
// PWD=/tmp/build-twice.XZyn45/home-new/.cache/bazel/_bazel_root/046a70d7330cdbbbfd0e1745ef57e668/execroot/packaging
// SHLVL=1
// TMPDIR=/tmp
// _=/usr/bin/env
