package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	onlyFiles := func(t *testing.T, want ...string) {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("directory holds %q, want %q", got, want)
		}
	}

	t.Run("a_new_file_gets_0644", func(t *testing.T) {
		if err := Write(path, "JSON report", writeString("one")); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != "one" {
			t.Errorf("got %q", got)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", info.Mode().Perm())
		}
		onlyFiles(t, "report.json")
	})
	t.Run("an_existing_file_is_replaced_and_keeps_its_mode", func(t *testing.T) {
		os.Chmod(path, 0o600)
		if err := Write(path, "JSON report", writeString("two")); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != "two" {
			t.Errorf("got %q", got)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want the existing 0600", info.Mode().Perm())
		}
	})
	t.Run("a_failed_write_leaves_the_old_file_and_no_temporary", func(t *testing.T) {
		err := Write(path, "JSON report", func(w io.Writer) error {
			io.WriteString(w, "half")
			return errors.New("no space left on device")
		})
		if err == nil || err.Error() != "failed to write JSON report to "+path+": no space left on device" {
			t.Errorf("err = %v", err)
		}
		if got, _ := os.ReadFile(path); string(got) != "two" {
			t.Errorf("the old file became %q", got)
		}
		onlyFiles(t, "report.json")
	})
	t.Run("a_symlink_is_replaced_not_written_through", func(t *testing.T) {
		victim := filepath.Join(t.TempDir(), "victim")
		os.WriteFile(victim, []byte("precious"), 0o644)
		link := filepath.Join(dir, "link.json")
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		if err := Write(link, "JSON report", writeString("report")); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(victim); string(got) != "precious" {
			t.Errorf("the file the link pointed to became %q", got)
		}
		if info, _ := os.Lstat(link); !info.Mode().IsRegular() {
			t.Errorf("the link is still a %v", info.Mode().Type())
		}
		if got, _ := os.ReadFile(link); string(got) != "report" {
			t.Errorf("got %q", got)
		}
		os.Remove(link)
	})
	t.Run("errors_name_the_path", func(t *testing.T) {
		for _, tc := range []struct{ path, want string }{
			{filepath.Join(dir, "nope", "r.json"), filepath.Join(dir, "nope", "r.json") + ": no such file or directory"},
			{dir, dir + ": is a directory"},
			{"", ": no file name"},
			{filepath.Join(dir, "new\nline"), `"` + dir + `/new\nline": `},
		} {
			err := Write(tc.path, "JSON report", func(io.Writer) error { return errors.New("stop") })
			if err == nil || !strings.HasPrefix(err.Error(), "failed to write JSON report to "+tc.want) {
				t.Errorf("Write(%q) = %v, want …%s…", tc.path, err, tc.want)
			}
		}
		onlyFiles(t, "report.json")
	})
}

// A write interrupted by a signal leaves no temporary file once the
// program has called RemoveTemporaries on its way out.
func TestRemoveTemporaries(t *testing.T) {
	dir := t.TempDir()
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- Write(filepath.Join(dir, "r.json"), "report", func(w io.Writer) error {
			close(started)
			<-release
			return nil
		})
	}()
	<-started
	RemoveTemporaries() // as a signal handler would
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	close(release)
	<-done
}
