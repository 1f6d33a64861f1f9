package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ahab-go/ahab/internal/finding"
	"github.com/ahab-go/ahab/internal/program"
)

func TestMelville(t *testing.T) {
	t.Run("every_quote_is_non_empty", func(t *testing.T) {
		for i, l := range lines {
			if strings.TrimSpace(l.text) == "" {
				t.Errorf("line %d is empty", i)
			}
		}
	})
	t.Run("every_named_fragment_occurs_in_its_line", func(t *testing.T) {
		for i, l := range lines {
			if l.fragment != "" && !strings.Contains(l.text, l.fragment) {
				t.Errorf("line %d lacks %q", i, l.fragment)
			}
		}
	})
	nix := finding.Counted{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Path: "/nix/store/abc-gcc/include"}}
	nixProgram := finding.Counted{Count: 1, Finding: finding.Finding{Kind: finding.SystemProgram, Program: program.ID{Origin: program.Origin{Kind: program.System}, Path: "/nix/store/abc-gcc/bin/gcc"}}}
	ccWrapper := finding.Counted{Count: 1, Finding: finding.Finding{Kind: finding.HostDerivedProgram,
		Program: program.ID{Origin: program.Origin{Kind: program.Module, Module: "rules_cc", Extension: "x", HasExtension: true}, Path: "local_config_cc/cc_wrapper.sh"}}}
	badPath := finding.Counted{Count: 1, Finding: finding.Finding{Kind: finding.BadPath, Actual: "/bin"}}
	subjects := []struct {
		name     string
		findings []finding.Counted
		want     string
	}{
		{"a_recognizable_place_is_what_gets_named", Slice{nix, nixProgram}, "the nix store"},
		{"a_program_is_named_when_no_place_is", Slice{ccWrapper}, "cc_wrapper.sh"},
		{"the_complaint_is_named_when_nothing_else_is", Slice{badPath}, "that wayward PATH"},
		{"an_empty_report_is_about_this_build", nil, "this build"},
		{"other_kinds_are_about_this_build", Slice{{Count: 1, Finding: finding.Finding{Kind: finding.WorkspaceStatus, Path: "bazel-out/stable-status.txt"}}}, "this build"},
		{"ties_go_to_the_smallest_name", Slice{
			{Count: 2, Finding: finding.Finding{Kind: finding.AbsolutePath, Path: "/usr/include"}},
			{Count: 2, Finding: finding.Finding{Kind: finding.AbsolutePath, Path: "/tmp/x"}},
			{Count: 1, Finding: finding.Finding{Kind: finding.AbsolutePath, Path: "/home/u"}},
		}, "the host"},
	}
	for _, tt := range subjects {
		t.Run(tt.name, func(t *testing.T) {
			if got := subject(Slice(tt.findings)); got != tt.want {
				t.Errorf("subject = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("the_subject_replaces_the_grievance_the_line_came_with", func(t *testing.T) {
		if got := render(captainsLine{"Talk not of the white whale.", "the white whale"}, "cc_wrapper.sh"); got != "Talk not of cc_wrapper.sh." {
			t.Errorf("got %q", got)
		}
		if got := render(lines[3], "the host"); got != lines[3].text {
			t.Errorf("a line without a fragment changed: %q", got)
		}
	})
	t.Run("a_phrase_opening_a_sentence_takes_a_capital", func(t *testing.T) {
		if got := render(lines[1], "the nix store"); got != "The nix store be damned. Talk not that lingo to me." {
			t.Errorf("got %q", got)
		}
		if got := render(lines[1], "cc_wrapper.sh"); got != "cc_wrapper.sh be damned. Talk not that lingo to me." {
			t.Errorf("got %q", got)
		}
	})
	t.Run("selection_is_deterministic_for_a_given_report", func(t *testing.T) {
		a, b := selectLine(oneOfEachKind()), selectLine(oneOfEachKind())
		if a != b || a < 0 || a >= len(lines) {
			t.Errorf("selection %d then %d", a, b)
		}
		seen := map[int]bool{}
		for n := 1; n <= 40; n++ {
			seen[selectLine(Slice{leak(n)})] = true
		}
		if len(seen) < 8 {
			t.Errorf("40 different reports chose only %d lines", len(seen))
		}
	})
	t.Run("the_sign_off_is_wrapped_to_the_report_width", func(t *testing.T) {
		for n := 1; n <= 40; n++ {
			s := SignOff(Slice{leak(n)}, Palette{})
			if !strings.HasPrefix(s, "\n\n  ") {
				t.Fatalf("sign-off %q does not start with a blank line and an indent", s)
			}
			for _, l := range strings.Split(s[2:], "\n") {
				if !strings.HasPrefix(l, "  ") || utf8.RuneCountInString(l) > 76 {
					t.Errorf("line %q is not indented or wider than 76", l)
				}
			}
		}
	})
	t.Run("wrapping_breaks_only_between_words", func(t *testing.T) {
		const text = "the path to my fixed purpose is laid with iron rails"
		got := wrap(text, 20)
		for _, l := range got {
			if utf8.RuneCountInString(l) > 20 {
				t.Errorf("line %q wider than 20", l)
			}
		}
		if strings.Join(got, " ") != text || len(got) < 3 {
			t.Errorf("wrap = %q", got)
		}
	})
	t.Run("a_word_wider_than_the_line_is_left_whole", func(t *testing.T) {
		long := strings.Repeat("x", 45)
		got := wrap("a "+long+" b", 20)
		if len(got) != 3 || got[1] != long {
			t.Errorf("wrap = %q", got)
		}
	})
	t.Run("report_ends_with_a_melville_quote", func(t *testing.T) {
		got := Text(Slice{badPath}, TextOptions{SignOff: true})
		q := SignOffLine(Slice{badPath})
		flat := strings.Join(strings.Fields(got[strings.Index(got, "\n\n"):]), " ")
		if !strings.HasSuffix(flat, q) {
			t.Errorf("report %q does not end with %q", got, q)
		}
	})
}
