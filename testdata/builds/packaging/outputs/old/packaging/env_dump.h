// PATH=/usr/bin:/bin
// PWD=/tmp/build-twice.lKiY7K/home-old/.cache/bazel/_bazel_root/c649438a96b337c32a5748deb3c4753e/execroot/packaging
// SHLVL=1
// TMPDIR=/tmp
// _=/usr/bin/env
