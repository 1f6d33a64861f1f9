package outdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gcc compiles source in dir with args and returns the output's bytes.
func gcc(t *testing.T, dir, source string, args ...string) []byte {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "unit.c"), []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("gcc", append(args, "-o", "out", "unit.c")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestELF compiles with the host's gcc: objects and executables in two
// directories, and functions in another order.
func TestELF(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc on PATH to make ELF files with")
	}
	tmp := t.TempDir()
	one, two := filepath.Join(tmp, "one", "execroot", "ws"), filepath.Join(tmp, "second", "execroot", "ws")
	builds := func() (Build, Build) {
		return Build{Paths: []Dir{{"execution root", one}}}, Build{Paths: []Dir{{"execution root", two}}}
	}
	const main = "int answer(void) { return 42; }\nint main(void) { return answer(); }\n"
	tests := []struct {
		name      string
		old, new  func(t *testing.T) []byte
		class     Class
		at, what  string // a difference that must be there
		follows   bool
		wantClass Class // of that difference
	}{
		{"object_debug_directory",
			func(t *testing.T) []byte { return gcc(t, one, main, "-g", "-c") },
			func(t *testing.T) []byte { return gcc(t, two, main, "-g", "-c") },
			BuildPath, "DWARF compile unit unit.c", "DW_AT_comp_dir", false, BuildPath},
		{"executable_build_id",
			func(t *testing.T) []byte { return gcc(t, one, main, "-g", "-Wl,--build-id") },
			func(t *testing.T) []byte { return gcc(t, two, main, "-g", "-Wl,--build-id") },
			BuildPath, "section .note.gnu.build-id", "build id", true, Unclassified},
		{"random_build_id",
			func(t *testing.T) []byte { return gcc(t, one, main, "-Wl,--build-id=uuid") },
			func(t *testing.T) []byte { return gcc(t, one, main, "-Wl,--build-id=uuid") },
			Random, "section .note.gnu.build-id", "build id", false, Random},
		{"random_build_id_beside_a_path",
			func(t *testing.T) []byte { return gcc(t, one, main, "-g", "-Wl,--build-id=uuid") },
			func(t *testing.T) []byte { return gcc(t, two, main, "-g", "-Wl,--build-id=uuid") },
			BuildPath, "section .note.gnu.build-id", "build id", true, Unclassified},
		{"symbol_order",
			func(t *testing.T) []byte {
				return gcc(t, one, "int a(void) { return 1; }\nint b(void) { return 2; }\n", "-c")
			},
			func(t *testing.T) []byte {
				return gcc(t, one, "int b(void) { return 2; }\nint a(void) { return 1; }\n", "-c")
			},
			Order, "section .strtab", "order", false, Order},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b1, b2 := builds()
			diag := New(b1, b2, Options{MaxDifferences: 50}).Diagnose("out", Bytes(tc.old(t)), Bytes(tc.new(t)))
			if diag.Format != ELF || diag.Class != tc.class {
				t.Errorf("format %s, class %s; want elf, %s\n%s", diag.Format, diag.Class, tc.class, dump(diag))
			}
			for _, d := range diag.Differences {
				if d.At == tc.at && d.What == tc.what {
					if d.Follows != tc.follows || d.Class != tc.wantClass {
						t.Errorf("%s, %s: class %s, follows %v; want %s, %v", d.At, d.What, d.Class, d.Follows, tc.wantClass, tc.follows)
					}
					return
				}
			}
			t.Errorf("no difference at %q, %q\n%s", tc.at, tc.what, dump(diag))
		})
	}
}
