package buildcorpus

import (
	"os"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/aquery"
)

// TestAqueryDumps decodes every aquery.pb with Ahab's own decoder and requires,
// for each truth row of the main repository, an action of that target with
// that mnemonic. Actions of other repositories are not in `aquery //...`.
func TestAqueryDumps(t *testing.T) {
	for _, name := range workspaces {
		t.Run(name, func(t *testing.T) {
			c, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(c.Aquery)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var actions []*aquery.Action
			g, err := aquery.Decode(f, c.Aquery, aquery.Options{}, func(_ int, a *aquery.Action) error {
				actions = append(actions, a)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			have := map[[2]string]bool{}
			for _, a := range actions {
				have[[2]string{g.Target(a.TargetID), a.Mnemonic}] = true
			}
			for _, r := range c.Truth {
				if strings.HasPrefix(r.Target, "//") && !have[[2]string{r.Target, r.Mnemonic}] {
					t.Errorf("%s: no %s action of %s in %s", r.Output, r.Mnemonic, r.Target, c.Aquery)
				}
			}
		})
	}
}
