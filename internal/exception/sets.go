package exception

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/ahab-go/ahab/internal/mode"
	"github.com/ahab-go/ahab/internal/quote"
)

// The ready-made exception sets: the deliberate choices most workspaces
// make, excused in one word, `--exceptions-json ahab:host-cc` or the
// macros' exception_sets = ["host-cc"]. Their exceptions that match
// nothing are not warned about: a set covers several Bazels and layouts,
// of which a workspace has one.
//
//go:embed sets/*.json
var setsFS embed.FS

// SetPrefix names a ready-made set where a file name is expected.
const SetPrefix = "ahab:"

// SetNames lists the ready-made sets, sorted.
func SetNames() []string {
	files, _ := fs.Glob(setsFS, "sets/*.json")
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(strings.TrimPrefix(f, "sets/"), ".json")
	}
	slices.Sort(names)
	return names
}

// LoadSet reads the ready-made set name (without SetPrefix).
func LoadSet(name string, m mode.Mode) ([]Exception, error) {
	data, err := setsFS.ReadFile("sets/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no ready-made exception set %s, expected one of: %s", quote.Value(name), strings.Join(SetNames(), ", "))
	}
	exs, err := Parse(SetPrefix+name, data, m)
	for i := range exs {
		exs[i].Origin, exs[i].ReadyMade = SetPrefix+name, true
	}
	return exs, err
}
