package savedreport

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahab-go/ahab/internal/jsonfile"
	"github.com/ahab-go/ahab/internal/program"
)

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	t.Run("reading_a_missing_file_names_it", func(t *testing.T) {
		p := filepath.Join(dir, "missing.json")
		_, err := ReadFile(p)
		if err == nil || err.Error() != "failed to read JSON report from "+p+": no such file or directory" {
			t.Errorf("err = %v", err)
		}
	})
	const entry = `{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t"}, "actual": "/bin"}}`
	tests := []struct {
		name, content, entry, cause string
	}{
		{"a_file_that_is_not_a_report_says_so", `{"exceptions": []}`, "",
			"not a report Ahab wrote: unknown field `exceptions`, expected `mode` or `violations` at line 1 column 13"},
		{"an_empty_object", `{}`, "", "not a report Ahab wrote: missing field `violations` at line 1 column 2"},
		{"not_json", `{`, "", "unexpected end of the document at line 1 column 2"},
		{"not_an_object", `[]`, "", "invalid type: sequence, expected a report, an object with a `violations` field at line 1 column 1"},
		{"missing_kind", `{"violations": [{"count": 1, "violation": {"action": {"mnemonic": "", "target": ""}}}]}`,
			"violation 1", "missing field `kind` at line 1 column 84"},
		{"unknown_kind", `{"violations": [{"count": 1, "violation": {"kind": "nope"}}]}`,
			"violation 1", "unknown kind `nope`, expected one of `environment_leak`, `bad_path`, `execution_requirement`, `absolute_path`, `system_program`, `host_derived_program`, `unknown_program`, `never_reproducible`, `workspace_status`, `conditional_reproducibility`, `variation_source` at line 1 column 57"},
		{"zero_count", `{"violations": [{"count": 0, "violation": {}}]}`, "violation 1", "count 0, expected a positive count at line 1 column 27"},
		{"fractional_count", `{"violations": [{"count": 1.5, "violation": {}}]}`, "violation 1", "invalid value: floating point `1.5`, expected a positive count no greater than 9223372036854775807 at line 1 column 29"},
		{"wrappers_required", `{"violations": [{"count": 1, "violation": {"kind": "system_program", "action": {"mnemonic": "", "target": ""}, "program": {"origin": "system", "path": "gcc"}}}]}`,
			"violation 1", "missing field `wrappers` at line 1 column 158"},
		{"null_string", `{"violations": [{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": null, "target": ""}, "actual": ""}}]}`,
			"violation 1", "invalid type: null, expected a string at line 1 column 90"},
		{"violations_not_an_array", `{"violations": {"count": 1}}`, "", "invalid type: map, expected a sequence of violations at line 1 column 16"},
		{"a_bad_entry_after_many_is_numbered_from_the_first", manyEntries(5000, 4099), "violation 4099", "count 0, expected a positive count at line 1 column 478386"},
		{"overflowing_counts", `{"violations": [{"count": 9223372036854775807, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": ""}}, {"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": "x"}}]}`,
			"violation 2", "counts add up to more than 9223372036854775807 at line 1 column 243"},
		// Ahab 0.2 ignored unknown fields and summed repeated entries; a
		// report with either was not written by a program, so it is
		// refused rather than read as something it does not say.
		{"an_unknown_top_level_field", `{"violations": [], "version": 2}`, "", "not a report Ahab wrote: unknown field `version`, expected `mode` or `violations` at line 1 column 28"},
		{"an_unknown_field_in_an_entry", `{"violations": [{"count": 1, "note": "x", "violation": {}}]}`, "violation 1", "unknown field `note`, expected one of `count`, `violation` at line 1 column 35"},
		{"a_field_of_another_kind", `{"violations": [{"count": 1, "violation": {"kind": "bad_path", "action": {"mnemonic": "", "target": ""}, "actual": "", "path": "/x"}}]}`,
			"violation 1", "field `path` does not belong to a `bad_path` violation, expected one of `action`, `actual` at line 1 column 132"},
		{"a_repeated_entry", `{"violations": [` + entry + `, ` + entry + `]}`, "violation 2", "the same violation as an earlier entry; a report lists each once, with its count at line 1 column 240"},
		{"a_repeated_key", `{"violations": [], "violations": []}`, "", "duplicate field `violations` at line 1 column 20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(tt.name+".json", tt.content)
			_, err := ReadFile(p)
			want := p + ": "
			if tt.entry != "" {
				want += tt.entry + ": "
			}
			want += tt.cause
			if err == nil || err.Error() != want {
				t.Errorf("err = %v\nwant  %s", err, want)
			}
			if e, ok := errors.AsType[*jsonfile.Error](err); !ok || e.Path != p || e.Entry != tt.entry {
				t.Errorf("%#v is not a *jsonfile.Error for %s, entry %q", err, p, tt.entry)
			}
		})
	}
}

// The fields may come in any order, and the optional ones may be left out
// or null (§8.4).
func TestReadLeniency(t *testing.T) {
	const doc = `{"violations": [
	  {"violation": {"wrappers": [], "program": {"path": "p", "origin": {"main": {}}}, "action": {"target": "//t", "mnemonic": "M"}, "kind": "never_reproducible"}, "count": 2},
	  {"count": 3, "violation": {"kind": "never_reproducible", "action": {"mnemonic": "M", "target": "//u"},
	   "program": {"origin": {"main": {"extension": null}}, "path": "p"}, "wrappers": [], "synonym": null}},
	  {"count": 1, "violation": {"kind": "conditional_reproducibility", "action": {"mnemonic": "M", "target": "//t"},
	   "program": {"origin": "system", "path": "gcc"}, "wrappers": [],
	   "unmet": [{"because": "b", "present": ["z", "a", "z"]}, {"because": "a"}]}}
	]}`
	set, err := Read("doc.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := set.Findings.Sorted()
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3", len(got))
	}
	if got[0].Count != 2 || got[0].Synonym != nil || got[0].Program != codegenAt("p") || got[1].Count != 3 {
		t.Errorf("got %+v", got[:2])
	}
	u := got[2].Unmet
	if len(u) != 2 || u[0].Because != "a" || strings.Join(u[1].Present, ",") != "a,z" {
		t.Errorf("unmet not read as sorted sets: %+v", u)
	}
}

func codegenAt(path string) program.ID {
	return program.ID{Origin: program.Origin{Kind: program.Main}, Path: path}
}

// manyEntries is a report of n bad_path entries, the bad-th of which
// (from 1) has a count of 0.
func manyEntries(n, bad int) string {
	var b strings.Builder
	b.WriteString(`{"violations": [`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		count := 1
		if i == bad {
			count = 0
		}
		fmt.Fprintf(&b, `{"count": %d, "violation": {"kind": "bad_path", "action": {"mnemonic": "M", "target": "//t:%d"}, "actual": "/bin"}}`, count, i)
	}
	b.WriteString(`]}`)
	return b.String()
}
