package check

import (
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

func badPath(actual string) finding.Finding {
	return finding.Finding{Kind: finding.BadPath, Action: testRef, Actual: actual}
}

// TestPath covers §3.2; the names are the original's (§12 PATH).
func TestPath(t *testing.T) {
	tests := []struct {
		name string
		a    *action.Action
		want []finding.Finding
	}{
		{
			name: "arbitrary_wrong_path_is_a_violation",
			a:    withEnv(act("tool"), "PATH", "/home/me/bin:/usr/bin"),
			want: []finding.Finding{badPath("/home/me/bin:/usr/bin")},
		},
		{
			name: "path_superstring_is_a_violation",
			a:    withEnv(act("tool"), "PATH", "/bin:/usr/bin:/usr/local/bin:/opt/bin"),
			want: []finding.Finding{badPath("/bin:/usr/bin:/usr/local/bin:/opt/bin")},
		},
		{
			name: "path_substring_is_a_violation",
			a:    withEnv(act("tool"), "PATH", "/bin:/usr/bin"),
			want: []finding.Finding{badPath("/bin:/usr/bin")},
		},
		{
			name: "empty_path_is_a_violation",
			a:    withEnv(act("tool"), "PATH", ""),
			want: []finding.Finding{badPath("")},
		},
		{
			name: "exact_expected_path_passes",
			a:    withEnv(act("tool"), "PATH", "/bin:/usr/bin:/usr/local/bin", "LANG", "C"),
		},
		{
			name: "action_without_path_passes",
			a:    withEnv(act("tool"), "LD_LIBRARY_PATH", "/opt/lib"),
		},
		{
			name: "the_key_is_case_sensitive",
			a:    withEnv(act("tool"), "Path", "/opt/bin", "path", "/opt/bin", "PATH ", "/opt/bin"),
		},
		{
			name: "every_occurrence_is_checked",
			a:    withEnv(act("tool"), "PATH", "/a", "PATH", "/bin:/usr/bin:/usr/local/bin", "PATH", "/b"),
			want: []finding.Finding{badPath("/a"), badPath("/b")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, Path, tt.a, tt.want) })
	}
}
