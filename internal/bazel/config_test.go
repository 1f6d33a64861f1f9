package bazel

import (
	"slices"
	"testing"
)

// What Bazel 4.2.3's `bazel config` printed for a workspace whose .bazelrc
// has build --action_env=BUILD_FLAVOR, --action_env=TZ and
// --action_env=LANG, and --action_env=FIXED=1 on the command line.
const configList = `Available configurations:
1a5556d0f344dad367ead1e3cf4335760edb448374e0eb758b7b32c8393e8b65 (host)
6e90e17ea7f256e25ba6cbd39f9028a32de863bcfc5c298943ee642cd98da496
`

const configDump = `BuildConfiguration 6e90e17ea7f256e25ba6cbd39f9028a32de863bcfc5c298943ee642cd98da496:
Skyframe Key: BuildConfigurationValue.Key[6e90e17e]
Fragment com.google.devtools.build.lib.analysis.config.CoreOptions {
  action_env: [BUILD_FLAVOR=null, TZ=null, LANG=null, FIXED=1]
  affected by starlark transition: []
  host_action_env: []
}
`

func TestConfigParsing(t *testing.T) {
	if got := configIDs(configList); !slices.Equal(got, []string{"6e90e17ea7f256e25ba6cbd39f9028a32de863bcfc5c298943ee642cd98da496"}) {
		t.Errorf("configIDs = %q, want the target configuration only", got)
	}
	if got := inheritedNames(configDump); !slices.Equal(got, []string{"BUILD_FLAVOR", "TZ", "LANG"}) {
		t.Errorf("inheritedNames = %q", got)
	}
	if got := inheritedNames("  action_env: []\n"); got != nil {
		t.Errorf("inheritedNames of none = %q", got)
	}
}
