package fileerr

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestMessages(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	_, err := os.ReadFile(missing)
	if got, want := Read("specs", missing, err).Error(), "failed to read specs from "+missing+": no such file or directory"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(Read("specs", missing, err), fs.ErrNotExist) {
		t.Error("the cause is lost")
	}
	err = os.Rename(missing, missing+".2")
	if got, want := Write("JSON report", "a\nb", err).Error(), `failed to write JSON report to "a\nb": no such file or directory`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
