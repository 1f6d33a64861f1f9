package report

import (
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/mode"
)

func TestDiff(t *testing.T) {
	all := oneOfEachKind()
	t.Run("identical_violations_produce_no_diff", func(t *testing.T) {
		if d := Diff(all, oneOfEachKind(), mode.Ahab02, true); d != "" {
			t.Errorf("diff = %q", d)
		}
	})
	t.Run("a_violation_only_found_is_added_and_only_expected_is_removed", func(t *testing.T) {
		d := Diff(all[:1], all[1:2], mode.Ahab02, false)
		if !strings.Contains(d, `-        "kind": "environment_leak",`) || !strings.Contains(d, `+        "kind": "bad_path",`) {
			t.Errorf("diff:\n%s", d)
		}
	})
	t.Run("a_changed_count_shows_both_sides", func(t *testing.T) {
		changed := oneOfEachKind()
		changed[4].Count = 5
		d := Diff(all, changed, mode.Ahab02, false)
		var minus, plus []string
		for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
			switch l[0] {
			case '-':
				minus = append(minus, l)
			case '+':
				plus = append(plus, l)
			}
		}
		if len(minus) != 1 || minus[0] != `-      "count": 1,` || len(plus) != 1 || plus[0] != `+      "count": 5,` {
			t.Errorf("diff:\n%s", d)
		}
	})
	t.Run("unchanged_violations_are_left_out_of_the_diff", func(t *testing.T) {
		changed := oneOfEachKind()
		changed[len(changed)-1].Count = 7
		d := Diff(all, changed, mode.Ahab02, false)
		if strings.Contains(d, "environment_leak") || strings.Contains(d, "bad_path") {
			t.Errorf("far unchanged entries shown:\n%s", d)
		}
	})
	t.Run("one_changed_field_diffs_as_one_line", func(t *testing.T) {
		changed := oneOfEachKind()
		changed[6].Program.Origin.Module = "rules_cc_renamed"
		d := Diff(all, changed, mode.Ahab02, false)
		if strings.Count(d, "\n-") != 1 || strings.Count(d, "\n+") != 1 {
			t.Errorf("diff:\n%s", d)
		}
	})
	t.Run("the_diff_is_plain_text_unless_color_is_asked_for", func(t *testing.T) {
		plain := Diff(all[:2], all[1:3], mode.Ahab02, false)
		colored := Diff(all[:2], all[1:3], mode.Ahab02, true)
		if strings.Contains(plain, "\x1b") || !strings.Contains(colored, "\x1b[31m-") {
			t.Errorf("plain %q\ncolored %q", plain, colored)
		}
		if escapes.ReplaceAllString(colored, "") != plain {
			t.Error("stripping colours does not give the plain diff")
		}
	})
	t.Run("the_diff_is_the_same_bytes_every_time", func(t *testing.T) {
		first := Diff(all[:3], all[2:], mode.Ahab02, false)
		for range 10 {
			if again := Diff(all[:3], all[2:], mode.Ahab02, false); again != first {
				t.Fatalf("diff differs between runs:\n%s\n---\n%s", first, again)
			}
		}
	})
	t.Run("an_empty_side_and_the_final_brace", func(t *testing.T) {
		got := Diff(Slice(nil), all[1:2], mode.Ahab02, false)
		want := "@@ -1,3 +1,15 @@\n {\n-  \"violations\": []\n+  \"violations\": [\n+    {\n+      \"count\": 2,\n+      \"violation\": {\n+        \"kind\": \"bad_path\",\n+        \"action\": {\n+          \"mnemonic\": \"CppCompile\",\n+          \"target\": \"//a:b\"\n+        },\n+        \"actual\": \"/usr/bin:/bin\"\n+      }\n+    }\n+  ]\n }\n\\ No newline at end of file\n"
		if got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	_ = finding.Counted{}
}
