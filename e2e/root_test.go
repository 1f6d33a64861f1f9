package e2e

import (
	"path/filepath"
	"testing"
)

// repoRoot is the repository root, one level above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}
