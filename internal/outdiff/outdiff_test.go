package outdiff

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// testBuilds are two builds as reprotest describes them.
func testBuilds() (Build, Build) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	b1 := Build{
		Paths: []Dir{
			{"workspace", "/tmp/ahab-reprotest-1/1/workspace/ws"},
			{"output base", "/tmp/ahab-reprotest-1/1/output_base"},
			{"execution root", "/tmp/ahab-reprotest-1/1/output_base/execroot/ws"},
		},
		Homes: []string{"/tmp/ahab-reprotest-1/home-1"},
		Start: start, End: start.Add(time.Minute),
		Hostname: "vm", User: "root", UID: "0", Group: "root", GID: "0",
		Env: map[string]string{"TZ": "GMT+12", "BUILD_FLAVOR": "old"},
	}
	b2 := Build{
		Paths: []Dir{
			{"workspace", "/dev/shm/ahab-reprotest-2/later/workspace-two/ws"},
			{"output base", "/tmp/ahab-reprotest-1/2/later/output_base_two"},
			{"execution root", "/tmp/ahab-reprotest-1/2/later/output_base_two/execroot/ws"},
		},
		Homes: []string{"/home/builder"},
		Start: start.Add(2 * time.Minute), End: start.Add(3 * time.Minute),
		Hostname: "ahab-reprotest-second", User: "builder", UID: "998", Group: "builder", GID: "998",
		Env: map[string]string{"TZ": "GMT-14", "BUILD_FLAVOR": "new"},
	}
	return b1, b2
}

func dump(d *Diagnosis) string {
	b, _ := json.MarshalIndent(d, "", "  ")
	return string(b)
}

func TestText(t *testing.T) {
	b1, b2 := testBuilds()
	in1, in2 := b1.Start.Add(5*time.Second), b2.Start.Add(7*time.Second)
	tests := []struct {
		name     string
		old, new string
		class    Class
		at       string
		why      string // a part of the first difference's Why
	}{
		{"epoch_seconds", fmt.Sprintf("stamp %d\n", in1.Unix()), fmt.Sprintf("stamp %d\n", in2.Unix()), Time, "line 1", "epoch seconds, 2026-12-01T12:00:05Z, 5 s into build 1"},
		{"epoch_seconds_fraction", fmt.Sprintf("%d.123456\n", in1.Unix()), fmt.Sprintf("%d.654321\n", in1.Unix()), Time, "line 1", "epoch seconds"},
		{"epoch_nanoseconds", fmt.Sprintf("%d\n", in1.UnixNano()+123), fmt.Sprintf("%d\n", in2.UnixNano()+456), Time, "line 1", "epoch nanoseconds"},
		{"epoch_milliseconds", fmt.Sprintf("t=%d\n", in1.UnixMilli()), fmt.Sprintf("t=%d\n", in2.UnixMilli()), Time, "line 1", "epoch milliseconds"},
		{"date_default_form", "built on " + in1.Format(time.UnixDate) + "\n", "built on " + in2.Format(time.UnixDate) + "\n", Time, "line 1", "date(1) time, 2026-12-01T12:00:05Z"},
		{"iso_8601", "at " + in1.Format(time.RFC3339) + "\n", "at " + in2.Format(time.RFC3339) + "\n", Time, "line 1", "ISO 8601 time"},
		{"rfc_2822", in1.Format(time.RFC1123Z) + "\n", in2.Format(time.RFC1123Z) + "\n", Time, "line 1", "RFC 2822 time"},
		{"time_of_day", "const char *t = \"12:00:05\";\n", "const char *t = \"12:02:07\";\n", Time, "line 1", "time of day"},
		{"iso_date", "2026-12-01\n", "2026-12-02\n", Time, "line 1", "ISO 8601 date"},
		{"execution_root", "/tmp/ahab-reprotest-1/1/output_base/execroot/ws/bazel-out/x\n", "/tmp/ahab-reprotest-1/2/later/output_base_two/execroot/ws/bazel-out/x\n",
			BuildPath, "line 1", "build 1's execution root and build 2's execution root"},
		{"workspace_in_a_line", "a\nsource: /tmp/ahab-reprotest-1/1/workspace/ws/a.c\nb\n", "a\nsource: /dev/shm/ahab-reprotest-2/later/workspace-two/ws/a.c\nb\n",
			BuildPath, "line 2", "build 1's workspace and build 2's workspace"},
		{"home", "cache in /tmp/ahab-reprotest-1/home-1/.cache\n", "cache in /home/builder/.cache\n", Home, "line 1", "build 1's home and build 2's home"},
		{"hostname", "Linux vm 6.18.44 x86_64\n", "Linux ahab-reprotest-second 6.18.44 x86_64\n", Hostname, "line 1", "build 1's host name"},
		{"hostname_on_one_side", "BUILD_HOST vm\n", "BUILD_HOST unknown\n", Hostname, "line 1", "build 1's host name"},
		{"user", "root\n", "builder\n", User, "line 1", "build 1's user and build 2's user"},
		{"uid", "uid=0 x\n", "uid=998 x\n", User, "line 1", "build 1's uid and build 2's uid"},
		{"environment", "zone GMT+12\n", "zone GMT-14\n", Environment, "line 1", "build 1's TZ"},
		{"lines_in_another_order", "data/a\ndata/b\ndata/c\n", "data/c\ndata/a\ndata/b\n", Order, "line 1", "the same 3 lines in another order"},
		{"lines_in_another_order_inside", "head\nb\na\ntail\n", "head\na\nb\ntail\n", Order, "line 2", "the same 4 lines"},
		{"words_in_another_order", "{'beta', 'alpha', 'gamma'}\n", "{'gamma', 'beta', 'alpha'}\n", Order, "line 1", "the same words"},
		{"ls_mode", "-rw-r--r-- 1 root root 6 a.txt\n", "-rw-rw-r-- 1 root root 6 a.txt\n", Permissions, "line 1", "ls -l mode"},
		{"mktemp_name", "/tmp/tmp.AbCdEf1234\n", "/tmp/tmp.XyZw987654\n", Random, "line 1", "10 random-looking characters"},
		{"uuid", "3f2a91c0-1b2c-4d5e-8f90-a1b2c3d4e5f6\n", "07c1e2d3-9a8b-4c7d-9e6f-0123456789ab\n", Random, "line 1", "36 random-looking"},
		{"pid", "pid 12345\n", "pid 23456\n", Random, "line 1", "5 random-looking"},
		{"count", "4\n", "5\n", Unclassified, "line 1", ""},
		{"number_far_from_the_builds", "id 1234567890\n", "id 9081726354\n", Random, "line 1", "10 random-looking"},
		{"counter", "id 1234567890\n", "id 1234568890\n", Unclassified, "line 1", ""},
		{"line_only_in_new", "a\n", "a\nb\n", Unclassified, "line 2", ""},

		// Times in digits, in a version or alone, and their look-alikes.
		{"compact_time_in_a_version", "1.0.dev" + in1.Format("20060102150405") + "\n", "1.0.dev" + in2.Format("20060102150405") + "\n",
			Time, "line 1", "%Y%m%d%H%M%S time, 2026-12-01T12:00:05Z, 5 s into build 1"},
		{"compact_time_with_a_separator", `VERSION "2.4.1-` + in1.Format("20060102.150405") + `"` + "\n", `VERSION "2.4.1-` + in2.Format("20060102.150405") + `"` + "\n",
			Time, "line 1", "%Y%m%d%H%M%S time"},
		{"compact_time_after_a_plus", "version 1.0+" + in1.Format("20060102150405") + "\n", "version 1.0+" + in2.Format("20060102150405") + "\n",
			Time, "line 1", "%Y%m%d%H%M%S time"},
		{"compact_time_to_the_minute", in1.Format("200601021504") + "\n", in2.Format("200601021504") + "\n", Time, "line 1", "%Y%m%d%H%M%S time"},
		{"compact_time_far_from_the_builds", "1.0+20200101120000\n", "1.0+20200101120105\n", Unclassified, "line 1", ""},
		{"compact_digits_that_are_no_date", "build 20261399120005\n", "build 20261399120207\n", Unclassified, "line 1", ""},
		{"compact_time_inside_a_longer_number", "id 320261201120005\n", "id 320261201120207\n", Unclassified, "line 1", ""},
		{"iso_week", "week " + in1.Format("2006") + "-W48-2\n", "week " + in1.Format("2006") + "-W49-1\n", Time, "line 1", "ISO 8601 week date"},
		{"week_that_is_not_one", "part 2026-W60\n", "part 2026-W61\n", Unclassified, "line 1", ""},

		// Modes in octal whose difference is a umask's, and look-alikes.
		{"octal_mode", "644 data/a.txt\n", "664 data/a.txt\n", Permissions, "line 1", "an octal mode, 644 then 664"},
		{"octal_mode_with_a_zero", "data/a.txt 0644\n", "data/a.txt 0664\n", Permissions, "line 1", "0644 then 0664"},
		{"octal_st_mode", "0o100644\n", "0o100664\n", Permissions, "line 1", "0o100644 then 0o100664"},
		{"octal_directory_st_mode", "mode=40755\n", "mode=40775\n", Permissions, "line 1", "40755 then 40775"},
		{"octal_owner_bits", "644\n", "744\n", Unclassified, "line 1", ""},
		{"octal_without_the_owner_read_bit", "123\n", "163\n", Unclassified, "line 1", ""},
		{"not_octal", "648\n", "668\n", Unclassified, "line 1", ""},
		{"octal_in_a_version", "1.644\n", "1.664\n", Unclassified, "line 1", ""},
		{"octal_of_no_file_type", "300644\n", "300664\n", Unclassified, "line 1", ""},

		// Random numbers and shuffles, and look-alikes.
		{"random_value_of_a_key", "salt=2340014304\n", "salt=2589824174\n", Random, "line 1", "10 random-looking characters"},
		{"base64_padding", "aGVsbG8gd29ybGQ=\n", "d29ybGQgaGVsbG8=\n", Random, "line 1", "16 random-looking characters"},
		{"counter_of_a_key", "salt=1000000001\n", "salt=1000000002\n", Unclassified, "line 1", ""},
		{"random_numbers_of_other_lengths", "15475\n", "8804\n", Random, "line 1", "numbers of 5 and 4 digits"},
		{"size_past_a_power_of_ten", "980 bytes\n", "1020 bytes\n", Unclassified, "line 1", ""},
		{"number_that_lost_its_first_digit", "15475\n", "5475\n", Unclassified, "line 1", ""},
		{"shuffled_letters", "g c e f i l h d j k a b\n", "j b h a c d i l e k g f\n", Order, "line 1", "the same words"},

		// Each differing field of a line is classified by what it holds.
		{"value_the_same_in_both", "1 root 2\n", "3 root 4\n", Unclassified, "line 1", ""},
	}
	d := New(b1, b2, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diag := d.Diagnose("out.txt", Bytes([]byte(tc.old)), Bytes([]byte(tc.new)))
			if diag.Format != Text || diag.Class != tc.class {
				t.Fatalf("format %s, class %s; want text, %s\n%s", diag.Format, diag.Class, tc.class, dump(diag))
			}
			first := diag.Differences[0]
			if first.At != tc.at || !strings.Contains(first.Why, tc.why) {
				t.Errorf("first difference at %q because %q; want %q, %q\n%s", first.At, first.Why, tc.at, tc.why, dump(diag))
			}
		})
	}
}

// TestLineParts: each run of differing fields of a line is classified by
// what it holds, one difference for each class, in the order of the line.
func TestLineParts(t *testing.T) {
	b1, b2 := testBuilds()
	tests := []struct {
		name     string
		old, new string
		classes  []Class // of the differences, in order
	}{
		{"ls_long", "-rw-r--r-- 1 root root 6 Dec  1 12:00 a.txt\n", "-rw-rw-r-- 1 builder builder 6 Dec  1 12:02 a.txt\n",
			[]Class{Permissions, User, Time}},
		{"date_in_the_builds_zones", "Tue Dec  1 00:00:05 GMT+12 2026\n", "Wed Dec  2 02:02:07 GMT-14 2026\n",
			[]Class{Time, Environment}},
		{"adjacent_fields_are_one_part", "uid=0 gid=0\n", "uid=998 gid=998\n", []Class{User}},
		{"hexadecimal_bytes_are_one_part", "3f 2a 91 c0 1b 2c\n", "07 c1 e2 d3 9a 8b\n", []Class{Random}},
		{"other_number_of_fields", "-rw-r--r-- 1 root root 6 a.txt\n", "-rw-rw-r-- 1 builder 6 a.txt\n", []Class{User}},
		{"unclassified_beside_a_named_part", "built by root in 4 s\n", "built by builder in 5 s\n", []Class{User, Unclassified}},
	}
	d := New(b1, b2, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diag := d.Diagnose("out.txt", Bytes([]byte(tc.old)), Bytes([]byte(tc.new)))
			var got []Class
			for _, diff := range diag.Differences {
				got = append(got, diff.Class)
			}
			if !slices.Equal(got, tc.classes) {
				t.Errorf("classes %v, want %v\n%s", got, tc.classes, dump(diag))
			}
		})
	}
}

// TestCollectorInsert: a difference added late takes its place in the
// list, which stays within its bound.
func TestCollectorInsert(t *testing.T) {
	diff := func(at string) Difference { return Difference{At: at, Class: Unclassified} }
	tests := []struct {
		name   string
		max    int
		before []string
		at     int
		listed []string
		more   int
	}{
		{"first", 8, []string{"a", "b"}, 0, []string{"x", "a", "b"}, 0},
		{"last", 8, []string{"a", "b"}, 2, []string{"a", "b", "x"}, 0},
		{"into_a_full_list", 2, []string{"a", "b", "c"}, 1, []string{"a", "x"}, 2},
		{"past_a_full_list", 2, []string{"a", "b", "c"}, 2, []string{"a", "b"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &collector{max: tc.max}
			for _, at := range tc.before {
				c.add(diff(at))
			}
			c.insert(tc.at, diff("x"))
			var listed []string
			for _, d := range c.diag.Differences {
				listed = append(listed, d.At)
			}
			if !slices.Equal(listed, tc.listed) || c.diag.More != tc.more {
				t.Errorf("listed %v and %d more, want %v and %d", listed, c.diag.More, tc.listed, tc.more)
			}
		})
	}
}

// TestUndescribedBuilds is ahab diff --outputs on two bazel-bin trees: no
// paths or times are known, so paths are known by their shape and times
// by being close to each other.
func TestUndescribedBuilds(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		class    Class
	}{
		{"output_base_path", "/root/.cache/bazel/_bazel_root/0123/execroot/ws/a.c\n", "/home/ci/.cache/bazel/_bazel_ci/4567/execroot/ws/a.c\n", BuildPath},
		{"sandbox_path", "cwd=/b/sandbox/linux-sandbox/12/execroot/ws\n", "cwd=/b/sandbox/linux-sandbox/34/execroot/ws\n", BuildPath},
		{"times_close_together", "1764590405\n", "1764590527\n", Time},
		{"numbers_far_apart", "1764590405\n", "1234567890\n", Random},
	}
	d := New(Build{}, Build{}, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diag := d.Diagnose("out.txt", Bytes([]byte(tc.old)), Bytes([]byte(tc.new)))
			if diag.Class != tc.class {
				t.Errorf("class %s, want %s\n%s", diag.Class, tc.class, dump(diag))
			}
		})
	}
}

func TestBinary(t *testing.T) {
	b1, b2 := testBuilds()
	pyc := func(mtime time.Time) []byte {
		b := []byte{0xa7, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a, 0, 0, 0, 0xe3, 0, 0, 0, 0, 0, 0, 0}
		binary.LittleEndian.PutUint32(b[8:], uint32(mtime.Unix()))
		return b
	}
	tests := []struct {
		name     string
		old, new []byte
		class    Class
		at       string
	}{
		{"random_bytes", []byte{0x12, 0x9a, 0xfe, 0x01, 0x77, 0x3c, 0xd0, 0x45}, []byte{0xa8, 0x10, 0x3e, 0xc1, 0x07, 0xf3, 0x0d, 0x54}, Random, "byte 0"},
		{"pyc_source_time", pyc(b1.Start.Add(-time.Second)), pyc(b2.Start.Add(-2 * time.Second)), Time, "byte 8"},
		{"string_in_binary", []byte("\x00\x01\x02/tmp/ahab-reprotest-1/1/output_base/execroot/ws/a.c\x00\x05"),
			[]byte("\x00\x01\x02/tmp/ahab-reprotest-1/2/later/output_base_two/execroot/ws/a.c\x00\x05"), BuildPath, "byte 25"},
		{"shifted", []byte("\x00\x01\x02\x03\x04"), []byte("\x00\x01\x07\x02\x03\x04"), Unclassified, "byte 2"},
	}
	d := New(b1, b2, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diag := d.Diagnose("out.bin", Bytes(tc.old), Bytes(tc.new))
			if diag.Format != Binary || diag.Class != tc.class {
				t.Fatalf("format %s, class %s; want binary, %s\n%s", diag.Format, diag.Class, tc.class, dump(diag))
			}
			if first := diag.Differences[0]; first.At != tc.at {
				t.Errorf("first difference at %q, want %q\n%s", first.At, tc.at, dump(diag))
			}
		})
	}
}

func TestBounds(t *testing.T) {
	b1, b2 := testBuilds()
	t.Run("read", func(t *testing.T) {
		d := New(b1, b2, Options{MaxRead: 8 << 10})
		old, new := strings.Repeat("a\n", 8<<10), "b\n"+strings.Repeat("a\n", 8<<10)
		diag := d.Diagnose("big.txt", Bytes([]byte(old)), Bytes([]byte(new)))
		if !strings.Contains(diag.Partial, "only the first 8 KiB of build 1's compared") || len(diag.Differences) == 0 {
			t.Errorf("partial %q, want it to say only a part was compared, and the difference in it\n%s", diag.Partial, dump(diag))
		}
		tar := makeTar(t, file("a", strings.Repeat("x", 16<<10)))
		diag = d.Diagnose("big.tar", Bytes(tar), Bytes(append(tar[:len(tar):len(tar)], 0)))
		if !strings.Contains(diag.Partial, "stopped after reading 8 KiB") {
			t.Errorf("partial %q, want it to say the read bound stopped the tar\n%s", diag.Partial, dump(diag))
		}
	})
	t.Run("decompression", func(t *testing.T) {
		d := New(b1, b2, Options{MaxExpand: 1 << 10})
		bomb := func(c byte) []byte { return makeZip(t, file("zeros", strings.Repeat(string(c), 1<<20))) }
		diag := d.Diagnose("bomb.zip", Bytes(bomb('0')), Bytes(bomb('1')))
		if !strings.Contains(diag.Partial, "stopped after decompressing 1 KiB") {
			t.Errorf("partial %q, want it to say the decompression bound stopped it\n%s", diag.Partial, dump(diag))
		}
	})
	t.Run("members", func(t *testing.T) {
		d := New(b1, b2, Options{MaxMembers: 2})
		diag := d.Diagnose("x.tar", Bytes(makeTar(t, file("a", "1"), file("b", "2"), file("c", "3"))), Bytes(makeTar(t, file("a", "1"), file("b", "2"), file("c", "4"))))
		if !strings.Contains(diag.Partial, "stopped after 2 members") {
			t.Errorf("partial %q, want it to say the member bound stopped it\n%s", diag.Partial, dump(diag))
		}
	})
	t.Run("differences", func(t *testing.T) {
		d := New(b1, b2, Options{MaxDifferences: 2})
		var old, new strings.Builder
		for i := range 5 {
			fmt.Fprintf(&old, "%d\n", i)
			fmt.Fprintf(&new, "%d\n", i+10)
		}
		diag := d.Diagnose("x.txt", Bytes([]byte(old.String())), Bytes([]byte(new.String())))
		if len(diag.Differences) != 2 || diag.More != 3 {
			t.Errorf("%d differences listed and %d more, want 2 and 3\n%s", len(diag.Differences), diag.More, dump(diag))
		}
	})
	t.Run("depth", func(t *testing.T) {
		d := New(b1, b2, Options{MaxDepth: 1})
		inner := func(s string) []byte { return makeTar(t, file("a", s)) }
		diag := d.Diagnose("x.tar", Bytes(makeTar(t, file("in.tar", string(inner("1"))))), Bytes(makeTar(t, file("in.tar", string(inner("2"))))))
		if in := diag.Differences[0].Inside; in == nil || in.Format != Binary || !strings.Contains(in.Partial, "nested deeper than 1") {
			t.Errorf("the inner tar is not compared as bytes\n%s", dump(diag))
		}
	})
}

// TestDeterministic: a diagnosis is a function of its inputs.
func TestDeterministic(t *testing.T) {
	b1, b2 := testBuilds()
	old := makeTar(t, file("a", "x"), file("b", "y").withTime(b1.Start), file("c", "z"))
	new := makeTar(t, file("c", "z"), file("a", "x"), file("b", "w").withTime(b2.Start))
	first := New(b1, b2, Options{}).Diagnose("x.tar", Bytes(old), Bytes(new))
	for range 5 {
		if again := New(b1, b2, Options{}).Diagnose("x.tar", Bytes(old), Bytes(new)); !reflect.DeepEqual(first, again) {
			t.Fatalf("two diagnoses differ:\n%s\n%s", dump(first), dump(again))
		}
	}
}

func TestClassTags(t *testing.T) {
	for _, c := range Classes() {
		got, err := ParseClass(c.String())
		if err != nil || got != c {
			t.Errorf("ParseClass(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := ParseClass("clock"); err == nil || !strings.Contains(err.Error(), "expected one of: build_path, home") {
		t.Errorf("ParseClass(clock): %v", err)
	}
}
