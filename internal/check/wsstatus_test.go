package check

import (
	"testing"

	"github.com/ahab-go/ahab/internal/action"
	"github.com/ahab-go/ahab/internal/finding"
)

func wsStatus(path string) finding.Finding {
	return finding.Finding{Kind: finding.WorkspaceStatus, Action: testRef, Path: path}
}

// TestWSStatus covers §3.5 step 4; steps 1-3 (finding the status files
// through dep sets) belong to the decoder, which fills StatusInputs.
func TestWSStatus(t *testing.T) {
	tests := []struct {
		name string
		a    *action.Action
		want []finding.Finding
	}{
		{
			name: "reading_the_status_files_is_reported_once_for_each",
			a: &action.Action{Mnemonic: "Genrule", TargetID: tid("//test:t1"), Arguments: []string{"tool"},
				StatusInputs: []string{"bazel-out/stable-status.txt", "bazel-out/volatile-status.txt"}},
			want: []finding.Finding{wsStatus("bazel-out/stable-status.txt"), wsStatus("bazel-out/volatile-status.txt")},
		},
		{
			name: "a_status_file_in_another_directory_keeps_its_path",
			a: &action.Action{Mnemonic: "Genrule", TargetID: tid("//test:t1"),
				StatusInputs: []string{"gen/volatile-status.txt"}},
			want: []finding.Finding{wsStatus("gen/volatile-status.txt")},
		},
		{
			name: "an_action_that_reads_neither_is_not_reported",
			a:    act("tool", "bazel-out/stable-status.txt.bak", "src/main.cc"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFindings(t, WSStatus, tt.a, tt.want) })
	}
}
