package report

import (
	"os"
	"testing"
)

// TestKindsDocIsCurrent keeps docs/kinds.md in step with the kind table.
func TestKindsDocIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../docs/kinds.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != KindsMarkdown() {
		t.Errorf("docs/kinds.md is out of date; regenerate it with:\n\tgo run ./cmd/ahab kinds --markdown > docs/kinds.md")
	}
}
