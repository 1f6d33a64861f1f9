package aquery

import (
	"maps"
	"sync"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery/analysispb"
)

// Every action names its configuration, and Options.Configurations the
// configurations' checksums, sequentially and on workers alike.
func TestConfigurations(t *testing.T) {
	data := dump(t,
		elem{fieldConfiguration, &analysispb.Configuration{Id: 1, Mnemonic: "k8-fastbuild", Checksum: "f5527a63"}},
		elem{fieldConfiguration, &analysispb.Configuration{Id: 2, Mnemonic: "k8-opt-exec", Checksum: "1a5556d0", IsTool: true}},
		tgt(1, "//a:a"),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "Genrule", ConfigurationId: 1, Arguments: []string{"/bin/bash", "-c", "true"}}),
		act(&analysispb.Action{TargetId: 1, Mnemonic: "CppCompile", ConfigurationId: 2, Arguments: []string{"gcc"}}),
	)
	for _, workers := range []int{1, 4} {
		var mu sync.Mutex
		got := map[uint32]string{}
		_, actions := mustDecode(t, data, Options{Workers: workers, Configurations: func(id uint32, checksum string) {
			mu.Lock()
			defer mu.Unlock()
			got[id] = checksum
		}})
		if want := map[uint32]string{1: "f5527a63", 2: "1a5556d0"}; !maps.Equal(got, want) {
			t.Errorf("%d workers: configurations %v, want %v", workers, got, want)
		}
		for _, a := range actions {
			if want := map[string]uint32{"Genrule": 1, "CppCompile": 2}[a.Mnemonic]; a.ConfigurationID != want {
				t.Errorf("%d workers: %s has configuration %d, want %d", workers, a.Mnemonic, a.ConfigurationID, want)
			}
		}
	}
}
