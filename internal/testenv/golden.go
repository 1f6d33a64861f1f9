package testenv

import (
	"bytes"
	"os"
	"testing"
)

// Golden compares got with the golden file at path or, when update is set
// (the package's -update flag), rewrites the file. Golden files are
// reviewed like code: the message says how to rewrite one, not that it
// should be.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update in this package writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; if the change is meant, run go test -update in this package and review the diff\ngot:\n%s", path, got)
	}
}
