package cli

import (
	"runtime/debug"
	"strings"
)

// version is stamped by the release script (-ldflags -X); a binary built
// otherwise reports the module version it was installed at, or the version
// this source tree is.
var version string

const sourceVersion = "0.3.0"

// Version is what --version prints after "ahab ".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return strings.TrimPrefix(v, "v")
		}
	}
	return sourceVersion
}
