"""The version of Ahab and the sha256 of each published binary archive.

Written by `go run ./internal/devtools/release`. DO NOT EDIT.
"""

AHAB_VERSION = "0.3.0"

# Host platform -> sha256 of ahab-<version>-<platform>.tar.gz. Empty in the
# source tree: only a release publishes binaries.
AHAB_PREBUILT = {}
