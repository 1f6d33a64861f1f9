package atomicfile

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// What is not a regular file is never renamed over (issue #26): a FIFO or
// a character device is written to as it is, a socket or a block device
// is refused, and each is still there, as it was, afterwards.
func TestWriteNeverReplacesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	// unchanged fails unless path is still a file of the same type and
	// device number, and dir holds no temporary file.
	unchanged := func(t *testing.T, path string, before os.FileInfo) {
		t.Helper()
		after, err := os.Lstat(path)
		if err != nil {
			t.Fatalf("%s is gone: %v", path, err)
		}
		if after.Mode().Type() != before.Mode().Type() || rdev(after) != rdev(before) {
			// Fatal: a reader of a FIFO renamed over would wait forever.
			t.Fatalf("%s was a %v (device %d) and is now a %v (device %d)", path, before.Mode().Type(), rdev(before), after.Mode().Type(), rdev(after))
		}
		if entries, _ := os.ReadDir(filepath.Dir(path)); filepath.Dir(path) == dir {
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") {
					t.Errorf("a temporary file is left: %s", e.Name())
				}
			}
		}
	}
	// fifo makes a FIFO and reads it in the background: the returned
	// function waits for the writer to close it and returns what it read.
	fifo := func(t *testing.T, name string) (string, func() string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		got := make(chan string)
		go func() {
			f, err := os.Open(path) // waits for the writer
			if err != nil {
				got <- err.Error()
				return
			}
			defer f.Close()
			b, _ := io.ReadAll(f)
			got <- string(b)
		}()
		return path, func() string { return <-got }
	}
	// mknod makes a device node in dir, as only root may.
	mknod := func(t *testing.T, name string, mode uint32, major, minor int) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := syscall.Mknod(path, mode|0o666, major<<8|minor); err != nil {
			t.Skipf("cannot make a device node to write to (root is needed): %v", err)
		}
		return path
	}

	t.Run("a_fifo_is_written_to", func(t *testing.T) {
		path, read := fifo(t, "report.fifo")
		before, _ := os.Lstat(path)
		if err := Write(path, "JSON report", writeString("through the pipe")); err != nil {
			t.Fatal(err)
		}
		unchanged(t, path, before)
		if got := read(); got != "through the pipe" {
			t.Errorf("the reader got %q", got)
		}
	})
	t.Run("a_symlink_to_a_fifo_is_written_through", func(t *testing.T) {
		// As a shell's process substitution names its pipe: /dev/fd/63.
		path, read := fifo(t, "substituted.fifo")
		link := filepath.Join(dir, "report.json")
		if err := os.Symlink(path, link); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Lstat(link)
		if err := Write(link, "JSON report", writeString("through the link")); err != nil {
			t.Fatal(err)
		}
		unchanged(t, link, before)
		if got := read(); got != "through the link" {
			t.Errorf("the reader got %q", got)
		}
	})
	privateDevice := t.Run("a_character_device_is_written_to", func(t *testing.T) {
		path := mknod(t, "null", syscall.S_IFCHR, 1, 3) // /dev/null's numbers
		before, _ := os.Lstat(path)
		if err := Write(path, "JSON report", writeString("nowhere")); err != nil {
			t.Fatal(err)
		}
		unchanged(t, path, before)
	})
	t.Run("dev_null_is_written_to", func(t *testing.T) {
		// Only once the same write has left a private device in place:
		// run as root, a regression would replace the machine's
		// /dev/null with a file.
		if os.Getuid() == 0 && !privateDevice {
			t.Skip("the write to a private device failed or could not run; /dev/null is not risked")
		}
		before, err := os.Lstat(os.DevNull)
		if err != nil || before.Mode()&os.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device here: %v", os.DevNull, err)
		}
		if err := Write(os.DevNull, "JSON report", writeString("nowhere")); err != nil {
			t.Fatal(err)
		}
		unchanged(t, os.DevNull, before)
	})
	t.Run("a_socket_is_refused", func(t *testing.T) {
		path := filepath.Join(dir, "report.sock")
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Skipf("cannot listen on a unix socket: %v", err)
		}
		defer l.Close()
		before, _ := os.Lstat(path)
		err = Write(path, "JSON report", writeString("x"))
		if want := "failed to write JSON report to " + path + ": is a socket, expected a regular file, a character device or a FIFO"; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
		unchanged(t, path, before)
	})
	t.Run("a_block_device_is_refused", func(t *testing.T) {
		path := mknod(t, "disk", syscall.S_IFBLK, 7, 255) // a loop device's numbers
		before, _ := os.Lstat(path)
		err := Write(path, "JSON report", writeString("x"))
		if want := "failed to write JSON report to " + path + ": is a block device, expected a regular file, a character device or a FIFO"; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
		unchanged(t, path, before)
	})
	t.Run("a_link_to_a_descriptor_is_refused", func(t *testing.T) {
		// /dev/stdout when standard output goes to a file: replacing the
		// link would replace the machine's /dev/stdout.
		file := filepath.Join(dir, "redirected.txt")
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		to := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
		if _, err := os.Stat(to); err != nil {
			t.Skipf("no %s here: %v", to, err)
		}
		link := filepath.Join(dir, "stdout")
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Lstat(link)
		err = Write(link, "JSON report", writeString("x"))
		if want := "failed to write JSON report to " + link + ": is a link to " + to + ", expected a regular file, a character device or a FIFO (- writes to standard output)"; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
		unchanged(t, link, before)
		if got, _ := os.ReadFile(file); len(got) != 0 {
			t.Errorf("the file behind the descriptor became %q", got)
		}
	})
}

// rdev is the device number of a device node, 0 for other files.
func rdev(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Rdev)
	}
	return 0
}
