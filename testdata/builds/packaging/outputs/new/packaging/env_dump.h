// PATH=/usr/bin:/bin
// PWD=/tmp/build-twice.lKiY7K/home-new/.cache/bazel/_bazel_ahab-build/f7e41f7df523517ba5f606eb30fba061/execroot/packaging
// SHLVL=1
// TMPDIR=/tmp
// _=/usr/bin/env
