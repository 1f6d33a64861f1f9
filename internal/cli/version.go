package cli

import (
	"runtime/debug"
	"strings"

	"github.com/ahab-go/ahab"
)

// Version is what --version prints after "ahab ": the module version `go
// install` fetched, or else the version of the source tree it was built
// from (MODULE.bazel's, which the release archives are named by too).
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return strings.TrimPrefix(v, "v")
		}
	}
	return ahab.Version()
}
