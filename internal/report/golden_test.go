package report

import (
	"flag"
	"testing"

	"github.com/ahab-go/ahab/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with the golden file at path.
func checkGolden(t *testing.T, path string, got []byte) { testenv.Golden(t, path, got, *update) }
